/**
 * The acceptance matrix's runner (issue 23; Terraform's acceptance tests are the model: plan empty
 * after apply, ImportStateVerify, CheckDestroy). Every row (acceptance-rows.ts) is declared in ONE
 * generated program, so each step is one `pulumi` operation for all rows at once, under the real
 * CLI (tools/support/real-cli.ts); what each row must see after a run is read from what the run
 * left — its steps (the CLI's event log), the stack's state (`stack export`) and checkpoint file, the
 * emulator's world and request log — never from the printed text.
 *
 * Steps, in order, on one stack: create → preview plans nothing → refresh reads no change → a
 * second stack adopts every object (`adoptId`) and its outputs equal the first's → each object is
 * deleted out of band → refresh drops it → `up` makes it again → destroy → nothing of the type is
 * left at the API. Cells, each from a fresh world: 500 on create; interrupted create rerun; bad
 * input refused at preview with no API call.
 */
import type { World } from "../../emulator";
import type { Operation, ResourceState, RunResult, StackState, StepOp } from "../../tools/support/stack-state";
import { engineStack, type EngineRun, type EngineStack, type RunOptions } from "../../tools/support/engine-harness";
import type { TestEmulator } from "../../tools/support/emulator";
import { adoptIdLinesAsked, secretsShown } from "../../tools/support/run-findings";
import { emailRecords, SEEDED_WALLET, type Props } from "../../tools/support/world";
import { declared, type AcceptanceRow, type ApiCall, type Ids } from "../../tools/support/acceptance-rows";

export { declared };

/** One run of a matrix stack: its steps and errors, and what the CLI printed. */
export type Run = EngineRun;

/** The root password of every server the rows' `needs` make (a secret config value). */
export const ROOT_PASSWORD = "Acceptance!pass2026x";

export type { AcceptanceRow, ApiCall, Ids } from "../../tools/support/acceptance-rows";

export type StepName =
  | "create"
  | "secrets: none in clear"
  | "preview: no changes"
  | "refresh: no changes"
  | "preview: in-place update"
  | "get"
  | "adopt: outputs equal"
  | "deleted out of band"
  | "refresh drops it"
  | "up makes it again"
  | "destroy"
  | "nothing left"
  | "500 on create"
  | "interrupted create"
  | "bad input at preview";

export const STEPS: StepName[] = [
  "create",
  "secrets: none in clear",
  "preview: no changes",
  "refresh: no changes",
  "preview: in-place update",
  "get",
  "adopt: outputs equal",
  "deleted out of band",
  "refresh drops it",
  "up makes it again",
  "destroy",
  "nothing left",
  "500 on create",
  "interrupted create",
  "bad input at preview",
];

/** Problems per row type (empty: the cell passed). */
export type RowProblems = Record<string, string[]>;

/** The program of all rows: `rows` (config) says which are declared, `phase` whether only what they need, `bad` their bad-input lines. */
export function programOf(rows: AcceptanceRow[]): string {
  const blocks = rows.map(
    (row) => `if (rows.includes(${JSON.stringify(row.type)})) {
  if (bad) {
    ${row.badInput.program}
  } else {
    ${row.needs ?? ""}
    if (phase === "all") {
      ${row.program}
    }
    ${getLines(row)}
  }
}`,
  );
  return `const rows = (config.get("rows") || "").split(",");
const phase = config.get("phase") || "all";
const bad = config.getBoolean("bad") || false;
const adopt = (name) => config.get("adopt_" + name) || undefined;
const planId = config.get("planId");
const sharedPlanId = config.get("sharedPlanId");
const rootPassword = config.getSecret("rootPassword");
const changed = config.getBoolean("changed") || false;
${blocks.join("\n")}
`;
}

/**
 * With config `get_<name>` set to an id: `svc.<Type>.get("<name>Get", id, state)`, its computed
 * outputs (what the API makes, secrets aside) exported as `get_<name>`.
 */
