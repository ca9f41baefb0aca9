/**
 * An interrupted `pulumi up` under the REAL CLI (issue 42 acceptance 3, issue 43 acceptance 3): a
 * program creating 3 servers, the emulator provisioning each for PROVISIONING_S seconds so the
 * interruption lands while the creates wait, then the README's "After an interrupted `up`" steps
 * followed as written (`readmeSteps` below is that section, step by step).
 *
 * - `kill -9` of `pulumi`: no process the CLI started (the language host, the program, the
 *   dynamic-provider host: found by pid before the kill) runs 3 s later; the emulator logs no request
 *   later than 2 s after the kill; the steps end with 3 servers, each charged once.
 * - Ctrl-C (SIGINT to `pulumi`, as a terminal sends it) once, and twice: what the CLI prints and its
 *   exit code, the processes and requests after it, and the same steps ending in the same world.
 *
 * Run with `npx jest -c jest.realcli.config.js tests/cli/interrupted-up.test.ts` once
 * tools/pulumi-cli/build.sh built the CLI. Each scenario prints its timings.
 */
import { fixtureProject, type EngineRun, type EngineStack } from "../../tools/support/engine-harness";
import { cmdline, descendants, running, STACK_LOCKED as LOCKED, type CliOutput } from "../../tools/support/real-cli";
import { freshWorld, liveServers, PLAN, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

// Scaled ×8 by jest.realcli.config.js: 16 min a scenario.
jest.setTimeout(120_000);

/** How long the emulator provisions a server: the interruption lands well inside it. */
const PROVISIONING_S = 20;
const STACK = "cli-interrupted";
const PASSWORD = "Interrupt!2026x";
const project = fixtureProject("cli-interrupted");
const P = project.project;
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () =>
    project.program(`
const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === config.require("plan")).id);
for (const name of ["web-1", "web-2", "web-3"]) {
  new svc.Vps(name, { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
}
`),
  options: { projectDir: project.dir, stack: STACK, removeProject: true, emulator: { transitions: "time", transitionSeconds: PROVISIONING_S } },
  setup: (s) => {
    if (!s.cli) throw new Error("tests/cli/ runs under the real CLI only: npx jest -c jest.realcli.config.js");
    s.config(`${P}:plan`, PLAN.small);
    s.config(`${P}:rootPassword`, PASSWORD, true);
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, probe: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !probe(); await sleep(20)) if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** A request's time on the real clock (the emulator's clock runs `clockOffsetMs` ahead). */
const realMs = (iso: string) => Date.parse(iso) - s.world().clockOffsetMs;
const creates = () => s.emu.control.requests().filter((r) => r.method === "POST" && r.path === "/api/vps");
/** Reads of the servers after the third create: the creates' waits (the poller lists the servers, client/poller.ts). */
const pollsAfterCreates = () => {
  const log = s.emu.control.requests();
  const third = log.findIndex((r, i) => r.method === "POST" && r.path === "/api/vps" && log.slice(0, i + 1).filter((x) => x.method === "POST" && x.path === "/api/vps").length === 3);
  return third < 0 ? [] : log.slice(third + 1).filter((r) => r.method === "GET" && r.path.startsWith("/api/vps"));
};
const cli = (args: string[]): Promise<CliOutput> => s.cli!.command(args);
const text = (o: CliOutput) => `${o.stdout}\n${o.stderr}`;

/** What an interrupted `pulumi up` left: the processes it had started and when each was gone, the requests after it. */
interface Interruption {
  out: CliOutput;
  /** The `pulumi` process's id (the lock names it). */
  pid: number;
  /** The processes under `pulumi` when it was interrupted: their command lines and ms from the first signal to their end (undefined: still running when last looked). */
  plugins: { pid: number; cmd: string; goneMs?: number }[];
  signalledAt: number;
  /** ms from the first signal to the end of the CLI's output (its exit). */
  exitMs: number;
  /** ms from the first signal to the last request the emulator logged before the recovery. */
  lastRequestMs: number;
}

/**
 * `pulumi up` (no preview pass: the creates start at once) interrupted by `signals` — SIGKILL, or
 * one or two SIGINTs a second apart — once the 3 creates reached the API and their waits poll.
 * Watches the processes it had started until `watchMs` after the first signal.
 */
async function interruptedUp(signals: NodeJS.Signals[], watchMs: number): Promise<Interruption> {
  let pid = 0;
  const run = s.cli!.command(["up", "--yes", "--skip-preview"], undefined, (p) => (pid = p));
  let exitedAt = 0;
  const out = run.then((o) => ((exitedAt = Date.now()), o));
  let ended: CliOutput | undefined;
  void out.then((o) => (ended = o));
  await until("3 server creates sent and their waits polling", () => {
    if (ended) throw new Error(`pulumi up ended (exit ${ended.code}) before the kill point:\n${text(ended)}`);
    return pollsAfterCreates().length >= 1;
  }, 120_000);
  const plugins = descendants(pid).map((p) => ({ pid: p, cmd: cmdline(p), goneMs: undefined as number | undefined }));
  const signalledAt = Date.now();
  for (const [i, signal] of signals.entries()) {
    if (i) await sleep(1_000);
    process.kill(pid, signal);
  }
  for (const end = signalledAt + watchMs; Date.now() < end; await sleep(10)) {
    for (const p of plugins) if (p.goneMs === undefined && !running(p.pid)) p.goneMs = Date.now() - signalledAt;
  }
  const result = await out;
  const lastRequestMs = Math.max(...s.emu.control.requests().map((r) => realMs(r.time))) - signalledAt;
  return { out: result, pid, plugins, signalledAt, exitMs: exitedAt - signalledAt, lastRequestMs };
}

