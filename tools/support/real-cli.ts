/**
 * The real `pulumi` CLI as an engine (docs/real-cli.md): the binary tools/pulumi-cli/build.sh puts in
 * .pulumi-cli/bin/, driven the way a user drives it — a local file backend (`pulumi login
 * file://…`), passphrase secrets, no update check, no plugin download — and read back through its
 * own outputs: the engine events it writes with `--event-log`, and `pulumi stack export`. Answers
 * a RunResult and a StackState (tools/support/stack-state.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePackageLink } from "./project";
import { packageRoot } from "./provider-host";
import { SECRET_SIG, SIG_KEY, type Operation, type PendingOperation, type Props, type ResourceState, type RunResult, type StackState, type Step, type StepOp } from "./stack-state";

const ROOT = packageRoot(__dirname);
/** The `pulumi` the stack tests run (npm test's global setup, tools/pulumi-cli/locate.js, names it in
 * SVC_PULUMI_BIN: a supported one on PATH), else the one tools/pulumi-cli/build.sh builds. The directory
 * holds the language host and the `pulumi-nodejs` provider beside the CLI. */
export const CLI_BIN_DIR = process.env.SVC_PULUMI_BIN || join(ROOT, ".pulumi-cli", "bin");
export const CLI = join(CLI_BIN_DIR, "pulumi");

/** True when the CLI, its language host and the dynamic-provider launcher are there. */
export const realCliPresent = (): boolean => existsSync(CLI) && existsSync(join(CLI_BIN_DIR, "pulumi-language-nodejs")) && existsSync(join(CLI_BIN_DIR, "pulumi-resource-pulumi-nodejs"));

/** Why there is no CLI to run a stack under: what npm test's global setup found, or how to get one. */
export const realCliMissing = (): string =>
  process.env.SVC_PULUMI_MISSING ?? `no pulumi CLI in ${CLI_BIN_DIR}: run npm run build:real-cli (Go needed) or put pulumi ≥ 3.139 on PATH`;

/** The CLI's version: the one the build stamped (tools/pulumi-cli/go.mod's pin), or what it says. */
export function realCliVersion(): string {
  const stamped = join(CLI_BIN_DIR, "VERSION");
  if (existsSync(stamped)) return readFileSync(stamped, "utf8").trim();
  return spawnSync(CLI, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }).stdout.trim();
}

/**
 * The environment of every CLI call: the built binaries first on PATH (the CLI finds its language
 * host and the `pulumi-nodejs` provider there, so nothing is downloaded), a PULUMI_HOME of the
 * stack's own (no plugin cache, no credentials of the developer's), the file backend, and nothing
 * that reaches the network (update check, plugin acquisition, telemetry).
 */
export function cliEnv(home: string, backendDir: string, passphrase: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${CLI_BIN_DIR}:${process.env.PATH ?? ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    PULUMI_DIY_BACKEND_GZIP: "false",
    PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS: "true",
    // `--event-log` (the engine events as JSON lines) is among the commands and flags this shows.
    PULUMI_DEBUG_COMMANDS: "true",
    PULUMI_ACCESS_TOKEN: "",
    NO_COLOR: "1",
  };
}

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** The processes under `pid` (children, grandchildren…), from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

/** Whether process `pid` runs: exists and is not a zombie (a dead child of a killed CLI waits for a reaper that may never come). */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

export const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
};

/** Kills (SIGKILL) the dynamic-provider host the CLI run `pid` started: its launcher and its node process. */
export function killProviderHost(pid: number): number {
  const hosts = descendants(pid).filter((p) => /pulumi-resource-pulumi-nodejs|cmd\/dynamic-provider/.test(cmdline(p)));
  for (const p of hosts) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  return hosts.length;
}

/**
 * Kills (SIGKILL) the CLI run `pid` and every process under it (the language host, the program, the
 * provider host), at once, as a crash of the machine or the CI runner ends them. Answers how many
 * processes were killed.
 */
export function killRun(pid: number): number {
  const all = [pid, ...descendants(pid)];
  let killed = 0;
  for (const p of all) {
    try {
      process.kill(p, "SIGKILL");
      killed++;
    } catch {
      /* already gone */
    }
  }
  return killed;
}

/**
 * What an operation prints when a killed CLI's lock is still in a file backend, with the pid the
 * lock names (pkg/backend/diy/lock.go `checkForLock`, v3.274.1).
 */
