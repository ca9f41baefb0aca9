/**
 * The emulated email plan routes over real HTTP (assumed-routes.md "Email plan"): the catalogue,
 * the subscription, `?dryRun=true`, purchases charged from the wallet once per Idempotency-Key (the
 * 24-hour replay, REQUEST_IN_PROGRESS, the key released after a failed first request), NO_PLAN and
 * its exceptions, scheduled downgrades, prorated upgrades, renewal and expiry, inbox add-ons,
 * KEY_NOT_ALLOWED; and the audience routes with the plan's limits.
 */
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { SEEDED_WALLET } from "../../tools/support/world";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
    emu.control.clearRequests();
  },
});

const DAY = 86_400;
let n = 0;
async function api(method: string, path: string, options: { key?: string; body?: unknown; idem?: string } = {}): Promise<CallResult> {
  // Stay under the 10-per-second limit whatever a test does.
  if (++n % 8 === 0) await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  const headers = options.idem ? { "idempotency-key": options.idem } : undefined;
  return emu.call(method, `/email${path}`, { key: options.key ?? emu.keys.email, body: options.body, headers });
}
function ok(res: CallResult, status = 200) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: expect.objectContaining({ success: true, data: expect.anything() }) });
  return res.body.data;
}
function refused(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
}
const wallet = () => emu.control.emu.world.account.wallet;
const setWallet = (amount: number) => void (emu.control.emu.world.account.wallet = amount);
const buy = (planCode: string, idem: string | undefined, months = 1, key?: string) => api("POST", "/plan", { body: { planCode, months }, idem, key });

describe("plan catalogue and subscription", () => {
  test("GET /plans lists the plans with prices and limits; GET /plan shows the seeded free plan", async () => {
    const plans = ok(await api("GET", "/plans"));
    expect(plans.map((p: { code: string }) => p.code)).toEqual(["free", "starter", "business"]);
    expect(plans[1]).toEqual(expect.objectContaining({ code: "starter", monthlyPrice: 150_000, receiving: true, forwarding: false, limits: expect.objectContaining({ topics: 20, segments: 20, mailboxes: 5 }) }));
    expect(ok(await api("GET", "/plan"))).toEqual(expect.objectContaining({ planCode: "free", status: "active", expiresAt: null, addons: [], scheduledPlanCode: null }));
  });

  test("a dry run prices the purchase, needs no key and charges nothing", async () => {
    const dry = ok(await api("POST", "/plan?dryRun=true", { body: { planCode: "starter", months: 12 } }));
    expect(dry).toEqual({ dryRun: true, currency: "IDR", total: 1_800_000, balanceAfter: SEEDED_WALLET - 1_800_000, enoughBalance: true, note: expect.any(String) });
    expect(wallet()).toBe(SEEDED_WALLET);
    expect(ok(await api("GET", "/plan")).planCode).toBe("free");
  });

  test("a dry run beyond the wallet says so", async () => {
    setWallet(100_000);
    expect(ok(await api("POST", "/plan?dryRun=true", { body: { planCode: "starter", months: 1 } }))).toEqual(expect.objectContaining({ total: 150_000, balanceAfter: -50_000, enoughBalance: false }));
  });

  test("VALIDATION for an unknown plan or months other than 1 and 12; KEY_NOT_ALLOWED for DELETE /plan", async () => {
    refused(await buy("platinum", "key-valid-1"), 422, "VALIDATION");
    refused(await buy("starter", "key-valid-2", 3), 422, "VALIDATION");
    refused(await api("DELETE", "/plan"), 403, "KEY_NOT_ALLOWED");
    refused(await api("PUT", "/plan/addons/extra-pizza", { body: { quantity: 1 }, idem: "key-valid-3" }), 422, "VALIDATION");
    expect(wallet()).toBe(SEEDED_WALLET);
  });
});

