/**
 * One run of the test engine: what it started from, the state it builds, its steps and errors, its
 * provider host and its checkpoints. The parts of the engine (plan, deletes, refresh, program) share
 * it instead of each keeping a piece.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startProviderHost, type ProviderHost } from "../support/provider-host";
import { printCancelling, printError, printInFlight, printStep, resourceLabel, type Print } from "./printing";
import { loadState, readConfig, readProject, saveState, type PendingOperation, type Project, type ResourceState, type StackConfig, type StackState } from "./state";
import type { EngineOptions, Operation, Step, StepOp } from "./types";

export const STACK_TYPE = "pulumi:pulumi:Stack";

/** A step not started because the deployment was cancelled (a step failed, or Ctrl-C). */
export class DeploymentCancelled extends Error {
  constructor() {
    super("the deployment was cancelled");
    this.name = "DeploymentCancelled";
  }
}

/** The run was killed through `EngineOptions.signal`. */
export class EngineInterrupted extends Error {
  constructor() {
    super("the engine was interrupted");
    this.name = "EngineInterrupted";
  }
}

export function stateFileOf(options: EngineOptions): string {
  return options.stateFile ?? join(options.projectDir, ".pulumi-test-engine", `${options.stack ?? "dev"}.json`);
}

export function passphraseOf(options: EngineOptions): string {
  return options.passphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? "";
}

/** The `SVC_*` settings of the environment: the provider's fallback after stack config, as under the CLI. */
function svcEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith("SVC_") && e[1] !== undefined));
}

/** What a step names of its resource. */
type StepResource = Pick<ResourceState, "urn" | "type" | "name">;

/**
 * The URNs this run's program registered, seen at two moments that differ while registrations queue
 * for the step generator: `registered` as the monitor receives each (a duplicate is refused then,
 * and what the program did not register is removed after it); `generated` once a custom resource's
 * check and diff took their turn (`Run.generate`, plan.ts `decide`). A delete-before-replace reads
 * `generated`: a dependent still waiting for its turn is one the step generator has not seen, so it
 * may be replaced with the resource it depends on (step_generator.go calculateDependentReplacements
 * skips only the URNs in `sg.urns`, which generateURN fills during generation).
 */
export class RunUrns {
  readonly registered = new Set<string>();
  readonly generated = new Set<string>();
  /** The stack's URN once registered: its outputs are the stack outputs. */
  stack = "";
  private readonly typeOf = new Map<string, string>();

  constructor(
    private readonly stackName: string,
    private readonly projectName: string,
  ) {}

  /** Names a registration as it arrives. URNs qualify a type by its parents' types (all but the
   * stack's), as the engine's do. A URN registered twice fails (step_generator.go generateURN: diag 2001). */
  register(reg: { type: string; name: string; parent: string }): string {
    const parentType = reg.parent && reg.parent !== this.stack ? this.typeOf.get(reg.parent) : undefined;
    const qualified = parentType ? `${parentType}$${reg.type}` : reg.type;
    const urn = `urn:pulumi:${this.stackName}::${this.projectName}::${qualified}::${reg.name}`;
    if (this.registered.has(urn)) throw new DuplicateUrn(urn);
    this.typeOf.set(urn, qualified);
    if (reg.type === STACK_TYPE) this.stack = urn;
    this.registered.add(urn);
    return urn;
  }
}

class DuplicateUrn extends Error {
  constructor(readonly urn: string) {
    super(`Duplicate resource URN '${urn}'; try giving it a unique name`);
  }
}

