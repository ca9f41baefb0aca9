/**
 * EmailPlan through the real dynamic-provider host against the emulator (issue 26, acceptance 2):
 * preview prices with a free dry run and refuses what the wallet cannot pay; `up` buys once with an
 * Idempotency-Key that every attempt of the same change repeats — an answer dropped after the
 * purchase committed, a 500 before or after it, a storm of 429s — each ending with one purchase and
 * one charge; a smaller plan is scheduled with no perpetual diff; refresh shows drift; delete leaves
 * the plan; adoptId adopts the current plan.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { failure, fresh, outputsOf, wallet, type Props } from "../email/helpers";
import { SEEDED_WALLET } from "../../tools/support/world";
import { PLAN_CATALOGUE } from "../../emulator/email/plans";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const T = "EmailPlan";
const SCOPE = "0123456789abcdef01234567";
const STARTER = 150_000;

/** check (preview) then a clean request log: what `pulumi up` sends to create. */
async function checkedInputs(args: Props, olds: Props = {}) {
  const inputs = await h.checked(T, { idempotencyScope: SCOPE, ...args }, olds);
  h.emu.control.clearRequests();
  return inputs;
}
/** Real purchases (not dry runs: those carry no key) the emulator received, with their key. */
const purchases = () =>
  h.emu.control
    .requests()
    .filter((r) => r.method !== "GET" && r.path.startsWith("/email/plan") && r.idempotencyKey !== undefined)
    .map((r) => ({ path: r.path, status: r.status, key: r.idempotencyKey, replayed: r.replayed === true }));
const planOf = async () => (await h.emu.call("GET", "/email/plan", { key: h.emu.keys.email })).body.data;

