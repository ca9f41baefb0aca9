/** The text the test engine prints, as the Pulumi CLI prints it: one function per kind of line. */
import type { PendingOperation, StackState } from "./state";
import type { Operation, Step, StepOp } from "./types";

export type Print = (line: string) => void;

export const shortType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\//, "");

/** A resource as the messages name it: `svc:Webhook events`. */
export const resourceLabel = (r: { type: string; name: string }) => `${shortType(r.type)} ${r.name}`;

/** The CLI's first line; a preview pass names the operation it previews ("Previewing destroy"). */
export function printHeader(print: Print, operation: Operation, stack: string, project: string, dryRun = false): void {
  const previewing = { preview: "Previewing update", up: "Previewing update", refresh: "Previewing refresh", destroy: "Previewing destroy" };
  const running = { preview: "Previewing update", up: "Updating", refresh: "Refreshing", destroy: "Destroying" };
  print(`${(dryRun ? previewing : running)[operation]} (${stack}) of project ${project}:`);
}

const SIGN: Record<StepOp, string> = { create: "+", update: "~", replace: "+-", delete: "-", import: "=", refresh: "~", same: " ", read: ">", discard: "<" };

/** A step's line; a `same` step has none. */
export function printStep(print: Print, s: Step): void {
  if (s.op === "same") return;
  const sign = SIGN[s.op];
  const diff = s.diffs.length ? ` [diff: ${s.diffs.map((d) => `~${d}`).join(" ")}]` : "";
  print(`    ${sign} ${s.op.padEnd(8)} ${shortType(s.type)}  ${s.name}${diff}${s.error ? `  **failed**` : ""}`);
}

export function printError(print: Print, message: string): void {
  print(`  error: ${message}`);
}

const ING: Record<StepOp, string> = { create: "creating", update: "updating", replace: "replacing", delete: "deleting", same: "", import: "importing", refresh: "refreshing", read: "reading", discard: "discarding" };

/** A step still running, with its elapsed time. */
export function printInFlight(print: Print, op: StepOp, label: string, ms: number): void {
  print(`    ${SIGN[op]} ${label} ${ING[op]} (${Math.floor(ms / 1000)}s)`);
}