export class Run {
  readonly started = Date.now();
  readonly stack: string;
  readonly passphrase: string;
  readonly print: Print;
  readonly project: Project;
  readonly config: StackConfig;
  readonly stateFile: string;
  /** The state the run started from. */
  readonly old: StackState;
  /** Resources of the old state by URN (originals pending delete left out): what the program's registrations are compared with. */
  readonly prior: Map<string, ResourceState>;
  /** The state this run builds. */
  readonly next: StackState;
  readonly steps: Step[] = [];
  readonly errors: string[] = [];
  // ---- checkpoints: the state is saved after every step, as the CLI does ----
  /** Resources of the old state this run deleted at the API. */
  readonly deletedNow = new Set<ResourceState>();
  /** URNs of the old state a registration claimed through its `aliases`: the resource lives on under
   * its new URN, the old URN is neither deleted nor kept. */
  readonly aliased = new Set<string>();
  /** The URNs the program registered. */
  readonly urns: RunUrns;
  /** Dependents a delete-before-replace deleted first, as pending replacement, until the program
   * registers them again (plan.ts deleteDependents). */
  readonly deletedForReplace = new Map<string, ResourceState>();
  /** Originals of create-then-delete replacements, until their delete runs. */
  readonly replacedToDelete: ResourceState[] = [];
  /** Creates started and not seen to end, and those an earlier run left: the real engine keeps
   * pending creates across `up` until `pulumi refresh` clears them (CONFORMANCE.md). */
  readonly pendingOps: PendingOperation[];
  // One provider host per run, started by the first resource that needs it (resources register
  // concurrently: they all wait for the same start).
  private host: ProviderHost | undefined;
  private hostStart: Promise<ProviderHost> | undefined;
  // A kill (options.signal): the processes die at once, and nothing more is written.
  private killed = false;
  private killProgram: (() => void) | undefined;
  private readonly onAbort = () => {
    this.killed = true;
    this.host?.kill();
    this.killProgram?.();
  };

  // ---- cancellation: a failed step or a first Ctrl-C (CONFORMANCE.md, "a failed step") ----
  private cancelRequested = false;
  private resolveCancelled!: () => void;
  /** Resolves when the deployment is cancelled: no new step starts, the steps in flight finish. */
  readonly cancelled = new Promise<void>((resolve) => (this.resolveCancelled = resolve));
  /** Check and diff of one registration at a time, in the order they came, as the real engine's
   * step generator does; the steps themselves run concurrently. */
  private generation: Promise<unknown> = Promise.resolve();
  /** Work under way (registrations, deletes, reads): what a cancellation waits for. */
  private readonly pending = new Set<Promise<unknown>>();
  /** The steps running now, for the progress display. */
  readonly inFlight = new Map<string, { op: StepOp; label: string; started: number }>();

  constructor(
    readonly operation: Operation,
    readonly options: EngineOptions,
    /** The preview pass the CLI runs before `up`, `destroy` and `refresh`: nothing changes, nothing is saved. */
    readonly previewPass = false,
  ) {
    this.stack = options.stack ?? "dev";
    this.passphrase = passphraseOf(options);
    this.print = options.print ?? (() => undefined);
    this.project = readProject(options.projectDir);
    this.config = readConfig(options.projectDir, this.stack, this.passphrase);
    this.urns = new RunUrns(this.stack, this.project.name);
    this.stateFile = stateFileOf(options);
    mkdirSync(join(this.stateFile, ".."), { recursive: true });
    this.old = loadState(this.stateFile, this.passphrase);
    this.prior = new Map(this.old.resources.filter((r) => !r.pendingDelete).map((r) => [r.urn, r]));
    this.next = { salt: this.old.salt, resources: [], outputs: this.old.outputs, secretOutputs: this.old.secretOutputs };
    this.pendingOps = (this.old.pendingOperations ?? []).filter((p) => p.op === "create");
  }

  /**
   * After the refresh of `up --refresh`: the refreshed state is the one the program is compared with
   * (deployment_executor.go `refresh` → `rebuildBaseState`), and the run builds its new state anew.
   */
  startFromRefreshed(): void {
    this.old.resources = [...this.next.resources];
    this.prior.clear();
    for (const r of this.old.resources) if (!r.pendingDelete) this.prior.set(r.urn, r);
    this.next.resources.length = 0;
    this.deletedNow.clear();
  }

