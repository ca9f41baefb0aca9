/**
 * What a resource's sdk class does besides handing its arguments to the provider, as data: the
 * schema holds it (`ResourceSchema.sdk`), `npm run docs` writes it into the class's `SPEC`, and the
 * shared base class (sdk/common.ts) acts on it. No zod here: the sdk's public declarations read this
 * file, and a program's `tsc` must not reach zod's own declarations through them.
 */
export interface SdkClassSpec {
  /**
   * Outputs that are the resource's own id: exposed as `this.id`, so they stay known in the preview
   * of an in-place update (the real engine answers the new inputs there and nothing else; the id is
   * the old one, and known). What another resource takes from this one (`SendingDomain.domainId`)
   * is one of these, or an input.
   */
  readonly idOutputs?: readonly string[];
  /** Why the type takes no `adoptId` (and so no `import` option), when it takes none. */
  readonly noAdoption?: string;
  /**
   * The class passes the internal input `defaultName`, derived from the resource name (sdk/naming.ts),
   * unless `name` is given as a plain value (it would only take room in the state).
   */
  readonly defaultName?: boolean;
  /** The class passes the internal input `idempotencyScope`: the stable part of its Idempotency-Keys (the provider cannot see the URN). */
  readonly idempotencyScope?: boolean;
  /** One per project and profile in a program: a second declaration throws at once, with this advice. */
  readonly onePerProfile?: string;
  /** A server: the class tells the objects declared on it its plan and power state (sdk/vps/server-links.ts). */
  readonly linksServer?: boolean;
  /**
   * An object on a server (`vpsId`): the class passes the internal input `declaredServer`, what the
   * program declares of that server (sdk/vps/server-links.ts); `perServer`, how many of `kind` one
   * server holds.
   */
  readonly declaredServer?: { readonly kind: string; readonly perServer?: number };
  /** Types the class's module exports besides its args, in this order. */
  readonly types?: readonly SdkTypeSpec[];
}

/**
 * A type the class's module exports: one of the data types (sdk/generated/data-types.ts) by name,
 * or a declaration written here (`type`: TypeScript over `<Type>Args`, `<Type>Outputs` and `pulumi`).
 */
export type SdkTypeSpec =
  | { readonly dataType: string }
  | { readonly name: string; readonly doc: string; readonly type: string; readonly interface?: boolean };