export const STACK_LOCKED =
  /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\.\n\s+file:\/\/\S+\.json\S*: created by \S+@\S+ \(pid (\d+)\) at \S+/;

/** Runs `pulumi args…` in `cwd`; never throws for a non-zero exit. `signal` kills it as `kill -9` would;
 * `onStdout` sees what the CLI has printed so far, as it prints it. */
export function runCli(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
  onStart?: (pid: number) => void,
  onStdout?: (printed: string) => void,
): Promise<CliOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], signal, killSignal: "SIGKILL" });
    if (child.pid) onStart?.(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (err) => (err.name === "AbortError" ? undefined : reject(err)));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The step ops of the engine's events, as the tests name them (a replacement's three steps are one `replace`). */
const OP: Record<string, StepOp> = {
  create: "create",
  update: "update",
  delete: "delete",
  same: "same",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  "discard-replaced": "replace",
  import: "import",
  "import-replacement": "replace",
  read: "same",
  "read-replacement": "replace",
  refresh: "refresh",
  "remove-pending-replace": "delete",
  discard: "delete",
};
const RANK: StepOp[] = ["same", "refresh", "import", "update", "create", "delete", "replace"];

interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Props; outputs?: Props } | null;
  new?: { inputs?: Props; outputs?: Props } | null;
  diffs?: string[];
  /** The properties that cause a replacement. */
  keys?: string[];
}

interface EngineEvent {
  resourcePreEvent?: { metadata: StepMetadata; planning?: boolean };
  resOutputsEvent?: { metadata: StepMetadata; planning?: boolean };
  resOpFailedEvent?: { metadata: StepMetadata };
  diagnosticEvent?: { urn?: string; message: string; severity: string };
  preludeEvent?: { config: Record<string, string> };
}

const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
const isStepResource = (type: string): boolean => type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
/** `svc:Type` for our dynamic resources (as the tests name a resource), the type otherwise. */
const shortType = (type: string): string => type.replace(/^pulumi-nodejs:dynamic\/svc:/, "svc:");
// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "").replace(/<\{%[^%]*%\}>/g, "").trim();

/** JSON with object keys sorted: the checkpoint does not keep a property bag's key order. */
const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Props).sort(([a], [b]) => a.localeCompare(b))) : x));

/** The inputs that differ between a step's old and new state (the Node dynamic host answers no diff keys of its own). */
function changedInputs(m: StepMetadata): string[] {
  const before = m.old?.inputs;
  const after = m.new?.inputs;
  if (!before || !after) return [];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== "__provider" && stable(before[k]) !== stable(after[k]));
}

/**
 * The steps and diagnostics of one run's event log (`--event-log`): the engine pass that acted. An
 * `up` runs a preview pass first, whose events the log does not hold (v3.274.1): `previewPlanOf`
 * reads that pass's plan from the CLI's `--json` output.
 */