function getLines(row: AcceptanceRow): string {
  const keys = Object.keys(computedOutputs(row.type));
  const exported = ["id", ...keys].map((k) => `${k}: got.${k}`).join(", ");
  return `if (config.get("get_${row.name}")) {
      const got = svc.${row.type}.get("${row.name}Get", config.get("get_${row.name}"), ${row.getState ?? "undefined"});
      exports.get_${row.name} = pulumi.all({ ${exported} });
    }`;
}

/** The outputs only the provider sets (what a read of the live object answers), secrets aside, from the sdk's generated file. */
export function computedOutputs(type: string): Record<string, undefined> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const generated = require(`../../sdk/generated/${type}`) as Record<string, { computed: Record<string, undefined>; secret: string[] }>;
  const spec = Object.values(generated).find((v) => v && typeof v === "object" && "computed" in v)!;
  return Object.fromEntries(Object.keys(spec.computed).filter((k) => !spec.secret.includes(k)).map((k) => [k, undefined]));
}

const DYNAMIC = "pulumi-nodejs:dynamic/svc:";

/** One stack of the matrix's project, its config written for `rows`. */
export class MatrixStack {
  /** Every run of this stack, for the secrets check. */
  readonly runs: Run[] = [];
  /** The `pulumi` operations every matrix stack ran, by operation (printed after the file). */
  static readonly operations: Partial<Record<Operation, number>> = {};
  /** What one clean `up` of every row charges, from the seeded wallet (the create step measures it). */
  createCost: number | undefined;

  constructor(
    readonly s: EngineStack,
    readonly project: string,
    readonly rows: AcceptanceRow[],
  ) {}

  static async start(projectDir: string, project: string, stack: string, rows: AcceptanceRow[], shared?: TestEmulator): Promise<MatrixStack> {
    const s = await engineStack({ projectDir, stack, sharedEmulator: shared });
    if (!s.cli) {
      await s.close();
      throw new Error("the acceptance matrix runs under the real CLI only: npx jest -c jest.realcli.config.js tests/acceptance");
    }
    const m = new MatrixStack(s, project, rows);
    if (!shared) await m.preCheck();
    m.configure({});
    return m;
  }

  /** Every row's preCheck, on a fresh world. */
  async preCheck(): Promise<void> {
    for (const row of this.rows) await row.preCheck?.(this.s.emu);
  }

  set(key: string, value: string, secret = false): void {
    this.s.config(`${this.project}:${key}`, value, secret);
  }

  /** Declares `types` (default: every row), the phase, bad-input mode and the adoptIds given. */
  configure(o: { types?: string[]; phase?: "needs" | "all"; bad?: boolean; adopt?: Ids; changed?: boolean; get?: Ids }): void {
    this.set("rows", (o.types ?? this.rows.map((r) => r.type)).join(","));
    this.set("phase", o.phase ?? "all");
    this.set("bad", String(o.bad ?? false));
    this.set("changed", String(o.changed ?? false));
    for (const row of this.rows) this.set(`get_${row.name}`, o.get?.[row.name] ?? "");
    this.set("planId", this.s.world().catalog.vpsPlans[0].id);
    this.set("sharedPlanId", this.s.world().catalog.vpsPlans.find((p) => p.sharedAddress)!.id);
    this.set("rootPassword", ROOT_PASSWORD, true);
    for (const row of this.rows) for (const { name } of declared(row)) this.set(`adopt_${name}`, o.adopt?.[name] ?? "");
  }

  /** One `pulumi` operation on this stack (`extra`: its flags, as tools/support/real-cli.ts `CliRunOptions` names them). */
  async run(op: Operation, extra: RunOptions = {}): Promise<Run> {
    MatrixStack.operations[op] = (MatrixStack.operations[op] ?? 0) + 1;
    const r = await this.s.execute(op, extra);
    this.runs.push(r);
    return r;
  }

  /** Problems when the wallet is not the seeded one less exactly one clean `up`'s charges (nothing charged twice). */
  chargedOnce(): string[] {
    const spent = SEEDED_WALLET - this.s.world().account.wallet;
    return this.createCost === undefined || spent === this.createCost ? [] : [`charged ${spent}, one clean up charges ${this.createCost}: ${spent > this.createCost ? "charged twice" : "a charge missing"}`];
  }

