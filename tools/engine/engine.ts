/**
 * A test stand-in for the Pulumi CLI's engine (there is no CLI on these machines). It runs a
 * project's program with the real Node language runtime (`@pulumi/pulumi/cmd/run`, connected to
 * this engine's ResourceMonitor), sends every dynamic resource to one real dynamic-provider host
 * (cwd = the project directory, Configure given the whole namespaced stack config), and follows the
 * engine's rules: check then diff; create / update / replace (create-then-delete unless
 * delete-before-replace) / delete of removed resources in reverse dependency order; partial
 * failures kept with their id; protect, ignoreChanges, retainOnDelete, import; state in one JSON
 * file with secrets encrypted. It is a test and demo tool: users run the real `pulumi` CLI.
 *
 * It sends the provider exactly what the real engine sends in each situation, and nothing more:
 * tools/engine/CONFORMANCE.md lists each situation with the pulumi/pulumi source it follows. A
 * provider feature that works only because this engine helps it would be false under the CLI.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { HostError, packageRoot, pulumiScript, startProviderHost, type ProviderHost } from "./provider-host";
import { startMonitor, type Registration, type RegisterAnswer } from "./monitor";
import { loadState, readConfig, readProject, saveState, SECRET_SIG, SIG_KEY, UNKNOWN, type PendingOperation, type Props, type ResourceState, type StackState } from "./state";

const ROOT = packageRoot(__dirname);
const STACK_TYPE = "pulumi:pulumi:Stack";

export type Operation = "preview" | "up" | "refresh" | "destroy";
export type StepOp = "create" | "update" | "replace" | "delete" | "same" | "import" | "refresh";

export interface Step {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  /** Properties that changed (update, replace, refresh). */
  diffs: string[];
  error?: string;
}

export interface EngineOptions {
  projectDir: string;
  stack?: string;
  /** Encrypts secrets in config and state (default: PULUMI_CONFIG_PASSPHRASE). */
  passphrase?: string;
  /** Default: `<projectDir>/.pulumi-test-engine/<stack>.json`. */
  stateFile?: string;
  /** Receives each line the CLI would print. */
  print?: (line: string) => void;
  /** `destroy` deletes independent resources at the same time, each once the resources that depend
   * on it are gone, as the Pulumi CLI does (default: one at a time, newest first, so the order of
   * deletes is fixed for tests). The benchmark uses it: one at a time, 20 server terminations take
   * 20 × their transition time. */
  parallelDestroy?: boolean;
  /** Aborting it kills the run the way a crash (or kill -9 of the CLI) would: the program and the
   * provider host are killed at once, nothing more is saved, and `runEngine` rejects with
   * `EngineInterrupted`. What the checkpoints saved so far is what the next run finds. */
  signal?: AbortSignal;
  /** Called with the bytes of each checkpoint written (the benchmark adds them up: the CLI's file and
   * object-store backends write the whole checkpoint after every step too). */
  onCheckpoint?: (bytes: number) => void;
  /** Called with the provider host once started (tests kill it to simulate the host crashing). */
  onProviderHost?: (host: ProviderHost) => void;
  /** `pulumi refresh --clear-pending-creates`: drops the pending creates an interrupted run left. */
  clearPendingCreates?: boolean;
}

/** The run was killed through `EngineOptions.signal`. */
export class EngineInterrupted extends Error {
  constructor() {
    super("the engine was interrupted");
    this.name = "EngineInterrupted";
  }
}

/** The organization the CLI hands the language host for a stack of the local file backend. */
export const ORGANIZATION = "organization";

export interface RunResult {
  operation: Operation;
  ok: boolean;
  steps: Step[];
  /** Steps by kind, `same` included. */
  counts: Partial<Record<StepOp, number>>;
  /** Stack outputs (secrets in clear: this is the program's own view). */
  outputs: Props;
  errors: string[];
  /** What the provider host wrote on stderr (the CLI shows these as diagnostics). */
  messages: string[];
  ms: number;
}