describe("Idempotency-Key", () => {
  test("a real purchase without one: 400 IDEMPOTENCY_KEY_REQUIRED; a malformed one: 422 VALIDATION", async () => {
    refused(await buy("starter", undefined), 400, "IDEMPOTENCY_KEY_REQUIRED");
    refused(await buy("starter", "short"), 422, "VALIDATION");
    refused(await buy("starter", "has space in it"), 422, "VALIDATION");
    expect(wallet()).toBe(SEEDED_WALLET);
  });

  test("buys once; a repeat within 24 hours answers the first answer and charges nothing", async () => {
    const first = await buy("starter", "svc-plan:abc.123");
    const data = ok(first);
    expect(data.billing).toEqual({ total: 150_000, depositCharged: 150_000 });
    expect(data.plan).toEqual(expect.objectContaining({ planCode: "starter", status: "active", autoRenew: true }));
    await emu.ctl("POST", "/clock/advance", { seconds: 23 * 3600 });
    const again = await buy("starter", "svc-plan:abc.123");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(wallet()).toBe(SEEDED_WALLET - 150_000);
    const log = emu.control.requests().filter((r) => r.path === "/email/plan" && r.method === "POST");
    expect(log.map((r) => [r.idempotencyKey, r.replayed ?? false])).toEqual([["svc-plan:abc.123", false], ["svc-plan:abc.123", true]]);
  });

  test("after 24 hours the key is forgotten: the same key acts again", async () => {
    ok(await buy("starter", "key-window-1"));
    await emu.ctl("POST", "/clock/advance", { seconds: 24 * 3600 + 5 });
    ok(await api("PUT", "/plan/addons/extra-mailboxes", { body: { quantity: 1 }, idem: "key-window-1" }));
    expect(ok(await api("GET", "/plan")).addons).toEqual([{ code: "extra-mailboxes", quantity: 1 }]);
  });

  test("an answer lost after the purchase committed: the repeat gets the purchase's answer, one charge", async () => {
    await emu.ctl("POST", "/faults", { method: "POST", path: "/email/plan", afterCommit: true, status: 500, times: 1 });
    refused(await buy("business", "key-lost-answer"), 500, "INTERNAL_ERROR");
    const again = ok(await buy("business", "key-lost-answer"));
    expect(again.billing.total).toBe(450_000);
    expect(wallet()).toBe(SEEDED_WALLET - 450_000);
  });

  test("while the first request runs a repeat answers 409 REQUEST_IN_PROGRESS", async () => {
    await emu.ctl("POST", "/faults", { method: "POST", path: "/email/plan", afterCommit: true, delayMs: 600, times: 1 });
    const first = buy("starter", "key-in-progress");
    await new Promise((r) => setTimeout(r, 200));
    refused(await buy("starter", "key-in-progress"), 409, "REQUEST_IN_PROGRESS");
    ok(await first);
    expect(ok(await buy("starter", "key-in-progress")).billing.total).toBe(150_000);
    expect(wallet()).toBe(SEEDED_WALLET - 150_000);
  });

  test("a failed first request releases its key: INSUFFICIENT_BALANCE, then after a top-up the same key buys", async () => {
    setWallet(100_000);
    const poor = await buy("starter", "key-released");
    refused(poor, 402, "INSUFFICIENT_BALANCE");
    expect(poor.body.error).toMatch(/150,000.*100,000/);
    expect(ok(await api("GET", "/plan")).planCode).toBe("free");
    setWallet(200_000);
    expect(ok(await buy("starter", "key-released")).billing.total).toBe(150_000);
    expect(wallet()).toBe(50_000);
  });

  test("keys are per project: the same key in another project acts there", async () => {
    ok(await buy("starter", "key-shared-1"));
    ok(await buy("starter", "key-shared-1", 1, emu.keys.emailNoPlan));
    expect(wallet()).toBe(SEEDED_WALLET - 300_000);
  });
});