  /** Secrets (keys, the root password, webhook secrets) shown in the state file, the runs' output or the request log. */
  leaks(printed: string[] = []): string[] {
    return leaksOf(this.s, this.runs, printed);
  }

  state(): StackState {
    return this.s.state();
  }

  resource(name: string): ResourceState | undefined {
    return this.state().resources.find((r) => r.name === name && !r.pendingDelete);
  }

  ids(): Ids {
    return Object.fromEntries(this.state().resources.filter((r) => r.id && !r.pendingDelete).map((r) => [r.name, r.id!]));
  }

  /** Ids in the state of resources of `type`, sorted. */
  idsOfType(type: string): string[] {
    return this.state()
      .resources.filter((r) => r.type === DYNAMIC + type && r.id && !r.pendingDelete)
      .map((r) => r.id!)
      .sort();
  }
}

/** The secret values no stack of the matrix may show: the API keys, the servers' root password, every webhook's secret. */
function secretValues(s: EngineStack): string[] {
  const values = [...Object.values(s.emu.keys), ROOT_PASSWORD, ...emailRecords(s.world()).webhooks.map((h) => h.secret)];
  return values.filter((v, i, all): v is string => typeof v === "string" && v.length >= 8 && all.indexOf(v) === i);
}

/** Secrets shown in the stack's state file, the runs' output (`printed` besides) or the request log. */
function leaksOf(s: EngineStack, runs: Run[], printed: string[] = []): string[] {
  return secretsShown(s, secretValues(s), runs, printed).map((l) => `secret shown: ${l}`);
}

/** The step the run took for `name` ("none" when it took none). */
export function stepOf(r: RunResult, name: string): { op: StepOp | "none"; error?: string } {
  const s = r.steps.find((x) => x.name === name);
  return s ? { op: s.op, error: s.error } : { op: "none" };
}

/** Problems when the run's steps for `names` are not `op`, or failed. */
export function expectSteps(r: RunResult, names: string[], op: StepOp): string[] {
  return names.flatMap((name) => {
    const s = stepOf(r, name);
    return s.op === op && !s.error ? [] : [`${name}: step ${s.op}${s.error ? ` failed: ${s.error}` : ""}, ${op} expected`];
  });
}

/** "The API holds exactly the objects the state names" for the row's type: no duplicate, nothing missing. */
export function sameAsState(row: AcceptanceRow, m: MatrixStack): string[] {
  const w = m.s.world();
  const live = row.list(w).sort();
  const stated = m.idsOfType(row.type);
  const problems = JSON.stringify(live) === JSON.stringify(stated) ? [] : [`${row.type} at the API: ${JSON.stringify(live)}; in the state: ${JSON.stringify(stated)}`];
  const r = m.resource(row.name);
  if (r && row.agrees) problems.push(...row.agrees(w, r));
  return problems;
}

/**
 * Outputs compared on adoption: everything but secrets, `adoptId` (the adopting stack's own input,
 * echoed) and what the row says may differ.
 */
export function comparable(r: ResourceState | undefined, differs: Record<string, string> = {}): Props {
  if (!r) return {};
  const out: Props = {};
  for (const [k, v] of Object.entries(r.outputs)) if (k !== "__provider" && k !== "adoptId" && !r.secrets.includes(k) && !(k in differs)) out[k] = v;
  return out;
}

/** A fault rule that answers `call` with a 500 before acting, once. */
export const fault500 = (call: ApiCall) => ({ ...call, status: 500, code: "INTERNAL_ERROR", times: 1 });

/** `METHOD path` of an ApiCall, as the request log shows it. */
const callText = (c: ApiCall) => `${c.method} ${c.path}`;

/**
 * Cell "500 on create": what the rows need is made first; then every row's create call answers 500
 * once. The `up` succeeds for a row (the provider retried a safe call) or fails it with the status
 * and code; every fault was hit; the next `up` converges with exactly the declared objects, no
 * pending create.
 */
