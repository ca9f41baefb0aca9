/**
 * What every resource class takes besides its own arguments (provider/common-inputs.ts), documented
 * once here: each type's generated args (sdk/generated/) extend these.
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

export interface AdoptableArgs extends CommonArgs {
  /**
   * Manage an existing object instead of creating one: its id (each type's reference page says which
   * id). The create then only reads it: nothing is created or charged, and its outputs are the
   * object as the API has it; where it differs from the program, the next `pulumi up` updates or
   * replaces it as usual. Changing or removing it afterwards changes nothing. See the README,
   * "Adopting existing objects".
   */
  adoptId?: pulumi.Input<string>;
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