export function stepsOfEventLog(text: string): { steps: Step[]; errors: string[]; messages: string[] } {
  const events = text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as EngineEvent);
  let start = 0;
  events.forEach((e, i) => {
    if (e.preludeEvent) start = i;
  });
  const steps = new Map<string, Step>();
  const errors: string[] = [];
  const messages: string[] = [];
  const stepOf = (m: StepMetadata): Step | undefined => {
    if (!isStepResource(m.type)) return undefined;
    const op = OP[m.op] ?? "same";
    let s = steps.get(m.urn);
    if (!s) {
      s = { op, urn: m.urn, type: m.type, name: nameOf(m.urn), diffs: [] };
      steps.set(m.urn, s);
    } else if (RANK.indexOf(op) > RANK.indexOf(s.op)) s.op = op;
    // A replacement's properties are its `keys` (the Node dynamic host answers no `diffs` of its own).
    for (const d of [...(m.diffs ?? []), ...(m.keys ?? [])]) if (!s.diffs.includes(d)) s.diffs.push(d);
    // An update with no listed keys: the inputs that changed, as the CLI's display finds them.
    if (op === "update" && !s.diffs.length) s.diffs = changedInputs(m);
    return s;
  };
  for (const e of events.slice(start)) {
    if (e.resourcePreEvent) stepOf(e.resourcePreEvent.metadata);
    if (e.resOutputsEvent) {
      const m = e.resOutputsEvent.metadata;
      const refreshed = steps.get(m.urn);
      if (refreshed?.op === "refresh") {
        // A refresh step's outputs event carries its result (v3.274.1 engine/update.go, `ResultOp`;
        // resource/deploy/step.go `RefreshStep.ResultOp`): `delete` when the object is gone, `same`
        // when the provider's Diff of the read state against the program's finds no change (an
        // output that moved alone is taken into the state silently), `update` when it finds some
        // (drift, as the CLI prints it), its keys the diff's; `refresh` with the outputs compared for
        // a resource the CLI diffs by outputs only (an external one).
        if (!m.new || m.op === "delete") refreshed.op = "delete";
        else if (m.op === "refresh") {
          const before = m.old?.outputs ?? {};
          const after = m.new.outputs ?? {};
          refreshed.diffs = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => stable(before[k]) !== stable(after[k]));
          if (!refreshed.diffs.length) refreshed.op = "same";
        } else if (m.op === "update") {
          refreshed.op = "update";
          refreshed.diffs = m.diffs?.length ? m.diffs : changedInputs(m);
        } else refreshed.op = "same";
      } else stepOf(m);
    }
    if (e.resOpFailedEvent) {
      const s = stepOf(e.resOpFailedEvent.metadata);
      if (s && !s.error) s.error = "failed";
    }
    const d = e.diagnosticEvent;
    if (d) {
      const text = plain(d.message);
      // The deployment's last word after its errors (deployment_executor.go reportExecResult): the test
      // engine prints it too, and lists only the errors before it (a cancel's word is listed by both).
      if (d.severity === "error" && !d.urn && /^(preview|update) failed$/.test(text)) continue;
      if (d.severity === "error") {
        const s = d.urn ? steps.get(d.urn) : undefined;
        const line = d.urn && isStepResource(d.urn.split("::")[2]?.split("$").pop() ?? "") ? `${shortType(d.urn.split("::")[2].split("$").pop()!)} ${nameOf(d.urn)}: ${text}` : text;
        if (s) s.error = s.error && s.error !== "failed" ? `${s.error}\n${text}` : text;
        errors.push(line);
        // Debug diagnostics (the Node SDK's own RPC traces, which print the outputs it got) are in the
        // event log but the CLI shows them only with --debug (pkg/backend/display/progress.go: `payload.Severity == diag.Debug && !display.opts.Debug`).
      } else if (text && d.severity !== "debug") messages.push(text);
    }
  }
  return { steps: [...steps.values()], errors, messages };
}

/** The end of the plan `up --json` prints before it acts: the document is indented, its closing brace alone on a line. */
const PLAN_END = /^\}$/m;

/**
 * The plan of the preview pass an `up --json` (`destroy`, `refresh`) prints before it acts: one
 * indented JSON document `{steps: [{op, urn, diffReasons, replaceReasons…}], duration (ns),
 * changeSummary}`, then the update's events, one a line. The steps as the event log's are read (a
 * replacement's steps one `replace`; the stack and providers left out). Undefined when the CLI
 * printed no plan (the preview pass failed).
 */
export function previewPlanOf(stdout: string): { steps: Step[]; durationMs: number } | undefined {
  const end = PLAN_END.exec(stdout);
  if (!end || !stdout.startsWith("{")) return undefined;
  let plan: { steps?: { op: string; urn: string; diffReasons?: string[]; replaceReasons?: string[] }[]; duration?: number };
  try {
    plan = JSON.parse(stdout.slice(0, end.index + 1)) as typeof plan;
  } catch {
    return undefined;
  }
  if (!plan.steps) return undefined;
  const steps = new Map<string, Step>();
  for (const p of plan.steps) {
    const type = p.urn.split("::")[2]?.split("$").pop() ?? "";
    if (!isStepResource(type)) continue;
    const op = OP[p.op] ?? "same";
    const s = steps.get(p.urn) ?? { op, urn: p.urn, type, name: nameOf(p.urn), diffs: [] };
    if (RANK.indexOf(op) > RANK.indexOf(s.op)) s.op = op;
    for (const d of [...(p.diffReasons ?? []), ...(p.replaceReasons ?? [])]) if (!s.diffs.includes(d)) s.diffs.push(d);
    steps.set(p.urn, s);
  }
  return { steps: [...steps.values()], durationMs: Math.round((plan.duration ?? 0) / 1e6) };
}