export async function create500(m: MatrixStack): Promise<RowProblems> {
  const { problems, calls } = await cellStart(m);
  for (const c of calls) await m.s.emu.ctl("POST", "/faults", fault500(c));
  // `--continue-on-error`: a failed create stops only what depends on it (pkg/resource/deploy/step_executor.go,
  // `continueOnError`), so one `up` meets every row's fault; without it the CLI starts no step after
  // the first failure. No preview pass (`--skip-preview`): the faults are on creates, which
  // a preview never sends; the converging `up` below runs with its preview.
  const faulted = await m.run("up", { skipPreview: true, continueOnError: true });
  const rules = (await m.s.emu.ctl("GET", "/faults")).body.data as { used: number }[];
  await m.s.emu.ctl("DELETE", "/faults");
  m.rows.forEach((row, i) => {
    if (rules[i].used === 0) problems[row.type].push(`the 500 on ${callText(calls[i])} was never hit: the cell proves nothing`);
    const s = stepOf(faulted, row.name);
    if (s.error && !/\b500\b/.test(s.error)) problems[row.type].push(`the failed create does not name the 500: ${s.error}`);
  });
  const next = await m.run("up");
  for (const row of m.rows) {
    const s = stepOf(faulted, row.name);
    const made = s.op === "create" && !s.error;
    problems[row.type].push(...expectSteps(next, [row.name], made ? "same" : "create"));
    problems[row.type].push(...sameAsState(row, m));
    if ((m.state().pendingOperations ?? []).some((p) => p.name === row.name)) problems[row.type].push("a pending create is left");
  }
  const global = [...m.chargedOnce(), ...m.leaks()];
  for (const row of m.rows) problems[row.type].push(...global);
  return problems;
}

/**
 * How long an interrupted create's answer is held after the API acted: long enough that every row's
 * create reaches the API before the first answer would get out, on a busy machine. Nothing waits
 * for the answers once the host is killed; the cell lets them go before it ends.
 */
const HOLD_MS = 30_000;

/**
 * `pulumi up --skip-preview` with the answers of `calls` held after the API acted (fault rules
 * `afterCommit` + `delayMs`) and its provider host killed (SIGKILL) once `seen` finds them in the
 * request log: the window between a create's API call and the CLI's record of its id. The CLI
 * survives and fails each step under way. `--parallel` is the number of creates, so every row's is
 * under way at the kill (the CLI's default, 4 × the CPUs, is 8 on two cores:
 * pkg/cmd/pulumi/operations/up.go `defaultParallel`). No preview pass: a Domain's or an EmailPlan's
 * priced dry run would take the holds meant for the creates.
 */
async function hostKilledUp(m: MatrixStack, calls: ApiCall[], seen: (log: string[]) => boolean): Promise<{ killedAt: number; problems: string[] }> {
  for (const c of calls) await m.s.emu.ctl("POST", "/faults", { ...c, afterCommit: true, delayMs: HOLD_MS, times: 1 });
  m.s.clearRequests();
  let host: { kill(): void } | undefined;
  let killedAt: number | undefined;
  const watch = setInterval(() => {
    if (killedAt !== undefined || !host || !seen(m.s.emu.control.requests().map((r) => `${r.method} ${r.path}`))) return;
    killedAt = Date.now();
    host.kill();
  }, 10);
  let r: Run;
  try {
    r = await m.run("up", { skipPreview: true, parallel: calls.length, onProviderHost: (h) => (host = h) });
  } finally {
    clearInterval(watch);
  }
  await m.s.emu.ctl("DELETE", "/faults");
  const problems: string[] = [];
  if (killedAt === undefined) problems.push(`the kill point was never reached: the up ${r.ok ? "succeeded" : "failed"} first: ${r.errors.join(" | ")}`);
  else if (r.ok) problems.push("the up succeeded although its provider host was killed");
  return { killedAt: killedAt ?? Date.now(), problems };
}

/**
 * Cell "interrupted create": what the rows need is made first; then every row's create call is held
 * after the API acted and the provider host is killed once all of them reached the API; `up` runs
 * again. Each row adopts what it made or names the `adoptId` line, as the row says; with those lines
 * added `up` converges, with exactly the declared objects; `refresh --clear-pending-creates` leaves
 * no pending create.
 */
