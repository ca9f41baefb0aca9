/**
 * Quota (per recipient, reserved at accept, refused sends count nothing, daily reset at 00:00 UTC of
 * the emulator clock, monthly window from the subscription date), idempotencyKey, GET /emails
 * (newest first, cursor pagination, INVALID_CURSOR, reach), the lifecycle in manual mode,
 * reputation (suspension after bounces or complaints, lifted after a quiet day) and analytics.
 */
import { FROM, ok, refused, send, SIM, verifiedDomain, type Api, useSendingEmulator } from "./helpers";

let api: Api;
useSendingEmulator((a) => (api = a), (a) => a.emu.ctl("POST", "/transitions", { mode: "immediate" }));

const base = { from: FROM, to: ["ana@acme-customer.dev"], subject: "Hello", text: "Hi" };
const plan = () => api.emu.control.emu.world.projects[0].email.plan!;
const usage = async () => ok(await api("GET", "/status"), 200).usage;
const emulatorNow = async () => Date.parse((await api.emu.ctl("POST", "/clock/advance", { seconds: 0 })).body.data.now);

/** Moves the emulator clock to `hh`:00 UTC of the next day. */
async function toNextDayAt(hours: number): Promise<void> {
  const now = await emulatorNow();
  const target = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 + hours * 3_600_000;
  await api.emu.ctl("POST", "/clock/advance", { seconds: (target - now) / 1000 });
}

describe("quota", () => {
  test("reserved per recipient at accept; refused sends count nothing; the daily limit resets at the next 00:00 UTC", async () => {
    await toNextDayAt(1);
    plan().emailsPerDay = 5;
    // Three addresses: ana twice (case differs) counts once.
    await send(api, { to: ["ana@acme-customer.dev"], cc: ["ANA@acme-customer.dev", "bo@acme-customer.dev"], bcc: ["cy@acme-customer.dev"] });
    expect((await usage()).daily).toEqual({ used: 3, limit: 5, remaining: 2, resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) });

    refused(await api("POST", "/send", { body: { ...base, to: ["a@acme-customer.dev", "b@acme-customer.dev", "c@acme-customer.dev"] } }), 402, "DAILY_QUOTA_EXCEEDED");
    refused(await api("POST", "/send", { body: { ...base, from: "nobody" } }), 400, "INVALID_FROM");
    refused(await api("POST", "/send/batch", { body: { messages: [{ ...base, to: ["a@acme-customer.dev", "b@acme-customer.dev", "c@acme-customer.dev"] }] } }), 400, "BATCH_FAILED");
    expect((await usage()).daily.used).toBe(3);

    // A batch reserves message by message: the second one no longer fits.
    const batch = ok(await api("POST", "/send/batch", { body: { messages: [{ ...base, to: ["d@acme-customer.dev", "e@acme-customer.dev"] }, { ...base, to: ["f@acme-customer.dev"] }] } }), 202);
    expect(batch.data.map((r: { code: string | null }) => r.code)).toEqual([null, "DAILY_QUOTA_EXCEEDED"]);
    const full = await usage();
    expect(full.daily).toMatchObject({ used: 5, remaining: 0 });
    expect(full.monthly.used).toBe(5);

    // At 23:59 it is still the same day; two minutes later it is the next one.
    await api.emu.ctl("POST", "/clock/advance", { seconds: 23 * 3600 - 1 - 60 });
    refused(await api("POST", "/send", { body: base }), 402, "DAILY_QUOTA_EXCEEDED");
    await api.emu.ctl("POST", "/clock/advance", { seconds: 62 });
    const next = await usage();
    expect(next.daily).toMatchObject({ used: 0, remaining: 5 });
    expect(next.monthly.used).toBe(5);
    await send(api, {});
    expect((await usage()).daily.used).toBe(1);
  });

  test("the monthly window starts on the subscription date's day (the 15th for the seeded plan)", async () => {
    const { monthly } = await usage();
    expect(monthly).toMatchObject({ used: 0, limit: 3000, remaining: 3000 });
    expect(monthly.windowStart).toMatch(/^\d{4}-\d\d-15T00:00:00\.000Z$/);
    expect(monthly.resetsAt).toMatch(/^\d{4}-\d\d-15T00:00:00\.000Z$/);
    const now = await emulatorNow();
    expect(Date.parse(monthly.windowStart)).toBeLessThanOrEqual(now);
    expect(Date.parse(monthly.resetsAt)).toBeGreaterThan(now);
  });
});