export function stateFileOf(options: EngineOptions): string {
  return options.stateFile ?? join(options.projectDir, ".pulumi-test-engine", `${options.stack ?? "dev"}.json`);
}

/** The state as stored for a stack (secrets decrypted), for tests. */
export function readStackState(options: EngineOptions): StackState {
  return loadState(stateFileOf(options), passphraseOf(options));
}

function passphraseOf(options: EngineOptions): string {
  return options.passphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? "";
}

/** What `npm install` gives a user's project: `node_modules/pulumi-svc` is this package. */
function ensurePackageLink(projectDir: string): void {
  const modules = join(projectDir, "node_modules");
  const link = join(modules, "pulumi-svc");
  if (existsSync(link) || (existsSync(modules) && lstatSync(modules).isSymbolicLink())) return;
  mkdirSync(modules, { recursive: true });
  symlinkSync(ROOT, link, "dir");
}

/** The `SVC_*` settings of the environment: the provider's fallback after stack config, as under the CLI. */
function svcEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith("SVC_") && e[1] !== undefined));
}

const shortType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\//, "");
const dynamicType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\/svc:/, "");

/** Takes the SDK's secret wrappers off, noting which top-level properties were secret. */
function unwrapSecrets(props: Props): { plain: Props; secrets: string[] } {
  const secrets: string[] = [];
  const strip = (value: unknown, top: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => strip(v, top));
    if (value && typeof value === "object") {
      const o = value as Props;
      if (o[SIG_KEY] === SECRET_SIG) {
        if (!secrets.includes(top)) secrets.push(top);
        return strip(o.value, top);
      }
      return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, strip(v, top)]));
    }
    return value;
  };
  const plain = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, strip(v, k)]));
  return { plain, secrets };
}

function wrapSecrets(props: Props, secrets: readonly string[]): Props {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, secrets.includes(k) && v !== undefined ? { [SIG_KEY]: SECRET_SIG, value: v } : v]));
}

/** A Go duration ("40m", "1h30m", "90s", "2.5h") in seconds, as the engine turns customTimeouts into
 * the requests' `timeout` (0 when not set). */