export async function interruptedCreate(m: MatrixStack): Promise<RowProblems> {
  const { problems, calls } = await cellStart(m);
  // Rows whose creates share a route (a mailbox and an alias) each wait for their own request: the
  // route must have been called once per such row, past the requests skipped before them.
  const needed = (c: ApiCall) => calls.filter((o) => callText(o) === callText(c)).length + (c.skip ?? 0);
  const seen = (log: string[]) => calls.every((c) => log.filter((line) => line === callText(c)).length >= needed(c));
  const killed = await hostKilledUp(m, calls, seen);
  const pending = (m.state().pendingOperations ?? []).map((p) => p.name);
  for (const row of m.rows) {
    problems[row.type].push(...killed.problems);
    // The host's death fails each create step, and a failed step ends its pending operation
    // (pkg/backend/snapshot.go `createSnapshotMutation.End`).
    if (pending.includes(row.name)) problems[row.type].push(`a pending create of ${row.name} left by a failed step: the CLI ends a failed step's operation`);
  }
  // What a user does with each error naming an `adoptId` line: adds the line and runs `up` again,
  // again while a rerun asks for new ones. `--continue-on-error`: one row's refused create stops no
  // other row's. A refusal at check (a Domain's name already in the account) still ends the whole
  // deployment before any create (pkg/resource/deploy/step_generator.go `continueStepsFromImport`:
  // "resource %s is invalid"), so the creates' lines come with the next rerun.
  const asked: Ids = {};
  let next: Run;
  for (let round = 1; ; round++) {
    next = await m.run("up", { continueOnError: true });
    const more = adoptIdLinesAsked(next);
    const fresh = Object.keys(more).filter((name) => !(name in asked));
    Object.assign(asked, more);
    if (!fresh.length || round > m.rows.length) break;
    m.configure({ phase: "all", adopt: asked });
  }
  for (const row of m.rows) {
    const didAsk = asked[row.name] !== undefined;
    if (didAsk !== (row.interrupted === "asks adoptId")) problems[row.type].push(`the rerun ${didAsk ? `asked for adoptId ${asked[row.name]}` : "did not ask for adoptId"}; the row says it ${row.interrupted}`);
  }
  const cleared = await m.run("refresh", { clearPendingCreates: true });
  for (const row of m.rows) {
    const last = stepOf(next, row.name);
    if (last.error || !next.ok) problems[row.type].push(`the last up failed: ${last.error ?? next.errors.join(" | ")}`);
    if (!cleared.ok) problems[row.type].push(`refresh --clear-pending-creates failed: ${cleared.errors.join(" | ")}`);
    problems[row.type].push(...sameAsState(row, m));
  }
  const global = [...m.chargedOnce(), ...m.leaks()];
  if ((m.state().pendingOperations ?? []).length) global.push("pending creates left after refresh --clear-pending-creates");
  for (const row of m.rows) problems[row.type].push(...global);
  // The held answers are still waiting in the emulator: let them go before the next cell.
  const left = killed.killedAt + HOLD_MS + 100 - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
  return problems;
}

/**
 * Cell "bad input at preview": each row's bad-input lines alone, previewed (the engine stops a
 * deployment at its first invalid resource, so one program with every mistake would prove only the
 * first); the preview fails naming the resource and the property, and the emulator answered no
 * request at all. The previews run a few at a time, on as many stacks, each previewing row after
 * row (a preview writes no state); should the API have been called, they run again one at a time to
 * tell whose preview called it.
 */
