/**
 * Interrupted runs (issue 8), under the real `pulumi` CLI: a multi-resource `up` is killed at a
 * chosen point, `pulumi` and every process it started at once (a crash, `kill -9` of the process
 * tree, a lost CI runner), or its provider host alone, and the README's steps after an interrupted
 * `up` must converge without a duplicate or a second charge. Shared by
 * tests/reliability/interrupted*.test.ts, the acceptance matrix and tools/chaos/chaos.ts.
 *
 * A kill point holds the answers of chosen calls (fault rules `afterCommit` + `delayMs`: the API
 * has acted, the CLI has no id yet) and kills once the request log shows those calls: the window
 * between the provider's API call and the CLI's next checkpoint, where an id is lost.
 *
 * The steps (README.md "After an interrupted `up`"): `pulumi up` again, which after a killed CLI
 * meets its lock in the file backend: the lock's process is gone, so `pulumi cancel` and `up` again.
 * That `up` warns about the pending creates (pkg v3.274.1 resource/deploy/deployment_executor.go
 * `printPendingOperationsWarning`) and checks and creates each such resource as a new one. Each
 * create then adopts what the earlier attempt provably made, or stops with an error naming the
 * object and the `adoptId` line; the scenario adds that line, as the user would, and runs `up` once
 * more. Last, `refresh --clear-pending-creates` drops the pending creates the CLI keeps until then.
 */
import type { EngineStack } from "../support/engine-harness";
import { killRun } from "../support/real-cli";
import { adoptIdsAsked, type ResourceType, apply, baseline, Charges, createCharges, duplicateCount, leaks, plansOf, run, runPastLock, worldProblems, type Declared, type HostHandle, type Plans, type Run } from "./harness";

interface Held {
  method: string;
  path: string;
  skip?: number;
}

export interface KillPoint {
  name: string;
  /** Calls whose answers are held back (the API acts at once, the answer waits). */
  hold: Held[];
  /** Kill once the request log holds every one of these `METHOD /path` patterns ("pending": once
   * the state file records a pending create, before its call may have left; a function: once it
   * answers true for the log's `METHOD /path` lines). */
  killWhen: RegExp[] | "pending" | ((log: string[]) => boolean);
  /** What dies: the whole engine (the CLI) or only the provider host. */
  kill: "engine" | "host";
  /** The stack is deployed first, then changed by `change` for the interrupted run. */
  deployedFirst?: boolean;
  change?: (d: Declared) => Declared;
  /** Run `refresh` before the next `up` (the CLI's `pulumi refresh` / `up --refresh`). */
  refreshFirst?: boolean;
  /** Resources (by name) whose create reached the API at the kill. A killed engine (the CLI) leaves
   * them as pending creates in the state; a killed provider host fails their steps, and a failed step
   * ends its pending operation (pkg/backend/snapshot.go createSnapshotMutation.End), so none is left. */
  pending: string[];
  /** Declared (config) for this point, from the baseline: types, an explicit server name. */
  declare?: (d: Declared) => Declared;
  /** Resources (by name) the checkpoints must have saved with their id before the kill. */
  saved: string[];
  /** Run by `npm run chaos` only (keeps `npm test` bounded). */
  chaosOnly?: boolean;
}

const HOLD_MS = 3_000;

