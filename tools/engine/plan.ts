/**
 * The step of each resource the program registers, as the real engine decides it: check, then diff,
 * then create, update, replace or same — and what each sends to the provider (CONFORMANCE.md).
 */
import type { RegisterAnswer, Registration } from "./monitor";
import { HostError, UNKNOWN, type DiffAnswer, type ProviderHost } from "../support/provider-host";
import { deleteResource } from "./deletes";
import { dynamicType, isDynamicType, timeoutSeconds } from "./request-fields";
import { resourceLabel } from "./printing";
import type { Run } from "./run";
import { unwrapSecrets, wrapSecrets } from "./secrets";
import { parseConfigPath, type PendingOperation, type Props, type ResourceState } from "./state";
import type { StepOp } from "./types";

export function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete("__provider");
  return [...keys].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
}

/** What the state keeps of a registration whatever its step. */
function registrationState(reg: Registration, urn: string) {
  const timeouts = reg.customTimeouts.create || reg.customTimeouts.update || reg.customTimeouts.delete ? reg.customTimeouts : undefined;
  const propertyDependencies = Object.keys(reg.propertyDependencies).length ? reg.propertyDependencies : undefined;
  return { urn, type: reg.type, name: reg.name, parent: reg.parent || undefined, dependencies: reg.dependencies, propertyDependencies, protect: reg.protect, retainOnDelete: reg.retainOnDelete, customTimeouts: timeouts };
}

type RegistrationState = ReturnType<typeof registrationState>;
type Existing = ResourceState & { id: string };

const existsAtApi = (r: ResourceState | undefined): r is Existing => Boolean(r?.id);

/** Answers one registration of the program: a component is kept as it is; a custom resource gets its step. */
export async function registerResource(run: Run, reg: Registration, urn: string): Promise<RegisterAnswer> {
  const before = priorState(run, reg, urn);
  const base = registrationState(reg, urn);
  if (!reg.custom) {
    run.keep({ ...base, custom: false, inputs: {}, outputs: before?.outputs ?? {}, secrets: [] });
    return { urn, object: {} };
  }
  if (!isDynamicType(reg.type)) throw new Error(`${reg.type}: the test engine runs only dynamic resources`);
  const host = await run.provider();
  const plan = new ResourcePlan(run, reg, base, before, host);
  const step = await run.generate(() => plan.decide());
  return step();
}

/**
 * The old state of a registration: its URN's, else the first of its aliases' (step_generator.go
 * `getOldResource`: "Otherwise, if we have an alias, use that"). An alias claimed is neither deleted
 * nor kept under its old URN: the resource carries on under the new one, with no create and no delete.
 */
function priorState(run: Run, reg: Registration, urn: string): ResourceState | undefined {
  const own = run.prior.get(urn);
  if (own) return own;
  for (const alias of reg.aliases) {
    const old = run.prior.get(alias);
    if (old && !run.aliased.has(alias)) {
      run.aliased.add(alias);
      return old;
    }
  }
  return undefined;
}

/** One custom resource the program registered, on its way through check and diff to its step. */
class ResourcePlan {
  private readonly urn: string;
  /** The type as the dynamic provider knows it. */
  private readonly type: string;
  private readonly label: string;
  /** The program's inputs before ignoreChanges: a replacement is checked again with these. */
  private readonly programInputs: Props;
  /** The inputs the first check is given: ignoreChanges applied. */
  private readonly news: Props;
  /** Outputs that are secret: a secret input's name, and additionalSecretOutputs. */
  private readonly secrets: string[];
  /** Inputs the program made secret; the others are stored as given. */
  private readonly secretInputs: string[];
  /** The inputs the first check answered. */
  private inputs: Props = {};
  /** What stays in the state for this resource when its step fails. */
  private kept: ResourceState | undefined;

  constructor(
    private readonly run: Run,
    private readonly reg: Registration,
    private readonly base: RegistrationState,
    private readonly before: ResourceState | undefined,
    private readonly host: ProviderHost,
  ) {
    this.urn = base.urn;
    this.type = dynamicType(reg.type);
    this.label = resourceLabel(reg);
    const { plain: news, secrets: secretInputs } = unwrapSecrets(reg.object);
    this.programInputs = { ...news };
    if (before) applyIgnoreChanges(news, before, reg.ignoreChanges);
    this.news = news;
    // An ignored input keeps its old value, secret if it was.
    const keptSecret = before ? reg.ignoreChanges.map((p) => parseConfigPath(p)[0] as string).filter((k) => (before.secretInputs ?? before.secrets).includes(k)) : [];
    this.secretInputs = [...new Set([...secretInputs, ...keptSecret])];
    this.secrets = [...new Set([...this.secretInputs, ...reg.additionalSecretOutputs])];
    this.kept = before;
  }