export async function badInputs(m: MatrixStack, projectDir: string): Promise<RowProblems> {
  const preview = async (own: MatrixStack, row: AcceptanceRow): Promise<string[]> => {
    own.runs.length = 0;
    own.configure({ types: [row.type], bad: true });
    const r = await own.run("preview");
    const problems: string[] = [];
    if (r.ok) problems.push("the preview succeeded");
    const { name } = declared({ ...row, needs: undefined, program: row.badInput.program })[0];
    if (!r.errors.some((e) => e.includes(name) && e.includes(row.badInput.property))) problems.push(`no error names ${name} and ${row.badInput.property}: ${r.errors.join(" | ")}`);
    problems.push(...own.leaks());
    return problems;
  };
  const stacks: MatrixStack[] = [];
  try {
    for (let i = 0; i < Math.min(PREVIEWS_AT_ONCE, m.rows.length); i++) stacks.push(await MatrixStack.start(projectDir, m.project, `acceptance-bad-${i}`, m.rows, m.s.emu));
    m.s.clearRequests();
    const together = await inPool(m.rows, stacks, (own, row) => preview(own, row));
    const called = m.s.emu.control.requests().map((x) => `${x.method} ${x.path}`);
    const problems: RowProblems = Object.fromEntries(m.rows.map((row, i) => [row.type, together[i]]));
    if (called.length) {
      for (const row of m.rows) {
        m.s.clearRequests();
        await preview(stacks[0], row);
        const requests = m.s.emu.control.requests().map((x) => `${x.method} ${x.path}`);
        if (requests.length) problems[row.type].push(`the API was called: ${requests.join(", ")}`);
      }
    }
    return problems;
  } finally {
    for (const own of stacks) await own.s.close();
  }
}

/** Previews at once: each is the CLI, the language host and two node processes (the program's and the provider host), mostly CPU at start. */
const PREVIEWS_AT_ONCE = 4;

/** `f` over `items`, one worker per `workers` entry (each handed to `f`); answers in the items' order. */
async function inPool<T, W, R>(items: T[], workers: W[], f: (worker: W, item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const work = async (worker: W) => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(worker, items[i]);
    }
  };
  await Promise.all(workers.map(work));
  return out;
}

/**
 * A cell's start: the seeded world, no state, no fault; one `up` of what the rows need; then every
 * row declared. Answers each row's create call (where the cell injects its fault) and the problems so far.
 */
async function cellStart(m: MatrixStack): Promise<{ problems: RowProblems; calls: ApiCall[] }> {
  const problems: RowProblems = Object.fromEntries(m.rows.map((r) => [r.type, []]));
  await m.s.emu.ctl("POST", "/reset");
  await m.preCheck();
  m.s.resetState();
  m.runs.length = 0;
  m.configure({ phase: "needs" });
  // The cell's setup, not its subject: no preview pass (the matrix's own steps are about previews).
  const needs = await m.run("up", { skipPreview: true });
  if (!needs.ok) for (const row of m.rows) problems[row.type].push(`up of what the rows need failed: ${needs.errors.join(" | ")}`);
  const ids = m.ids();
  m.configure({ phase: "all" });
  return { problems, calls: m.rows.map((row) => row.createCall(ids)) };
}

/** Whether the step has nothing to prove for the row (it says why: `inPlace.none`, no secret value). */
function notApplicable(row: AcceptanceRow, step: StepName): boolean {
  if (step === "preview: in-place update") return "none" in row.inPlace;
  if (step === "secrets: none in clear") return !row.secrets;
  return false;
}

/** The type × step table, with each step's wall time (one `pulumi` operation, or a few, serve every row). */
export function table(rows: AcceptanceRow[], results: Map<StepName, { problems: RowProblems; ms: number }>): string {
  const steps = STEPS.filter((s) => results.has(s));
  const head = `| type | ${steps.join(" | ")} |`;
  const rule = `|---|${steps.map(() => "---").join("|")}|`;
  const cell = (row: AcceptanceRow, s: StepName) => (results.get(s)!.problems[row.type]?.length ? "FAIL" : notApplicable(row, s) ? "n/a" : "pass");
  const lines = rows.map((row) => `| ${row.type} | ${steps.map((s) => cell(row, s)).join(" | ")} |`);
  const time = `| (wall time, all rows) | ${steps.map((s) => `${(results.get(s)!.ms / 1000).toFixed(1)} s`).join(" | ")} |`;
  return [head, rule, ...lines, time].join("\n");
}