describe("NO_PLAN and its exceptions", () => {
  test("without a plan only status and the plan routes answer; buying one opens the rest", async () => {
    const key = emu.keys.emailNoPlan;
    refused(await api("GET", "/domains", { key }), 402, "NO_PLAN");
    refused(await api("GET", "/topics", { key }), 402, "NO_PLAN");
    ok(await api("GET", "/status", { key }));
    ok(await api("GET", "/plans", { key }));
    expect(ok(await api("GET", "/plan", { key }))).toEqual(expect.objectContaining({ planCode: null, status: "none" }));
    ok(await api("POST", "/plan?dryRun=true", { key, body: { planCode: "free", months: 1 } }));
    expect(ok(await buy("free", "key-free-plan", 1, key)).billing.total).toBe(0);
    expect(ok(await api("GET", "/domains", { key }))).toEqual([]);
  });

  test("a paid plan that expires with auto-renew and a wallet that can pay renews; one that cannot ends (NO_PLAN), and renew restarts it", async () => {
    ok(await buy("starter", "key-expiry-1"));
    await emu.ctl("POST", "/clock/advance", { seconds: 31 * DAY });
    expect(ok(await api("GET", "/plan")).status).toBe("active");
    expect(wallet()).toBe(SEEDED_WALLET - 300_000);
    setWallet(1_000);
    await emu.ctl("POST", "/clock/advance", { seconds: 31 * DAY });
    expect(ok(await api("GET", "/plan"))).toEqual(expect.objectContaining({ planCode: "starter", status: "ended" }));
    refused(await api("GET", "/templates"), 402, "NO_PLAN");
    setWallet(500_000);
    expect(ok(await api("POST", "/plan/renew", { body: { months: 1 }, idem: "key-renew-ended" })).plan.status).toBe("active");
    expect(wallet()).toBe(350_000);
    ok(await api("GET", "/templates"));
  });
});

describe("changing the plan", () => {
  test("a smaller plan is scheduled, nothing charged, limits unchanged; the current plan again cancels it; renew starts the scheduled one", async () => {
    ok(await buy("business", "key-change-1"));
    const down = ok(await buy("starter", "key-change-2"));
    expect(down.billing.total).toBe(0);
    expect(down.plan).toEqual(expect.objectContaining({ planCode: "business", scheduledPlanCode: "starter" }));
    expect(ok(await buy("business", "key-change-3")).plan.scheduledPlanCode).toBeNull();
    ok(await buy("starter", "key-change-4"));
    const renewed = ok(await api("POST", "/plan/renew", { body: { months: 1 }, idem: "key-change-5" }));
    expect(renewed).toEqual({ plan: expect.objectContaining({ planCode: "starter", scheduledPlanCode: null }), billing: { total: 150_000, depositCharged: 150_000 } });
    expect(wallet()).toBe(SEEDED_WALLET - 450_000 - 150_000);
  });

  test("a larger plan is charged the prorated difference for the rest of the period", async () => {
    ok(await buy("starter", "key-up-1"));
    await emu.ctl("POST", "/clock/advance", { seconds: 15 * DAY });
    const dry = ok(await api("POST", "/plan?dryRun=true", { body: { planCode: "business", months: 1 } }));
    expect(dry.total).toBeGreaterThan(149_000);
    expect(dry.total).toBeLessThan(151_000);
    const up = ok(await buy("business", "key-up-2"));
    expect(up.billing.total).toBe(dry.total);
    expect(up.plan.planCode).toBe("business");
    expect(wallet()).toBe(SEEDED_WALLET - 150_000 - dry.total);
  });

  test("inbox add-ons: none on the free plan (422 VALIDATION); PLAN_REQUIRED without receiving; prorated on a plan with it; fewer units charge nothing", async () => {
    refused(await api("PUT", "/plan/addons/extra-mailboxes", { body: { quantity: 1 }, idem: "key-addon-1" }), 422, "VALIDATION");
    ok(await buy("starter", "key-addon-2"));
    // A plan in force without receiving (its values set through the control API).
    await emu.ctl("PATCH", "/email/plan-limits", { receiving: false });
    refused(await api("PUT", "/plan/addons/extra-mailboxes", { body: { quantity: 2 }, idem: "key-addon-5" }), 402, "PLAN_REQUIRED");
    await emu.ctl("PATCH", "/email/plan-limits", { receiving: true });
    expect(wallet()).toBe(SEEDED_WALLET - 150_000);
    const added = ok(await api("PUT", "/plan/addons/extra-mailboxes", { body: { quantity: 2 }, idem: "key-addon-3" }));
    expect(added.billing.total).toBe(20_000);
    expect(emu.control.emu.world.projects[0].email.plan).toEqual(expect.objectContaining({ code: "starter", mailboxes: 15, receiving: true }));
    expect(ok(await api("PUT", "/plan/addons/extra-mailboxes", { body: { quantity: 1 }, idem: "key-addon-4" })).billing.total).toBe(0);
  });
});