  /** A preview (or the preview pass of another operation): check, diff and reads only, nothing saved. */
  get dryRun(): boolean {
    return this.operation === "preview" || this.previewPass;
  }

  get isCancelled(): boolean {
    return this.cancelRequested;
  }

  /** Stops the deployment: no new step starts (DeploymentCancelled), the steps in flight finish. */
  cancel(): void {
    if (this.cancelRequested) return;
    this.cancelRequested = true;
    this.resolveCancelled();
  }

  throwIfCancelled(): void {
    if (this.cancelRequested) throw new DeploymentCancelled();
  }

  /** Runs `decide` (check and diff) after the registrations before it, unless cancelled by then. */
  generate<T>(decide: () => Promise<T>): Promise<T> {
    const turn = this.generation.then(() => {
      this.throwIfCancelled();
      return decide();
    });
    this.generation = turn.catch(() => undefined);
    return turn;
  }

  /** Keeps `work` in the set a cancellation waits for. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const forget = () => this.pending.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Waits until nothing tracked is under way. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private progressTimer: NodeJS.Timeout | undefined;

  /** While steps run, each in flight is shown with its operation and elapsed time, once a second
   * (the CLI's non-interactive display, pkg/backend/display/progress.go). */
  startProgress(): void {
    this.progressTimer = setInterval(() => {
      const now = Date.now();
      for (const s of this.inFlight.values()) if (now - s.started >= 1000) printInFlight(this.print, s.op, s.label, now - s.started);
    }, 1000);
    this.progressTimer.unref();
  }

  stopProgress(): void {
    clearInterval(this.progressTimer);
  }

  /** Runs one step's provider calls, shown in flight meanwhile (callers start none once cancelled:
   * throwIfCancelled before their first write). */
  async inStep<T>(op: StepOp, r: StepResource, call: () => Promise<T>): Promise<T> {
    const key = `${r.urn}\u0000${op}`;
    this.inFlight.set(key, { op, label: resourceLabel(r), started: Date.now() });
    try {
      return await call();
    } finally {
      this.inFlight.delete(key);
    }
  }

  get interrupted(): boolean {
    return this.killed;
  }

  throwIfInterrupted(): void {
    if (this.killed) throw new EngineInterrupted();
  }

  /** Cancelled by the user (a first Ctrl-C), not by a failed step. */
  cancelledByUser = false;
  private readonly onCancel = () => {
    if (this.cancelledByUser) return;
    this.cancelledByUser = true;
    printCancelling(this.print, this.dryRun);
    this.cancel();
  };

  watchSignal(): void {
    if (this.options.signal?.aborted) throw new EngineInterrupted();
    this.options.signal?.addEventListener("abort", this.onAbort, { once: true });
    if (this.options.cancel?.aborted) this.onCancel();
    this.options.cancel?.addEventListener("abort", this.onCancel, { once: true });
  }

  stopWatchingSignal(): void {
    this.options.signal?.removeEventListener("abort", this.onAbort);
    this.options.cancel?.removeEventListener("abort", this.onCancel);
  }

  /** The program's process: killed with the run, at once if the run is killed already. */
  attachProgram(kill: () => void): void {
    this.killProgram = kill;
    if (this.killed) kill();
  }

