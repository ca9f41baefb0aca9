/**
 * The emulated receiving mail over real HTTP (assumed-routes.md "Receiving mail", the spec's Inbox
 * codes): receiving on a verified domain and its MX records, mailboxes and aliases with every Inbox
 * code the key can reach, the plan's inbox values (free plan when the plan record has none), and a
 * message arriving through the control route: stored, forwarded, listed, and sent as a signed
 * `email.received` with the spec's payload.
 */
import { verifyWebhookSignature } from "../../sdk/webhook-signature";
import { ISO_MS } from "../../tools/support/world";
import { closedAfterAll } from "../support/per-file";
import { createWebhook, FROM_DOMAIN, ok, refused, startReceiver, useSendingEmulator, verifiedDomain, waitFor, type Api, type Receiver } from "../email-sending/helpers";

let api: Api;
const receivers = closedAfterAll<Receiver>();
let domainId: string;

useSendingEmulator(
  (a) => (api = a),
  async (api) => {
    domainId = (ok(await api("GET", "/domains"), 200) as { id: string }[])[0].id;
  },
);

const inboxPlan = (values: Record<string, unknown>) => api.emu.ctl("PATCH", "/email/plan-limits", values);
const enable = (host?: string, id = domainId) => api("PUT", `/domains/${id}/receiving`, { body: host === undefined ? {} : { host } });
const mailbox = (body: Record<string, unknown> = {}) => api("POST", "/inbound/addresses", { body: { domainId, localPart: "support", type: "mailbox", ...body } });
const deliver = (body: Record<string, unknown>) => api.emu.ctl("POST", "/email/inbound", { from: "Ana Customer <ana@customer-mail.dev>", subject: "Hello", text: "Hi there", ...body });

describe("receiving hosts", () => {
  test("PUT enables receiving on the domain itself by default, with the MX record to publish; GET reads it; the repeat changes nothing; DELETE turns it off", async () => {
    expect(ok(await api("GET", `/domains/${domainId}/receiving`), 200)).toEqual({ enabled: false });
    const on = ok(await enable(), 200);
    expect(on).toEqual({ enabled: true, host: FROM_DOMAIN, mxRecords: [{ type: "MX", name: FROM_DOMAIN, value: "inbound-smtp.mail.svc-platform.net", priority: 10 }] });
    expect(ok(await enable(), 200)).toEqual(on);
    expect(ok(await api("GET", `/domains/${domainId}/receiving`), 200)).toEqual(on);
    expect(ok(await enable(`in.${FROM_DOMAIN}`), 200)).toMatchObject({ host: `in.${FROM_DOMAIN}`, mxRecords: [{ name: `in.${FROM_DOMAIN}` }] });
    ok(await mailbox(), 201);
    expect(ok(await api("DELETE", `/domains/${domainId}/receiving`), 200)).toEqual({ enabled: false });
    // Its addresses went with it; turning it off again is no error.
    expect(ok(await api("GET", "/inbound/addresses"), 200)).toEqual([]);
    expect(ok(await api("DELETE", `/domains/${domainId}/receiving`), 200)).toEqual({ enabled: false });
  });

  test("INVALID_HOST (another domain, the bounce host, not a name), DOMAIN_NOT_VERIFIED, PLAN_REQUIRED, INBOUND_HOST_TAKEN, DOMAIN_NOT_FOUND", async () => {
    refused(await enable("mail.other-shop.dev"), 400, "INVALID_HOST");
    refused(await enable(`bounce.${FROM_DOMAIN}`), 400, "INVALID_HOST");
    refused(await enable("not a host"), 400, "INVALID_HOST");
    const unverified = ok(await api("POST", "/domains", { body: { domain: "news.acme-shop.dev" } }), 202).domainId;
    refused(await enable(undefined, unverified), 409, "DOMAIN_NOT_VERIFIED");
    refused(await enable(undefined, "dom_does_not_exist"), 404, "DOMAIN_NOT_FOUND");

    await inboxPlan({ receiving: false });
    refused(await enable(), 402, "PLAN_REQUIRED");
    await inboxPlan({ receiving: true });

    // The same host in another project (the second account's, free plan).
    const otherKey = api.emu.keys.secondEmail;
    const otherDomain = await verifiedDomain(api, FROM_DOMAIN, otherKey);
    ok(await api("PUT", `/domains/${otherDomain}/receiving`, { key: otherKey, body: {} }), 200);
    refused(await enable(), 409, "INBOUND_HOST_TAKEN");
  });

  test("GET /inbound/stats: the free plan's inbox values when the plan record has none, and usage", async () => {
    expect(ok(await api("GET", "/inbound/stats"), 200)).toEqual({
      plan: { receiving: true, forwarding: false, mailboxes: 1, aliases: 3 },
      usage: { receivingHosts: 0, mailboxes: 0, aliases: 0, messages: 0, storageBytes: 0 },
    });
    await inboxPlan({ forwarding: true, mailboxes: 10 });
    ok(await enable(), 200);
    ok(await mailbox(), 201);
    expect(ok(await api("GET", "/inbound/stats"), 200)).toMatchObject({ plan: { forwarding: true, mailboxes: 10 }, usage: { receivingHosts: 1, mailboxes: 1 } });
  });
});