describe("idempotencyKey", () => {
  test("a repeat answers the first id and reserves nothing, also with another body and inside a batch; after 24 h the key is free again", async () => {
    const first = await send(api, { idempotencyKey: "order-1001", cc: ["bo@acme-customer.dev"] });
    expect(await send(api, { idempotencyKey: "order-1001", cc: ["bo@acme-customer.dev"] })).toBe(first);
    expect(await send(api, { idempotencyKey: "order-1001", subject: "Other" })).toBe(first);
    const batch = ok(await api("POST", "/send/batch", { body: { messages: [{ ...base, idempotencyKey: "order-1001" }, { ...base, idempotencyKey: "order-1002" }, { ...base, idempotencyKey: "order-1002" }] } }), 202);
    expect(batch.data[0].id).toBe(first);
    expect(batch.data[2].id).toBe(batch.data[1].id);
    expect((await usage()).daily.used).toBe(3);
    expect(ok(await api("GET", "/emails"), 200).data).toHaveLength(2);

    await api.emu.ctl("POST", "/clock/advance", { seconds: 24 * 3600 + 1 });
    expect(await send(api, { idempotencyKey: "order-1001" })).not.toBe(first);
  });
});

describe("GET /emails", () => {
  test("newest first, limit and nextCursor until null; default page of 50; a cursor not from a page answers INVALID_CURSOR", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(api, { subject: `n${i}` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const page = ok(await api("GET", `/emails${query}`), 200);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((e: { id: string }) => e.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const all = ok(await api("GET", "/emails"), 200);
    expect(all).toEqual({ data: expect.any(Array), nextCursor: null });
    expect(all.data).toHaveLength(5);
    expect(all.data[0]).toMatchObject({ id: ids[4], subject: "n4", from: FROM, to: ["ana@acme-customer.dev"], cc: [], bcc: [], templateId: null });

    const second = ok(await api("GET", "/emails?limit=2"), 200).nextCursor as string;
    refused(await api("GET", "/emails?cursor=not-a-cursor"), 400, "INVALID_CURSOR");
    refused(await api("GET", `/emails?cursor=${encodeURIComponent(second.replace(/^\d+/, "1"))}`), 400, "INVALID_CURSOR");
    refused(await api("GET", "/emails?limit=0"), 422, "VALIDATION");
  });

  test("GET /emails/{id}: 404 EMAIL_NOT_FOUND for an unknown id and for another project's email; lists are per project", async () => {
    const id = await send(api, {});
    refused(await api("GET", "/emails/00000000-0000-4000-8000-000000000000"), 404, "EMAIL_NOT_FOUND");
    const other = api.emu.control.emu.world.projects[1].email;
    other.plan = { ...plan() };
    refused(await api("GET", `/emails/${id}`, { key: api.emu.keys.emailNoPlan }), 404, "EMAIL_NOT_FOUND");
    expect(ok(await api("GET", "/emails", { key: api.emu.keys.emailNoPlan }), 200)).toEqual({ data: [], nextCursor: null });
    // A cursor of the first project is not one of the second project's pages.
    await send(api, {});
    const cursor = ok(await api("GET", "/emails?limit=1"), 200).nextCursor as string;
    refused(await api("GET", `/emails?cursor=${encodeURIComponent(cursor)}`, { key: api.emu.keys.emailNoPlan }), 400, "INVALID_CURSOR");
    // The second project's own domain and template are its own: the first project's domain is not.
    refused(await api("POST", "/send", { key: api.emu.keys.emailNoPlan, body: base }), 403, "DOMAIN_NOT_FOUND");
    await verifiedDomain(api, "mail.staging-shop.dev", api.emu.keys.emailNoPlan);
    const template = ok(await api("POST", "/templates", { body: { name: "welcome", subject: "Hi", textBody: "Welcome" } }), 202).templateId;
    refused(await api("POST", "/send", { key: api.emu.keys.emailNoPlan, body: { from: "a@mail.staging-shop.dev", to: ["x@acme-customer.dev"], templateId: template } }), 404, "TEMPLATE_NOT_FOUND");
  });

  test("the lifecycle waits in queued in manual mode (no timer moves it) and reaches delivered on settle; a template send renders its variables", async () => {
    await api.emu.ctl("POST", "/transitions", { mode: "manual" });
    const template = ok(await api("POST", "/templates", { body: { name: "receipt", subject: "Receipt {{n}}", textBody: "Total {{total}}" } }), 202).templateId;
    await api.emu.ctl("POST", "/transitions/settle");
    const id = await send(api, { subject: undefined, text: undefined, templateId: template, templateData: { n: 7, total: "IDR 10,000" } });
    const status = async () => ok(await api("GET", `/emails/${id}`), 200);
    expect(await status()).toMatchObject({ status: "queued", subject: "Receipt 7", templateId: template, sentAt: null, deliveredAt: null });
    await new Promise((r) => setTimeout(r, 50));
    expect((await status()).status).toBe("queued");
    await api.emu.ctl("POST", "/transitions/settle");
    expect(await status()).toMatchObject({ status: "delivered", sentAt: expect.any(String), deliveredAt: expect.any(String) });
  });
});

describe("reputation and analytics", () => {
  test("1 bounce in 20 recipients (5 % > 2 %) suspends sending; analytics counts it; a quiet day lifts the suspension", async () => {
    const messages = [...Array.from({ length: 19 }, (_, i) => ({ ...base, to: [`user${i}@acme-customer.dev`] })), { ...base, to: [`bounce+r1@${SIM}`] }];
    ok(await api("POST", "/send/batch", { body: { messages } }), 202);
    await api.emu.ctl("POST", "/transitions/settle");
    expect(ok(await api("GET", "/analytics"), 200)).toEqual({
      sent: 20,
      delivered: 19,
      bounced: 1,
      complained: 0,
      bounceRate: 0.05,
      complaintRate: 0,
      limits: { bounceRate: 0.02, complaintRate: 0.0008 },
    });
    expect(ok(await api("GET", "/status"), 200).reputationSuspended).toBe(true);
    refused(await api("POST", "/send", { body: base }), 403, "REPUTATION_SUSPENDED");
    refused(await api("POST", "/send/batch", { body: { messages: [base] } }), 403, "REPUTATION_SUSPENDED");

    await api.emu.ctl("POST", "/clock/advance", { seconds: 24 * 3600 });
    expect(ok(await api("GET", "/status"), 200).reputationSuspended).toBe(false);
    await send(api, {});
    const after = ok(await api("GET", "/analytics"), 200);
    expect(after).toMatchObject({ bounced: 1, bounceRate: 0, complaintRate: 0 });
  });

  test("a complaint in 20 recipients (5 % > 0.08 %) suspends sending; under 20 recipients the rates are not judged", async () => {
    const messages = [...Array.from({ length: 18 }, (_, i) => ({ ...base, to: [`user${i}@acme-customer.dev`] })), { ...base, to: [`complaint+c1@${SIM}`] }];
    ok(await api("POST", "/send/batch", { body: { messages } }), 202);
    await api.emu.ctl("POST", "/transitions/settle");
    await api.emu.ctl("POST", "/transitions/settle");
    expect(ok(await api("GET", "/analytics"), 200)).toMatchObject({ sent: 19, complained: 1 });
    await send(api, {});
    await api.emu.ctl("POST", "/transitions/settle");
    const analytics = ok(await api("GET", "/analytics"), 200);
    expect(analytics).toMatchObject({ sent: 20, delivered: 20, complained: 1, complaintRate: 0.05 });
    refused(await api("POST", "/send", { body: base }), 403, "REPUTATION_SUSPENDED");
  });
});
