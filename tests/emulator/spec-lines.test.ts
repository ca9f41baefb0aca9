/**
 * Places where the emulator answered otherwise than a line of the spec (each test quotes it), and
 * codes the emulator produces that no other test asserted.
 */
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    // A fresh second for every key's rate limiter.
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  },
});

const email = (method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  emu.call(method, `/email${path}`, { key: options.key ?? emu.keys.email, body: options.body, headers: options.headers });
const refused = (res: CallResult) => ({ status: res.status, code: res.body?.code });

describe("an AI call with a key lacking the AI product", () => {
  // platform-api.md, Authentication: "A key is enabled per product (for example VPS, Domain, Email,
  // Container, Database, AI). A key lacking the product answers 403 `SCOPE_NOT_ALLOWED`."
  // ai-gateway.md, Type by status: "| 403 | permission_error |"; the OpenAI style carries error.code,
  // "The Anthropic shape has no `code`."
  test("answers 403 scope_not_allowed in the gateway's two shapes, x-request-id included", async () => {
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] };
    const openai = await emu.call("POST", "/ai/v1/chat/completions", { key: emu.keys.vpsOnly, body });
    expect(openai.status).toBe(403);
    expect(openai.body).toEqual({ error: { message: expect.stringContaining("AI product"), type: "permission_error", code: "scope_not_allowed" } });
    expect(openai.headers.get("x-request-id")).toMatch(/^req_/);
    const anthropic = await emu.call("POST", "/ai/v1/messages", { key: emu.keys.vpsOnly, body: { model: "claude-haiku-3-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] } });
    expect(anthropic.status).toBe(403);
    expect(anthropic.body).toEqual({ type: "error", error: { type: "permission_error", message: expect.stringContaining("AI product") } });
    // A key with the product is served; the refusal held nothing and charged nothing.
    expect((await emu.call("POST", "/ai/v1/chat/completions", { key: emu.keys.account, body })).status).toBe(200);
  });
});

describe("a cursor the previous page did not return", () => {
  // email-service.md, Pagination: "A `cursor` that was not returned by the previous page answers
  // 400 `INVALID_CURSOR`." and the Errors table: "Cursor not from the previous page (applies to
  // every paginated list)".
  async function contacts(n: number): Promise<void> {
    const res = await email("POST", "/contacts", { body: { consentConfirmed: true, contacts: Array.from({ length: n }, (_, i) => ({ email: `c${i}@example.org` })) } });
    expect(res.status).toBe(201);
  }

  test("an earlier page's cursor, or one already used, answers INVALID_CURSOR; the chain itself reads every row once", async () => {
    await contacts(5);
    const first = (await email("GET", "/contacts?limit=2")).body.data;
    const second = (await email("GET", `/contacts?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).body.data;
    // The first page's cursor again, after the second page was read with it.
    expect(refused(await email("GET", `/contacts?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`))).toEqual({ status: 400, code: "INVALID_CURSOR" });
    const third = (await email("GET", `/contacts?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`)).body.data;
    expect(third.nextCursor).toBeNull();
    const emails = [...first.data, ...second.data, ...third.data].map((c: { email: string }) => c.email).sort();
    expect(emails).toEqual(["c0@example.org", "c1@example.org", "c2@example.org", "c3@example.org", "c4@example.org"]);
  });

  test("another list's cursor answers INVALID_CURSOR, though it is well formed and of the same project", async () => {
    await contacts(3);
    const cursor = (await email("GET", "/contacts?limit=1")).body.data.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect(refused(await email("GET", `/emails?limit=1&cursor=${encodeURIComponent(cursor)}`))).toEqual({ status: 400, code: "INVALID_CURSOR" });
    expect(refused(await email("GET", `/inbound/messages?limit=1&cursor=${encodeURIComponent(cursor)}`))).toEqual({ status: 400, code: "INVALID_CURSOR" });
  });

  test("two readers paging the same list at once each follow their own cursors", async () => {
    await contacts(4);
    const a = (await email("GET", "/contacts?limit=2")).body.data;
    const b = (await email("GET", "/contacts?limit=2")).body.data;
    expect(a.nextCursor).not.toBe(b.nextCursor);
    expect((await email("GET", `/contacts?limit=2&cursor=${encodeURIComponent(b.nextCursor)}`)).status).toBe(200);
    expect((await email("GET", `/contacts?limit=2&cursor=${encodeURIComponent(a.nextCursor)}`)).status).toBe(200);
  });
});

describe("unknown routes carry the rate-limit headers", () => {
  // platform-api.md, Rate limit: "Every response carries `X-RateLimit-Limit` (10) and
  // `X-RateLimit-Remaining`."; email-service.md: "Every response carries `x-ratelimit-limit` (10)
  // and `x-ratelimit-remaining`."
  test.each([
    ["/api/no-such-route", "platform"],
    ["/email/no-such-route", "email"],
    ["/api/%E0%A4%A", "platform (a path the router cannot decode)"],
  ])("%s (%s): 404 NOT_FOUND with x-ratelimit-limit and x-ratelimit-remaining, counted against the key", async (path) => {
    const key = path.startsWith("/email") ? emu.keys.email : emu.keys.account;
    const first = await emu.call("GET", path, { key });
    expect(refused(first)).toEqual({ status: 404, code: "NOT_FOUND" });
    expect(first.headers.get("x-ratelimit-limit")).toBe("10");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    // 15 at once: the key's allowance runs out, as on any route.
    const burst = await Promise.all(Array.from({ length: 15 }, () => emu.call("GET", path, { key })));
    const limited = burst.find((r) => r.status === 429)!;
    expect(refused(limited)).toEqual({ status: 429, code: "RATE_LIMITED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("inbox add-ons without an active plan", () => {
  // email-service.md, What the service does: "An active email plan (the free plan counts) is required for
  // every request. Without one the request answers 402 `NO_PLAN`. Exceptions: reading status and
  // plan, and buying or renewing a plan." Endpoints, rule 3: "Plan operations (read, buy, renew,
  // change the plan and inbox add-ons, also after the plan ended) accept `?dryRun=true`, which
  // returns the price without acting."
  const addon = (query: string, idem?: string, key = emu.keys.email) =>
    email("PUT", `/plan/addons/extra-mailboxes${query}`, { key, body: { quantity: 2 }, headers: idem ? { "idempotency-key": idem } : undefined });

  test("a project that never had a plan: 402 NO_PLAN", async () => {
    expect(refused(await addon("", "addon-none-1", emu.keys.emailNoPlan))).toEqual({ status: 402, code: "NO_PLAN" });
    expect(refused(await addon("?dryRun=true", undefined, emu.keys.emailNoPlan))).toEqual({ status: 402, code: "NO_PLAN" });
  });

  test("after the plan ended: a real change answers 402 NO_PLAN, a dry run the price and charges nothing", async () => {
    const bought = await email("POST", "/plan", { body: { planCode: "starter", months: 1 }, headers: { "idempotency-key": "buy-starter-1" } });
    expect(bought.status).toBe(200);
    await emu.ctl("PATCH", "/wallet", { balance: 0 }); // auto-renewal cannot pay: the plan ends
    await emu.ctl("POST", "/clock/advance", { seconds: 32 * 86_400 });
    expect((await email("GET", "/plan")).body.data.status).toBe("ended");
    expect(refused(await addon("", "addon-ended-1"))).toEqual({ status: 402, code: "NO_PLAN" });
    const dry = await addon("?dryRun=true");
    expect(dry.status).toBe(200);
    expect(dry.body.data).toEqual({ dryRun: true, currency: "IDR", total: expect.any(Number), balanceAfter: -dry.body.data.total, enoughBalance: dry.body.data.total === 0, note: expect.stringContaining("renewal") });
    expect(dry.body.data.total).toBeGreaterThan(0);
    expect(emu.control.emu.world.account.wallet).toBe(0);
    expect((await email("GET", "/plan")).body.data.addons).toEqual([]);
  });

});

describe("inbox add-ons on the free plan", () => {
  // emulator/email/plans.ts, its own rule: "the free plan never expires and has no add-ons".
  // email-service.md, Inbox: "| PLAN_REQUIRED | 402 | Plan has no receiving |" (the free plan has
  // receiving: not its code); assumed-routes.md, Email plan: "Unknown `planCode` or add-on: 422
  // `VALIDATION`": the free plan sells no add-on, so every add-on code is one it does not know.
  const addon = (key: string, query: string, idem?: string) =>
    email("PUT", `/plan/addons/extra-mailboxes${query}`, { key, body: { quantity: 3 }, headers: idem ? { "idempotency-key": idem } : undefined });
  const world = () => emu.control.emu.world;

  test.each([
    ["the seeded free plan", () => emu.keys.email, () => world().projects[0].id, async () => undefined],
    [
      "a free plan bought through POST /plan",
      () => emu.keys.emailNoPlan,
      () => world().projects[1].id,
      async () => {
        const bought = await email("POST", "/plan", { key: emu.keys.emailNoPlan, body: { planCode: "free", months: 1 }, headers: { "idempotency-key": "buy-free-1" } });
        expect(bought.status).toBe(200);
        expect(bought.body.data.plan).toMatchObject({ planCode: "free", status: "active", expiresAt: null });
      },
    ],
  ])("%s: an add-on, real or dry run, is 422 VALIDATION naming `code`; nothing is charged or added", async (_name, key, projectId, setup) => {
    await setup();
    const wallet = world().account.wallet;
    const plan = () => world().projects.find((p) => p.id === projectId())!.email.plan;
    const mailboxes = plan()?.mailboxes;
    for (const [query, idem] of [["", "addon-free-2"], ["?dryRun=true", undefined]] as const) {
      const res = await addon(key(), query, idem);
      expect(refused(res)).toEqual({ status: 422, code: "VALIDATION" });
      expect(res.body.error).toMatch(/^code: the Free plan has no add-ons/);
    }
    expect(world().account.wallet).toBe(wallet);
    expect(plan()?.mailboxes).toBe(mailboxes);
    expect((await email("GET", "/plan", { key: key() })).body.data.addons).toEqual([]);
  });
});

describe("POST /contacts refuses what a send would refuse", () => {
  // email-service.md, Errors, Sending: "| RECIPIENT_DOMAIN_UNDELIVERABLE | 400 | Recipient domain
  // missing or cannot receive mail (also for contacts) |"; "| RECIPIENT_SUPPRESSED | 403 | Recipient
  // is suppressed or earlier bounced or complained (also a contact address on the suppression list) |";
  // Contacts, segments, topics: "| DISPOSABLE_EMAIL | 400 | Disposable inbox provider |".
  const add = (...emails: string[]) => email("POST", "/contacts", { body: { consentConfirmed: true, contacts: emails.map((e) => ({ email: e })) } });
  const listed = async () => (await email("GET", "/contacts")).body.data.data.map((c: { email: string }) => c.email);

  test("an address just put on the suppression list: 403 RECIPIENT_SUPPRESSED (any case), nothing of the request added", async () => {
    expect((await email("POST", "/suppressions", { body: { email: "gone@acme-customer.dev" } })).status).toBe(201);
    const res = await add("ok@acme-customer.dev", "Gone@Acme-Customer.dev");
    expect(refused(res)).toEqual({ status: 403, code: "RECIPIENT_SUPPRESSED" });
    expect(res.body.error).toContain("gone@acme-customer.dev");
    expect(await listed()).toEqual([]);
    // Off the list, it is added.
    expect((await email("DELETE", "/suppressions/gone%40acme-customer.dev")).status).toBe(200);
    expect((await add("Gone@Acme-Customer.dev")).body.data.added).toBe(1);
  });

  test("an address at a domain without MX (or under one): 400 RECIPIENT_DOMAIN_UNDELIVERABLE, nothing added", async () => {
    for (const address of ["a@no-mx.svc.dev", "b@mail.parked.svc.dev"]) {
      const res = await add("ok@acme-customer.dev", address);
      expect(refused(res)).toEqual({ status: 400, code: "RECIPIENT_DOMAIN_UNDELIVERABLE" });
      expect(res.body.error).toContain(address);
    }
    expect(await listed()).toEqual([]);
  });

  test("a disposable inbox provider: 400 DISPOSABLE_EMAIL, nothing added", async () => {
    const res = await add("ok@acme-customer.dev", "x@mailinator.com");
    expect(refused(res)).toEqual({ status: 400, code: "DISPOSABLE_EMAIL" });
    expect(await listed()).toEqual([]);
  });
});

describe("the request log says what the client got", () => {
  // Control API (docs/emulator.md): "with `afterCommit: true` the operation is carried out first and
  // then the answer fails"; the request log lists each request's "status, code".
  test("an after-commit fault with a status: the log holds the injected status and code, not the handler's 201", async () => {
    await emu.ctl("POST", "/faults", { method: "POST", path: "/email/topics", afterCommit: true, status: 500, times: 1 });
    await emu.ctl("DELETE", "/requests");
    const res = await email("POST", "/topics", { body: { name: "News" } });
    expect(refused(res)).toEqual({ status: 500, code: "INTERNAL_ERROR" });
    const logged = (await emu.ctl("GET", "/requests")).body.data.filter((e: { path: string }) => e.path === "/email/topics");
    expect(logged).toEqual([expect.objectContaining({ method: "POST", status: 500, code: "INTERNAL_ERROR", fault: expect.any(Number), dropped: false })]);
    // Carried out all the same: the topic exists.
    expect((await email("GET", "/topics")).body.data.map((t: { name: string }) => t.name)).toEqual(["News"]);
  });
});

describe("codes the emulator produces, asserted", () => {
  // email-service.md, Errors, Contacts, segments, topics: "| INVALID_EMAIL | 400 | Contact address invalid |", "| EMPTY_REQUEST
  // | 400 | No contacts in request |", "| TOO_MANY | 400 | More than 1,000 contacts in one request |".
  test.each([
    ["EMPTY_REQUEST", { consentConfirmed: true, contacts: [] }],
    ["TOO_MANY", { consentConfirmed: true, contacts: Array.from({ length: 1001 }, (_, i) => ({ email: `c${i}@example.org` })) }],
    ["INVALID_EMAIL", { consentConfirmed: true, contacts: [{ email: "ok@example.org" }, { email: "not-an-address" }] }],
  ])("POST /contacts → 400 %s, and no contact is added", async (code, body) => {
    expect(refused(await email("POST", "/contacts", { body }))).toEqual({ status: 400, code });
    expect((await email("GET", "/contacts")).body.data.data).toEqual([]);
  });

  // platform-api.md, Endpoints: "| GET | /account/projects/{projectId}/activity | none | Array of activity
  // entries, newest first; 404 `PROJECT_NOT_FOUND` when the key cannot reach the project |".
  test("GET /account/projects/{projectId}/activity → 404 PROJECT_NOT_FOUND for an unknown project, another account's, and another project with a project-limited key", async () => {
    const activity = (projectId: string, key: string) => emu.call("GET", `/api/account/projects/${projectId}/activity`, { key });
    expect(refused(await activity("00000000-0000-4000-8000-000000000000", emu.keys.account))).toEqual({ status: 404, code: "PROJECT_NOT_FOUND" });
    expect(refused(await activity(emu.secondAccountProject, emu.keys.account))).toEqual({ status: 404, code: "PROJECT_NOT_FOUND" });
    expect(refused(await activity(emu.projects[1], emu.keys.project))).toEqual({ status: 404, code: "PROJECT_NOT_FOUND" });
    // The key's own project answers.
    expect((await activity(emu.projects[0], emu.keys.project)).status).toBe(200);
  });

  // platform-api.md, Endpoints: "| POST | /account/notifications/{notificationId}/read | none |
  // `{ id, isRead: true }`; 404 `NOTIFICATION_NOT_FOUND` |"
  test("POST /account/notifications/{unknown}/read → 404 NOTIFICATION_NOT_FOUND", async () => {
    const res = await emu.call("POST", "/api/account/notifications/00000000-0000-4000-8000-000000000000/read", { key: emu.keys.account });
    expect(refused(res)).toEqual({ status: 404, code: "NOTIFICATION_NOT_FOUND" });
  });
});