  /** The step generator's part (check, then diff): answers the step to run. */
  async decide(): Promise<() => Promise<RegisterAnswer>> {
    this.run.urns.generated.add(this.urn);
    const importId = this.reg.importId;
    if (importId && !this.before) return () => this.import(importId);
    await this.check();
    const before = this.before;
    // Deleted earlier in this run as a dependent of a delete-before-replace: made again, with no
    // diff (step_generator.go: `if sg.deletes[urn]` → ReplaceStep + CreateReplacementStep).
    const deleted = this.run.deletedForReplace.get(this.urn);
    if (deleted) {
      this.run.deletedForReplace.delete(this.urn);
      this.kept = deleted;
      return () => this.create();
    }
    if (!existsAtApi(before)) return () => this.create();
    const diff = await this.host.diff(this.type, before.id, before.outputs, this.inputs, { urn: this.urn, oldInputs: before.inputs, ignoreChanges: this.reg.ignoreChanges });
    const diffs = changedKeys(before.inputs, this.inputs);
    // A resource deleted by a delete-before-replace whose create then failed is replaced again, and
    // not deleted again (step_generator.go continueStepsFromDiff: `|| old.PendingReplacement`).
    if (diff.replaces.length > 0 || before.pendingReplacement) return () => this.replace(before, diff, diffs);
    // A provider that cannot tell (DIFF_UNKNOWN: a dynamic provider without `diff`) gets the engine's
    // own diff of the inputs (step_generator.go diffResource: `if diff.Changes == plugin.DiffUnknown`).
    const changed = diff.changes === "some" || (diff.changes === "unknown" && diffs.length > 0);
    if (changed || before.initErrors) return () => this.update(before, diffs);
    return async () => this.same(before);
  }

  private answer(id: string | undefined, outputs: Props): RegisterAnswer {
    return { urn: this.urn, id, object: wrapSecrets(outputs, this.secrets) };
  }

  /** Fails the registration: the error is the run's, and the deployment is cancelled. */
  private refuse(message: string): never {
    this.run.fail(message);
    this.run.cancel();
    throw new StepFailed(message);
  }

  /** Each check failure as the CLI prints it (step_generator.go issueCheckFailures), then the
   * registration fails ("resource … is invalid"). */
  private refuseChecked(failures: { property: string; reason: string }[], inputs: Props): never {
    const messages = failures.map((f) => checkFailureMessage(this.reg.type, this.reg.name, f, inputs, this.secrets));
    for (const m of messages.slice(0, -1)) this.run.fail(m);
    return this.refuse(messages[messages.length - 1]);
  }

  // The `import` option: the real engine's import step calls Read with the id and no properties
  // (pulumi/pulumi pkg/resource/deploy/step.go, ImportStep.Apply); the dynamic host finds no
  // `__provider` there and fails (pulumi/pulumi#16175). Sent as the CLI sends it, failing as it fails.
  private async import(importId: string): Promise<never> {
    this.run.throwIfCancelled();
    try {
      const read = await this.run.inStep("import", this.base, () => this.host.read(this.type, importId, undefined, undefined, { urn: this.urn }));
      if (!read.id) throw new Error(`resource '${importId}' does not exist`);
      throw new Error("the dynamic provider host answered a Read without its provider: not expected of @pulumi/pulumi");
    } catch (err) {
      this.run.failedStep("import", this.base, (err as Error).message);
      return this.refuse(`${this.label}: ${stepError((err as Error).message, this.run.dryRun)}`);
    }
  }

  // A resource not in the state is checked with no olds, also when an earlier run left its create
  // pending: the real engine does not resume it (see printPendingOperationsWarning).
  private async check(): Promise<void> {
    const checked = await this.host.check(this.type, this.before?.inputs ?? {}, this.news, { urn: this.urn });
    if (checked.failures.length) {
      if (this.before) this.run.keep(this.before);
      this.refuseChecked(checked.failures, this.news);
    }
    this.inputs = checked.inputs;
  }

