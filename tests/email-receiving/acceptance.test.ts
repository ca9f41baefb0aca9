/**
 * Issue 26, acceptance points 3 and 4, through the real provider host against the emulator:
 *
 * 3. A message delivered to a mailbox made by the resources reaches the webhook as `email.received`
 *    with a valid `Svc-Signature`, and `getInboundMessages` lists it.
 * 4. Forwarding on a plan without it, a 6th forwarding address, an alias with `forwardTo`, receiving
 *    on an unverified domain: each refused — at preview with the property named where the program
 *    alone tells, else with the API's code explained — and nothing charged.
 */
import * as svc from "../../sdk";
import { verifyWebhookSignature } from "../../sdk/webhook-signature";
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { HostError, UNKNOWN } from "../../tools/support/provider-host";
import { inboxOf, sendingDomain } from "./helpers";
import { closedAfterAll, useResourceHarness } from "../support/per-file";
import { emailCall, failure, fresh, wallet } from "../email/helpers";
import { startReceiver, waitFor, type Receiver } from "../email-sending/helpers";

let h: ResourceHarness;
let domainId: string;
const DOMAIN = "mail.acme-shop.dev";
const receivers = closedAfterAll<Receiver>();
const savedEnv = { ...process.env };

useResourceHarness((x) => (h = x), {
  options: { allowLocalWebhooks: true },
  fresh: async (h) => {
    await fresh(h);
    domainId = await sendingDomain(h, DOMAIN);
    h.emu.control.clearRequests();
  },
  beforeClose: () => {
    process.env = savedEnv;
  },
});

const inbox = () => inboxOf(h);

test("3: a message to the mailbox reaches the webhook as email.received with a valid Svc-Signature, and getInboundMessages lists it", async () => {
  const receiving = await h.host.create("ReceivingDomain", await h.checked("ReceivingDomain", { domainId }));
  const box = await h.host.create("Mailbox", await h.checked("Mailbox", { domainId: receiving.properties.domainId, localPart: "support" }));
  // The Webhook resource takes public https urls only: the receiver on loopback is registered directly.
  const r = await startReceiver();
  receivers.push(r);
  const hook = await emailCall(h, "POST", "/webhooks", { url: r.url, events: ["email.received"] });

  const arrived = await h.emu.ctl("POST", "/email/inbound", { from: "Ana <ana@customer-mail.dev>", fromName: "Ana", to: [box.properties.address], subject: "Order 42?", text: "Where is it?" });
  expect(arrived.status).toBe(200);
  const [message] = arrived.body.data.messages;

  await waitFor(() => r.received.length >= 1, "email.received");
  const [delivery] = r.received;
  expect(verifyWebhookSignature(delivery.raw, delivery.headers["svc-signature"] as string, hook.secret)).toEqual({ valid: true, timestamp: expect.any(Number) });
  expect(delivery.body).toMatchObject({
    type: "email.received",
    data: { messageId: message.id, recipients: [`support@${DOMAIN}`], notification: { id: message.id, mailbox: `support@${DOMAIN}`, from: "ana@customer-mail.dev", fromName: "Ana", subject: "Order 42?", folder: "inbox" } },
  });

  process.env.SVC_EMAIL_URL = h.emu.urls.email;
  process.env.SVC_EMAIL_API_KEY = h.emu.keys.email;
  const page = await svc.getInboundMessages();
  expect(page).toEqual({ messages: [delivery.body.data.notification], nextCursor: null });
  expect(await svc.getInboundStats()).toMatchObject({ usage: { receivingHosts: 1, mailboxes: 1, messages: 1 } });
});

test("getInboundMessages pages with the API's cursor and filters by folder; its errors name the function and the code; the Output forms answer the same", async () => {
  await emailCall(h, "PUT", `/domains/${domainId}/receiving`, {});
  await emailCall(h, "POST", "/inbound/addresses", { domainId, localPart: "support", type: "mailbox" });
  for (const n of [1, 2, 3]) expect((await h.emu.ctl("POST", "/email/inbound", { from: "ana@customer-mail.dev", to: `support@${DOMAIN}`, subject: `n${n}` })).status).toBe(200);
  process.env.SVC_EMAIL_URL = h.emu.urls.email;
  process.env.SVC_EMAIL_API_KEY = h.emu.keys.email;
  const first = await svc.getInboundMessages({ limit: 2 });
  expect(first.messages.map((m) => m.subject)).toEqual(["n3", "n2"]);
  const second = await svc.getInboundMessages({ limit: 2, cursor: first.nextCursor! });
  expect(second).toEqual({ messages: [expect.objectContaining({ subject: "n1" })], nextCursor: null });
  expect((await svc.getInboundMessages({ folder: "trash" })).messages).toEqual([]);
  const err = await failure<Error & { code?: string }>(svc.getInboundMessages({ folder: "spam-box" }));
  expect(err.message).toMatch(/^getInboundMessages failed: GET \/inbound\/messages 400 INVALID_FOLDER — /);
  expect(err.code).toBe("INVALID_FOLDER");
  const viaOutput = await new Promise((resolve) => svc.getInboundStatsOutput().apply(resolve));
  expect(viaOutput).toMatchObject({ plan: { receiving: true, forwarding: false, mailboxes: 1, aliases: 3 }, usage: { mailboxes: 1, messages: 3 } });
  const page = await new Promise<svc.InboundMessagesPage>((resolve) => svc.getInboundMessagesOutput({ folder: "inbox", limit: 1 }).apply(resolve));
  expect(page.messages.map((m) => m.subject)).toEqual(["n3"]);
});