describe("addresses", () => {
  beforeEach(async () => {
    ok(await enable(), 200);
  });

  test("a mailbox and an alias: created, listed, read, updated; deleting the mailbox deletes its alias", async () => {
    await inboxPlan({ forwarding: true });
    const box = ok(await mailbox({ localPart: "Support", name: "Support desk", forwardTo: ["Desk@Elsewhere-mail.dev"], notifications: true }), 201);
    expect(box).toEqual({
      id: expect.any(String),
      address: `support@${FROM_DOMAIN}`,
      type: "mailbox",
      domainId,
      mailboxId: null,
      name: "Support desk",
      forwardTo: ["desk@elsewhere-mail.dev"],
      notifications: true,
      createdAt: expect.stringMatching(ISO_MS),
    });
    const alias = ok(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "help", type: "alias", mailboxId: box.id } }), 201);
    expect(alias).toMatchObject({ address: `help@${FROM_DOMAIN}`, type: "alias", mailboxId: box.id, name: null, forwardTo: [], notifications: false });
    expect(ok(await api("GET", "/inbound/addresses"), 200).map((a: { id: string }) => a.id)).toEqual([box.id, alias.id]);
    expect(ok(await api("GET", `/inbound/addresses/${alias.id}`), 200)).toEqual(alias);
    expect(ok(await api("PATCH", `/inbound/addresses/${box.id}`, { body: { name: null, forwardTo: [], notifications: false } }), 200)).toMatchObject({ name: null, forwardTo: [], notifications: false });
    expect(ok(await api("DELETE", `/inbound/addresses/${box.id}`), 200)).toEqual({ deleted: true });
    refused(await api("GET", `/inbound/addresses/${alias.id}`), 404, "ADDRESS_NOT_FOUND");
    refused(await api("DELETE", `/inbound/addresses/${box.id}`), 404, "ADDRESS_NOT_FOUND");
  });

  test("DOMAIN_NOT_RECEIVING, INVALID_ADDRESS, ADDRESS_EXISTS, MAILBOX_NOT_FOUND, ALIAS_SETTINGS, KEY_NOT_ALLOWED for a password", async () => {
    ok(await api("DELETE", `/domains/${domainId}/receiving`), 200);
    refused(await mailbox(), 409, "DOMAIN_NOT_RECEIVING");
    ok(await enable(), 200);
    refused(await mailbox({ localPart: "two words" }), 400, "INVALID_ADDRESS");
    refused(await mailbox({ localPart: ".dot" }), 400, "INVALID_ADDRESS");
    refused(await mailbox({ localPart: "x".repeat(65) }), 400, "INVALID_ADDRESS");
    await inboxPlan({ forwarding: true });
    refused(await mailbox({ forwardTo: ["not-an-address"] }), 400, "INVALID_ADDRESS");
    refused(await mailbox({ forwardTo: [`support@${FROM_DOMAIN}`] }), 400, "INVALID_ADDRESS");
    refused(await mailbox({ password: "Webmail-pass-2026" }), 403, "KEY_NOT_ALLOWED");
    const box = ok(await mailbox(), 201);
    refused(await mailbox({ localPart: "SUPPORT" }), 409, "ADDRESS_EXISTS");
    refused(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "help", type: "alias", mailboxId: "00000000-0000-4000-8000-000000000000" } }), 404, "MAILBOX_NOT_FOUND");
    for (const setting of [{ name: "Help" }, { forwardTo: ["a@elsewhere-mail.dev"] }, { notifications: true }, { password: "Webmail-pass-2026" }]) {
      refused(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "help", type: "alias", mailboxId: box.id, ...setting } }), 400, "ALIAS_SETTINGS");
    }
    const alias = ok(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "help", type: "alias", mailboxId: box.id } }), 201);
    refused(await api("PATCH", `/inbound/addresses/${alias.id}`, { body: { forwardTo: ["a@elsewhere-mail.dev"] } }), 400, "ALIAS_SETTINGS");
    refused(await api("PATCH", `/inbound/addresses/${box.id}`, { body: { password: "Webmail-pass-2026" } }), 403, "KEY_NOT_ALLOWED");
    refused(await api("PATCH", "/inbound/addresses/00000000-0000-4000-8000-000000000000", { body: { name: "x" } }), 404, "ADDRESS_NOT_FOUND");
  });

  test("plan limits: FORWARDING_NOT_ALLOWED (create and update), a 6th forwarding address, MAILBOX_LIMIT, ALIAS_LIMIT", async () => {
    refused(await mailbox({ forwardTo: ["desk@elsewhere-mail.dev"] }), 402, "FORWARDING_NOT_ALLOWED");
    const box = ok(await mailbox(), 201);
    refused(await api("PATCH", `/inbound/addresses/${box.id}`, { body: { forwardTo: ["desk@elsewhere-mail.dev"] } }), 402, "FORWARDING_NOT_ALLOWED");
    await inboxPlan({ forwarding: true });
    const six = [1, 2, 3, 4, 5, 6].map((n) => `desk${n}@elsewhere-mail.dev`);
    refused(await api("PATCH", `/inbound/addresses/${box.id}`, { body: { forwardTo: six } }), 422, "VALIDATION");
    expect(ok(await api("PATCH", `/inbound/addresses/${box.id}`, { body: { forwardTo: six.slice(0, 5) } }), 200).forwardTo).toEqual(six.slice(0, 5));
    refused(await mailbox({ localPart: "sales" }), 402, "MAILBOX_LIMIT");
    for (const localPart of ["a", "b", "c"]) ok(await api("POST", "/inbound/addresses", { body: { domainId, localPart, type: "alias", mailboxId: box.id } }), 201);
    refused(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "d", type: "alias", mailboxId: box.id } }), 402, "ALIAS_LIMIT");
  });

  test("deleting the sending domain removes its receiving and addresses", async () => {
    ok(await mailbox(), 201);
    ok(await api("DELETE", `/domains/${domainId}`), 200);
    expect(ok(await api("GET", "/inbound/addresses"), 200)).toEqual([]);
    expect(ok(await api("GET", "/inbound/stats"), 200).usage).toMatchObject({ receivingHosts: 0, mailboxes: 0 });
  });
});