  /** A create, or the create of a replacement (with the inputs of its own check). */
  private async create(inputs = this.inputs): Promise<RegisterAnswer> {
    const op = this.before ? "replace" : "create";
    const diffs = this.before ? changedKeys(this.before.inputs, inputs) : [];
    if (this.run.dryRun) {
      this.run.step(op, this.base, diffs);
      return this.answer(undefined, inputs);
    }
    // Recorded before the call (the CLI's pending operation), dropped once the provider answered.
    this.run.throwIfCancelled();
    const pending: PendingOperation = { op: "create", urn: this.urn, type: this.reg.type, name: this.reg.name, inputs, secrets: this.secretInputs, startedAt: new Date().toISOString() };
    this.run.beginPending(pending);
    try {
      const res = await this.run.inStep(op, this.base, () => this.host.create(this.type, inputs, { urn: this.urn, timeout: timeoutSeconds(this.reg.customTimeouts.create) }));
      this.run.dropPending(pending);
      // step.go CreateStep.Apply: an empty id fails the step; nothing is saved.
      if (!res.id) throw new Error("provider did not return an ID from Create");
      this.run.keep({ ...this.base, custom: true, id: res.id, inputs, outputs: res.properties, secrets: this.secrets, secretInputs: this.secretInputs });
      this.run.step(op, this.base, diffs);
      return this.answer(res.id, res.properties);
    } catch (err) {
      // A failed step ends its pending operation, also when the provider host died and the create's
      // outcome is unknown (pkg/backend/snapshot.go createSnapshotMutation.End: markOperationComplete
      // whatever `successful`); only a CLI killed before the answer leaves it.
      this.run.dropPending(pending);
      return this.failed(err, op);
    }
  }

  /** A failed provider call: a partial failure is kept with its id, otherwise what was there stays. */
  private failed(err: unknown, op: StepOp): never {
    this.run.throwIfInterrupted();
    const partial = err instanceof HostError ? err.initFailed : undefined;
    // The original of a failed create-then-delete replacement stays as it was, once: not pending delete.
    const original = this.kept ? this.run.replacedToDelete.indexOf(this.kept) : -1;
    if (original >= 0) this.run.replacedToDelete.splice(original, 1);
    if (partial) this.run.keep({ ...this.base, custom: true, id: partial.id, inputs: this.inputs, outputs: partial.properties, secrets: this.secrets, secretInputs: this.secretInputs, initErrors: partial.reasons });
    else if (this.kept) this.run.keep(this.kept);
    const message = partial ? initErrorMessage(partial.reasons) : (err as Error).message;
    this.run.failedStep(op, this.base, message);
    return this.refuse(`${this.label}: ${message}`);
  }

  private async replace(before: Existing, diff: DiffAnswer, diffs: string[]): Promise<RegisterAnswer> {
    this.run.throwIfCancelled();
    // As step_generator.go: refused only when protected before and still protected now; lifting
    // `protect` and replacing may happen in one run.
    if (before.protect && this.reg.protect) {
      this.run.keep(before);
      // The CLI's words (step_generator.go continueStepsFromDiff).
      return this.refuse(
        `${this.label}: unable to replace resource "${this.urn}"\nas it is currently marked for protection. To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\``,
      );
    }
    // A replacement is checked again as a new resource: no olds, and the program's inputs without
    // ignoreChanges (step_generator.go continueStepsFromDiff: `prov.Check(ctx, plugin.CheckRequest{URN: urn,
    // News: …goal.Properties…})` — a default name is then the new resource's, not the old one's).
    const replacement = await this.host.check(this.type, {}, this.programInputs, { urn: this.urn });
    if (replacement.failures.length) {
      this.run.keep(before);
      return this.refuseChecked(replacement.failures, this.programInputs);
    }
    const deleteFirst = !before.pendingReplacement && (diff.deleteBeforeReplace || this.reg.deleteBeforeReplace);
    if (deleteFirst) await this.deleteDependents(before);
    if (this.run.dryRun) return this.create(replacement.inputs);
    if (before.pendingReplacement) this.run.markDeleted(before);
    else if (deleteFirst) await this.deleteBeforeReplace(before);
    // Marked for deletion once its replacement exists; a failed create takes it back (failed()).
    else this.run.replacedToDelete.push(before);
    return this.create(replacement.inputs);
  }

