/**
 * Interrupted runs (issue 8): a multi-resource `up` is killed at a chosen point, the way a crash or
 * `kill -9` of the CLI would end it, and the next `up` must converge without a duplicate or a
 * second charge. Shared by tests/reliability/interrupted.test.ts and tests/reliability/chaos.ts.
 *
 * A kill point holds the answers of chosen calls (fault rules `afterCommit` + `delayMs`: the API
 * has acted, the engine has no id yet) and kills once the request log shows those calls: the
 * window between the provider's API call and the engine's next checkpoint, where an id is lost.
 */
import { EngineInterrupted } from "../engine/engine";
import type { ProviderHost } from "../support/provider-host";
import type { EngineStack } from "../support/engine-harness";
import { apply, baseline, Charges, createCharges, duplicateCount, leaks, plansOf, run, worldProblems, type Declared, type Plans, type Run } from "./harness";

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
   * the state file records a pending create, before its call may have left). */
  killWhen: RegExp[] | "pending";
  /** What dies: the whole engine (the CLI) or only the provider host. */
  kill: "engine" | "host";
  /** The stack is deployed first, then changed by `change` for the interrupted run. */
  deployedFirst?: boolean;
  change?: (d: Declared) => Declared;
  /** Run `refresh` before the next `up` (the CLI's `pulumi refresh` / `up --refresh`). */
  refreshFirst?: boolean;
  /** Resources (by name) the interrupted run must leave as pending creates in the state. */
  pending: string[];
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
    killWhen: [/^POST \/api\/vps$/, /^POST \/api\/domains$/, /^POST \/email\/domains$/, /^POST \/email\/templates$/, /^POST \/email\/webhooks$/],
    kill: "engine",
    pending: ["srv", "dom", "sd", "tpl", "hook"],
    saved: [],
  },
  {
    name: "server ready and saved, its firewall rule and paid backup sent, no answer yet",
    hold: [
      { method: "POST", path: "/api/vps/*/firewall" },
      { method: "POST", path: "/api/vps/*/backup" },
    ],
    killWhen: [/^POST \/api\/vps\/[^/]+\/firewall$/, /^POST \/api\/vps\/[^/]+\/backup$/],
    kill: "engine",
    refreshFirst: true,
    pending: ["ssh", "bak"],
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

export interface KillResult {
  point: KillPoint;
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
  let declared = baseline(plans);
  createCharges(charges, s.world(), declared, plans);
  apply(s, project, declared);
  if (point.deployedFirst) {
    const first = await run(s, "up");
    runs.push(first);
    if (!first.ok) problems.push(`first up failed:\n${first.output.join("\n")}`);
    if (point.change) declared = point.change(declared);
    apply(s, project, declared);
  }
  for (const h of point.hold) await s.emu.ctl("POST", "/faults", { ...h, afterCommit: true, delayMs: HOLD_MS, times: 1 });
  s.clearRequests();

  // ---- the interrupted run ----
  const controller = new AbortController();
  let host: ProviderHost | undefined;
  const output: string[] = [];
  let killed = false;
  const ready = () => {
    if (point.killWhen === "pending") return (s.state().pendingOperations ?? []).length > 0;
    const log = s.emu.control.requests().map((r) => `${r.method} ${r.path}`);
    return point.killWhen.every((re) => log.some((line) => re.test(line)));
  };
  let killedAt = Date.now();
  const kill = () => {
    killed = true;
    killedAt = Date.now();
    if (point.kill === "engine") controller.abort();
    else host?.kill();
  };
  const watch = setInterval(() => {
    if (killed) return;
    let now = false;
    try {
      now = ready();
    } catch {
      /* the state file is being replaced: next tick */
    }
    if (now) {
      if (delayMs > 0) setTimeout(kill, delayMs);
      else kill();
      killed = true;
    }
  }, 10);
  const giveUp = setTimeout(() => {
    if (!killed) problems.push("the kill point was never reached");
    kill();
  }, 30_000);
  try {
    const r = await run(s, "up", controller.signal, (h) => (host = h));
    runs.push(r);
    output.push(...r.output);
    if (point.kill === "engine") problems.push(`the up was not interrupted (it ${r.ok ? "succeeded" : "failed"})`);
    else if (r.ok) problems.push("the up succeeded although its provider host was killed");
  } catch (err) {
    if (!(err instanceof EngineInterrupted)) throw err;
    output.push(...((err as { output?: string[] }).output ?? []));
  } finally {
    clearInterval(watch);
    clearTimeout(giveUp);
  }
  await s.emu.ctl("DELETE", "/faults");

  // ---- what the checkpoints left ----
  const crashed = s.state();
  const pendingNames = (crashed.pendingOperations ?? []).map((p) => p.name).sort();
  for (const name of point.pending) if (!pendingNames.includes(name)) problems.push(`no pending create of ${name} in the state left (pending: ${pendingNames.join(", ") || "none"})`);
  if (point.killWhen === "pending" && pendingNames.length === 0) problems.push("no pending create in the state left");
  for (const name of point.saved) {
    if (!crashed.resources.some((r) => r.name === name && r.id)) problems.push(`${name} was created before the kill but the state left has no id for it: no checkpoint`);
  }

  // ---- the next run converges ----
  if (point.refreshFirst) {
    const refreshed = await run(s, "refresh");
    runs.push(refreshed);
    if (!refreshed.ok) problems.push(`refresh failed:\n${refreshed.output.join("\n")}`);
  }
  const next = await run(s, "up");
  runs.push(next);
  if (!next.ok) problems.push(`the next up failed:\n${next.output.join("\n")}`);
  if ((s.state().pendingOperations ?? []).length) problems.push("pending creates are still in the state after the next up");
  const world = worldProblems(s, declared, charges, [declared.domainName]);
  problems.push(...world);
  const found = leaks(s, runs, output);
  // The held answers are still waiting in the emulator: let them go before the next scenario.
  const left = killedAt + HOLD_MS + 100 - Date.now();
  if (point.hold.length && left > 0) await new Promise((r) => setTimeout(r, left));
  problems.push(...found.map((l) => `secret leaked: ${l}`));
  return { point, problems, duplicates: duplicateCount(s, declared), leaks: found, converged: next.ok && world.length === 0, ms: Date.now() - started };
}