describe("a message arrives", () => {
  test("at an alias: stored in its mailbox, forwarded, listed and read, and sent as a signed email.received with the spec's payload", async () => {
    await inboxPlan({ forwarding: true });
    ok(await enable(), 200);
    const box = ok(await mailbox({ forwardTo: ["desk@elsewhere-mail.dev"], notifications: true }), 201);
    ok(await api("POST", "/inbound/addresses", { body: { domainId, localPart: "help", type: "alias", mailboxId: box.id } }), 201);
    const r = await startReceiver();
    receivers.push(r);
    const hook = await createWebhook(api, r.url, ["email.received"]);

    const arrived = await deliver({ to: [`Help <HELP@${FROM_DOMAIN}>`], cc: ["someone@customer-mail.dev"], text: "Where is my order?\n\nThanks", attachments: [{ filename: "invoice.pdf", contentType: "application/pdf", size: 2048 }] });
    expect(arrived.status).toBe(200);
    const [message] = arrived.body.data.messages;
    expect(message.forwardedTo).toEqual(["desk@elsewhere-mail.dev"]);

    await waitFor(() => r.received.length >= 1, "email.received");
    const [delivery] = r.received;
    expect(verifyWebhookSignature(delivery.raw, delivery.headers["svc-signature"] as string, hook.secret)).toEqual({ valid: true, timestamp: expect.any(Number) });
    const summary = {
      id: message.id,
      recipient: `help@${FROM_DOMAIN}`,
      deliveredTo: [`help@${FROM_DOMAIN}`, `support@${FROM_DOMAIN}`],
      mailbox: `support@${FROM_DOMAIN}`,
      from: "ana@customer-mail.dev",
      fromName: "",
      to: [`Help <HELP@${FROM_DOMAIN}>`],
      cc: ["someone@customer-mail.dev"],
      subject: "Hello",
      snippet: "Where is my order? Thanks",
      textBody: "Where is my order?\n\nThanks",
      hasAttachments: true,
      attachments: [{ index: 0, filename: "invoice.pdf", contentType: "application/pdf", size: 2048 }],
      folder: "inbox",
      spamVerdict: "PASS",
      virusVerdict: "PASS",
      receivedAt: expect.stringMatching(ISO_MS),
    };
    expect(delivery.body).toEqual({ type: "email.received", createdAt: expect.stringMatching(ISO_MS), data: { messageId: message.id, recipients: [`help@${FROM_DOMAIN}`], notification: summary } });

    expect(ok(await api("GET", "/inbound/messages"), 200)).toEqual({ data: [summary], nextCursor: null });
    expect(ok(await api("GET", "/inbound/messages?folder=trash"), 200)).toEqual({ data: [], nextCursor: null });
    refused(await api("GET", "/inbound/messages?folder=spam-box"), 400, "INVALID_FOLDER");
    expect(ok(await api("GET", `/inbound/messages/${message.id}`), 200)).toEqual({ ...summary, htmlBody: null, forwardedTo: ["desk@elsewhere-mail.dev"] });
    refused(await api("GET", "/inbound/messages/00000000-0000-4000-8000-000000000000"), 404, "MESSAGE_NOT_FOUND");
    // The mailbox asked for notifications: the account has one.
    expect(api.emu.control.state().notifications[0]).toMatchObject({ type: "email.received", title: `New mail for support@${FROM_DOMAIN}` });
  });

  test("pages of inbound messages, newest first; a made-up cursor is INVALID_CURSOR; the text is cut at 64 KB in the payload, whole in the message", async () => {
    ok(await enable(), 200);
    ok(await mailbox(), 201);
    for (const n of [1, 2, 3]) ok(await deliver({ to: `support@${FROM_DOMAIN}`, subject: `n${n}`, text: n === 3 ? "x".repeat(70_000) : "short" }), 200);
    const first = ok(await api("GET", "/inbound/messages?limit=2"), 200);
    expect(first.data.map((m: { subject: string }) => m.subject)).toEqual(["n3", "n2"]);
    expect(first.data[0].textBody).toHaveLength(65_536);
    const second = ok(await api("GET", `/inbound/messages?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`), 200);
    expect(second).toEqual({ data: [expect.objectContaining({ subject: "n1" })], nextCursor: null });
    refused(await api("GET", "/inbound/messages?cursor=made-up"), 400, "INVALID_CURSOR");
    expect(ok(await api("GET", `/inbound/messages/${first.data[0].id}`), 200).textBody).toHaveLength(70_000);
  });

  test("to no receiving address: 404 ADDRESS_NOT_FOUND, nothing stored", async () => {
    ok(await enable(), 200);
    const res = await deliver({ to: [`nobody@${FROM_DOMAIN}`, "someone@customer-mail.dev"] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ADDRESS_NOT_FOUND");
    expect(ok(await api("GET", "/inbound/messages"), 200).data).toEqual([]);
  });
});