export function timeoutSeconds(duration: string | undefined): number {
  if (!duration) return 0;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  for (const [, value, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(value) * units[unit];
  return total;
}

function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete("__provider");
  return [...keys].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
}

export async function runEngine(operation: Operation, options: EngineOptions): Promise<RunResult> {
  const started = Date.now();
  const stack = options.stack ?? "dev";
  const passphrase = passphraseOf(options);
  const print = options.print ?? (() => undefined);
  const project = readProject(options.projectDir);
  const config = readConfig(options.projectDir, stack, passphrase);
  const stateFile = stateFileOf(options);
  mkdirSync(join(stateFile, ".."), { recursive: true });
  const old = loadState(stateFile, passphrase);
  ensurePackageLink(options.projectDir);

  const steps: Step[] = [];
  const errors: string[] = [];
  // One provider host per run, started by the first resource that needs it (resources register
  // concurrently: they all wait for the same start).
  let host: ProviderHost | undefined;
  let hostStart: Promise<ProviderHost> | undefined;
  // A kill (options.signal): the processes die at once, and nothing more is written.
  let interrupted = false;
  let killProgram: (() => void) | undefined;
  const onAbort = () => {
    interrupted = true;
    host?.kill();
    killProgram?.();
  };
  if (options.signal?.aborted) throw new EngineInterrupted();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const provider = () =>
    (hostStart ??= startProviderHost({ cwd: options.projectDir, project: project.name, stack, env: svcEnv(), asEngine: true }).then(async (h) => {
      host = h;
      if (interrupted) h.kill();
      options.onProviderHost?.(h);
      await h.configure(config.values);
      return h;
    }));
  const step = (s: Step) => {
    steps.push(s);
    checkpoint();
    if (s.op === "same") return;
    const sign = { create: "+", update: "~", replace: "+-", delete: "-", import: "=", refresh: "~", same: " " }[s.op];
    const diff = s.diffs.length ? ` [diff: ${s.diffs.map((d) => `~${d}`).join(" ")}]` : "";
    print(`    ${sign} ${s.op.padEnd(8)} ${shortType(s.type)}  ${s.name}${diff}${s.error ? `  **failed**` : ""}`);
  };
  const fail = (message: string) => {
    errors.push(message);
    print(`  error: ${message}`);
  };
  /** Like the CLI, deletes nothing when one of the resources to delete is protected: reports each
   * and answers true. */
  const refuseProtected = (doomed: ResourceState[]): boolean => {
    const protectedOnes = doomed.filter((r) => r.protect);
    for (const r of protectedOnes) fail(`${shortType(r.type)} ${r.name}: resource is protected; set protect: false (and run up) before deleting it`);
    return protectedOnes.length > 0;
  };

  print(`${{ preview: "Previewing update", up: "Updating", refresh: "Refreshing", destroy: "Destroying" }[operation]} (${stack}) of project ${project.name}:`);
  const next: StackState = { salt: old.salt, resources: [], outputs: old.outputs, secretOutputs: old.secretOutputs };
  // ---- checkpoints: the state is saved after every step, as the CLI does ----
  /** Resources of the old state this run deleted at the API. */
  const deletedNow = new Set<ResourceState>();
  /** Originals of create-then-delete replacements, until their delete runs. */
  const replacedToDelete: ResourceState[] = [];
  /** Creates started and not seen to end, and those an earlier run left: the real engine keeps
   * pending creates across `up` until `pulumi refresh` clears them (CONFORMANCE.md). */
  const pendingOps: PendingOperation[] = [...(old.pendingOperations ?? [])];
  /** The state as it stands now: what this run has done, then what it has not reached yet. */
  const snapshot = (): StackState => {
    const done = new Set(next.resources.filter((r) => !r.pendingDelete).map((r) => r.urn));
    const originals = replacedToDelete.filter((r) => !deletedNow.has(r) && done.has(r.urn)).map((r) => ({ ...r, pendingDelete: true }));
    const notReached = old.resources.filter((r) => !deletedNow.has(r) && !next.resources.includes(r) && (r.pendingDelete || !done.has(r.urn)));
    return { ...next, resources: [...next.resources, ...originals, ...notReached], pendingOperations: [...pendingOps] };
  };
  function checkpoint(): void {
    if (operation === "preview" || interrupted) return;
    // Saved first: `onCheckpoint?.(saveState(…))` would skip the save when there is no callback.
    const bytes = saveState(stateFile, snapshot(), passphrase);
    options.onCheckpoint?.(bytes);
  }
  /** `r` may be a copy (protect lifted) of a resource of the old state or a replaced original. */
  const markDeleted = (r: ResourceState) => {
    deletedNow.add(r);
    for (const x of [...old.resources, ...replacedToDelete]) if (x.urn === r.urn && x.id === r.id && x.pendingDelete === r.pendingDelete) deletedNow.add(x);
  };
  const dropPending = (p: PendingOperation) => {
    const i = pendingOps.indexOf(p);
    if (i >= 0) pendingOps.splice(i, 1);
  };
  /** The real engine's warning for the pending operations of the previous deployment, on `up` only
   * (pulumi/pulumi pkg/resource/deploy/deployment_executor.go, printPendingOperationsWarning, `!opts.DryRun`):
   * it then deploys the program as if they were not there — a resource whose create was pending is
   * checked with no olds and created again — and keeps the pending creates in the state
   * (pkg/backend/snapshot.go, SnapshotManager.Snap). */
  function warnPendingOperations(): void {
    const previous = old.pendingOperations ?? [];
    if (!previous.length) return;
    print(`  warning: Attempting to deploy or update resources with ${previous.length} pending operations from previous deployment.`);
    for (const p of previous) print(`      * ${p.urn}, interrupted while creating`);
    print("    These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes to these resources to complete.");
  }
  let messages: string[] = [];
  try {
    if (operation === "refresh") await refresh(old, next);
    else if (operation === "destroy") await destroyAll(old, next);
    else await deploy(operation === "preview");
  } catch (err) {
    if (interrupted) throw new EngineInterrupted();
    throw err;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await hostStart?.catch(() => undefined);
    messages = (host?.stderr() ?? "").split("\n").filter((line) => line.trim());
    await host?.stop();
    if (operation !== "preview" && !interrupted) {
      const bytes = saveState(stateFile, { ...next, pendingOperations: pendingOps }, passphrase);
      options.onCheckpoint?.(bytes);
    }
  }
  if (interrupted) throw new EngineInterrupted();
  for (const p of pendingOps.filter((x) => !(old.pendingOperations ?? []).includes(x))) {
    print(`  warning: ${shortType(p.type)} ${p.name}: a create started ${p.startedAt} was interrupted and its outcome is unknown`);
  }
  if (messages.length) {
    print("Diagnostics:");
    for (const m of messages) print(`  ${m}`);
  }

  const counts: Partial<Record<StepOp, number>> = {};
  for (const s of steps) counts[s.op] = (counts[s.op] ?? 0) + 1;
  const ms = Date.now() - started;
  if (operation === "up" && Object.keys(next.outputs).length) {
    print("Outputs:");
    for (const [key, value] of Object.entries(next.outputs)) {
      const text = next.secretOutputs.includes(key) ? "[secret]" : JSON.stringify(value) ?? "undefined";
      print(`    ${key}: ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`);
    }
  }
  const summary = Object.entries(counts)
    .filter(([op]) => op !== "same")
    .map(([op, n]) => `${n} to ${op}`)
    .join(", ");
  print(`Resources: ${summary || "no changes"}${counts.same ? `, ${counts.same} unchanged` : ""}`);
  print(`Duration: ${(ms / 1000).toFixed(1)}s${errors.length ? `  (${errors.length} error${errors.length > 1 ? "s" : ""})` : ""}`);
  return { operation, ok: errors.length === 0, steps, counts, outputs: next.outputs, errors, messages, ms };

  // ---- refresh: read every resource from the API ----
  async function refresh(prior: StackState, into: StackState): Promise<void> {
    // `pulumi refresh --clear-pending-creates` drops them (pkg/cmd/pulumi/operations/refresh.go);
    // without it, a non-interactive refresh keeps them.
    if (options.clearPendingCreates && pendingOps.length) {
      for (const p of [...pendingOps]) {
        print(`    cleared the pending create of ${shortType(p.type)} ${p.name}`);
        dropPending(p);
      }
    }
    for (const r of prior.resources) {
      // Not read: components, and a resource already deleted for its replacement (step.go RefreshStep.Apply).
      if (!r.custom || !r.id || r.pendingReplacement) {
        into.resources.push(r);
        continue;
      }
      const h = await provider();
      try {
        const read = await h.read(dynamicType(r.type), r.id, r.outputs, r.inputs, { urn: r.urn });
        if (!read.id) {
          deletedNow.add(r);
          step({ op: "delete", urn: r.urn, type: r.type, name: r.name, diffs: [] });
          continue;
        }
        const outputs = read.properties;
        const inputs = Object.keys(read.inputs).length ? { ...read.inputs, __provider: r.inputs.__provider } : r.inputs;
        // The refresh's diff, for display, as the real engine computes it: sides swapped, the refreshed
        // state as the olds and the state's inputs as the news (step.go RefreshStep.Apply, diffResource).
        const drift = await h.diff(dynamicType(r.type), read.id, outputs, r.inputs, { urn: r.urn, oldInputs: inputs, ignoreChanges: [] });
        const diffs = drift.changes === "none" ? [] : changedKeys(r.outputs, outputs);
        into.resources.push({ ...r, id: read.id, inputs, outputs });
        step({ op: diffs.length ? "refresh" : "same", urn: r.urn, type: r.type, name: r.name, diffs });
      } catch (err) {
        if (interrupted) throw err;
        into.resources.push(r);
        step({ op: "refresh", urn: r.urn, type: r.type, name: r.name, diffs: [], error: String(err) });
        fail(`${shortType(r.type)} ${r.name}: refresh failed: ${(err as Error).message}`);
      }
    }
  }

  // ---- destroy: delete everything in reverse dependency order ----
  async function destroyAll(prior: StackState, into: StackState): Promise<void> {
    const remaining = [...prior.resources];
    if (refuseProtected(remaining)) {
      into.resources.push(...remaining);
      return;
    }
    if (options.parallelDestroy) {
      const kept = await deleteConcurrently(remaining);
      if (kept.length) {
        into.resources.push(...kept);
        return;
      }
      remaining.length = 0;
    }
    while (remaining.length) {
      if (interrupted) throw new EngineInterrupted();
      const r = remaining[remaining.length - 1];
      if (!(await deleteResource(r))) {
        into.resources.push(...remaining);
        return;
      }
      remaining.pop();
    }
    into.outputs = {};
    into.secretOutputs = [];
  }

  /** Deletes every resource as soon as its dependents (by dependency or parent) are deleted; a
   * failed delete keeps the resource and everything it depends on. Answers the resources kept, in
   * their order. */
  async function deleteConcurrently(doomed: ResourceState[]): Promise<ResourceState[]> {
    const deleted = new Map<string, Promise<boolean>>();
    const dependentsOf = (r: ResourceState) => doomed.filter((d) => d !== r && (d.parent === r.urn || d.dependencies.includes(r.urn)));
    const deleteAfterDependents = (r: ResourceState): Promise<boolean> => {
      let done = deleted.get(r.urn);
      if (!done) {
        done = Promise.all(dependentsOf(r).map(deleteAfterDependents)).then((ok) => ok.every(Boolean) && deleteResource(r));
        deleted.set(r.urn, done);
      }
      return done;
    };
    const ok = await Promise.all(doomed.map(deleteAfterDependents));
    return doomed.filter((_, i) => !ok[i]);
  }

  /** Deletes one resource (protect and retainOnDelete honoured); answers false on failure. The
   * original of a replacement is not shown again: its replace step already was. */
  async function deleteResource(r: ResourceState, shown = true): Promise<boolean> {
    if (r.protect) {
      fail(`${shortType(r.type)} ${r.name}: resource is protected; set protect: false (and run up) before deleting it`);
      return false;
    }
    if (r.custom && r.id && !r.retainOnDelete) {
      try {
        const h = await provider();
        await h.delete(dynamicType(r.type), r.id, r.outputs, { urn: r.urn, oldInputs: r.inputs, timeout: timeoutSeconds(r.customTimeouts?.delete) });
      } catch (err) {
        if (interrupted) throw err;
        step({ op: "delete", urn: r.urn, type: r.type, name: r.name, diffs: [], error: String(err) });
        fail(`${shortType(r.type)} ${r.name}: delete failed: ${(err as Error).message}`);
        return false;
      }
    }
    markDeleted(r);
    if (shown && r.type !== STACK_TYPE) step({ op: "delete", urn: r.urn, type: r.type, name: r.name, diffs: [] });
    else checkpoint();
    return true;
  }

  // ---- preview / up: run the program ----
  async function deploy(dryRun: boolean): Promise<void> {
    const prior = new Map(old.resources.filter((r) => !r.pendingDelete).map((r) => [r.urn, r]));
    const seen = new Set<string>();
    if (!dryRun) warnPendingOperations();
    // Originals of replacements a failed update left behind are deleted first, as the CLI does.
    for (const r of old.resources.filter((x) => x.pendingDelete)) {
      if (dryRun) step({ op: "delete", urn: r.urn, type: r.type, name: r.name, diffs: [] });
      else if (!(await deleteResource({ ...r, protect: false }))) next.resources.push(r);
    }
    const typeOf = new Map<string, string>();
    let stackUrn = "";

    /** URNs qualify a type by its parents' types (all but the stack's), as the engine's do. */
    const urnOf = (reg: Registration) => {
      const parentType = reg.parent && reg.parent !== stackUrn ? typeOf.get(reg.parent) : undefined;
      const qualified = parentType ? `${parentType}$${reg.type}` : reg.type;
      const urn = `urn:pulumi:${stack}::${project.name}::${qualified}::${reg.name}`;
      typeOf.set(urn, qualified);
      return urn;
    };
    const keep = (r: ResourceState) => {
      const i = next.resources.findIndex((x) => x.urn === r.urn && !x.pendingDelete);
      if (i >= 0) next.resources[i] = r;
      else next.resources.push(r);
    };

    async function register(reg: Registration): Promise<RegisterAnswer> {
      const urn = urnOf(reg);
      if (reg.type === STACK_TYPE) stackUrn = urn;
      seen.add(urn);
      const before = prior.get(urn);
      const timeouts = reg.customTimeouts.create || reg.customTimeouts.update || reg.customTimeouts.delete ? reg.customTimeouts : undefined;
      const base = { urn, type: reg.type, name: reg.name, parent: reg.parent || undefined, dependencies: reg.dependencies, protect: reg.protect, retainOnDelete: reg.retainOnDelete, customTimeouts: timeouts };
      if (!reg.custom) {
        keep({ ...base, custom: false, inputs: {}, outputs: before?.outputs ?? {}, secrets: [] });
        return { urn, object: {} };
      }
      if (!reg.type.startsWith("pulumi-nodejs:dynamic/")) throw new Error(`${reg.type}: the test engine runs only dynamic resources`);
      const type = dynamicType(reg.type);
      const h = await provider();
      const { plain: news, secrets: secretInputs } = unwrapSecrets(reg.object);
      // The program's inputs before ignoreChanges: a replacement is checked again with these.
      const programInputs = { ...news };
      // ignoreChanges, before check as the CLI does: the old input stays (a new one stays absent).
      if (before) {
        for (const key of reg.ignoreChanges) {
          if (key in before.inputs) news[key] = before.inputs[key];
          else delete news[key];
        }
      }
      const secrets = [...new Set([...secretInputs, ...reg.additionalSecretOutputs, ...(before?.secrets ?? [])])];
      const answer = (id: string | undefined, outputs: Props): RegisterAnswer => ({ urn, id, object: wrapSecrets(outputs, secrets) });
      const label = `${shortType(reg.type)} ${reg.name}`;

      // The `import` option: the real engine's import step calls Read with the id and no properties
      // (pulumi/pulumi pkg/resource/deploy/step.go, ImportStep.Apply); the dynamic host finds no
      // `__provider` there and fails (pulumi/pulumi#16175). Sent as the CLI sends it, failing as it fails.
      if (reg.importId && !before) {
        try {
          const read = await h.read(type, reg.importId, undefined, undefined, { urn });
          if (!read.id) throw new Error(`resource '${reg.importId}' does not exist`);
          throw new Error("the dynamic provider host answered a Read without its provider: not expected of @pulumi/pulumi");
        } catch (err) {
          step({ op: "import", urn, type: reg.type, name: reg.name, diffs: [], error: (err as Error).message });
          const message = `${label}: reading resource ${reg.importId} to import failed: ${(err as Error).message}`;
          fail(message);
          throw new Error(message);
        }
      }

      // A resource not in the state is checked with no olds, also when an earlier run left its create
      // pending: the real engine does not resume it (see the warning in `deploy`).
      const checked = await h.check(type, before?.inputs ?? {}, news, { urn });
      if (checked.failures.length) {
        const message = `${label}: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`;
        if (before) keep(before);
        fail(message);
        throw new Error(message);
      }
      const inputs = checked.inputs;

      const created = async (inputs = checked.inputs): Promise<RegisterAnswer> => {
        if (dryRun) {
          step({ op: before ? "replace" : "create", urn, type: reg.type, name: reg.name, diffs: before ? changedKeys(before.inputs, inputs) : [] });
          return answer(undefined, inputs);
        }
        // Recorded before the call (the CLI's pending operation), dropped once the provider answered.
        const pending: PendingOperation = { op: "create", urn, type: reg.type, name: reg.name, inputs, secrets, startedAt: new Date().toISOString() };
        pendingOps.push(pending);
        checkpoint();
        try {
          const res = await h.create(type, inputs, { urn, timeout: timeoutSeconds(reg.customTimeouts.create) });
          dropPending(pending);
          keep({ ...base, custom: true, id: res.id, inputs, outputs: res.properties, secrets });
          step({ op: before ? "replace" : "create", urn, type: reg.type, name: reg.name, diffs: before ? changedKeys(before.inputs, inputs) : [] });
          return answer(res.id, res.properties);
        } catch (err) {
          // No answer from the provider (its host died): the create's outcome is unknown, it stays pending.
          if (!(err instanceof HostError && err.unreachable) || err.initFailed) dropPending(pending);
          return failed(err, before ? "replace" : "create");
        }
      };
      /** What stays in the state for this resource when its step fails. */
      let kept = before;
      const failed = (err: unknown, op: StepOp): never => {
        if (interrupted) throw new EngineInterrupted();
        const partial = err instanceof HostError ? err.initFailed : undefined;
        if (partial) keep({ ...base, custom: true, id: partial.id, inputs, outputs: partial.properties, secrets, initErrors: partial.reasons });
        else if (kept) keep(kept);
        step({ op, urn, type: reg.type, name: reg.name, diffs: [], error: (err as Error).message });
        const message = `${label}: ${(err as Error).message}`;
        fail(message);
        throw new Error(message);
      };

      if (!before || !before.id) return created();

      const diff = await h.diff(type, before.id, before.outputs, inputs, { urn, oldInputs: before.inputs, ignoreChanges: reg.ignoreChanges });
      const diffs = changedKeys(before.inputs, inputs);
      // A resource deleted by a delete-before-replace whose create then failed is replaced again, and
      // not deleted again (step_generator.go continueStepsFromDiff: `|| old.PendingReplacement`).
      if (diff.replaces.length > 0 || before.pendingReplacement) {
        // As step_generator.go: refused only when protected before and still protected now; lifting
        // `protect` and replacing may happen in one run.
        if (before.protect && reg.protect) {
          const message = `${label}: resource is protected; it cannot be replaced (changes: ${diffs.join(", ")})`;
          keep(before);
          fail(message);
          throw new Error(message);
        }
        // A replacement is checked again as a new resource: no olds, and the program's inputs without
        // ignoreChanges (step_generator.go continueStepsFromDiff: `prov.Check(ctx, plugin.CheckRequest{URN: urn,
        // News: …goal.Properties…})` — a default name is then the new resource's, not the old one's).
        const replacement = await h.check(type, {}, programInputs, { urn });
        if (replacement.failures.length) {
          const message = `${label}: ${replacement.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`;
          keep(before);
          fail(message);
          throw new Error(message);
        }
        if (dryRun) return created(replacement.inputs);
        if (before.pendingReplacement) {
          markDeleted(before);
        } else if (diff.deleteBeforeReplace || reg.deleteBeforeReplace) {
          try {
            await h.delete(type, before.id, before.outputs, { urn, oldInputs: before.inputs, timeout: timeoutSeconds(before.customTimeouts?.delete) });
            markDeleted(before);
            // Deleted: until its replacement exists, the state keeps it as pending replacement (step.go
            // DeleteStep.Apply: `s.old.PendingReplacement = true`).
            kept = { ...before, pendingReplacement: true };
          } catch (err) {
            return failed(err, "replace");
          }
        } else {
          replacedToDelete.push(before);
        }
        return created(replacement.inputs);
      }
      if (diff.changes === "some" || before.initErrors) {
        if (dryRun) {
          step({ op: "update", urn, type: reg.type, name: reg.name, diffs });
          return answer(before.id, { ...before.outputs, ...inputs });
        }
        try {
          const res = await h.update(type, before.id, before.outputs, inputs, { urn, oldInputs: before.inputs, ignoreChanges: reg.ignoreChanges, timeout: timeoutSeconds(reg.customTimeouts.update) });
          keep({ ...base, custom: true, id: before.id, inputs, outputs: res.properties, secrets });
          step({ op: "update", urn, type: reg.type, name: reg.name, diffs });
          return answer(before.id, res.properties);
        } catch (err) {
          return failed(err, "update");
        }
      }
      keep({ ...before, ...base, inputs, secrets });
      step({ op: "same", urn, type: reg.type, name: reg.name, diffs: [] });
      return answer(before.id, before.outputs);
    }

    const monitor = await startMonitor({
      register,
      registerOutputs(urn, outputs) {
        if (urn !== stackUrn) return;
        const { plain, secrets } = unwrapSecrets(outputs);
        next.outputs = plain;
        next.secretOutputs = secrets;
      },
    });
    let exitCode: number | null;
    let programErr = "";
    try {
      const programDir = project.programDir;
      const typescript = existsSync(join(programDir, "index.ts"));
      const child = spawn(
        process.execPath,
        [pulumiScript(programDir, "cmd/run"), `--monitor=${monitor.address}`, `--organization=${ORGANIZATION}`, `--project=${project.name}`, `--stack=${stack}`, "--parallel=16", ...(dryRun ? ["--dry-run"] : []), programDir],
        {
          cwd: options.projectDir,
          env: {
            ...process.env,
            PULUMI_CONFIG: JSON.stringify(config.values),
            PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(config.secretKeys),
            PULUMI_NODEJS_TYPESCRIPT: typescript ? "true" : "false",
            PULUMI_NODEJS_TRANSPILE_ONLY: "true",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      killProgram = () => child.kill("SIGKILL");
      if (interrupted) killProgram();
      child.stdout.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString().split("\n")) if (line.trim()) print(`  ${line}`);
      });
      child.stderr.on("data", (chunk: Buffer) => (programErr += chunk.toString()));
      exitCode = await new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
    } finally {
      await monitor.stop();
    }
    if (interrupted) throw new EngineInterrupted();
    if (exitCode !== 0 && errors.length === 0) fail(`the program failed (exit ${exitCode}):\n${programErr.trim()}`);
    // Every resource the program no longer declares, newest first (reverse dependency order).
    const removed = old.resources.filter((r) => !r.pendingDelete && !seen.has(r.urn)).reverse();
    if (exitCode !== 0 || dryRun) {
      // Resources the run did not reach stay as they were; replaced originals wait for the next run.
      for (const r of [...removed].reverse()) if (!next.resources.some((x) => x.urn === r.urn && !x.pendingDelete)) next.resources.push(r);
      for (const r of replacedToDelete) next.resources.push({ ...r, pendingDelete: true });
      if (dryRun && exitCode === 0 && !refuseProtected(removed)) for (const r of removed) if (r.type !== STACK_TYPE) step({ op: "delete", urn: r.urn, type: r.type, name: r.name, diffs: [] });
      return;
    }
    // The replaced originals, then the removed resources (none if one of them is protected).
    const originals = replacedToDelete.reverse();
    for (const [i, r] of originals.entries()) {
      if (!(await deleteResource({ ...r, protect: false }, false))) {
        for (const rest of originals.slice(i)) next.resources.push({ ...rest, pendingDelete: true });
        next.resources.push(...[...removed].reverse());
        return;
      }
    }
    if (refuseProtected(removed)) {
      next.resources.push(...[...removed].reverse());
      return;
    }
    for (const r of removed) {
      if (!(await deleteResource(r))) {
        for (const rest of removed.slice(removed.indexOf(r)).reverse()) next.resources.push(rest);
        return;
      }
    }
  }
}

export { UNKNOWN };
