/**
 * Deletes and their order: originals of replacements, resources the program no longer declares
 * (dependents first: newest first), and `destroy` (CONFORMANCE.md, "delete").
 */
import { dynamicType, timeoutSeconds } from "./request-fields";
import { resourceLabel } from "./printing";
import { DeploymentCancelled, STACK_TYPE, type Run } from "./run";
import { HostError } from "../support/provider-host";
import type { PendingOperation, ResourceState } from "./state";

/** The CLI's words (step.go deleteProtectedError; GetPreviewFailedError's "Preview failed: " in a preview). */
const protectedMessage = (run: Run, r: ResourceState) =>
  `${resourceLabel(r)}: ${run.dryRun ? "Preview failed: " : ""}resource "${r.urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, ` +
  `either remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, or use the command:\n\`pulumi state unprotect '${r.urn}'\``;

/** Like the CLI, deletes nothing when one of the resources to delete is protected: reports each
 * and answers true. */
export function refuseProtected(run: Run, doomed: ResourceState[]): boolean {
  const protectedOnes = doomed.filter((r) => r.protect);
  for (const r of protectedOnes) run.fail(protectedMessage(run, r));
  return protectedOnes.length > 0;
}

/** Deletes one resource (protect and retainOnDelete honoured); answers false on failure. The
 * original of a replacement is not shown again: its replace step already was. */
export async function deleteResource(run: Run, r: ResourceState, shown = true): Promise<boolean> {
  // Cancelled (Ctrl-C, or a failed step): no new delete starts; the resource stays.
  if (run.isCancelled) return false;
  if (r.protect) {
    run.fail(protectedMessage(run, r));
    return false;
  }
  // Deleted already by an interrupted or earlier delete-before-replace: only removed from the state
  // (step_generator.go NewRemovePendingReplaceStep), never deleted again.
  if (r.pendingReplacement) {
    if (!run.dryRun) {
      run.markDeleted(r);
      run.checkpoint();
    }
    return true;
  }
  // A preview shows the delete and calls nothing.
  if (run.dryRun) {
    if (shown && r.type !== STACK_TYPE) run.step(r.external ? "discard" : "delete", r);
    return true;
  }
  // A resource the program only read leaves the state with no provider call (step.go: OpReadDiscard).
  if (r.external) {
    run.markDeleted(r);
    if (shown) run.step("discard", r);
    else run.checkpoint();
    return true;
  }
  if (r.custom && r.id && !r.retainOnDelete) {
    const pending: PendingOperation = { op: "delete", urn: r.urn, type: r.type, name: r.name, inputs: r.inputs, secrets: r.secretInputs ?? r.secrets, startedAt: new Date().toISOString() };
    try {
      const h = await run.provider();
      run.beginPending(pending);
      await run.inStep("delete", r, () => h.delete(dynamicType(r.type), r.id!, r.outputs, { urn: r.urn, oldInputs: r.inputs, timeout: timeoutSeconds(r.customTimeouts?.delete) }));
      run.dropPending(pending);
    } catch (err) {
      run.dropPending(pending);
      if (err instanceof DeploymentCancelled) return false;
      if (run.interrupted) throw err;
      run.failedStep("delete", r, String(err));
      run.fail(`${resourceLabel(r)}: delete failed: ${(err as Error).message}`);
      return false;
    }
  }
  run.markDeleted(r);
  if (shown && r.type !== STACK_TYPE) run.step("delete", r);
  else run.checkpoint();
  return true;
}

/** Originals of replacements an earlier run left pending delete; answers false when one failed (it
 * and the rest stay pending delete). */
export async function deleteLeftOriginals(run: Run, left: ResourceState[]): Promise<boolean> {
  for (const [i, r] of left.entries()) {
    if (!(await deleteResource(run, { ...r, protect: false }))) {
      run.next.resources.push(...left.slice(i));
      return false;
    }
  }
  return true;
}

/** Every resource the program no longer declares, newest first (reverse dependency order); the
 * dependents a delete-before-replace deleted are not among them (keepPendingReplacements). */
export function removedResources(run: Run): ResourceState[] {
  const { registered } = run.urns;
  return run.old.resources.filter((r) => !r.pendingDelete && !registered.has(r.urn) && !run.aliased.has(r.urn) && !run.deletedForReplace.has(r.urn)).reverse();
}

