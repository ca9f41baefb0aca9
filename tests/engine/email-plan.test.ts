/**
 * The email plan through the test engine against an emulator (issue 26, acceptance 2's interrupted
 * run; the example's lifecycle is tests/engine/mail-setup.test.ts): the provider host is killed
 * after the purchase committed (its answer held) and `up` runs again as the real CLI runs it: one
 * purchase, one charge. A second EmailPlan in one program fails the preview. (The same key on a
 * repeat that overtakes a request still on its way is the emulator's REQUEST_IN_PROGRESS and
 * replay, tests/email-plan/emulator-plan.test.ts.)
 */
import { changes, fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { run, type HostHandle } from "../../tools/chaos/harness";
import { walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

let s: EngineStack;
let balance: number;
const wallet = () => walletOf(s.emu);
const plan = async () => (await s.emu.call("GET", "/email/plan", { key: s.emu.keys.email })).body.data;
/** Real (keyed) purchase calls in the request log. */
const purchases = () => s.emu.control.requests().filter((r) => r.path === "/email/plan" && r.method === "POST" && r.idempotencyKey !== undefined);

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
    let host: HostHandle | undefined;
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
    // skip 2: the checks' dry runs (the preview pass's, then the up pass's) go through.
    await s.emu.ctl("POST", "/faults", { method: "POST", path: "/email/plan", afterCommit: true, delayMs: 3_000, skip: 2, times: 1 });
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
