/**
 * examples/webhook-receiver against a started emulator (loopback webhooks allowed): its main
 * function registers a webhook for its own receiver, sends one email, verifies every event with
 * verifyWebhookSignature and ends when email.delivered arrived.
 */
import { runWebhookReceiver } from "../../examples/webhook-receiver/main";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), { options: { allowLocalWebhooks: true } });

test("the example receives and verifies email.sent and email.delivered for the email it sent, then removes its webhook", async () => {
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

  const email = await emu.call("GET", `/email/emails/${result.messageId}`, { key: emu.keys.email });
  expect(email.body.data).toMatchObject({ id: result.messageId, status: "delivered", to: ["delivered@simulator.svc.dev"] });
  const hooks = await emu.call("GET", "/email/webhooks", { key: emu.keys.email });
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
