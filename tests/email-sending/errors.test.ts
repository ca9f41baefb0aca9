/**
 * Every code of the spec's Sending errors table (plus NO_API_KEY on the send endpoints and the
 * 422 VALIDATION field limits) produced through real HTTP, with the message naming the field or the
 * recipients where the spec says so. State-based codes are reached through the control switches
 * (`/_emulator/email/switches`, `/_emulator/email/suppressions`) and plan fields of the world.
 */
import { FROM, FROM_DOMAIN, ok, refused, SIM, type Api, useSendingEmulator } from "./helpers";

let api: Api;
useSendingEmulator((a) => (api = a));

const base = { from: FROM, to: ["ana@acme-customer.dev"], subject: "Hello", text: "Hi" };
const emailOf = () => api.emu.control.emu.world.projects[0].email;
const switches = (body: Record<string, unknown>) => api.emu.ctl("POST", "/email/switches", body);
const many = (n: number, domain = "acme-customer.dev") => Array.from({ length: n }, (_, i) => `user${i}@${domain}`);

interface Case {
  name: string;
  code: string;
  status: number;
  path?: "/send" | "/send/batch" | string;
  method?: string;
  body?: unknown;
  key?: null;
  setup?: () => unknown;
  /** Fragments the error message must contain (the field, the recipients). */
  names?: string[];
}