export const KILL_POINTS: KillPoint[] = [
  {
    name: "every top-level create sent, no answer yet (server, domain registration, sending domain, template, webhook)",
    hold: [
      { method: "POST", path: "/api/vps" },
      { method: "POST", path: "/api/domains", skip: 1 },
      { method: "POST", path: "/email/domains" },
      { method: "POST", path: "/email/templates" },
      { method: "POST", path: "/email/webhooks" },
    ],
    // The registration is the second POST /api/domains (check's dry run is the first).
    killWhen: (log) => [/^POST \/api\/vps$/, /^POST \/email\/domains$/, /^POST \/email\/templates$/, /^POST \/email\/webhooks$/].every((re) => seen(re)(log)) && seen(/^POST \/api\/domains$/, 2)(log),
    kill: "engine",
    pending: ["srv", "dom", "sd", "tpl", "hook"],
    // Without the owner details, whose PATCH the registration would wait for (the seeded account's are complete).
    declare: (d) => ({ ...d, types: d.types.filter((t) => t !== "DomainRegistrant") }),
    saved: [],
  },
  {
    // The activation goes first (nothing is read before it, provider/create-once.ts) and keeps the
    // server busy: the firewall rule's create is under way, waiting for the setup to end.
    name: "server ready and saved, its paid backup sent (its firewall rule waiting for the setup), no answer yet",
    hold: [{ method: "POST", path: "/api/vps/*/backup" }],
    killWhen: [/^POST \/api\/vps\/[^/]+\/backup$/],
    kill: "engine",
    refreshFirst: true,
    // The rule's create may or may not have been recorded yet (it waits for the setup in the
    // provider): only the backup's is certain.
    pending: ["bak"],
    saved: ["srv"],
  },
  {
    name: "killed as soon as a create is recorded as pending (before its call may have left)",
    hold: [],
    killWhen: "pending",
    kill: "engine",
    pending: [],
    saved: [],
    chaosOnly: true,
  },
  {
    name: "the provider host dies while the server's create is unanswered (the engine survives)",
    hold: [{ method: "POST", path: "/api/vps" }],
    killWhen: [/^POST \/api\/vps$/],
    kill: "host",
    pending: ["srv"],
    saved: [],
  },
  {
    name: "a webhook replacement's create sent, no answer yet (the old webhook still in the state)",
    hold: [{ method: "POST", path: "/email/webhooks" }],
    killWhen: [/^POST \/email\/webhooks$/],
    kill: "engine",
    deployedFirst: true,
    change: (d) => ({ ...d, hookUrl: "https://hooks.example.com/chaos/replaced" }),
    pending: ["hook"],
    saved: ["hook", "srv", "dom"],
  },
];

const held = (method: string, path: string, skip?: number): Held => ({ method, path, ...(skip ? { skip } : {}) });
const seen = (re: RegExp, times = 1) => (log: string[]) => log.filter((line) => re.test(line)).length >= times;
const only = (...types: ResourceType[]) => (d: Declared): Declared => ({ ...d, types });

/** A `type` added to a deployed server (the program's resource `resource`), whose create is a POST
 * to the server's `/api/vps/<id>/<path>`: what it makes there is provably its own, so it adopts. */
const addedToServer = (type: ResourceType, path: string, resource: string): KillPoint & { expect: "adopts" } => ({
  name: type,
  expect: "adopts",
  declare: only("Vps"),
  deployedFirst: true,
  change: only("Vps", type),
  hold: [held("POST", `/api/vps/*/${path}`)],
  killWhen: [new RegExp(`^POST /api/vps/[^/]+/${path}$`)],
  kill: "host",
  pending: [resource],
  saved: ["srv"],
});

/**
 * Issue 15's matrix: for each type, the provider host is killed right after the type's create
 * reached the emulator (the API acted, the answer is held), and `up` runs again as the real CLI
 * runs it. Each ends with one object and one charge; `expect` says whether the create adopts on its
 * own (a provably own object) or stops and names the `adoptId` to add.
 */