  /**
   * Before a delete-before-replace, the resources of the old state that depend on the replaced one
   * and would be replaced by its change are deleted, newest first, and made again when the program
   * registers them (step_generator.go `calculateDependentReplacements`, `generateStepsFromDiff`):
   * a dependent counts when one of its inputs came from a resource of the chain and its provider's
   * Diff, with those inputs unknown, answers a replace. A protected one stops the replacement. In a
   * preview the Diffs run and nothing is deleted.
   */
  private async deleteDependents(root: Existing): Promise<void> {
    const chain = new Set([root.urn]);
    const toReplace: Existing[] = [];
    const old = this.run.old.resources.filter((r) => !r.pendingDelete);
    const linked = new Set([root.urn]);
    for (const r of old.slice(old.findIndex((x) => x.urn === root.urn) + 1)) {
      // Registered already in this run: it cannot depend on a resource registered after it.
      if (this.run.urns.generated.has(r.urn)) continue;
      const deps = [...r.dependencies, ...Object.values(r.propertyDependencies ?? {}).flat()];
      if (!deps.some((u) => linked.has(u))) continue;
      linked.add(r.urn);
      if (!r.custom || r.external || !existsAtApi(r) || r.pendingReplacement) continue;
      const inputs: Props = {};
      let fromChain = false;
      for (const [key, value] of Object.entries(r.inputs)) {
        const from = (r.propertyDependencies?.[key] ?? []).some((u) => chain.has(u));
        fromChain ||= from;
        inputs[key] = from ? UNKNOWN : value;
      }
      if (!fromChain) continue;
      const diff = await this.host.diff(dynamicType(r.type), r.id, r.outputs, inputs, { urn: r.urn, oldInputs: r.inputs });
      if (diff.replaces.length === 0) continue;
      toReplace.push(r);
      chain.add(r.urn);
    }
    for (const r of toReplace.reverse()) {
      if (r.protect) {
        // The real engine's words (step_generator.go), and it stops there.
        const message =
          `unable to replace resource "${r.urn}" as part of replacing "${root.urn}" as it is currently marked for protection. ` +
          `To unprotect the resource, remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command:\n` +
          `\`pulumi state unprotect '${r.urn}'\``;
        this.run.keep(root);
        return this.refuse(`${this.label}: ${message}`);
      }
      // Its step is the replace shown when the program registers it again (one step per resource, as the CLI's display).
      if (!this.run.dryRun && !(await deleteResource(this.run, { ...r, protect: false }, false))) {
        this.run.keep(root);
        return this.refuse(`${this.label}: the delete of ${resourceLabel(r)}, which depends on it, failed`);
      }
      // Kept as pending replacement until the program registers it again (step.go DeleteStep.Apply).
      this.run.deletedForReplace.set(r.urn, { ...r, pendingReplacement: true });
    }
  }

  private async deleteBeforeReplace(before: Existing): Promise<void> {
    this.run.throwIfCancelled();
    try {
      await this.run.inStep("replace", this.base, () => this.host.delete(this.type, before.id, before.outputs, { urn: this.urn, oldInputs: before.inputs, timeout: timeoutSeconds(before.customTimeouts?.delete) }));
      this.run.markDeleted(before);
      // Deleted: until its replacement exists, the state keeps it as pending replacement (step.go
      // DeleteStep.Apply: `s.old.PendingReplacement = true`).
      this.kept = { ...before, pendingReplacement: true };
    } catch (err) {
      this.failed(err, "replace");
    }
  }

  private async update(before: Existing, diffs: string[]): Promise<RegisterAnswer> {
    // A provider without preview support (the Node dynamic host) is not called: the engine answers
    // the new inputs as the outputs (provider_plugin.go Update: `req.Preview && !supportsPreview`),
    // and the SDK resolves every other output unknown in a dry run (runtime/resource.ts resolveOutputs).
    if (this.run.dryRun) {
      this.run.step("update", this.base, diffs);
      return this.answer(before.id, this.inputs);
    }
    this.run.throwIfCancelled();
    const pending: PendingOperation = { op: "update", urn: this.urn, type: this.reg.type, name: this.reg.name, inputs: this.inputs, secrets: this.secretInputs, startedAt: new Date().toISOString() };
    this.run.beginPending(pending);
    try {
      const res = await this.run.inStep("update", this.base, () => this.host.update(this.type, before.id, before.outputs, this.inputs, { urn: this.urn, oldInputs: before.inputs, ignoreChanges: this.reg.ignoreChanges, timeout: timeoutSeconds(this.reg.customTimeouts.update) }));
      this.run.dropPending(pending);
      this.run.keep({ ...this.base, custom: true, id: before.id, inputs: this.inputs, outputs: res.properties, secrets: this.secrets, secretInputs: this.secretInputs });
      this.run.step("update", this.base, diffs);
      return this.answer(before.id, res.properties);
    } catch (err) {
      this.run.dropPending(pending);
      return this.failed(err, "update");
    }
  }