const cases: Case[] = [
  { name: "no bearer header on /send", code: "NO_API_KEY", status: 401, key: null, body: base },
  { name: "no bearer header on /send/batch", code: "NO_API_KEY", status: 401, key: null, path: "/send/batch", body: { messages: [base] } },
  { name: "to empty", code: "NO_RECIPIENTS", status: 400, body: { ...base, to: [] }, names: ["to"] },
  { name: "to missing", code: "NO_RECIPIENTS", status: 400, body: { ...base, to: undefined }, names: ["to"] },
  {
    name: "malformed and reserved-domain recipients, each listed with its reason",
    code: "INVALID_RECIPIENT",
    status: 400,
    body: { ...base, to: ["not-an-address", "ok@acme-customer.dev", "a@example.com"], cc: ["b@shop.test"], bcc: ["c@host.invalid", "d@localhost"] },
    names: ['to[0] "not-an-address": malformed address', 'to[2] "a@example.com": reserved domain', 'cc[0] "b@shop.test": reserved domain', 'bcc[0] "c@host.invalid": reserved domain', 'bcc[1] "d@localhost": malformed address'],
  },
  { name: "recipient domain without MX", code: "RECIPIENT_DOMAIN_UNDELIVERABLE", status: 400, body: { ...base, to: ["x@no-mx.svc.dev", "ok@acme-customer.dev"] }, names: ["x@no-mx.svc.dev"] },
  { name: "51 entries in to", code: "TOO_MANY_RECIPIENTS", status: 400, body: { ...base, to: many(51) }, names: ["to"] },
  { name: "51 entries in bcc", code: "TOO_MANY_RECIPIENTS", status: 400, body: { ...base, bcc: many(51) }, names: ["bcc"] },
  { name: "to + cc over 50 after removing duplicates", code: "TOO_MANY_RECIPIENTS", status: 400, body: { ...base, to: many(30), cc: [...many(30, "other-customer.dev"), "USER1@acme-customer.dev"] }, names: ["60"] },
  { name: "batch over 50 recipients in all", code: "TOO_MANY_RECIPIENTS", status: 400, path: "/send/batch", body: { messages: [{ ...base, to: many(30) }, { ...base, to: many(21, "b.dev") }] }, names: ["51"] },
  { name: "none of html, text, templateId", code: "EMPTY_BODY", status: 400, body: { ...base, text: undefined, html: "" } },
  { name: "no subject without a template", code: "SUBJECT_REQUIRED", status: 400, body: { ...base, subject: undefined }, names: ["subject"] },
  { name: "line break in subject", code: "INVALID_HEADER", status: 400, body: { ...base, subject: "Hi\r\nBcc: victim@acme-customer.dev" }, names: ["subject"] },
  { name: "line break in replyTo", code: "INVALID_HEADER", status: 400, body: { ...base, replyTo: "a@acme-customer.dev\nX: y" }, names: ["replyTo"] },
  { name: "custom header name with a space", code: "INVALID_HEADER", status: 400, body: { ...base, headers: { "X Bad": "v" } }, names: ["X Bad"] },
  { name: "custom header value with a line break", code: "INVALID_HEADER", status: 400, body: { ...base, headers: { "X-Campaign": "a\r\nb" } }, names: ["X-Campaign"] },
  { name: "custom header the service sets itself", code: "INVALID_HEADER", status: 400, body: { ...base, headers: { Subject: "other" } }, names: ["Subject"] },
  { name: "from is not an address", code: "INVALID_FROM", status: 400, body: { ...base, from: "Acme news" }, names: ["from"] },
  { name: "attachments sent", code: "ATTACHMENTS_NOT_SUPPORTED", status: 400, body: { ...base, attachments: [{ filename: "a.pdf", content: "AAAA" }] }, names: ["attachments"] },
  { name: "templateId with custom headers", code: "INVALID_COMBINATION", status: 400, body: { ...base, templateId: "00000000-0000-4000-8000-000000000000", headers: { "X-Campaign": "spring" } }, names: ["templateId"] },
  { name: "a token without a value", code: "MISSING_VARIABLES", status: 400, body: { ...base, text: "Hi {{name}} from {{city}}", variables: { name: "Ana" } }, names: ["{{city}}"] },
  { name: "tokens but no variables", code: "VARIABLES_REQUIRED", status: 400, body: { ...base, subject: "Order {{orderId}}" }, names: ["{{orderId}}"] },
  { name: "batch without messages", code: "NO_MESSAGES", status: 400, path: "/send/batch", body: { messages: [] }, names: ["messages"] },
  { name: "batch body without a messages field", code: "NO_MESSAGES", status: 400, path: "/send/batch", body: {} },
  { name: "batch of 51 messages", code: "TOO_MANY_MESSAGES", status: 400, path: "/send/batch", body: { messages: Array.from({ length: 51 }, () => base) }, names: ["messages"] },
  { name: "templateId of no template of the project", code: "TEMPLATE_NOT_FOUND", status: 404, body: { ...base, templateId: "00000000-0000-4000-8000-000000000000" }, names: ["templateId"] },
  { name: "from domain not added", code: "DOMAIN_NOT_FOUND", status: 403, body: { ...base, from: "news@other-brand.dev" }, names: ["other-brand.dev"] },
  {
    name: "from domain not verified",
    code: "DOMAIN_NOT_VERIFIED",
    status: 403,
    setup: () => api("POST", "/domains", { body: { domain: "pending.acme-shop.dev" } }),
    body: { ...base, from: "news@pending.acme-shop.dev" },
    names: ["pending.acme-shop.dev"],
  },
  { name: "recipient on the suppression list", code: "RECIPIENT_SUPPRESSED", status: 403, setup: () => api.emu.ctl("POST", "/email/suppressions", { email: "Ana@acme-customer.dev" }), body: base, names: ["ana@acme-customer.dev"] },
  {
    name: "bounce rate over 2 % (1 of 20 recipients)",
    code: "REPUTATION_SUSPENDED",
    status: 403,
    setup: async () => {
      ok(await api("POST", "/send/batch", { body: { messages: [...many(19).map((to) => ({ ...base, to: [to] })), { ...base, to: [`bounce@${SIM}`] }] } }), 202);
      await api.emu.ctl("POST", "/transitions/settle");
    },
    body: base,
    names: ["bounce rate 5.00 %"],
  },
  { name: "sending paused for all projects", code: "PLATFORM_REPUTATION", status: 403, setup: () => switches({ platformPaused: true }), body: base },
  { name: "project paused by the delivery network", code: "TENANT_PAUSED", status: 403, setup: () => switches({ tenantPaused: true }), body: base },
  { name: "sending turned off", code: "SENDING_DISABLED", status: 403, setup: () => switches({ sendingDisabled: true }), body: base },
  { name: "daily limit reached (per recipient)", code: "DAILY_QUOTA_EXCEEDED", status: 402, setup: () => void (emailOf().plan!.emailsPerDay = 1), body: { ...base, cc: ["bo@acme-customer.dev"] } },
  {
    name: "monthly limit reached, plan without pay-as-you-go rate",
    code: "MONTHLY_QUOTA_EXCEEDED",
    status: 402,
    setup: () => void Object.assign(emailOf().plan!, { emailsPerDay: null, emailsPerMonth: 1 }),
    body: { ...base, cc: ["bo@acme-customer.dev"] },
  },
  { name: "monthly limit reached, pay-as-you-go off", code: "PAYG_DISABLED", status: 402, setup: () => void Object.assign(emailOf().plan!, { emailsPerMonth: 0, paygRate: 250 }), body: base },
  {
    name: "pay-as-you-go with an empty wallet",
    code: "INSUFFICIENT_BALANCE",
    status: 402,
    setup: async () => {
      Object.assign(emailOf().plan!, { emailsPerMonth: 0, paygRate: 250 });
      await switches({ paygEnabled: true });
      await api.emu.ctl("PATCH", "/wallet", { balance: 100 });
    },
    body: base,
    names: ["250"],
  },
  {
    name: "pay-as-you-go without a wallet",
    code: "WALLET_NOT_FOUND",
    status: 404,
    setup: async () => {
      Object.assign(emailOf().plan!, { emailsPerMonth: 0, paygRate: 250 });
      await switches({ paygEnabled: true, walletMissing: true });
    },
    body: base,
  },
  { name: "active plan cannot be loaded", code: "PLAN_NOT_FOUND", status: 404, setup: () => switches({ planMissing: true }), body: base },
  { name: "every message of a batch failed", code: "BATCH_FAILED", status: 400, path: "/send/batch", body: { messages: [{ ...base, from: "bad" }, { ...base, to: [] }] } },
  // Field limits without a code of their own: 422 VALIDATION naming the field.
  { name: "subject over 500 characters", code: "VALIDATION", status: 422, body: { ...base, subject: "s".repeat(501) }, names: ["subject"] },
  { name: "text over 500,000 characters", code: "VALIDATION", status: 422, body: { ...base, text: "t".repeat(500_001) }, names: ["text"] },
  { name: "html over 500,000 characters", code: "VALIDATION", status: 422, body: { ...base, html: "h".repeat(500_001) }, names: ["html"] },
  { name: "from over 320 characters", code: "VALIDATION", status: 422, body: { ...base, from: `${"a".repeat(310)}@${FROM_DOMAIN}` }, names: ["from"] },
  { name: "a recipient over 320 characters", code: "VALIDATION", status: 422, body: { ...base, cc: [`${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(63)}.dev`] }, names: ["cc[0]"] },
  { name: "idempotencyKey over 128 characters", code: "VALIDATION", status: 422, body: { ...base, idempotencyKey: "k".repeat(129) }, names: ["idempotencyKey"] },
  { name: "from missing", code: "VALIDATION", status: 422, body: { ...base, from: undefined }, names: ["from"] },
  { name: "to is not an array (schema)", code: "VALIDATION", status: 422, body: { ...base, to: "ana@acme-customer.dev" }, names: ["to"] },
  { name: "limit over 200 on GET /emails", code: "VALIDATION", status: 422, method: "GET", path: "/emails?limit=201", names: ["limit"] },
  { name: "a batch message's field is named with its index", code: "VALIDATION", status: 422, path: "/send/batch", body: { messages: [{ ...base, subject: "s".repeat(501) }] }, names: [] },
];