/** A first Ctrl-C, in the CLI's words (pulumi/pulumi pkg/cmd/pulumi/…/cancellation scope, NewScope). */
export function printCancelling(print: Print, preview: boolean): void {
  print("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
  if (!preview) print("Note that terminating immediately may lead to orphaned resources and other inconsistencies.");
}

/** A second Ctrl-C. */
export function printTerminating(print: Print): void {
  print("^C received; terminating");
}

/** A diagnostic of the program or the provider host (info, warning). */
export function printDiagnostic(print: Print, severity: string, message: string): void {
  print(`  ${severity}: ${message}`);
}

/** What the program wrote on stdout, line by line. */
export function printProgramOutput(print: Print, chunk: string): void {
  for (const line of chunk.split("\n")) if (line.trim()) print(`  ${line}`);
}

/** The real engine's warning for the pending operations of the previous deployment, on `up` only
 * (pulumi/pulumi pkg/resource/deploy/deployment_executor.go, printPendingOperationsWarning, `!opts.DryRun`):
 * it then deploys the program as if they were not there — a resource whose create was pending is
 * checked with no olds and created again — and keeps the pending creates in the state
 * (pkg/backend/snapshot.go, SnapshotManager.Snap). */
export function printPendingOperationsWarning(print: Print, previous: PendingOperation[]): void {
  if (!previous.length) return;
  print(`  warning: Attempting to deploy or update resources with ${previous.length} pending operations from previous deployment.`);
  for (const p of previous) print(`      * ${p.urn}, interrupted while ${{ create: "creating", update: "updating", delete: "deleting" }[p.op]}`);
  print("    These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes to these resources to complete.");
}

export function printClearedPendingCreate(print: Print, p: PendingOperation): void {
  print(`    cleared the pending create of ${resourceLabel(p)}`);
}

/** The creates this run started and did not see end. */
export function printInterruptedCreates(print: Print, interrupted: PendingOperation[]): void {
  for (const p of interrupted) print(`  warning: ${resourceLabel(p)}: a create started ${p.startedAt} was interrupted and its outcome is unknown`);
}

/** What the provider host printed (stderr, and stdout after its port), as the CLI shows a plugin's
 * output: info diagnostics with no resource (plugin.go newPlugin, `Infoerrf(diag.StreamMessage("", …))`),
 * listed under the stack in the Diagnostics section. */
export function printDiagnostics(print: Print, messages: string[], stack: string): void {
  if (!messages.length) return;
  print("Diagnostics:");
  print(`  pulumi:pulumi:Stack (${stack}):`);
  for (const m of messages) print(`    ${m}`);
}

/** The stack outputs after `up`, whole (secrets masked), when there are any. */
export function printOutputs(print: Print, state: StackState): void {
  if (!Object.keys(state.outputs).length) return;
  print("Outputs:");
  // As the CLI: sorted by name, names padded so the colons align (pkg/backend/display
  // printPropertyValue's `maxkey`); values here on one line (the CLI breaks objects and lists).
  const keys = Object.keys(state.outputs).sort();
  const width = Math.max(...keys.map((k) => k.length));
  for (const key of keys) print(`    ${key.padEnd(width)}: ${state.secretOutputs.includes(key) ? "[secret]" : (JSON.stringify(state.outputs[key]) ?? "undefined")}`);
}

/**
 * `pulumi stack output [name] [--json] [--show-secrets]` (pulumi/pulumi pkg/cmd/pulumi/stack/
 * stack_output.go): one output's value (a string bare, anything else as JSON), or all of them as a
 * table; with --json, JSON; a secret is `[secret]` unless --show-secrets. Undefined when `name` is
 * not an output.
 */
export function formatStackOutputs(state: StackState, o: { name?: string; json?: boolean; showSecrets?: boolean }): string[] | undefined {
  const shown = (key: string) => (state.secretOutputs.includes(key) && !o.showSecrets ? "[secret]" : state.outputs[key]);
  if (o.name !== undefined) {
    if (!(o.name in state.outputs)) return undefined;
    const value = shown(o.name);
    return [o.json ? JSON.stringify(value, null, 2) : typeof value === "string" ? value : JSON.stringify(value)];
  }
  const keys = Object.keys(state.outputs).sort();
  if (o.json) return [JSON.stringify(Object.fromEntries(keys.map((k) => [k, shown(k)])), null, 2)];
  const text = (k: string) => (typeof shown(k) === "string" ? (shown(k) as string) : JSON.stringify(shown(k)));
  const width = Math.max("OUTPUT".length, ...keys.map((k) => k.length));
  return [`Current stack outputs (${keys.length}):`, `    ${"OUTPUT".padEnd(width)}  VALUE`, ...keys.map((k) => `    ${k.padEnd(width)}  ${text(k)}`)];
}

export function countSteps(steps: Step[]): Partial<Record<StepOp, number>> {
  const counts: Partial<Record<StepOp, number>> = {};
  for (const s of steps) counts[s.op] = (counts[s.op] ?? 0) + 1;
  return counts;
}

export function printSummary(print: Print, counts: Partial<Record<StepOp, number>>, ms: number, errorCount: number): void {
  const summary = Object.entries(counts)
    .filter(([op]) => op !== "same")
    .map(([op, n]) => `${n} to ${op}`)
    .join(", ");
  print(`Resources: ${summary || "no changes"}${counts.same ? `, ${counts.same} unchanged` : ""}`);
  print(`Duration: ${(ms / 1000).toFixed(1)}s${errorCount ? `  (${errorCount} error${errorCount > 1 ? "s" : ""})` : ""}`);
}