interface Step {
  command: string;
  ok: boolean;
  ms: number;
  output: string;
  /** An operation's steps other than `same` ("create web-1"). */
  changes?: string[];
}

/**
 * README.md, "After an interrupted `up`", as written:
 * 1. `pulumi up`. Where the interrupted CLI was killed, the stack is still locked: the CLI says so
 *    and names the lock's pid; with that process gone, `pulumi cancel`, then `pulumi up` again.
 * 2. Errors naming an `adoptId` line: add it and `pulumi up` again (a server with a default name
 *    adopts on its own: none here).
 * 3. Once every pending create's resource is in the stack with an id, `pulumi refresh
 *    --clear-pending-creates`.
 */
async function readmeSteps(): Promise<Step[]> {
  const steps: Step[] = [];
  const timed = async <T extends { ok: boolean; steps?: EngineRun["steps"] }>(command: string, f: () => Promise<T>, output: (r: T) => string): Promise<T> => {
    const t0 = Date.now();
    const r = await f();
    steps.push({ command, ok: r.ok, ms: Date.now() - t0, output: output(r), ...(r.steps ? { changes: r.steps.filter((st) => st.op !== "same").map((st) => `${st.op} ${st.name}`) } : {}) });
    return r;
  };
  const up = () => timed("pulumi up", () => s.execute("up"), (r: EngineRun) => r.output.join("\n"));
  let next = await up();
  const locked = LOCKED.exec(steps[0].output);
  if (!next.ok && locked) {
    // "Check that the process the lock names is gone": nothing else updates the stack.
    expect(running(Number(locked[1]))).toBe(false);
    await timed("pulumi cancel", async () => {
      const o = await cli(["cancel", "--yes"]);
      return { ok: o.code === 0, o };
    }, (r) => text(r.o));
    next = await up();
  }
  expect(next.errors).toEqual([]);
  expect(next.ok).toBe(true);
  const pending = (s.state().pendingOperations ?? []).map((p) => p.name);
  const held = new Set(s.state().resources.filter((r) => r.id).map((r) => r.name));
  if (pending.length && pending.every((name) => held.has(name))) {
    const cleared = await timed("pulumi refresh --clear-pending-creates", () => s.execute("refresh", { clearPendingCreates: true }), (r: EngineRun) => r.output.join("\n"));
    expect(cleared.ok).toBe(true);
  }
  return steps;
}

/** The world the steps must end in: the 3 servers of the program, each made once and charged once, held by the stack. */
function expectThreeServersChargedOnce(walletBefore: number, price: number): void {
  const live = liveServers(s.world());
  expect(live).toHaveLength(3);
  expect(creates().filter((r) => r.status < 300)).toHaveLength(3);
  expect(walletOf(s.emu)).toBe(walletBefore - 3 * price);
  const state = s.state();
  expect(state.pendingOperations ?? []).toEqual([]);
  expect(state.resources.filter((r) => r.type.endsWith("svc:Vps")).map((r) => r.id).sort()).toEqual(live.map((v) => v.id).sort());
}

/** Prints what an interruption left (before any assertion on it: a failing run shows its numbers too). */
function reportInterruption(name: string, i: Interruption): void {
  const kinds = i.plugins.map((p) => `${/dynamic-provider|pulumi-resource-pulumi-nodejs/.test(p.cmd) ? "provider host" : /pulumi-language-nodejs/.test(p.cmd) ? "language host" : /cmd\/run/.test(p.cmd) ? "program" : p.cmd.slice(0, 40)} ${p.goneMs === undefined ? "still running" : `${p.goneMs} ms`}`);
  console.log(
    [
      `${name}: pulumi exit ${i.out.code}, its output closed ${i.exitMs} ms after the (first) signal; the last request ${i.lastRequestMs} ms after the (first) signal; processes gone after: ${kinds.join(", ")}`,
      `  the interrupted CLI printed (its end):\n${text(i.out).split("\n").filter(Boolean).slice(-15).map((l) => `    | ${l}`).join("\n")}`,
    ].join("\n"),
  );
}

function reportSteps(name: string, steps: Step[]): void {
  console.log([`${name}, the README's steps:`, ...steps.map((st) => `  ${st.command}: ${st.ok ? "ok" : "failed"} (${(st.ms / 1000).toFixed(1)} s)${st.changes ? `, changes: ${st.changes.join(", ") || "none"}` : ""}${st.ok ? "" : `\n${st.output.split("\n").filter(Boolean).slice(-4).map((l) => `    | ${l}`).join("\n")}`}`)].join("\n"));
}

