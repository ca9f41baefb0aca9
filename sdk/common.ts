/**
 * What every resource class takes besides its own arguments (provider/common-inputs.ts), documented
 * once here: each type's generated args (sdk/generated/) extend these.
 */
import * as pulumi from "@pulumi/pulumi";
import type { SdkClassSpec } from "../provider/sdk-class";
import { defaultName, resourceIdentity } from "./naming";
import { declaredServer, linkServer } from "./vps/server-links";

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
export function commonInputs(opts: pulumi.CustomResourceOptions | undefined): { timeouts?: Record<string, string> } {
  const t = opts?.customTimeouts;
  if (!t) return {};
  const timeouts: Record<string, string> = {};
  for (const k of ["create", "update", "delete"] as const) if (t[k]) timeouts[k] = t[k]!;
  return Object.keys(timeouts).length ? { timeouts } : {};
}

/** What a class's generated file says of its outputs (sdk/generated/<Type>.ts). */
export interface ClassOutputs {
  /** The outputs only the provider sets: passed as unset inputs, so the class exposes them. */
  computed: Record<string, undefined>;
  /** The secret outputs; every secret input is among them (an input is an output too). */
  secret: string[];
}

/** What the shared base class needs to know of a resource type: its name, its outputs, and what its schema says of the class (`sdk`). */
export interface ClassSpec extends SdkClassSpec {
  /** The type's name: the token's last part, `pulumi-nodejs:dynamic/svc:<type>`. */
  type: string;
  outputs: ClassOutputs;
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

/** The internal inputs the class sets itself, as its schema's `sdk` says: each one it names. */
function internalInputs(spec: ClassSpec, name: string, args: object): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  if (spec.defaultName) {
    // The name a new object gets when `name` is not given (see ./naming.ts); not sent beside a name
    // given as a plain value (it would only take room in the state).
    inputs.defaultName = typeof (args as { name?: unknown }).name === "string" ? undefined : defaultName(spec.type, name);
  }
  // The stable part of every Idempotency-Key this resource sends (the provider cannot see the URN).
  if (spec.idempotencyScope) inputs.idempotencyScope = resourceIdentity(spec.type, name).slice(0, 24);
  if (spec.declaredServer) {
    const { kind, perServer } = spec.declaredServer;
    inputs.declaredServer = declaredServer((args as { vpsId: pulumi.Input<string> }).vpsId, kind, perServer);
  }
  return inputs;
}

/**
 * A type declared once per project: the profiles (by name; "" = the top-level settings) that declare
 * one in this program, so a second declaration throws at once.
 */
function claimProfile(type: string, advice: string, resourceName: string, profile: pulumi.Input<string> | undefined): void {
  // A profile given as an output is only known later: the guard covers the plain names programs use.
  if (profile !== undefined && typeof profile !== "string") return;
  const registryKey = Symbol.for(`pulumi-svc.${type}.profiles`);
  const registry = ((globalThis as Record<symbol, Map<string, string>>)[registryKey] ??= new Map<string, string>());
  const key = profile ?? "";
  const first = registry.get(key);
  if (first !== undefined) {
    throw new Error(`${type} "${resourceName}": the program already declares ${type} "${first}" for ${key ? `profile "${key}"` : "the default settings"}. ${advice}`);
  }
  registry.set(key, resourceName);
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
  ) {
    // A `get` reads the object: it claims nothing.
    if (spec.onePerProfile && !opts?.id) claimProfile(spec.type, spec.onePerProfile, name, (args as { profile?: pulumi.Input<string> }).profile);
    const extra = internalInputs(spec, name, args);
    const adoption = adoptionOf(spec, name, { ...args }, opts);
    const given = adoption.args;
    // A plain string given for a secret input would be stored in clear in the state's inputs:
    // the engine marks only outputs secret (additionalSecretOutputs).
    for (const key of spec.outputs.secret) if (given[key] !== undefined) given[key] = pulumi.secret(given[key] as pulumi.Input<unknown>);
    // The registration makes four promises per property, each with `new Error().stack` formatted at
    // once through the language host's source-map hook (@pulumi/pulumi runtime/rpc.ts
    // transferProperties, runtime/debuggable.ts): about half of a program's CPU for 1,000 resources
    // (docs/status.md, the bench). Those stacks serve only PULUMI_DEBUG_PROMISE_LEAKS' report; the
    // resource's source position is read apart, with its own limit (resource.ts callsites).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(
        provider,
        name,
        { ...spec.outputs.computed, ...given, ...commonInputs(adoption.opts), ...extra },
        spec.outputs.secret.length ? pulumi.mergeOptions(adoption.opts, { additionalSecretOutputs: spec.outputs.secret }) : adoption.opts,
        "svc",
        spec.type,
      );
    } catch (err) {
      // An error the registration throws at once keeps a stack: from the program's declaration on.
      Error.stackTraceLimit = stackTraceLimit;
      if (err instanceof Error) Error.captureStackTrace(err, new.target);
      throw err;
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    for (const key of spec.idOutputs ?? []) (this as unknown as Record<string, unknown>)[key] = this.id;
    // Its keys, forwards and snapshots learn its plan and power state at preview (./vps/server-links.ts).
    if (spec.linksServer) linkServer(this.id, args as Parameters<typeof linkServer>[1]);
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