export const CREATE_MATRIX: (KillPoint & { expect: "adopts" | "asks adoptId" })[] = [
  { name: "Vps, default name", expect: "adopts", declare: only("Vps"), hold: [held("POST", "/api/vps")], killWhen: [/^POST \/api\/vps$/], kill: "host", pending: ["srv"], saved: [] },
  {
    name: "Vps, explicit name",
    expect: "asks adoptId",
    declare: (d) => ({ ...d, types: ["Vps"], srvName: "chaos-named-server" }),
    hold: [held("POST", "/api/vps")],
    killWhen: [/^POST \/api\/vps$/],
    kill: "host",
    pending: ["srv"],
    saved: [],
  },
  // check prices the name with a dry-run POST first: the registration is the second POST.
  { name: "Domain", expect: "asks adoptId", declare: only("Domain"), hold: [held("POST", "/api/domains", 1)], killWhen: seen(/^POST \/api\/domains$/, 2), kill: "host", pending: ["dom"], saved: [] },
  addedToServer("VpsBackup", "backup", "bak"),
  addedToServer("VpsFirewallRule", "firewall", "ssh"),
  { name: "SendingDomain", expect: "asks adoptId", declare: only("SendingDomain"), hold: [held("POST", "/email/domains")], killWhen: [/^POST \/email\/domains$/], kill: "host", pending: ["sd"], saved: [] },
  { name: "Template, explicit name", expect: "asks adoptId", declare: only("Template"), hold: [held("POST", "/email/templates")], killWhen: [/^POST \/email\/templates$/], kill: "host", pending: ["tpl"], saved: [] },
  { name: "Webhook", expect: "asks adoptId", declare: only("Webhook"), hold: [held("POST", "/email/webhooks")], killWhen: [/^POST \/email\/webhooks$/], kill: "host", pending: ["hook"], saved: [] },
  {
    name: "Mailbox",
    expect: "asks adoptId",
    declare: only("SendingDomain", "ReceivingDomain"),
    deployedFirst: true,
    change: only("SendingDomain", "ReceivingDomain", "Mailbox"),
    hold: [held("POST", "/email/inbound/addresses")],
    killWhen: [/^POST \/email\/inbound\/addresses$/],
    kill: "host",
    pending: ["mbx"],
    saved: ["sd", "rcv"],
  },
  // The account's one set of details is provably its own: the create takes it over, and the PATCH that went out already holds the program's values.
  {
    name: "DomainRegistrant",
    expect: "adopts",
    declare: only("DomainRegistrant"),
    hold: [held("PATCH", "/api/domains/registrant")],
    killWhen: [/^PATCH \/api\/domains\/registrant$/],
    kill: "host",
    pending: ["owner"],
    saved: [],
  },
  { name: "EmailTopic", expect: "asks adoptId", declare: only("EmailTopic"), hold: [held("POST", "/email/topics")], killWhen: [/^POST \/email\/topics$/], kill: "host", pending: ["topic"], saved: [] },
  { name: "EmailSegment", expect: "asks adoptId", declare: only("EmailSegment"), hold: [held("POST", "/email/segments")], killWhen: [/^POST \/email\/segments$/], kill: "host", pending: ["seg"], saved: [] },
  {
    name: "EmailSuppression",
    expect: "asks adoptId",
    declare: only("EmailSuppression"),
    hold: [held("POST", "/email/suppressions")],
    killWhen: [/^POST \/email\/suppressions$/],
    kill: "host",
    pending: ["sup"],
    saved: [],
  },
];

export interface KillResult {
  point: KillPoint;
  /** Resources whose next create stopped and asked for `adoptId` (the rest adopted on their own). */
  askedAdoptId: string[];
  problems: string[];
  duplicates: number;
  leaks: string[];
  converged: boolean;
  ms: number;
}