describe("EmailPlan preview", () => {
  test("prices the purchase with a dry run and charges nothing", async () => {
    h.emu.control.clearRequests();
    const result = await h.check(T, { planCode: "starter", idempotencyScope: SCOPE });
    expect(result.failures).toEqual([]);
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/plan", status: 200 }]);
    expect(purchases()).toEqual([]);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    expect(h.host.stderr()).toContain("EmailPlan: plan starter (1 month) costs IDR 150,000 now");
  });

  test("refuses an unaffordable plan on planCode with the price and the balance", async () => {
    h.emu.control.emu.world.account.wallet = 100_000;
    const result = await h.check(T, { planCode: "business", months: 12, idempotencyScope: SCOPE });
    expect(result.failures).toEqual([
      { property: "planCode", reason: expect.stringMatching(/costs IDR 5,400,000 and the wallet holds IDR 100,000\. Top up at least IDR 5,300,000/) },
    ]);
    expect(wallet(h)).toBe(100_000);
  });

  test("refuses an unknown plan (the API's VALIDATION, explained) and bad months before any call", async () => {
    const unknown = await h.check(T, { planCode: "platinum", idempotencyScope: SCOPE });
    expect(unknown.failures).toEqual([{ property: "planCode", reason: expect.stringContaining("422 VALIDATION") }]);
    h.emu.control.clearRequests();
    const months = await h.check(T, { planCode: "starter", months: 3, idempotencyScope: SCOPE });
    expect(months.failures).toEqual([{ property: "months", reason: expect.stringContaining("1 or 12") }]);
    expect(h.emu.control.requests()).toEqual([]);
  });

  describe("add-ons with a plan purchase are judged against the plan being bought", () => {
    /** What the host printed during `run`. */
    async function printed<T>(run: () => Promise<T>): Promise<{ result: T; lines: string }> {
      const before = h.host.stderr().length;
      const result = await run();
      return { result, lines: h.host.stderr().slice(before) };
    }
    const addonDryRuns = () => h.writes().filter((w) => w.path.startsWith("/email/plan/addons/"));

    test("on the free plan, buying starter with an extra mailbox passes: the plan is priced, the add-on told to be priced by the up", async () => {
      h.emu.control.clearRequests();
      const { result, lines } = await printed(() => h.check(T, { planCode: "starter", addons: { "extra-mailboxes": 1 }, idempotencyScope: SCOPE }));
      expect(result.failures).toEqual([]);
      // The add-on's dry run would be answered against the free plan (which sells none): not sent.
      expect(h.writes()).toEqual([{ method: "POST", path: "/email/plan", status: 200 }]);
      expect(lines).toContain("EmailPlan: plan starter (1 month) costs IDR 150,000 now");
      expect(lines).toContain("EmailPlan: add-on extra-mailboxes × 1 is priced and charged by `pulumi up` once the plan starter is in force");
      expect(wallet(h)).toBe(SEEDED_WALLET);
    });

    test("the up then buys the plan, then the add-on, each once", async () => {
      const inputs = await checkedInputs({ planCode: "starter", addons: { "extra-mailboxes": 1 } });
      await h.host.create(T, inputs);
      expect(purchases().map((p) => [p.path, p.status])).toEqual([
        ["/email/plan", 200],
        ["/email/plan/addons/extra-mailboxes", 200],
      ]);
      expect(await planOf()).toEqual(expect.objectContaining({ planCode: "starter", addons: [{ code: "extra-mailboxes", quantity: 1 }] }));
      expect(wallet(h)).toBe(SEEDED_WALLET - STARTER - 10_000);
    });

    test("an add-on the wallet cannot pay after the plan was bought: the error says the plan was bought and stays; the next up buys only the add-on", async () => {
      const inputs = await checkedInputs({ planCode: "starter", addons: { "extra-mailboxes": 1 } });
      h.emu.control.emu.world.account.wallet = STARTER + 5_000;
      const err = await failure(h.host.create(T, inputs));
      expect(err.message).toContain("402 INSUFFICIENT_BALANCE");
      expect(err.message).toContain("Before it, plan starter (1 month) for IDR 150,000 was made and stays (the next `pulumi up` sends only what still differs). For add-on extra-mailboxes × 1: Nothing was charged");
      expect((await planOf()).planCode).toBe("starter");
      h.emu.control.emu.world.account.wallet = 100_000;
      await h.host.create(T, inputs);
      expect(purchases().map((p) => [p.path, p.status])).toEqual([
        ["/email/plan", 200],
        ["/email/plan/addons/extra-mailboxes", 402],
        ["/email/plan/addons/extra-mailboxes", 200],
      ]);
      expect(wallet(h)).toBe(90_000);
    });

    test("an upgrade with more add-ons: the add-ons wait for the larger plan, not dry-run against the current one", async () => {
      const bought = await checkedInputs({ planCode: "starter" });
      const c = await h.host.create(T, bought);
      h.emu.control.clearRequests();
      const result = await h.check(T, { planCode: "business", addons: { "extra-mailboxes": 2 }, idempotencyScope: SCOPE }, c.properties);
      expect(result.failures).toEqual([]);
      expect(h.writes()).toEqual([{ method: "POST", path: "/email/plan", status: 200 }]);
    });

    test("add-ons on the plan that stays in force are still dry-run, and refused as the API refuses them", async () => {
      h.emu.control.clearRequests();
      // No plan step: the free plan stays, and the API refuses its add-ons at the dry run.
      const onFree = await h.check(T, { planCode: "free", addons: { "extra-mailboxes": 1 }, idempotencyScope: SCOPE });
      expect(onFree.failures).toEqual([{ property: "addons", reason: expect.stringContaining("422 VALIDATION") }]);
      const c = await h.host.create(T, await checkedInputs({ planCode: "starter" }));
      h.emu.control.clearRequests();
      const more = await h.check(T, { planCode: "starter", addons: { "extra-mailboxes": 2 }, idempotencyScope: SCOPE }, c.properties);
      expect(more.failures).toEqual([]);
      expect(addonDryRuns()).toEqual([{ method: "PUT", path: "/email/plan/addons/extra-mailboxes", status: 200 }]);
    });

    test("a plan bought without receiving: its add-ons are refused on addons, as the API would (PLAN_REQUIRED)", async () => {
      const starter = PLAN_CATALOGUE.find((p) => p.code === "starter")!;
      starter.receiving = false;
      try {
        h.emu.control.clearRequests();
        const result = await h.check(T, { planCode: "starter", addons: { "extra-mailboxes": 1 }, idempotencyScope: SCOPE });
        expect(result.failures).toEqual([{ property: "addons", reason: expect.stringContaining("the plan Starter this resource buys has none (the API would refuse them: 402 PLAN_REQUIRED)") }]);
        expect(h.writes()).toEqual([]);
      } finally {
        starter.receiving = true;
      }
    });
  });

  test("no change from the state: no call at all", async () => {
    h.emu.control.clearRequests();
    const inputs = await h.inputs(T, { planCode: "starter", months: 1, idempotencyScope: SCOPE });
    const result = await h.host.check(T, { planCode: "starter", months: 1, idempotencyScope: SCOPE }, inputs);
    expect(result.failures).toEqual([]);
    expect(h.emu.control.requests()).toEqual([]);
  });
});