  private same(before: Existing): RegisterAnswer {
    // The old outputs stay, with their secrets (and additionalSecretOutputs now).
    const secrets = [...new Set([...this.secrets, ...before.secrets])];
    this.run.keep({ ...before, ...this.base, inputs: this.inputs, secrets, secretInputs: this.secretInputs });
    this.run.step("same", this.base);
    return { urn: this.urn, id: before.id, object: wrapSecrets(before.outputs, secrets) };
  }
}

/**
 * ignoreChanges, before check as the CLI does (step_generator.go processIgnoreChanges): at each path
 * (`size`, `tags.env`, `rules[0].port`, `tags["a.b"]`) the old input stays, and a value the old
 * inputs did not have stays absent.
 */
function applyIgnoreChanges(news: Props, before: ResourceState, ignoreChanges: string[]): void {
  for (const path of ignoreChanges) {
    const parts = parseConfigPath(path);
    const old = valueAt(before.inputs, parts);
    if (old.found) setAt(news, parts, structuredClone(old.value));
    else deleteAt(news, parts);
  }
}

type Container = Record<string | number, unknown>;
const isContainer = (v: unknown): v is Container => v !== null && typeof v === "object";

function valueAt(root: Props, parts: (string | number)[]): { found: boolean; value?: unknown } {
  let at: unknown = root;
  for (const part of parts) {
    if (!isContainer(at) || !(part in at)) return { found: false };
    at = at[part];
  }
  return { found: true, value: at };
}

function setAt(root: Props, parts: (string | number)[], value: unknown): void {
  let at: Container = root;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    if (!isContainer(at[part])) at[part] = typeof parts[i + 1] === "number" ? [] : {};
    at = at[part] as Container;
  }
  at[parts[parts.length - 1]] = value;
}

function deleteAt(root: Props, parts: (string | number)[]): void {
  const parent = valueAt(root, parts.slice(0, -1));
  if (parent.found && isContainer(parent.value)) delete parent.value[parts[parts.length - 1]];
}

/**
 * A partial failure as the CLI prints it: its reasons, not the gRPC message (pulumi/pulumi
 * pkg/resource/plugin/provider_plugin.go turns ErrorResourceInitFailed into an InitError, whose
 * Error() is a hashicorp multierror of the reasons: `1 error occurred:\n\t* <reason>`).
 */
export function initErrorMessage(reasons: string[]): string {
  if (reasons.length === 0) return "resource init failed";
  return `${reasons.length} error${reasons.length === 1 ? "" : "s"} occurred:\n${reasons.map((r) => `\t* ${r}`).join("\n")}`;
}

/**
 * A check failure as the CLI prints it (pulumi/pulumi sdk/go/common/diag/errors.go): with a property,
 * code 2003 `<type> resource '<name>': property <property> value <value> has a problem: <reason>`
 * — the value as Go's `%v` prints a PropertyValue, `{…}`; a secret one is a pointer there, never its
 * text, shown here as `{[secret]}`; with none, code 2002 `<type> resource '<name>' has a problem: <reason>`.
 */
export function checkFailureMessage(type: string, name: string, f: { property: string; reason: string }, inputs: Props, secrets: readonly string[]): string {
  if (!f.property) return `${type} resource '${name}' has a problem: ${f.reason}`;
  const value = f.property in inputs ? (secrets.includes(f.property) ? "[secret]" : goValue(inputs[f.property])) : "";
  return `${type} resource '${name}': property ${f.property} value {${value}} has a problem: ${f.reason}`;
}

/** A value roughly as Go's `%v` prints it inside a PropertyValue (strings bare, lists in brackets). */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return `[${value.map((v) => `{${goValue(v)}}`).join(" ")}]`;
  if (typeof value === "object") return `map[${Object.entries(value).map(([k, v]) => `${k}:{${goValue(v)}}`).join(" ")}]`;
  return String(value);
}

/** A failed step's error as the CLI prints it under the resource: the error itself (diag 2000,
 * `GetResourceOperationFailedError`), in a preview `Preview failed: <error>` (diag 2005,
 * `GetPreviewFailedError`; pkg/engine/update.go OnResourceStepPost). */
export function stepError(message: string, dryRun: boolean): string {
  return dryRun ? `Preview failed: ${message}` : message;
}

/** A step that failed: its error is printed already and the deployment cancelled. */
export class StepFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StepFailed";
  }
}