/** Runs one kill point from a fresh world; `delayMs` moves the kill later (chaos draws it). */
export async function runKillPoint(s: EngineStack, project: string, point: KillPoint, delayMs = 0): Promise<KillResult> {
  const started = Date.now();
  await s.emu.ctl("POST", "/reset");
  s.resetState();
  const plans: Plans = plansOf(s.world());
  const charges = new Charges();
  const problems: string[] = [];
  const runs: Run[] = [];
  let declared = point.declare ? point.declare(baseline(plans)) : baseline(plans);
  createCharges(charges, s.world(), declared, plans);
  apply(s, project, declared);
  if (point.deployedFirst) {
    // What the interrupted run starts from: no preview pass (`--skip-preview`), nothing is held yet.
    const first = await run(s, "up", undefined, undefined, { skipPreview: true });
    runs.push(first);
    if (!first.ok) problems.push(`first up failed:\n${first.output.join("\n")}`);
    if (point.change) declared = point.change(declared);
    apply(s, project, declared);
    // Nothing was charged but creates: the charges are those of what is declared now.
    charges.items.length = 0;
    createCharges(charges, s.world(), declared, plans);
  }
  // ---- the interrupted run ----
  const interrupted = await interruptedUp(s, point, delayMs);
  problems.push(...interrupted.problems);
  if (interrupted.run) runs.push(interrupted.run);
  const { output, killedAt } = interrupted;

  // ---- what the checkpoints left ----
  const crashed = s.state();
  const pendingNames = (crashed.pendingOperations ?? []).map((p) => p.name).sort();
  if (point.kill === "engine") {
    for (const name of point.pending) if (!pendingNames.includes(name)) problems.push(`no pending create of ${name} in the state left (pending: ${pendingNames.join(", ") || "none"})`);
  } else if (pendingNames.length) problems.push(`pending creates left by failed steps (${pendingNames.join(", ")}): the CLI ends a failed step's operation`);
  if (point.killWhen === "pending" && pendingNames.length === 0) problems.push("no pending create in the state left");
  for (const name of point.saved) {
    if (!crashed.resources.some((r) => r.name === name && r.id)) problems.push(`${name} was created before the kill but the state left has no id for it: no checkpoint`);
  }

  // ---- the next run converges ----
  // The first operation meets the killed CLI's lock (README step 1): `pulumi cancel`, then again.
  const pastLock = async (op: "up" | "refresh"): Promise<Run> => {
    const r = await runPastLock(s, op);
    runs.push(...r.runs);
    if (r.cancel) {
      output.push(r.cancel.stdout, r.cancel.stderr);
      if (r.cancel.code !== 0) problems.push(`pulumi cancel failed:\n${r.cancel.stdout}\n${r.cancel.stderr}`);
    }
    if (point.kill === "engine" && !r.cancel) problems.push(`the first ${op} after the kill did not meet the killed CLI's lock`);
    return r.runs[r.runs.length - 1];
  };
  let next: Run;
  if (point.refreshFirst) {
    const refreshed = await pastLock("refresh");
    if (!refreshed.ok) problems.push(`refresh failed:\n${refreshed.output.join("\n")}`);
    next = await run(s, "up");
    runs.push(next);
  } else next = await pastLock("up");
  const asked: ReturnType<typeof adoptIdsAsked> = {};
  // What a user does with each error naming an `adoptId` line: adds the line and runs `up` again —
  // again while new ones are asked, since a failed step stops the run before others are reached.
  for (let round = 0; round < 10; round++) {
    const more = adoptIdsAsked(next);
    if (!Object.keys(more).some((name) => !(name in asked))) break;
    Object.assign(asked, more);
    declared = { ...declared, adopt: { ...declared.adopt, ...asked } };
    apply(s, project, declared);
    next = await run(s, "up");
    runs.push(next);
  }
  if (!next.ok) problems.push(`the next up failed:\n${next.output.join("\n")}`);
  const cleared = await run(s, "refresh", undefined, undefined, { clearPendingCreates: true });
  runs.push(cleared);
  if (!cleared.ok) problems.push(`refresh --clear-pending-creates failed:\n${cleared.output.join("\n")}`);
  if ((s.state().pendingOperations ?? []).length) problems.push("pending creates are still in the state after refresh --clear-pending-creates");
  const world = worldProblems(s, declared, charges, []);
  problems.push(...world);
  const found = leaks(s, runs, output);
  // The held answers are still waiting in the emulator: let them go before the next scenario.
  await heldAnswersGone(point, killedAt);
  problems.push(...found.map((l) => `secret leaked: ${l}`));
  return { point, askedAdoptId: Object.keys(asked).sort(), problems, duplicates: duplicateCount(s, declared), leaks: found, converged: next.ok && world.length === 0, ms: Date.now() - started };
}

/** How an `up` is interrupted: the calls whose answers are held (`holdMs`, default 3 s), when to kill, and what dies. */
export type Interruption = Pick<KillPoint, "hold" | "killWhen" | "kill"> & { holdMs?: number };