describe("4: refused, property named at preview where the program alone tells, else the API code explained; 0 charges", () => {
  let before: number;
  beforeEach(() => {
    before = wallet(h);
  });
  afterEach(() => {
    expect(wallet(h)).toBe(before);
  });

  test("a 6th forwarding address: refused at preview on forwardTo, no call", async () => {
    const forwardTo = [1, 2, 3, 4, 5, 6].map((n) => `desk${n}@elsewhere-mail.dev`);
    const result = await h.check("Mailbox", { domainId, localPart: "support", forwardTo });
    expect(result.failures).toEqual([{ property: "forwardTo", reason: "forwardTo: at most 5 forwarding addresses per mailbox" }]);
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("an alias with forwardTo (or name, notifications): refused at preview on that property, saying to set it on the Mailbox; a password without its value", async () => {
    const mailboxId = "3f1c2a4e-0000-4000-8000-000000000001";
    const result = await h.check("MailAlias", { mailboxId, localPart: "help", forwardTo: ["desk@elsewhere-mail.dev"], notifications: true, password: "Hunter2-secret-pw" });
    expect(result.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^password: an alias has no password/) },
      { property: "forwardTo", reason: expect.stringMatching(/^forwardTo is a mailbox setting: .+ALIAS_SETTINGS.+Set forwardTo on the Mailbox/) },
      { property: "notifications", reason: expect.stringMatching(/^notifications is a mailbox setting/) },
    ]);
    expect(JSON.stringify(result.failures)).not.toContain("Hunter2-secret-pw");
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("a webmail password on a Mailbox: refused at preview, dashboard-only, the value never in the failure", async () => {
    const result = await h.check("Mailbox", { domainId, localPart: "support", password: "Hunter2-secret-pw" });
    expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(/^password: webmail passwords are set in the dashboard only \(the API answers KEY_NOT_ALLOWED/) }]);
    expect(JSON.stringify(result.failures)).not.toContain("Hunter2-secret-pw");
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("forwarding on a plan without it: refused at preview on forwardTo; the API's FORWARDING_NOT_ALLOWED explained when the plan changed after the preview; no mailbox made", async () => {
    await emailCall(h, "PUT", `/domains/${domainId}/receiving`, {});
    const refused = await h.check("Mailbox", { domainId, localPart: "support", forwardTo: ["desk@elsewhere-mail.dev"] });
    expect(refused.failures).toEqual([{ property: "forwardTo", reason: expect.stringMatching(/has no forwarding \(the API would refuse it: 402 FORWARDING_NOT_ALLOWED\): remove forwardTo, or move to a plan with forwarding \(svc\.EmailPlan/) }]);
    // What the up meets when the preview's foresight no longer holds: the API's refusal, explained.
    const inputs = { ...(await h.checked("Mailbox", { domainId, localPart: "support" })), forwardTo: ["desk@elsewhere-mail.dev"] };
    const err = await failure<HostError>(h.host.create("Mailbox", inputs));
    expect(err.message).toMatch(
      /^create failed: POST \/inbound\/addresses 402 FORWARDING_NOT_ALLOWED — The plan has no forwarding\. The project's plan does not include forwarding \(`getInboundStats` shows the plan's values\): remove `forwardTo`, or move to a plan that includes forwarding/,
    );
    expect(inbox().addresses).toEqual([]);
  });

  test("forwarding at a preview: a forwardTo list holding a value not known yet still needs a plan with forwarding; a forwardTo not known at all may be empty, so it passes", async () => {
    await emailCall(h, "PUT", `/domains/${domainId}/receiving`, {});
    const partly = await h.check("Mailbox", { domainId, localPart: "support", forwardTo: [UNKNOWN, "desk@elsewhere-mail.dev"] });
    expect(partly.failures).toEqual([{ property: "forwardTo", reason: expect.stringMatching(/has no forwarding \(the API would refuse it: 402 FORWARDING_NOT_ALLOWED\)/) }]);
    const unknown = await h.check("Mailbox", { domainId, localPart: "support", forwardTo: UNKNOWN });
    expect(unknown.failures).toEqual([]);
    expect(inbox().addresses).toEqual([]);
  });

  test("receiving on an unverified domain: the API's DOMAIN_NOT_VERIFIED, explained (take domainId from a verified SendingDomain); receiving stays off", async () => {
    const pending = await sendingDomain(h, "news.acme-shop.dev", false);
    const err = await failure<HostError>(h.host.create("ReceivingDomain", await h.checked("ReceivingDomain", { domainId: pending })));
    expect(err.message).toMatch(/^create failed: PUT \/domains\/.+\/receiving 409 DOMAIN_NOT_VERIFIED — Verify news\.acme-shop\.dev before enabling receiving .+\. Receiving needs a verified domain: take domainId from a SendingDomain that waits for verification/);
    expect(inbox().receiving).toEqual([]);
  });
});