describe("EmailPlan create: one purchase, one charge, one Idempotency-Key", () => {
  test("buys the plan with one keyed call", async () => {
    const inputs = await checkedInputs({ planCode: "starter" });
    const created = await h.host.create(T, inputs);
    expect(created.id).toBe(h.emu.projects[0]);
    expect(outputsOf(created.properties)).toEqual(
      expect.objectContaining({ planCode: "starter", months: 1, activePlanCode: "starter", scheduledPlanCode: null, status: "active", billing: { total: STARTER, depositCharged: STARTER } }),
    );
    expect(wallet(h)).toBe(SEEDED_WALLET - STARTER);
    const [buy] = purchases();
    expect(purchases()).toEqual([{ path: "/email/plan", status: 200, key: expect.stringMatching(new RegExp(`^svc-plan\\.${SCOPE}\\.[0-9a-f]{32}$`)), replayed: false }]);
    expect(buy.key!.length).toBeLessThanOrEqual(128);
  });

  test.each([
    ["the answer dropped after the purchase committed", { afterCommit: true, drop: true, times: 1 }, [[0, false], [200, true]]],
    // The log says what the client got: the injected 500 that replaced the purchase's answer.
    ["a 500 after the purchase committed", { afterCommit: true, status: 500, times: 1 }, [[500, false], [200, true]]],
    ["two 500s before it (nothing done)", { status: 500, times: 2 }, [[500, false], [500, false], [200, false]]],
    ["a storm of 429s", { status: 429, code: "RATE_LIMITED", times: 3 }, [[429, false], [429, false], [429, false], [200, false]]],
  ])("%s: the client sends it again with the same key; one purchase, one charge", async (_name, fault, attempts) => {
    const inputs = await checkedInputs({ planCode: "starter" });
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/plan", ...fault });
    const created = await h.host.create(T, inputs);
    expect(created.properties.activePlanCode).toBe("starter");
    expect(wallet(h)).toBe(SEEDED_WALLET - STARTER);
    const log = purchases();
    expect(log.map((a) => [a.status, a.replayed])).toEqual(attempts);
    expect(new Set(log.map((a) => a.key)).size).toBe(1);
    expect(h.emu.control.emu.world.activity.filter((a) => a.action === "email.plan.changed")).toHaveLength(1);
  });

  test("a create run again (an interrupted `up`) after the purchase committed buys nothing more", async () => {
    const inputs = await checkedInputs({ planCode: "starter" });
    await h.host.create(T, inputs);
    const again = await h.host.create(T, inputs);
    expect(again.properties.activePlanCode).toBe("starter");
    expect(purchases()).toHaveLength(1);
    expect(wallet(h)).toBe(SEEDED_WALLET - STARTER);
  });

  test("the same change sends the same key; a later different change another", async () => {
    const inputs = await checkedInputs({ planCode: "starter" });
    const created = await h.host.create(T, inputs);
    const up = await h.checked(T, { planCode: "business", idempotencyScope: SCOPE }, inputs);
    await h.host.update(T, created.id, created.properties, up);
    const keys = purchases().map((p) => p.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  test("INSUFFICIENT_BALANCE at up: nothing charged, the error says what to do, and the key is free for the next try", async () => {
    const inputs = await checkedInputs({ planCode: "starter" });
    h.emu.control.emu.world.account.wallet = 1_000;
    const err = await failure(h.host.create(T, inputs));
    expect(err.message).toContain("402 INSUFFICIENT_BALANCE");
    expect(err.message).toContain("top up the wallet");
    h.emu.control.emu.world.account.wallet = 200_000;
    await h.host.create(T, inputs);
    const [first, second] = purchases();
    expect(first.key).toBe(second.key);
    expect(wallet(h)).toBe(200_000 - STARTER);
  });
});

describe("EmailPlan changes, refresh, delete, adopt", () => {
  async function created(planCode = "business") {
    const inputs = await checkedInputs({ planCode });
    const c = await h.host.create(T, inputs);
    return { inputs, id: c.id, props: c.properties };
  }

  test("a smaller plan is scheduled, nothing charged, and refresh reads it back with no diff", async () => {
    const c = await created();
    const news = await h.checked(T, { planCode: "starter", idempotencyScope: SCOPE }, c.inputs);
    const updated = await h.host.update(T, c.id, c.props, news);
    expect(outputsOf(updated.properties)).toEqual(expect.objectContaining({ planCode: "starter", activePlanCode: "business", scheduledPlanCode: "starter" }));
    expect(wallet(h)).toBe(SEEDED_WALLET - 450_000);
    const read = await h.host.read(T, c.id, updated.properties);
    expect(read.inputs).toEqual(expect.objectContaining({ planCode: "starter", months: 1 }));
    const diff = await h.host.diff(T, c.id, read.properties, await h.checked(T, { planCode: "starter", idempotencyScope: SCOPE }, read.inputs));
    expect(diff.changes).toBe("none");
  });

  test("refresh shows a plan changed in the dashboard as drift", async () => {
    const c = await created("starter");
    await h.emu.call("POST", "/email/plan", { key: h.emu.keys.email, body: { planCode: "business", months: 1 }, headers: { "idempotency-key": "dashboard-change-1" } });
    const read = await h.host.read(T, c.id, c.props);
    expect(read.inputs!.planCode).toBe("business");
    expect(read.properties.activePlanCode).toBe("business");
  });

  test("add-ons are bought with their own keyed call", async () => {
    const c = await created("starter");
    const news = await h.checked(T, { planCode: "starter", addons: { "extra-mailboxes": 2 }, idempotencyScope: SCOPE }, c.inputs);
    h.emu.control.clearRequests();
    await h.host.update(T, c.id, c.props, news);
    expect(purchases()).toEqual([{ path: "/email/plan/addons/extra-mailboxes", status: 200, key: expect.any(String), replayed: false }]);
    expect((await planOf()).addons).toEqual([{ code: "extra-mailboxes", quantity: 2 }]);
  });

  test("delete calls nothing, leaves the plan and says so", async () => {
    const c = await created("starter");
    h.emu.control.clearRequests();
    await h.host.delete(T, c.id, c.props);
    expect(h.writes()).toEqual([]);
    expect((await planOf()).planCode).toBe("starter");
    expect(h.host.stderr()).toContain(`EmailPlan of project ${c.id} was removed from the stack only`);
  });

  test("adoptId (the project id) adopts the current plan as it is, buying nothing; another id is refused", async () => {
    const inputs = await checkedInputs({ planCode: "starter", adoptId: h.emu.projects[0] });
    const adopted = await h.host.create(T, inputs);
    expect(outputsOf(adopted.properties)).toEqual(expect.objectContaining({ planCode: "free", activePlanCode: "free" }));
    expect(purchases()).toEqual([]);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    const wrong = await checkedInputs({ planCode: "starter", adoptId: "not-this-project" });
    expect((await failure(h.host.create(T, wrong))).message).toContain(`use adoptId: "${h.emu.projects[0]}"`);
  });

  test("read of a project without a plan: gone", async () => {
    h.emu.control.emu.world.projects[0].email.plan = null;
    const read = await h.host.read(T, h.emu.projects[0], await h.inputs(T, { planCode: "starter" }));
    expect(read.id).toBe("");
  });
});
