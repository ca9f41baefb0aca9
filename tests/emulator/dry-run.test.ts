/**
 * `?dryRun=true` over the route table. platform-api.md, Limits: "`?dryRun=true` is accepted by paid
 * calls of the container, database, domain and AI APIs and by email plan purchases; nothing is
 * created, changed or charged. The VPS API has none." So:
 * - every route that charges the wallet, but the VPS API's, takes the flag (the table marks it), and
 *   a new paid route without it fails here;
 * - on every route that takes it, a dry run leaves the wallet, the object it would act on, the
 *   counts the account's plan limits keep (`GET /status`: usage and limits) and the whole world as
 *   they were — and the same call without the flag does charge, so the case is one that could fail;
 * - a malformed flag (`dryRun=TRUE`, `dryRun[]=true`, a repeated one, …) is refused, 422 with the
 *   API's schema code, before anything is done: a flag the API did not read would make a dry run a
 *   real, paid call.
 */
import { routes, type RouteDef, type RouteId } from "../../contract/routes";
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  },
});

const ROUTE_IDS = Object.keys(routes) as RouteId[];
const route = (id: RouteId): RouteDef => routes[id];
/** The VPS API (servers and their backup plans): "The VPS API has none". */
const inVpsApi = (id: RouteId) => id.startsWith("vps.") || id.startsWith("backup.");
/**
 * A route that takes money from the wallet: a `paid` one, or a purchase whose Idempotency-Key is
 * required (platform-api.md: "required for email plan purchases and AI top-ups made with a key").
 */
const chargesWallet = (id: RouteId) => route(id).safety === "paid" || route(id).idempotencyKey === "required";
const DRY_RUN_ROUTES = ROUTE_IDS.filter((id) => route(id).dryRun);

let calls = 0;
/** A call with the whole-account key (the first project's email key under /email); the rate limiter is refilled before its burst runs out. */
async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<CallResult> {
  if (++calls % 8 === 0) await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  return emu.call(method, path, { key: path.startsWith("/email") ? emu.keys.email : emu.keys.account, ...options });
}
let idempotencyKeys = 0;
const idempotencyKey = () => ({ "idempotency-key": `dry-run-test-${++idempotencyKeys}` });

interface DryRunCase {
  /** Makes what the call acts on; answers the path of the object it would change. */
  setup(): Promise<string>;
  /** The call with `query` ("?dryRun=true", "" for the real call) and, when real, an Idempotency-Key where the route needs one. */
  send(target: string, query: string): Promise<CallResult>;
  /** The 422 code of the route's API for a query its schema refuses. */
  schemaCode: "VALIDATION_ERROR" | "VALIDATION";
}

async function registeredDomain(name: string): Promise<string> {
  const res = await call("POST", "/api/domains", { body: { name, period: 1 } });
  expect(res.status).toBe(201);
  return `/api/domains/${res.body.data.id}`;
}
async function boughtPlan(): Promise<string> {
  expect((await call("POST", "/email/plan", { body: { planCode: "starter", months: 1 }, headers: idempotencyKey() })).status).toBe(200);
  return "/email/plan";
}
/** An email plan call: the real one carries a fresh Idempotency-Key, as the route requires. */
const planCall = (method: string, path: string, body: unknown) => (_target: string, query: string) => call(method, `/email${path}${query}`, { body, headers: idempotencyKey() });

const CASES: Partial<Record<RouteId, DryRunCase>> = {
  "domains.register": {
    setup: async () => "/api/domains",
    send: (_target, query) => call("POST", `/api/domains${query}`, { body: { name: "dry-run-shop.com", period: 1, whoisProtection: true } }),
    schemaCode: "VALIDATION_ERROR",
  },
  "domains.renew": {
    setup: () => registeredDomain("renew-me.com"),
    send: (target, query) => call("POST", `${target}/renew${query}`, { body: { period: 1 } }),
    schemaCode: "VALIDATION_ERROR",
  },
  "domains.whoisProtection": {
    setup: () => registeredDomain("hide-me.com"),
    send: (target, query) => call("POST", `${target}/whois-protection${query}`),
    schemaCode: "VALIDATION_ERROR",
  },
  "email.plan.buy": { setup: async () => "/email/plan", send: planCall("POST", "/plan", { planCode: "business", months: 12 }), schemaCode: "VALIDATION" },
  "email.plan.renew": { setup: boughtPlan, send: planCall("POST", "/plan/renew", { months: 1 }), schemaCode: "VALIDATION" },
  "email.plan.setAddon": { setup: boughtPlan, send: planCall("PUT", "/plan/addons/extra-mailboxes", { quantity: 2 }), schemaCode: "VALIDATION" },
};

