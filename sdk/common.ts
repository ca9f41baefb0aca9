/**
 * What every resource class takes besides its own arguments (provider/common-inputs.ts), documented
 * once here: each type's generated args (sdk/generated/) extend these.
 */
import * as pulumi from "@pulumi/pulumi";

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
   * replaces it as usual. Changing or removing it afterwards changes nothing. The resource option
   * `import` does the same (the class turns it into this argument). See the README, "Adopting
   * existing objects".
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * The resource option `customTimeouts`, copied into the inputs: the Node dynamic-provider host drops
 * the engine's timeout, so this is how the provider's waits learn it. A change alone is no diff.
 */
export function commonInputs(opts: pulumi.CustomResourceOptions | undefined): { timeouts?: Record<string, string>; parentUrn?: pulumi.Input<string> } {
  // The parent tells the provider, which gets no URN, a resource moved under a component from the one it was (provider/runtime.ts).
  const parent = opts?.parent ? { parentUrn: opts.parent.urn } : {};
  const t = opts?.customTimeouts;
  if (!t) return parent;
  const timeouts: Record<string, string> = {};
  for (const k of ["create", "update", "delete"] as const) if (t[k]) timeouts[k] = t[k]!;
  return Object.keys(timeouts).length ? { ...parent, timeouts } : parent;
}

/** What a class's generated file says of its outputs (sdk/generated/<Type>.ts). */
export interface ClassOutputs {
  /** The outputs only the provider sets: passed as unset inputs, so the class exposes them. */
  computed: Record<string, undefined>;
  /** The secret outputs; every secret input is among them (an input is an output too). */
  secret: string[];
}

/** What the shared base class needs to know of a resource type. */
export interface ClassSpec {
  /** The type's name: the token's last part, `pulumi-nodejs:dynamic/svc:<type>`. */
  type: string;
  outputs: ClassOutputs;
  /**
   * Outputs that are the resource's own id: exposed as `this.id`, so they stay known in the preview
   * of an in-place update (the real engine answers the new inputs there and nothing else; the id is
   * the old one, and known). What another resource takes from this one (`SendingDomain.domainId`)
   * is one of these, or an input.
   */
  idOutputs?: readonly string[];
  /** Why the type takes no `adoptId` (and so no `import` option), when it takes none. */
  noAdoption?: string;
}

/** `opts.import` moved into `adoptId`: the engine's own import cannot read a dynamic resource by id alone. */
function adoptionOf(
  spec: ClassSpec,
  name: string,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
): { args: Record<string, unknown>; opts: pulumi.CustomResourceOptions | undefined } {
  const importId = opts?.import;
  if (importId === undefined || importId === "") return { args, opts };
  const type = spec.type;
  if (spec.noAdoption) throw new Error(`${type} "${name}": the resource option import does not apply: ${spec.noAdoption}`);
  if (args.adoptId !== undefined && args.adoptId !== importId) {
    throw new Error(
      `${type} "${name}": both the resource option import and the argument adoptId are given: keep one (\`adoptId: "${String(importId)}"\` is the argument this package reads)`,
    );
  }
  const { import: _import, ...rest } = opts!;
  return { args: { ...args, adoptId: importId }, opts: rest };
}

/**
 * Every resource class's base: what the class hands to `dynamic.Resource` (the computed outputs as
 * unset inputs, the common inputs, the secret inputs wrapped as secrets, `import` as `adoptId`),
 * the id outputs exposed as `this.id`, and the static `get`.
 */
export abstract class SvcResource extends pulumi.dynamic.Resource {
  protected constructor(
    provider: pulumi.dynamic.ResourceProvider,
    spec: ClassSpec,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
    extra: Record<string, unknown> = {},
  ) {
    const adoption = adoptionOf(spec, name, { ...args }, opts);
    const given = adoption.args;
    // A plain string given for a secret input would be stored in clear in the state's inputs:
    // the engine marks only outputs secret (additionalSecretOutputs).
    for (const key of spec.outputs.secret) if (given[key] !== undefined) given[key] = pulumi.secret(given[key] as pulumi.Input<unknown>);
    super(
      provider,
      name,
      { ...spec.outputs.computed, ...given, ...commonInputs(adoption.opts), ...extra },
      spec.outputs.secret.length ? pulumi.mergeOptions(adoption.opts, { additionalSecretOutputs: spec.outputs.secret }) : adoption.opts,
      "svc",
      spec.type,
    );
    for (const key of spec.idOutputs ?? []) (this as unknown as Record<string, unknown>)[key] = this.id;
  }

  /**
   * The live object `id`, read from the API (the engine's ReadResource): its outputs, nothing
   * managed. `state`: what the read needs besides the id (the server, `vpsId`, of what lives on one;
   * the `profile` whose account holds it). As pulumi-hcloud's `Server.get(name, id, state?, opts?)`.
   */
  static get<T, A>(
    this: new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: Partial<A>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    return new this(name, (state ?? {}) as A, { ...opts, id });
  }
}
