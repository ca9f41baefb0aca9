/** `refresh`: reads every resource from the API (CONFORMANCE.md, "refresh"). */
import { changedKeys, dynamicType } from "./plan";
import { printClearedPendingCreate, resourceLabel } from "./printing";
import type { ProviderHost } from "./provider-host";
import type { Run } from "./run";
import type { ResourceState } from "./state";

export async function refresh(run: Run): Promise<void> {
  // `pulumi refresh --clear-pending-creates` drops them (pkg/cmd/pulumi/operations/refresh.go);
  // without it, a non-interactive refresh keeps them.
  if (run.options.clearPendingCreates && run.pendingOps.length) {
    for (const p of [...run.pendingOps]) {
      printClearedPendingCreate(run.print, p);
      run.dropPending(p);
    }
  }
  for (const r of run.old.resources) await refreshResource(run, r);
}

async function refreshResource(run: Run, r: ResourceState): Promise<void> {
  // Not read: components, and a resource already deleted for its replacement (step.go RefreshStep.Apply).
  if (!r.custom || !r.id || r.pendingReplacement) {
    run.next.resources.push(r);
    return;
  }
  const h = await run.provider();
  try {
    await readResource(run, h, r, r.id);
  } catch (err) {
    if (run.interrupted) throw err;
    run.next.resources.push(r);
    run.failedStep("refresh", r, String(err));
    run.fail(`${resourceLabel(r)}: refresh failed: ${(err as Error).message}`);
  }
}

/** Reads `r`: gone (an empty id) leaves the state; otherwise the answer replaces the state's outputs,
 * and its inputs when it has any. */
async function readResource(run: Run, h: ProviderHost, r: ResourceState, id: string): Promise<void> {
  const read = await h.read(dynamicType(r.type), id, r.outputs, r.inputs, { urn: r.urn });
  if (!read.id) {
    run.deletedNow.add(r);
    run.step("delete", r);
    return;
  }
  const outputs = read.properties;
  const inputs = Object.keys(read.inputs).length ? { ...read.inputs, __provider: r.inputs.__provider } : r.inputs;
  // The refresh's diff, for display, as the real engine computes it: sides swapped, the refreshed
  // state as the olds and the state's inputs as the news (step.go RefreshStep.Apply, diffResource).
  const drift = await h.diff(dynamicType(r.type), read.id, outputs, r.inputs, { urn: r.urn, oldInputs: inputs, ignoreChanges: [] });
  const diffs = drift.changes === "none" ? [] : changedKeys(r.outputs, outputs);
  run.next.resources.push({ ...r, id: read.id, inputs, outputs });
  run.step(diffs.length ? "refresh" : "same", r, diffs);
}