/** A property value of `stack export --show-secrets`: secrets arrive as `{sig: secret, plaintext: json}`. */
function revealed(v: unknown): { value: unknown; secret: boolean } {
  if (v && typeof v === "object" && (v as Props)[SIG_KEY] === SECRET_SIG) {
    const p = v as { plaintext?: string; value?: unknown };
    return { value: p.plaintext !== undefined ? JSON.parse(p.plaintext) : p.value, secret: true };
  }
  return { value: v, secret: false };
}

function props(bag: Props | undefined, secrets: Set<string>): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(bag ?? {})) {
    const r = revealed(v);
    if (r.secret) secrets.add(k);
    out[k] = r.value;
  }
  return out;
}

interface ExportedResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  parent?: string;
  inputs?: Props;
  outputs?: Props;
  dependencies?: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  pendingReplacement?: boolean;
  initErrors?: string[];
  delete?: boolean;
  external?: boolean;
  customTimeouts?: { create?: number; update?: number; delete?: number };
}

/** `pulumi stack export --show-secrets`, as a StackState. */
export function stateOfExport(text: string): StackState {
  const doc = JSON.parse(text) as { deployment?: { resources?: ExportedResource[]; pending_operations?: { resource: ExportedResource; type: string }[] } };
  const all = doc.deployment?.resources ?? [];
  const stack = all.find((r) => r.type === "pulumi:pulumi:Stack");
  const stackSecrets = new Set<string>();
  const outputs = props(stack?.outputs, stackSecrets);
  const resources: ResourceState[] = all
    .filter((r) => isStepResource(r.type))
    .map((r) => {
      const secrets = new Set<string>();
      const inputs = props(r.inputs, secrets);
      const outs = props(r.outputs, secrets);
      return {
        urn: r.urn,
        type: r.type,
        name: nameOf(r.urn),
        custom: r.custom ?? false,
        ...(r.id ? { id: r.id } : {}),
        ...(r.parent && !r.parent.includes("pulumi:pulumi:Stack") ? { parent: r.parent } : {}),
        inputs,
        outputs: outs,
        secrets: [...secrets],
        dependencies: r.dependencies ?? [],
        protect: r.protect ?? false,
        retainOnDelete: r.retainOnDelete ?? false,
        ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
        ...(r.initErrors?.length ? { initErrors: r.initErrors } : {}),
        ...(r.delete ? { pendingDelete: true } : {}),
        ...(r.external ? { external: true } : {}),
      };
    });
  const pending: PendingOperation[] = (doc.deployment?.pending_operations ?? [])
    .filter((p) => p.type === "creating")
    .map((p) => {
      const secrets = new Set<string>();
      return { op: "create", urn: p.resource.urn, type: p.resource.type, name: nameOf(p.resource.urn), inputs: props(p.resource.inputs, secrets), secrets: [...secrets], startedAt: "" };
    });
  return { salt: "", resources, outputs, secretOutputs: [...stackSecrets], ...(pending.length ? { pendingOperations: pending } : {}) };
}

/** The CLI's targeting flags: each a list of URNs. */
export interface CliOnlyRunOptions {
  /** `--target URN` each: only these resources (and, for a delete, nothing else). */
  target?: string[];
  /** `--replace URN` each: these resources replaced though nothing of theirs changed. */
  replace?: string[];
  /** `--exclude URN` each: every resource but these. */
  exclude?: string[];
  /**
   * `--json`: an `up` (`destroy`, `refresh`) prints the plan of its preview pass before it acts,
   * answered as `previewPass` (the event log holds the update's events only). The CLI's output is
   * then JSON.
   */
  previewPlan?: boolean;
  /** `--continue-on-error`: a failed step stops only what depends on it; the other steps run (a run of many independent resources). */
  continueOnError?: boolean;
  /** Called with the `pulumi` process's id once it runs (a test kills it, or it and its hosts: `killRun`). */
  onStart?: (pid: number) => void;
}

export interface CliRunOptions extends CliOnlyRunOptions {
  clearPendingCreates?: boolean;
  refresh?: boolean;
  parallel?: number;
  /** `--skip-preview` (ignored by `preview`): no preview pass before the operation. */
  skipPreview?: boolean;
  signal?: AbortSignal;
  /** Called once the CLI runs with a handle that kills its provider host (a crash of the plugin). */
  onProviderHost?: (host: { kill(): void }) => void;
}

