/**
 * examples/email-plan through the test engine against an emulator (issue 26, acceptance 1 for the
 * plan and audience; acceptance 2's interrupted run): the preview shows the plan's price and charges
 * nothing; `up` charges exactly the dry-run price once; a no-op preview makes no write call;
 * destroy removes the topic and segment and leaves the plan with a message. Then the provider host
 * is killed after the purchase committed (its answer held) and `up` runs again as the real CLI runs
 * it: one purchase, one charge. (The same key on a repeat that overtakes a request still on its way
 * is the emulator's REQUEST_IN_PROGRESS and replay, tests/email-plan/emulator-plan.test.ts.)
 */
import { join } from "node:path";
import { changes, fixtureProject, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { run } from "../../tools/chaos/harness";
import type { ProviderHost } from "../../tools/engine/provider-host";
import { walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

let s: EngineStack;
let balance: number;
const wallet = () => walletOf(s.emu);
const plan = async () => (await s.emu.call("GET", "/email/plan", { key: s.emu.keys.email })).body.data;
const audience = () => (s.world().email as { audience?: { topics: unknown[]; segments: unknown[] } }).audience ?? { topics: [], segments: [] };
/** Real (keyed) purchase calls in the request log. */
const purchases = () => s.emu.control.requests().filter((r) => r.path === "/email/plan" && r.method === "POST" && r.idempotencyKey !== undefined);

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/email-plan"), stack: "engine-test-email-plan" },
  setup: () => {
    balance = wallet();
  },
});

describe("examples/email-plan", () => {
  let price: number;

  test("preview shows the plan's price (a free dry run) and charges nothing", async () => {
    price = (await s.emu.call("POST", "/email/plan?dryRun=true", { key: s.emu.keys.email, body: { planCode: "starter", months: 1 } })).body.data.total;
    s.clearRequests();
    const r = await s.run("preview");
    expect(changes(r)).toEqual(["create plan", "create news", "create customers"]);
    expect(r.messages.join("\n")).toContain(`EmailPlan: plan starter (1 month) costs IDR ${price.toLocaleString("en-US")} now`);
    expect(s.writes().map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual(["POST /email/plan 200"]);
    expect(purchases()).toEqual([]);
    expect(wallet()).toBe(balance);
    expect((await plan()).planCode).toBe("free");
  });

  test("up buys the plan once, charged exactly the dry-run price, and creates the topic and segment", async () => {
    s.clearRequests();
    const r = await s.run("up");
    expect(changes(r)).toEqual(["create plan", "create news", "create customers"]);
    expect(wallet()).toBe(balance - price);
    expect(purchases()).toHaveLength(1);
    expect(await plan()).toEqual(expect.objectContaining({ planCode: "starter", status: "active" }));
    expect(r.outputs).toMatchObject({ planCode: "starter", charged: price });
    expect(audience().topics).toHaveLength(1);
    expect(audience().segments).toHaveLength(1);
  });

  test("a second preview shows no changes and makes no write call", async () => {
    s.clearRequests();
    const r = await s.run("preview");
    expect(onlySame(r)).toBe(true);
    expect(s.writes()).toEqual([]);
  });

  test("destroy removes topic and segment, leaves the plan, and says so", async () => {
    s.clearRequests();
    const r = await s.run("destroy");
    expect(changes(r).sort()).toEqual(["delete customers", "delete news", "delete plan"]);
    expect(r.messages.join("\n")).toContain("was removed from the stack only: cancelling a plan is done in the dashboard");
    expect(audience()).toMatchObject({ topics: [], segments: [] });
    expect((await plan()).planCode).toBe("starter");
    expect(s.writes().filter((w) => w.path.startsWith("/email/plan"))).toEqual([]);
    expect(wallet()).toBe(balance - price);
  });
});

describe("the provider host killed during the purchase, then `up` again", () => {
  // A program of the plan alone: the interrupted run's other resources would only wait on it.
  const project = fixtureProject("email-plan-killed");
  useEngineStack((x) => (s = x), {
    before: () => project.program('new svc.EmailPlan("plan", { planCode: "starter" });\n'),
    options: { projectDir: project.dir, stack: "engine-test-email-plan-killed", removeProject: true },
  });
  beforeEach(async () => {
    await s.emu.ctl("POST", "/reset");
    s.resetState();
    balance = wallet();
  });

  /** Runs `up`, killing the provider host once `ready` says so; answers whether the run failed. */
  async function killedUp(ready: () => boolean): Promise<boolean> {
    let host: ProviderHost | undefined;
    let killed = false;
    const watch = setInterval(() => {
      if (!killed && host && ready()) {
        killed = true;
        host.kill();
      }
    }, 10);
    try {
      const r = await run(s, "up", undefined, (h) => (host = h));
      return !r.ok;
    } finally {
      clearInterval(watch);
    }
  }

  test("after the purchase committed (its answer held): the next up buys nothing more", async () => {
    // skip 1: the check's dry run goes through.
    await s.emu.ctl("POST", "/faults", { method: "POST", path: "/email/plan", afterCommit: true, delayMs: 3_000, skip: 1, times: 1 });
    expect(await killedUp(() => purchases().length > 0)).toBe(true);
    const r = await s.run("up");
    expect(changes(r)).toEqual(expect.arrayContaining(["create plan"]));
    expect(purchases()).toHaveLength(1);
    expect(wallet()).toBe(balance - 150_000);
    expect((await plan()).planCode).toBe("starter");
  });
});

describe("one EmailPlan per project", () => {
  const project = fixtureProject("email-plan-twice");
  useEngineStack((x) => (s = x), {
    before: () =>
      project.program('new svc.EmailPlan("plan", { planCode: "starter" });\nnew svc.EmailPlan("another", { planCode: "business" });\n'),
    options: { projectDir: project.dir, stack: "engine-test-email-plan-twice", removeProject: true },
  });

  test("a second EmailPlan for the same profile fails the preview, naming both; nothing is bought", async () => {
    s.clearRequests();
    const before = wallet();
    const r = await s.run("preview", false);
    expect(r.output.join("\n")).toContain('EmailPlan "another": the program already declares EmailPlan "plan" for the default settings');
    // At most the first plan's free dry run, already under way when the program stopped.
    expect(purchases()).toEqual([]);
    expect(wallet()).toBe(before);
  });
});