/** Everything a dry run must leave as it was. */
async function observed(target: string) {
  // Background work the setup queued is settled first: only the call itself may change anything.
  await emu.ctl("POST", "/transitions/settle");
  const wallet = (await call("GET", "/api/account/wallet")).body.data;
  const object = (await call("GET", target)).body.data;
  // The project's plan limits and the counts they keep (emails sent today and this month, …).
  const status = (await call("GET", "/email/status")).body.data;
  // The whole world but its clock (the test moves it to refill the rate limiter).
  const { clockOffsetMs: _clock, ...world } = emu.control.state();
  return { wallet, object, status, world };
}

describe("the route table", () => {
  test("every route that charges the wallet takes ?dryRun=true, but the VPS API's, which take none", () => {
    const paid = ROUTE_IDS.filter(chargesWallet);
    expect(paid.filter((id) => !inVpsApi(id)).sort()).toEqual([...DRY_RUN_ROUTES].sort());
    expect(paid.filter(inVpsApi).filter((id) => route(id).dryRun)).toEqual([]);
    // Each has its case below: a new dry-run route cannot go untested.
    expect(Object.keys(CASES).sort()).toEqual([...DRY_RUN_ROUTES].sort());
    expect(DRY_RUN_ROUTES.length).toBeGreaterThanOrEqual(6);
  });
});

describe.each(DRY_RUN_ROUTES.map((id) => [id, CASES[id]!] as const))("%s", (_id, c) => {
  test("with ?dryRun=true: 200, the price and the balance after; wallet, object, plan counts and world unchanged; without it, the call charges that price", async () => {
    const target = await c.setup();
    const before = await observed(target);

    const dry = await c.send(target, "?dryRun=true");
    expect(dry.status).toBe(200);
    expect(dry.body.data).toEqual(expect.objectContaining({ dryRun: true, currency: "IDR", balanceAfter: expect.any(Number), enoughBalance: true, note: expect.any(String) }));
    const price = before.wallet.balance - dry.body.data.balanceAfter;
    expect(price).toBeGreaterThan(0);
    expect(await observed(target)).toEqual(before);

    // The same call for real: charged what the dry run said, so a route that charged on a dry run would be seen.
    const real = await c.send(target, "");
    expect(real.status).toBeLessThan(300);
    expect(real.body.data.dryRun).toBeUndefined();
    expect((await observed(target)).wallet.balance).toBe(before.wallet.balance - price);
  });

  // Malformed: another case or spelling, a number, empty, absent value, repeated, array or object
  // notation (also percent-encoded), another spelling of the name, padding, a NUL.
  const MALFORMED = [
    "dryRun=TRUE", "dryRun=True", "dryRun=1", "dryRun=yes", "dryRun=", "dryRun", "dryRun=true&dryRun=true", "dryRun=false&dryRun=true",
    "dryRun[]=true", "dryRun[0]=true", "dryRun[x]=true", "dryRun%5B%5D=true", "dryrun=true", "DRYRUN=true", "dry_run=true", "dry-run=true",
    "dryRun=%20true", "dryRun=true%00",
  ];
  test(`${MALFORMED.length} malformed flags are each refused 422 before anything is done; the call stays possible`, async () => {
    const target = await c.setup();
    const before = await observed(target);
    const answers: Record<string, { status: number; code: string }> = {};
    for (const query of MALFORMED) {
      const res = await c.send(target, `?${query}`);
      answers[query] = { status: res.status, code: res.body.code };
    }
    expect(answers).toEqual(Object.fromEntries(MALFORMED.map((q) => [q, { status: 422, code: c.schemaCode }])));
    expect(await observed(target)).toEqual(before);
    // Nothing was left half done: the real call is still made, once.
    expect((await c.send(target, "")).status).toBeLessThan(300);
  });
});
