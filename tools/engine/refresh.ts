/** `refresh`, and the refresh of `up --refresh` / `preview --refresh`: reads every resource from the
 * API, in parallel, up to `--parallel` at a time (CONFORMANCE.md, "refresh"). */
import { availableParallelism } from "node:os";
import { changedKeys } from "./plan";
import { dynamicType } from "./request-fields";
import { printClearedPendingCreate, resourceLabel } from "./printing";
import type { ProviderHost } from "../support/provider-host";
import type { Run } from "./run";
import type { ResourceState } from "./state";

/**
 * The CLI's `--parallel` when none is given: PULUMI_PARALLEL, else 4 × the CPUs (pulumi/pulumi
 * `defaultParallel()`, "the cpu * 4 choice").
 */
export function defaultParallel(): number {
  const set = Number(process.env.PULUMI_PARALLEL);
  return Number.isInteger(set) && set > 0 ? set : 4 * availableParallelism();
}

export async function refresh(run: Run): Promise<void> {
  // `pulumi refresh --clear-pending-creates` drops them (pkg/cmd/pulumi/operations/refresh.go);
  // without it, a non-interactive refresh keeps them.
  // Once, before the operation (refresh.go, before the engine runs): not in its preview pass.
  if (run.options.clearPendingCreates && !run.previewPass && run.pendingOps.length) {
    for (const p of [...run.pendingOps]) {
      printClearedPendingCreate(run.print, p);
      run.dropPending(p);
    }
  }
  await refreshAll(run);
}

/**
 * Every resource's refresh step at once, on a pool of `--parallel` workers (deployment_executor.go
 * `refresh`: "Fire up a worker pool", `stepExec.ExecuteParallel(steps)`; step_executor.go
 * `newStepExecutor`: one worker per degree of parallelism). The new state keeps the old state's order
 * (the engine's `rebuildBaseState`): a resource not read yet stands as it was, one gone leaves it.
 */
async function refreshAll(run: Run): Promise<void> {
  const resources = run.old.resources;
  const refreshed: (ResourceState | undefined)[] = [...resources];
  const show = () => run.next.resources.splice(0, run.next.resources.length, ...refreshed.filter((x): x is ResourceState => x !== undefined));
  // Before each step is recorded (and checkpointed): the state as the reads so far left it.
  const keep = (i: number, r: ResourceState | undefined) => {
    refreshed[i] = r;
    show();
  };
  let next = 0;
  const worker = async () => {
    while (next < resources.length) {
      run.throwIfInterrupted();
      const i = next++;
      await refreshResource(run, resources[i], (r) => keep(i, r));
    }
  };
  const workers = Math.max(1, Math.min(run.options.parallel ?? defaultParallel(), resources.length));
  show();
  run.refreshing = true;
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    run.refreshing = false;
  }
}

async function refreshResource(run: Run, r: ResourceState, keep: (r: ResourceState | undefined) => void): Promise<void> {
  // Not read: components, and a resource already deleted for its replacement (step.go RefreshStep.Apply).
  if (!r.custom || !r.id || r.pendingReplacement) return;
  const h = await run.provider();
  try {
    await readResource(run, h, r, r.id, keep);
  } catch (err) {
    if (run.interrupted) throw err;
    run.failedStep("refresh", r, String(err));
    run.fail(`${resourceLabel(r)}: refresh failed: ${(err as Error).message}`);
  }
}

/** Reads `r`: gone (an empty id) leaves the state; otherwise the answer replaces the state's outputs,
 * and its inputs when it has any. */
async function readResource(run: Run, h: ProviderHost, r: ResourceState, id: string, keep: (r: ResourceState | undefined) => void): Promise<void> {
  const read = await h.read(dynamicType(r.type), id, r.outputs, r.inputs, { urn: r.urn });
  if (!read.id) {
    run.deletedNow.add(r);
    keep(undefined);
    run.step("delete", r);
    return;
  }
  const outputs = read.properties;
  const inputs = Object.keys(read.inputs).length ? { ...read.inputs, __provider: r.inputs.__provider } : r.inputs;
  // The refresh's diff, for display, as the real engine computes it: sides swapped, the refreshed
  // state as the olds and the state's inputs as the news (step.go RefreshStep.Apply, diffResource).
  // An external resource (read by the program) is compared by its outputs alone, with no Diff call
  // (RefreshStep.Apply: `if s.old.External … diffing outputs only`).
  const drift = r.external ? undefined : await h.diff(dynamicType(r.type), read.id, outputs, r.inputs, { urn: r.urn, oldInputs: inputs, ignoreChanges: [] });
  const diffs = drift?.changes === "none" ? [] : changedKeys(r.outputs, outputs);
  // A successful read clears the init errors of a partial failure (RefreshStep.Apply: the new state
  // gets the read's own `initErrors`, none).
  keep({ ...r, id: read.id, inputs, outputs, initErrors: undefined });
  run.step(diffs.length ? "refresh" : "same", r, diffs);
}
