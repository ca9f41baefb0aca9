/**
 * A resource the program reads instead of managing (`Res.get(name, id)`, a custom resource with the
 * `id` option): the real engine's read step (CONFORMANCE.md, "ReadResource").
 */
import type { ReadRegistration, RegisterAnswer } from "./monitor";
import { stepError, StepFailed } from "./plan";
import { dynamicType, isDynamicType } from "./request-fields";
import { resourceLabel } from "./printing";
import type { Run } from "./run";
import { unwrapSecrets, wrapSecrets } from "./secrets";

/**
 * As step_generator.go `GenerateReadSteps` and step.go `(*ReadStep).Apply`: `Read{id, properties: the
 * program's properties, inputs: the same}` — also in a preview; an empty id in the answer fails the
 * step ("resource '<id>' does not exist"); the state keeps the resource as external (never deleted
 * at the API). A managed resource of the same URN with another id is replaced by it: its delete
 * runs after the program (a read-replacement).
 */
export async function readExternal(run: Run, req: ReadRegistration, urn: string): Promise<RegisterAnswer> {
  const label = resourceLabel(req);
  if (!isDynamicType(req.type)) throw new Error(`${req.type}: the test engine runs only dynamic resources`);
  if (!req.id) throw new Error(`Expected an ID for ${urn}`);
  const host = await run.provider();
  const { plain: props, secrets: secretInputs } = unwrapSecrets(req.object);
  const base = { urn, type: req.type, name: req.name, parent: req.parent || undefined, dependencies: req.dependencies, protect: false, retainOnDelete: false };
  return run.generate(async () => {
    run.throwIfCancelled();
    const before = run.prior.get(urn);
    try {
      const read = await run.inStep("read", base, () => host.read(dynamicType(req.type), req.id, props, props, { urn }));
      if (!read.id) throw new Error(`resource '${req.id}' does not exist`);
      // Outputs named as a secret input stay secret (provider_plugin.go Read: annotateSecrets), and
      // additionalSecretOutputs.
      const secrets = [...new Set([...secretInputs, ...req.additionalSecretOutputs])];
      if (before && !before.external && before.id !== read.id) run.replacedToDelete.push(before);
      run.keep({ ...base, custom: true, external: true, id: read.id, inputs: props, outputs: read.properties, secrets, secretInputs });
      run.step("read", base);
      return { urn, id: read.id, object: wrapSecrets(read.properties, secrets) };
    } catch (err) {
      run.throwIfInterrupted();
      if (before) run.keep(before);
      const message = `${label}: ${stepError((err as Error).message, run.dryRun)}`;
      run.failedStep("read", base, (err as Error).message);
      run.fail(message);
      run.cancel();
      throw new StepFailed(message);
    }
  });
}