  provider(): Promise<ProviderHost> {
    const prefix = "pulumi-nodejs:";
    const packageConfig = Object.fromEntries(Object.entries(this.config.values).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
    return (this.hostStart ??= startProviderHost({ cwd: this.options.projectDir, project: this.project.name, stack: this.stack, env: svcEnv(), asEngine: true, packageConfig }).then(async (h) => {
      this.host = h;
      if (this.killed) h.kill();
      this.options.onProviderHost?.(h);
      await h.configure(this.config.values);
      return h;
    }));
  }

  /** Stops the provider host, once started; answers the lines it wrote on stderr. */
  async stopProviderHost(): Promise<string[]> {
    await this.hostStart?.catch(() => undefined);
    // Stopped first: the host's last lines (a delete's message) are read only once its stderr closed.
    await this.host?.stop();
    return (this.host?.stderr() ?? "").split("\n").filter((line) => line.trim());
  }

  step(op: StepOp, r: StepResource, diffs: string[] = []): void {
    this.record({ op, urn: r.urn, type: r.type, name: r.name, diffs });
  }

  failedStep(op: StepOp, r: StepResource, error: string): void {
    this.record({ op, urn: r.urn, type: r.type, name: r.name, diffs: [], error });
  }

  /**
   * While true, steps are not checkpointed one by one: the CLI elides a refresh step's checkpoint
   * (pkg/backend/snapshot.go, `refreshSnapshotMutation.End`: "We always elide refreshes") and writes
   * the refreshed state with the next step that is saved, or when the operation ends.
   */
  refreshing = false;

  private record(s: Step): void {
    this.steps.push(s);
    if (!this.refreshing) this.checkpoint();
    printStep(this.print, s);
  }

  fail(message: string): void {
    this.errors.push(message);
    printError(this.print, message);
  }

  /** Puts `r` in the new state, in place of the resource of its URN (originals pending delete aside). */
  keep(r: ResourceState): void {
    const i = this.next.resources.findIndex((x) => x.urn === r.urn && !x.pendingDelete);
    if (i >= 0) this.next.resources[i] = r;
    else this.next.resources.push(r);
  }

  /** `r` may be a copy (protect lifted) of a resource of the old state or a replaced original. */
  markDeleted(r: ResourceState): void {
    this.deletedNow.add(r);
    for (const x of [...this.old.resources, ...this.replacedToDelete]) if (x.urn === r.urn && x.id === r.id && x.pendingDelete === r.pendingDelete) this.deletedNow.add(x);
  }

  /** Recorded before the provider's create, update or delete is called (the CLI's pending operation:
   * pkg/backend/snapshot.go `BeginMutation` writes it before the step runs). */
  beginPending(pending: PendingOperation): void {
    this.pendingOps.push(pending);
    this.checkpoint();
  }

  dropPending(p: PendingOperation): void {
    const i = this.pendingOps.indexOf(p);
    if (i >= 0) this.pendingOps.splice(i, 1);
  }

  /** The state as it stands now: what this run has done, then what it has not reached yet. */
  private snapshot(): StackState {
    const done = new Set(this.next.resources.filter((r) => !r.pendingDelete).map((r) => r.urn));
    const originals = this.replacedToDelete.filter((r) => !this.deletedNow.has(r) && done.has(r.urn)).map((r) => ({ ...r, pendingDelete: true }));
    // A dependent a delete-before-replace deleted stays, as pending replacement, until its replacement exists.
    const pendingReplace = (r: ResourceState) => (!r.pendingDelete && !done.has(r.urn) && this.deletedForReplace.get(r.urn)) || undefined;
    const notReached = this.old.resources
      .filter((r) => pendingReplace(r) || (!this.deletedNow.has(r) && !this.next.resources.includes(r) && (r.pendingDelete || (!done.has(r.urn) && !this.aliased.has(r.urn)))))
      .map((r) => pendingReplace(r) ?? r);
    return { ...this.next, resources: [...this.next.resources, ...originals, ...notReached], pendingOperations: [...this.pendingOps] };
  }

  checkpoint(): void {
    if (this.dryRun || this.killed) return;
    // Saved first: `onCheckpoint?.(saveState(…))` would skip the save when there is no callback.
    const bytes = saveState(this.stateFile, this.snapshot(), this.passphrase);
    this.options.onCheckpoint?.(bytes);
  }

  /** The state at the end of the run: the new state alone, and the pending creates. */
  saveFinalState(): void {
    if (this.dryRun || this.killed) return;
    const bytes = saveState(this.stateFile, { ...this.next, pendingOperations: this.pendingOps }, this.passphrase);
    this.options.onCheckpoint?.(bytes);
  }
}
