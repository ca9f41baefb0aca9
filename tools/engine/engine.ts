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
 *
 * The parts: run.ts (the state of one run), program.ts (the program and its registrations), plan.ts
 * (each registration's step), deletes.ts, refresh.ts, printing.ts (the text printed).
 */
import { deleteAfterProgram, deleteLeftOriginals, destroyAll, keepPendingReplacements, keepUndeleted, previewDeletes, removedResources } from "./deletes";
import { countSteps, printDiagnostics, printError, printHeader, printInterruptedCreates, printOutputs, printPendingOperationsWarning, printSummary } from "./printing";
import { ensurePackageLink, runProgram } from "./program";
import { refresh } from "./refresh";
import { passphraseOf, Run, stateFileOf } from "./run";
import { loadState, type StackState } from "./state";
import type { EngineOptions, Operation, RunResult } from "./types";

export type { EngineOptions, Operation, RunResult, Step, StepOp } from "./types";
export { EngineInterrupted, stateFileOf } from "./run";

/** The state as stored for a stack (secrets decrypted), for tests. */
export function readStackState(options: EngineOptions): StackState {
  return loadState(stateFileOf(options), passphraseOf(options));
}

/**
 * One operation as the CLI runs it: `up`, `destroy` and `refresh` first run their preview pass (the
 * CLI's `--skip-preview` skips it), and a failed preview stops the operation before any change
 * (pkg/backend/apply.go `PreviewThenPrompt`… / `confirmBeforeUpdating`: the update runs only when the
 * preview succeeded). The result is the operation's own; a failed preview's is the preview's.
 */
export async function runEngine(operation: Operation, options: EngineOptions): Promise<RunResult> {
  if (operation !== "preview" && !options.skipPreview) {
    const preview = await runOnce(operation, options, true);
    if (!preview.ok) return preview;
  }
  return runOnce(operation, options, false);
}

async function runOnce(operation: Operation, options: EngineOptions, previewPass: boolean): Promise<RunResult> {
  const run = new Run(operation, options, previewPass);
  ensurePackageLink(options.projectDir);
  run.watchSignal();
  printHeader(run.print, operation, run.stack, run.project.name, run.dryRun);
  let messages: string[] = [];
  run.startProgress();
  try {
    await perform(run);
  } catch (err) {
    run.throwIfInterrupted();
    throw err;
  } finally {
    run.stopProgress();
    run.stopWatchingSignal();
    messages = await run.stopProviderHost();
    run.saveFinalState();
  }
  run.throwIfInterrupted();
  return finish(run, messages);
}

function perform(run: Run): Promise<void> {
  if (run.operation === "refresh") return refresh(run);
  if (run.operation === "destroy") return destroyAll(run);
  return deploy(run);
}

/** preview / up: runs the program, then deletes what it no longer declares. */
async function deploy(run: Run): Promise<void> {
  if (!run.dryRun) printPendingOperationsWarning(run.print, run.old.pendingOperations ?? []);
  // `--refresh`: the reads first, then the program against what they found (deployment_executor.go
  // `Execute`: `if ex.deployment.opts.Refresh { … ex.refresh(…) }` before the program's steps).
  if (run.options.refresh) {
    await refresh(run);
    run.startFromRefreshed();
  }
  const exitCode = await runProgram(run);
  if (exitCode !== 0 || run.errors.length) keepStackOutputs(run);
  keepPendingReplacements(run);
  const removed = removedResources(run);
  // Originals a failed replacement left pending delete are deleted with the other deletes, after the
  // program, and not at all when it failed (step_generator.go GenerateDeletes: `if res.Delete`).
  const left = run.old.resources.filter((x) => x.pendingDelete);
  if (exitCode !== 0 || run.dryRun || run.errors.length) {
    keepUndeleted(run, removed, left);
    if (run.dryRun && exitCode === 0 && !run.errors.length) {
      for (const r of left) run.step("delete", r);
      previewDeletes(run, removed);
    }
    return;
  }
  if (!(await deleteLeftOriginals(run, left))) {
    keepUndeleted(run, removed, []);
    return;
  }
  await deleteAfterProgram(run, removed);
}

/** A failed update keeps the stack outputs it did not register again (pulumi_test.go
 * TestStackOutputsProgramError, TestStackOutputsResourceError: "Prior output is preserved"). */
function keepStackOutputs(run: Run): void {
  // Nothing registered: the old outputs stand as they are.
  if (run.next.outputs === run.old.outputs) return;
  const { outputs: registered, secretOutputs: registeredSecrets } = run.next;
  run.next.outputs = { ...run.old.outputs, ...registered };
  run.next.secretOutputs = [...new Set([...run.old.secretOutputs.filter((k) => !(k in registered)), ...registeredSecrets])];
}

/** The warnings, diagnostics, outputs and summary the CLI prints at the end, and the result. */
function finish(run: Run, messages: string[]): RunResult {
  printInterruptedCreates(run.print, run.pendingOps.filter((x) => x.op === "create" && !(run.old.pendingOperations ?? []).includes(x)));
  printDiagnostics(run.print, messages, `${run.project.name}-${run.stack}`);
  // The deployment's own last word (deployment_executor.go reportExecResult): "<kind> canceled" is
  // an error of its own; "<kind> failed" follows the errors already printed.
  const kind = run.dryRun ? "preview" : "update";
  if (run.cancelledByUser) run.fail(`${kind} canceled`);
  else if (run.errors.length) printError(run.print, `${kind} failed`);
  const counts = countSteps(run.steps);
  const ms = Date.now() - run.started;
  if (run.operation === "up" && !run.dryRun) printOutputs(run.print, run.next);
  printSummary(run.print, counts, ms, run.errors.length);
  return { operation: run.operation, ok: run.errors.length === 0, steps: run.steps, counts, outputs: run.next.outputs, errors: run.errors, ...(run.cancelledByUser ? { cancelled: true } : {}), messages, ms };
}