let price = 0;
let walletBefore = 0;
beforeEach(async () => {
  await freshWorld(s.emu, { mode: "time", seconds: PROVISIONING_S });
  s.resetState();
  const plans = (await s.emu.call("GET", "/api/vps/plans", { key: s.emu.keys.account })).body.data as { name: string; prices: { monthly: number } }[];
  price = plans.find((p) => p.name === PLAN.small)!.prices.monthly;
  walletBefore = walletOf(s.emu);
  s.clearRequests();
});

test("kill -9 of `pulumi` mid-create: every process it started is gone within 3 s, no request 2 s after; the README's steps end with 3 servers, each charged once", async () => {
  const i = await interruptedUp(["SIGKILL"], 5_000);
  reportInterruption("kill -9", i);
  expect(i.lastRequestMs).toBeLessThanOrEqual(2_000);
  // The language host, the program, the provider host's launcher and its node process.
  expect(i.plugins.length).toBeGreaterThanOrEqual(4);
  expect(i.plugins.filter((p) => p.goneMs === undefined || p.goneMs > 3_000)).toEqual([]);
  // The CLI recorded the 3 creates as pending before their calls.
  expect((s.state().pendingOperations ?? []).map((p) => p.name).sort()).toEqual(["web-1", "web-2", "web-3"]);

  const steps = await readmeSteps();
  reportSteps("kill -9", steps);
  // The file backend kept the killed CLI's lock: the first `pulumi up` met it, `pulumi cancel` removed it.
  expect(steps.map((st) => `${st.command} ${st.ok ? "ok" : "failed"}`)).toEqual(["pulumi up failed", "pulumi cancel ok", "pulumi up ok", "pulumi refresh --clear-pending-creates ok"]);
  expect(steps[0].output).toMatch(LOCKED);
  expect(Number(LOCKED.exec(steps[0].output)![1])).toBe(i.pid);
  expect(steps[1].output).toContain(`The currently running update for '${STACK}' has been canceled!`);
  expect(steps[2].output).toContain("Attempting to deploy or update resources with 3 pending operations from previous deployment.");
  expectThreeServersChargedOnce(walletBefore, price);
});

test("Ctrl-C once: the CLI cancels, lets the creates under way finish and records them, ends its processes and exits 1, leaving no lock; `pulumi up` finds nothing to do", async () => {
  const i = await interruptedUp(["SIGINT"], (PROVISIONING_S + 15) * 1000);
  reportInterruption("Ctrl-C once", i);
  const printed = text(i.out);
  // pkg/backend/cancellation_scope.go, for an update:
  expect(printed).toContain("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
  expect(printed).toContain("Note that terminating immediately may lead to orphaned resources and other inconsistencies.");
  expect(printed).toContain("error: update canceled");
  expect(i.out.code).toBe(1);
  // The language host's `Cancel` interrupted the program at once; the creates under way went on to
  // their end and were recorded; then the CLI closed its plugins.
  expect(i.plugins.filter((p) => p.goneMs === undefined || p.goneMs > i.exitMs + 1_000)).toEqual([]);
  expect(s.state().pendingOperations ?? []).toEqual([]);
  expect(s.state().resources.filter((r) => r.type.endsWith("svc:Vps") && r.id)).toHaveLength(3);
  const steps = await readmeSteps();
  reportSteps("Ctrl-C once", steps);
  expect(steps.map((st) => `${st.command} ${st.ok ? "ok" : "failed"}`)).toEqual(["pulumi up ok"]);
  expect(steps[0].changes).toEqual([]);
  expectThreeServersChargedOnce(walletBefore, price);
});

test("Ctrl-C twice: the CLI terminates at once, kills its processes and exits 8, leaving the creates pending and no lock; the steps converge", async () => {
  const i = await interruptedUp(["SIGINT", "SIGINT"], 6_000);
  reportInterruption("Ctrl-C twice", i);
  const printed = text(i.out);
  expect(printed).toContain("^C received; terminating");
  expect(printed).toContain("error: update cancelled");
  // cmd/pulumi/cmd/exit_codes.go: ExitCancelled = 8.
  expect(i.out.code).toBe(8);
  // The second ^C came 1 s after the first: measured from it, the same bounds as a kill -9's.
  expect(i.lastRequestMs).toBeLessThanOrEqual(1_000 + 2_000);
  expect(i.plugins.filter((p) => p.goneMs === undefined || p.goneMs > 1_000 + 3_000)).toEqual([]);
  expect((s.state().pendingOperations ?? []).map((p) => p.name).sort()).toEqual(["web-1", "web-2", "web-3"]);
  const steps = await readmeSteps();
  reportSteps("Ctrl-C twice", steps);
  expect(steps.map((st) => `${st.command} ${st.ok ? "ok" : "failed"}`)).toEqual(["pulumi up ok", "pulumi refresh --clear-pending-creates ok"]);
  expectThreeServersChargedOnce(walletBefore, price);
});