/** A dependent a delete-before-replace deleted in this run and the program did not declare again
 * stays in the state as pending replacement, with no step (step_generator.go GenerateDeletes: it was
 * operated on); the next run removes it. */
export function keepPendingReplacements(run: Run): void {
  for (const [urn, r] of run.deletedForReplace) if (!run.urns.registered.has(urn)) run.next.resources.push(r);
}

/** After a preview or a failed program: resources the run did not reach stay as they were;
 * replaced originals wait for the next run. */
export function keepUndeleted(run: Run, removed: ResourceState[], left: ResourceState[]): void {
  for (const r of [...removed].reverse()) if (!run.next.resources.some((x) => x.urn === r.urn && !x.pendingDelete)) run.next.resources.push(r);
  run.next.resources.push(...left);
  for (const r of run.replacedToDelete) run.next.resources.push({ ...r, pendingDelete: true });
}

/** The deletes a preview shows (none if one of them is protected). */
export function previewDeletes(run: Run, removed: ResourceState[]): void {
  if (refuseProtected(run, removed)) return;
  for (const r of removed) if (r.type !== STACK_TYPE) run.step("delete", r);
}

/** After the program of an `up`: the replaced originals, then the removed resources (none if one of
 * them is protected). */
export async function deleteAfterProgram(run: Run, removed: ResourceState[]): Promise<void> {
  if (!(await deleteReplacedOriginals(run, removed))) return;
  if (refuseProtected(run, removed)) {
    run.next.resources.push(...[...removed].reverse());
    return;
  }
  for (const r of removed) {
    if (!(await deleteResource(run, r))) {
      for (const rest of removed.slice(removed.indexOf(r)).reverse()) run.next.resources.push(rest);
      return;
    }
  }
}

/** Answers false when one failed: it and the originals after it stay pending delete, and the removed
 * resources stay. */
async function deleteReplacedOriginals(run: Run, removed: ResourceState[]): Promise<boolean> {
  const originals = run.replacedToDelete.reverse();
  for (const [i, r] of originals.entries()) {
    if (!(await deleteResource(run, { ...r, protect: false }, false))) {
      for (const rest of originals.slice(i)) run.next.resources.push({ ...rest, pendingDelete: true });
      run.next.resources.push(...[...removed].reverse());
      return false;
    }
  }
  return true;
}

/** `destroy`: deletes everything in reverse dependency order. */
export async function destroyAll(run: Run): Promise<void> {
  const all = [...run.old.resources];
  if (refuseProtected(run, all)) {
    run.next.resources.push(...all);
    return;
  }
  const kept = run.options.parallelDestroy ? await deleteConcurrently(run, all) : await deleteNewestFirst(run, all);
  if (kept.length) {
    run.next.resources.push(...kept);
    return;
  }
  run.next.outputs = {};
  run.next.secretOutputs = [];
}

/** Deletes one at a time, newest first; a failed delete keeps the resource and every older one.
 * Answers the resources kept, in their order. */
async function deleteNewestFirst(run: Run, doomed: ResourceState[]): Promise<ResourceState[]> {
  const remaining = [...doomed];
  while (remaining.length) {
    run.throwIfInterrupted();
    if (!(await deleteResource(run, remaining[remaining.length - 1]))) return remaining;
    remaining.pop();
  }
  return [];
}

/** Deletes every resource as soon as its dependents (by dependency or parent) are deleted; a
 * failed delete keeps the resource and everything it depends on. Answers the resources kept, in
 * their order. */
async function deleteConcurrently(run: Run, doomed: ResourceState[]): Promise<ResourceState[]> {
  const deleted = new Map<string, Promise<boolean>>();
  const dependentsOf = (r: ResourceState) => doomed.filter((d) => d !== r && (d.parent === r.urn || d.dependencies.includes(r.urn)));
  const deleteAfterDependents = (r: ResourceState): Promise<boolean> => {
    let done = deleted.get(r.urn);
    if (!done) {
      done = Promise.all(dependentsOf(r).map(deleteAfterDependents)).then((ok) => ok.every(Boolean) && deleteResource(run, r));
      deleted.set(r.urn, done);
    }
    return done;
  };
  const ok = await Promise.all(doomed.map(deleteAfterDependents));
  return doomed.filter((_, i) => !ok[i]);
}
