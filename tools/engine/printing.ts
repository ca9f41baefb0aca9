/** The text the test engine prints, as the Pulumi CLI prints it: one function per kind of line. */
import type { PendingOperation, StackState } from "./state";
import type { Operation, Step, StepOp } from "./types";

export type Print = (line: string) => void;

export const shortType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\//, "");

/** A resource as the messages name it: `svc:Webhook events`. */
export const resourceLabel = (r: { type: string; name: string }) => `${shortType(r.type)} ${r.name}`;

export function printHeader(print: Print, operation: Operation, stack: string, project: string): void {
  print(`${{ preview: "Previewing update", up: "Updating", refresh: "Refreshing", destroy: "Destroying" }[operation]} (${stack}) of project ${project}:`);
}

/** A step's line; a `same` step has none. */
export function printStep(print: Print, s: Step): void {
  if (s.op === "same") return;
  const sign = { create: "+", update: "~", replace: "+-", delete: "-", import: "=", refresh: "~", same: " " }[s.op];
  const diff = s.diffs.length ? ` [diff: ${s.diffs.map((d) => `~${d}`).join(" ")}]` : "";
  print(`    ${sign} ${s.op.padEnd(8)} ${shortType(s.type)}  ${s.name}${diff}${s.error ? `  **failed**` : ""}`);
}

export function printError(print: Print, message: string): void {
  print(`  error: ${message}`);
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
  for (const p of previous) print(`      * ${p.urn}, interrupted while creating`);
  print("    These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes to these resources to complete.");
}

export function printClearedPendingCreate(print: Print, p: PendingOperation): void {
  print(`    cleared the pending create of ${resourceLabel(p)}`);
}

/** The creates this run started and did not see end. */
export function printInterruptedCreates(print: Print, interrupted: PendingOperation[]): void {
  for (const p of interrupted) print(`  warning: ${resourceLabel(p)}: a create started ${p.startedAt} was interrupted and its outcome is unknown`);
}

/** What the provider host wrote on stderr. */
export function printDiagnostics(print: Print, messages: string[]): void {
  if (!messages.length) return;
  print("Diagnostics:");
  for (const m of messages) print(`  ${m}`);
}

/** The stack outputs (secrets masked, long values cut), when there are any. */
export function printOutputs(print: Print, state: StackState): void {
  if (!Object.keys(state.outputs).length) return;
  print("Outputs:");
  for (const [key, value] of Object.entries(state.outputs)) {
    const text = state.secretOutputs.includes(key) ? "[secret]" : JSON.stringify(value) ?? "undefined";
    print(`    ${key}: ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`);
  }
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