/** What one CLI operation answers: the engines' common result, what the CLI printed, and the preview pass. */
export interface CliRun extends RunResult {
  output: string[];
  /**
   * With `previewPlan`: the preview pass an `up`, `destroy` or `refresh` ran before acting (not with
   * `skipPreview`; for `preview`, its one pass is `steps`): its steps; `ms`, the time from the start
   * until the CLI printed the plan (its start, the program's run, the plan); `engineMs`, the pass's
   * own time as the CLI reports it.
   */
  previewPass?: { steps: Step[]; ms: number; engineMs: number };
}

/**
 * One stack of a project under the real CLI, in a PULUMI_HOME of its own and a file backend of its
 * own or shared with other stacks (`StackReference`, `state move` between them), in a temp dir:
 * `stack init` at the start; config queued and written with one `config set-all` before the next
 * run; each operation with `--yes --non-interactive --event-log`.
 */
export class CliStack {
  readonly env: NodeJS.ProcessEnv;
  readonly backendDir: string;
  private readonly pending: string[] = [];
  private emptyDeployment = "";
  /** The last export and the checkpoint file's text it was read from: `state()` exports again only when the file changed. */
  private exported: { checkpoint: string; state: StackState } | undefined;

  constructor(
    readonly projectDir: string,
    readonly project: string,
    readonly stack: string,
    readonly passphrase: string,
    readonly tmp: string,
    backendDir = join(tmp, "backend"),
  ) {
    this.backendDir = backendDir;
    mkdirSync(this.backendDir, { recursive: true });
    mkdirSync(join(tmp, "home"), { recursive: true });
    this.env = cliEnv(join(tmp, "home"), this.backendDir, passphrase);
  }

  /** The stack's name as `StackReference`, `--stack` and `state move` take it in a file backend shared by projects. */
  get qualifiedName(): string {
    return `organization/${this.project}/${this.stack}`;
  }

  /** The checkpoint file the file backend keeps for the stack. */
  get stateFile(): string {
    return join(this.backendDir, ".pulumi", "stacks", this.project, `${this.stack}.json`);
  }

  async cli(args: string[], signal?: AbortSignal, onStart?: (pid: number) => void, onStdout?: (printed: string) => void): Promise<CliOutput> {
    return runCli([...args, "--non-interactive", "--color", "never"], this.projectDir, this.env, signal, onStart, onStdout);
  }

  /** Another `pulumi` command on this stack as a user types it (`import …`, `cancel`), the queued config written first. */
  command(args: string[], signal?: AbortSignal, onStart?: (pid: number) => void): Promise<CliOutput> {
    this.flushConfig();
    return this.cli([...args, "--stack", this.stack], signal, onStart);
  }