test.each(cases.map((c) => [`${c.code}: ${c.name}`, c] as const))("%s", async (_name, c) => {
  await c.setup?.();
  const res = await api(c.method ?? "POST", c.path ?? "/send", { key: c.key, body: c.body });
  if (c.name.startsWith("a batch message")) {
    // One failed message: BATCH_FAILED carrying the message's own VALIDATION result.
    refused(res, 400, "BATCH_FAILED");
    expect(res.body.data).toEqual([{ index: 0, id: null, jobId: null, code: "VALIDATION", status: 422, error: expect.stringContaining("messages[0].subject") }]);
    return;
  }
  refused(res, c.status, c.code);
  for (const fragment of c.names ?? []) expect(res.body.error).toContain(fragment);
});

test("BATCH_FAILED carries per-message results in data; a partly failed batch answers 202 with the same shape", async () => {
  const failed = await api("POST", "/send/batch", { body: { messages: [{ ...base, from: "bad" }, { ...base, to: [] }] } });
  refused(failed, 400, "BATCH_FAILED");
  expect(failed.body.data).toEqual([
    { index: 0, id: null, jobId: null, code: "INVALID_FROM", status: 400, error: expect.stringContaining("messages[0].from") },
    { index: 1, id: null, jobId: null, code: "NO_RECIPIENTS", status: 400, error: expect.stringContaining("messages[1].to") },
  ]);
  const partly = ok(await api("POST", "/send/batch", { body: { messages: [base, { ...base, templateId: "00000000-0000-4000-8000-000000000000" }] } }), 202);
  expect(partly.data).toEqual([
    { index: 0, id: expect.any(String), jobId: expect.stringMatching(/^job_/), code: null, error: null, status: 202 },
    { index: 1, id: null, jobId: null, code: "TEMPLATE_NOT_FOUND", status: 404, error: expect.any(String) },
  ]);
});

