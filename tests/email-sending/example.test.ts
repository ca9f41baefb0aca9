/**
 * examples/webhook-receiver against a started emulator (loopback webhooks allowed): its main
 * function registers a webhook for its own receiver, sends one email, verifies every event with
 * verifyWebhookSignature, waits for email.delivered, then receives one message (receiving, a
 * mailbox, the emulator's inbound route) and ends when its email.received arrived.
 */
import { runWebhookReceiver } from "../../examples/webhook-receiver/main";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), { options: { allowLocalWebhooks: true } });

test("the example receives and verifies email.sent and email.delivered for the email it sent, and email.received for the message it had arrive, then removes its webhook", async () => {
  const lines: string[] = [];
  const result = await runWebhookReceiver({ emailUrl: emu.urls.email, apiKey: emu.keys.email, log: (l) => lines.push(l), timeoutMs: 15_000 });
  expect(result.delivered).toBe(true);
  expect(result.rejected).toBe(0);
  const forMessage = result.events.filter((e) => e.messageId === result.messageId);
  expect(forMessage.map((e) => e.type).sort()).toEqual(["email.delivered", "email.sent"]);
  for (const e of forMessage) {
    expect(e.recipients).toEqual(["delivered@simulator.svc.dev"]);
    expect(e.signedAt).toBeGreaterThan(0);
  }
  expect(lines).toContain("email.delivered arrived");

  // Receiving: the message that arrived for inbox@ came as email.received, verified; the inbox lists it.
  expect(result.received).toBe(true);
  const received = result.events.filter((e) => e.type === "email.received");
  expect(received).toEqual([expect.objectContaining({ messageId: result.receivedMessageId, recipients: ["inbox@mail.example-shop.dev"] })]);
  expect(received[0].notification).toMatchObject({ id: result.receivedMessageId, mailbox: "inbox@mail.example-shop.dev", from: "ana@customer-mail.dev", subject: "Hello inbox" });
  expect(lines).toContain("email.received arrived");
  const inbound = await emu.call("GET", "/email/inbound/messages", { key: emu.keys.email, waitOutRateLimit: true });
  expect(inbound.body.data.data.map((m: { id: string }) => m.id)).toEqual([result.receivedMessageId]);

  const email = await emu.call("GET", `/email/emails/${result.messageId}`, { key: emu.keys.email, waitOutRateLimit: true });
  expect(email.body.data).toMatchObject({ id: result.messageId, status: "delivered", to: ["delivered@simulator.svc.dev"] });
  const hooks = await emu.call("GET", "/email/webhooks", { key: emu.keys.email, waitOutRateLimit: true });
  expect(hooks.body.data).toEqual([]);
});

test("without allowLocalWebhooks the example stops at the webhook registration with INVALID_URL", async () => {
  const strict = await startTestEmulator();
  try {
    await expect(runWebhookReceiver({ emailUrl: strict.urls.email, apiKey: strict.keys.email, log: () => undefined, timeoutMs: 2000 })).rejects.toThrow(/INVALID_URL/);
  } finally {
    await strict.close();
  }
});