  /** A short command (config, export, import), synchronously as the harness's state() is; throws when it fails. */
  private must(args: string[]): CliOutput {
    const t0 = Date.now();
    const r = spawnSync(CLI, [...args, "--non-interactive", "--color", "never"], { cwd: this.projectDir, env: this.env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const out = { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
    this.logOperation(args.slice(0, 2).join(" "), out.code, Date.now() - t0);
    if (out.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${out.code}):\n${out.stdout}\n${out.stderr}`);
    return out;
  }

  init(): void {
    // What `npm install` gives a user's project: the program and the dynamic-provider host load this package.
    ensurePackageLink(this.projectDir);
    this.must(["stack", "init", this.stack, "--secrets-provider", "passphrase"]);
    this.emptyDeployment = this.must(["stack", "export", "--stack", this.stack]).stdout;
  }

  config(key: string, value: string, secret = false): void {
    this.pending.push(secret ? "--secret" : "--plaintext", `${key}=${value}`);
  }

  flushConfig(): void {
    if (!this.pending.length) return;
    const args = this.pending.splice(0);
    this.must(["config", "set-all", "--stack", this.stack, ...args]);
  }

  /**
   * The stack's state, from `stack export --show-secrets`: exported again only when the checkpoint
   * file changed since the last export (the file backend's whole state: an export decrypts it, with
   * the same passphrase, to the same answer), which saves a `pulumi` process per read.
   */
  state(): StackState {
    const checkpoint = existsSync(this.stateFile) ? readFileSync(this.stateFile, "utf8") : undefined;
    if (checkpoint !== undefined && this.exported?.checkpoint === checkpoint) return structuredClone(this.exported.state);
    const state = stateOfExport(this.must(["stack", "export", "--stack", this.stack, "--show-secrets"]).stdout);
    this.exported = checkpoint === undefined ? undefined : { checkpoint, state: structuredClone(state) };
    return state;
  }

  /** The stack with no resources again, its config kept (as a fresh stack). */
  reset(): void {
    const file = join(this.tmp, "empty-deployment.json");
    writeFileSync(file, this.emptyDeployment);
    this.must(["stack", "import", "--stack", this.stack, "--file", file, "--force"]);
  }

  /**
   * `pulumi state move` of `urns` from this stack to `dest`, a stack of the same backend (`--yes`:
   * no prompt). Answers what the CLI printed, whatever its exit code.
   */
  async stateMove(dest: CliStack, urns: string[]): Promise<CliOutput> {
    if (dest.backendDir !== this.backendDir) throw new Error(`state move: ${dest.qualifiedName} is in another backend than ${this.qualifiedName}`);
    const t0 = Date.now();
    const r = await this.cli(["state", "move", "--source", this.qualifiedName, "--dest", dest.qualifiedName, "--yes", ...urns]);
    this.logOperation("state move", r.code, Date.now() - t0);
    return r;
  }

  /** SVC_REAL_CLI_LOG: one line per `pulumi` command (its time and outcome), written as it ends. */
  private logOperation(op: string, code: number, ms: number): void {
    if (process.env.SVC_REAL_CLI_LOG) appendFileSync(process.env.SVC_REAL_CLI_LOG, `${new Date().toISOString()} ${this.project}/${this.stack} ${op} exit ${code} ${(ms / 1000).toFixed(1)} s\n`);
  }

  async run(op: Operation, o: CliRunOptions = {}): Promise<CliRun> {
    this.flushConfig();
    const log = join(this.tmp, `events-${Date.now()}.jsonl`);
    const args = [op, "--stack", this.stack, "--event-log", log];
    if (op !== "preview") args.push("--yes");
    if (o.refresh) args.push("--refresh");
    if (o.clearPendingCreates) args.push("--clear-pending-creates");
    if (o.parallel) args.push("--parallel", String(o.parallel));
    if (o.skipPreview && op !== "preview") args.push("--skip-preview");
    if (o.continueOnError && op !== "preview") args.push("--continue-on-error");
    for (const [flag, urns] of [["--target", o.target], ["--replace", o.replace], ["--exclude", o.exclude]] as const) for (const urn of urns ?? []) args.push(flag, urn);
    const planned = o.previewPlan && op !== "preview" && !o.skipPreview;
    if (planned) args.push("--json");
    const t0 = Date.now();
    let plannedAt: number | undefined;
    const r = await this.cli(
      args,
      o.signal,
      (pid) => {
        o.onStart?.(pid);
        o.onProviderHost?.({ kill: () => void killProviderHost(pid) });
      },
      planned ? (printed) => void (plannedAt ??= PLAN_END.test(printed) ? Date.now() : undefined) : undefined,
    );
    const ms = Date.now() - t0;
    this.logOperation(op, r.code, ms);
    const events = existsSync(log) ? readFileSync(log, "utf8") : "";
    rmSync(log, { force: true });
    const { steps, errors, messages } = stepsOfEventLog(events);
    const plan = planned ? previewPlanOf(r.stdout) : undefined;
    const previewPass = plan && { steps: plan.steps, ms: (plannedAt ?? t0 + ms) - t0, engineMs: plan.durationMs };
    if (r.code !== 0 && !errors.length) errors.push(plain(`${r.stdout}\n${r.stderr}`).split("\n").filter(Boolean).slice(-5).join("\n"));
    const counts: RunResult["counts"] = {};
    for (const s of steps) counts[s.op] = (counts[s.op] ?? 0) + 1;
    let state: StackState | undefined;
    try {
      state = this.state();
    } catch {
      state = undefined;
    }
    return {
      operation: op,
      ok: r.code === 0,
      steps,
      counts,
      outputs: state?.outputs ?? {},
      errors,
      messages,
      ms,
      output: `${r.stdout}\n${r.stderr}`.split("\n"),
      ...(previewPass ? { previewPass } : {}),
    };
  }

  close(): void {
    rmSync(join(this.projectDir, `Pulumi.${this.stack}.yaml`), { force: true });
  }
}