test("UNKNOWN: a batch message picked by the control switch fails with UNKNOWN, the others are accepted; nothing is reserved for it", async () => {
  await switches({ failNextBatchMessages: 1 });
  const res = ok(await api("POST", "/send/batch", { body: { messages: [base, { ...base, to: ["bo@acme-customer.dev"] }] } }), 202);
  expect(res.data).toEqual([
    { index: 0, id: null, jobId: null, code: "UNKNOWN", status: 500, error: expect.any(String) },
    { index: 1, id: expect.any(String), jobId: expect.stringMatching(/^job_/), code: null, error: null, status: 202 },
  ]);
  expect(ok(await api("GET", "/status"), 200).usage.daily.used).toBe(1);
  // Used up: the next batch is whole.
  expect(ok(await api("POST", "/send/batch", { body: { messages: [base] } }), 202).data[0].code).toBeNull();
});

test("PLATFORM_REPUTATION shows in GET /status as platformPaused with its reason", async () => {
  await switches({ platformPaused: true, platformPausedReason: "Complaint rate of all senders too high" });
  expect(ok(await api("GET", "/status"), 200)).toMatchObject({ platformPaused: true, platformPausedReason: "Complaint rate of all senders too high" });
  refused(await api("POST", "/send/batch", { body: { messages: [base] } }), 403, "PLATFORM_REPUTATION");
});

test("pay-as-you-go past the monthly limit charges the wallet per recipient past the limit", async () => {
  Object.assign(emailOf().plan!, { emailsPerMonth: 1, paygRate: 250 });
  await switches({ paygEnabled: true });
  await api.emu.ctl("PATCH", "/wallet", { balance: 10_000 });
  ok(await api("POST", "/send", { body: { ...base, cc: ["bo@acme-customer.dev", "cy@acme-customer.dev"] } }), 202);
  expect(api.emu.control.emu.world.account.wallet).toBe(10_000 - 2 * 250);
  expect(ok(await api("GET", "/status"), 200).usage).toMatchObject({ monthly: { used: 3, limit: 1, remaining: 0 }, payAsYouGo: { enabled: true, rate: 250, charged: 500 } });
});

test("every code of the spec's Sending table is produced above", () => {
  const sendingCodes = [
    "NO_RECIPIENTS", "INVALID_RECIPIENT", "RECIPIENT_DOMAIN_UNDELIVERABLE", "TOO_MANY_RECIPIENTS", "EMPTY_BODY", "SUBJECT_REQUIRED",
    "INVALID_HEADER", "INVALID_FROM", "ATTACHMENTS_NOT_SUPPORTED", "INVALID_COMBINATION", "MISSING_VARIABLES", "VARIABLES_REQUIRED",
    "NO_MESSAGES", "TOO_MANY_MESSAGES", "BATCH_FAILED", "TEMPLATE_NOT_FOUND", "DOMAIN_NOT_FOUND", "DOMAIN_NOT_VERIFIED",
    "RECIPIENT_SUPPRESSED", "REPUTATION_SUSPENDED", "PLATFORM_REPUTATION", "TENANT_PAUSED", "SENDING_DISABLED",
    "DAILY_QUOTA_EXCEEDED", "MONTHLY_QUOTA_EXCEEDED", "PAYG_DISABLED", "INSUFFICIENT_BALANCE", "WALLET_NOT_FOUND", "PLAN_NOT_FOUND", "UNKNOWN",
  ];
  const produced = new Set([...cases.map((c) => c.code), "UNKNOWN"]);
  expect(sendingCodes.filter((c) => !produced.has(c))).toEqual([]);
});
