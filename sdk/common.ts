/**
 * What every resource class takes besides its own arguments (issue 17; provider/common-inputs.ts).
 */
import type * as pulumi from "@pulumi/pulumi";

export interface CommonArgs {
  /**
   * The named profile whose account this object lives in: a key of stack config `svc:profiles`
   * (`pulumi config set --path --secret 'svc:profiles.staging.apiKey' …`). Default: the top-level
   * settings. The state holds the name only. Changing it replaces the object (a Domain: refused).
   */
  profile?: pulumi.Input<string>;
}

/**
 * The resource option `customTimeouts`, copied into the inputs: the Node dynamic-provider host drops
 * the engine's timeout, so this is how the provider's waits learn it. A change alone is no diff.
 */
export function commonInputs(opts: pulumi.CustomResourceOptions | undefined): { timeouts?: Record<string, string> } {
  const t = opts?.customTimeouts;
  if (!t) return {};
  const timeouts: Record<string, string> = {};
  for (const k of ["create", "update", "delete"] as const) if (t[k]) timeouts[k] = t[k]!;
  return Object.keys(timeouts).length ? { timeouts } : {};
}