export interface InterruptedUp {
  /** The run, when it ended on its own (the host killed, the engine survived). */
  run?: Run;
  /** What the run printed, the killed run's lines included. */
  output: string[];
  killedAt: number;
  problems: string[];
}

/** Whether a checkpoint file (the file backend's `<stack>.json`) records a pending operation. */
function checkpointHasPending(text: string): boolean {
  const doc = JSON.parse(text) as { checkpoint?: { latest?: { pending_operations?: unknown[] } } };
  return (doc.checkpoint?.latest?.pending_operations ?? []).length > 0;
}

/**
 * One `up` interrupted as `i` says: the held calls' answers wait (fault rules `afterCommit` +
 * `delayMs`), and once the request log shows them (`delayMs` later) either `pulumi` and every
 * process it started are killed (`kill -9` of each, as a crash of the machine or the CI runner),
 * or its provider host alone. The fault rules are removed afterwards; the request log starts empty.
 */
export async function interruptedUp(s: EngineStack, i: Interruption, delayMs = 0): Promise<InterruptedUp> {
  if (i.kill === "engine" && !s.cli) throw new Error("killing `pulumi` needs a stack run by the real CLI");
  const problems: string[] = [];
  let ended: Run | undefined;
  for (const h of i.hold) await s.emu.ctl("POST", "/faults", { ...h, afterCommit: true, delayMs: i.holdMs ?? HOLD_MS, times: 1 });
  s.clearRequests();
  let pid: number | undefined;
  let host: HostHandle | undefined;
  const output: string[] = [];
  let fired = false;
  let killedAt: number | undefined;
  const ready = () => {
    // The checkpoint file itself, as the CLI writes it: `stack export` takes too long to poll.
    if (i.killWhen === "pending") return checkpointHasPending(s.stateText());
    const log = s.emu.control.requests().map((r) => `${r.method} ${r.path}`);
    if (typeof i.killWhen === "function") return i.killWhen(log);
    return i.killWhen.every((re) => log.some((line) => re.test(line)));
  };
  const kill = () => {
    if (killedAt !== undefined) return;
    killedAt = Date.now();
    if (i.kill === "engine") {
      if (pid !== undefined) killRun(pid);
    } else host?.kill();
  };
  let later: NodeJS.Timeout | undefined;
  const watch = setInterval(() => {
    if (fired) return;
    let now = false;
    try {
      now = ready();
    } catch {
      /* the checkpoint file is being written: next tick */
    }
    if (now) {
      fired = true;
      if (delayMs > 0) later = setTimeout(kill, delayMs);
      else kill();
    }
  }, 10);
  try {
    // As `pulumi up --skip-preview`: the held calls are the update's creates. A preview pass would
    // send some of the same routes first (a Domain's or an EmailPlan's priced dry run) and take the
    // holds meant for the creates.
    const r = await run(s, "up", undefined, (h) => (host = h), { skipPreview: true, onStart: (p) => (pid = p) });
    output.push(...r.output);
    // The run ended on its own: the held answers went out before the point was seen.
    if (!fired) problems.push("the kill point was never reached");
    if (i.kill === "engine") {
      if (killedAt === undefined) problems.push(`the up was not interrupted (it ${r.ok ? "succeeded" : "failed"})`);
    } else {
      ended = r;
      if (r.ok) problems.push("the up succeeded although its provider host was killed");
    }
  } finally {
    clearInterval(watch);
    // A kill moved later than the run's end has nothing left to kill (and its pid may be reused).
    clearTimeout(later);
  }
  await s.emu.ctl("DELETE", "/faults");
  return { run: ended, output, killedAt: killedAt ?? Date.now(), problems };
}

/** Waits until the answers an interruption held have gone out (before the next scenario). */
export async function heldAnswersGone(i: Interruption, killedAt: number): Promise<void> {
  const left = killedAt + (i.holdMs ?? HOLD_MS) + 100 - Date.now();
  if (i.hold.length && left > 0) await new Promise((r) => setTimeout(r, left));
}