describe("audience routes and plan limits", () => {
  test("topics: create, read, update, delete; TOPIC_NOT_FOUND; the free plan's 3 topics, more after an upgrade", async () => {
    const t = ok(await api("POST", "/topics", { body: { name: "News", description: "Monthly" } }), 201);
    expect(t).toEqual({ id: expect.any(String), name: "News", description: "Monthly", createdAt: expect.any(String) });
    expect(ok(await api("PATCH", `/topics/${t.id}`, { body: { description: null } })).description).toBeNull();
    ok(await api("POST", "/topics", { body: { name: "B" } }), 201);
    ok(await api("POST", "/topics", { body: { name: "C" } }), 201);
    refused(await api("POST", "/topics", { body: { name: "D" } }), 402, "TOPIC_LIMIT_REACHED");
    ok(await buy("starter", "key-topics"));
    ok(await api("POST", "/topics", { body: { name: "D" } }), 201);
    ok(await api("DELETE", `/topics/${t.id}`));
    refused(await api("GET", `/topics/${t.id}`), 404, "TOPIC_NOT_FOUND");
    refused(await api("POST", "/topics", { body: { name: "" } }), 422, "VALIDATION");
    expect(ok(await api("GET", "/topics")).map((x: { name: string }) => x.name)).toEqual(["B", "C", "D"]);
  });

  test("segments: 1 to 20 rules with a known operator; SEGMENT_LIMIT_REACHED; SEGMENT_NOT_FOUND", async () => {
    const rule = { field: "email", operator: "contains", value: "@acme" };
    refused(await api("POST", "/segments", { body: { name: "none", rules: [] } }), 422, "VALIDATION");
    refused(await api("POST", "/segments", { body: { name: "many", rules: Array(21).fill(rule) } }), 422, "VALIDATION");
    refused(await api("POST", "/segments", { body: { name: "op", rules: [{ field: "email", operator: "like", value: "x" }] } }), 422, "VALIDATION");
    const s = ok(await api("POST", "/segments", { body: { name: "acme", rules: [rule] } }), 201);
    const updated = ok(await api("PATCH", `/segments/${s.id}`, { body: { rules: [rule, { field: "plan", operator: "exists" }] } }));
    expect(updated.rules).toHaveLength(2);
    ok(await api("POST", "/segments", { body: { name: "b", rules: [rule] } }), 201);
    ok(await api("POST", "/segments", { body: { name: "c", rules: [rule] } }), 201);
    refused(await api("POST", "/segments", { body: { name: "d", rules: [rule] } }), 402, "SEGMENT_LIMIT_REACHED");
    ok(await api("DELETE", `/segments/${s.id}`));
    refused(await api("PATCH", `/segments/${s.id}`, { body: { name: "x" } }), 404, "SEGMENT_NOT_FOUND");
  });

  test("contacts: added with consent, CONTACT_LIMIT_REACHED past the plan's count, GET /contacts paginated", async () => {
    refused(await api("POST", "/contacts", { body: { contacts: [{ email: "a@x.dev" }] } }), 400, "CONSENT_REQUIRED");
    const emails = Array.from({ length: 1000 }, (_, i) => ({ email: `c${i}@acme.dev` }));
    expect(ok(await api("POST", "/contacts", { body: { contacts: emails, consentConfirmed: true } }), 201).added).toBe(1000);
    refused(await api("POST", "/contacts", { body: { contacts: [{ email: "one-more@acme.dev" }], consentConfirmed: true } }), 402, "CONTACT_LIMIT_REACHED");
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = ok(await api("GET", `/contacts?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
      expect(page.data).toHaveLength(200);
      for (const c of page.data) seen.add(c.email);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.size).toBe(1000);
    refused(await api("GET", "/contacts?limit=201"), 422, "VALIDATION");
    refused(await api("GET", "/contacts?cursor=1.abc"), 400, "INVALID_CURSOR");
  });

  test("domains obey the plan: the free plan's 5, more on business", async () => {
    for (let i = 0; i < 5; i++) ok(await api("POST", "/domains", { body: { domain: `d${i}.acme.dev` } }), 202);
    refused(await api("POST", "/domains", { body: { domain: "d5.acme.dev" } }), 402, "DOMAIN_LIMIT_REACHED");
    ok(await buy("business", "key-domains"));
    ok(await api("POST", "/domains", { body: { domain: "d5.acme.dev" } }), 202);
  });
});
