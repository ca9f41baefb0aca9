/**
 * One schema per resource, declared beside its CRUD: each input's zod rule, description, change kind
 * and default, each output's type and description, the rules across inputs, and the reference text
 * (waits, adoption, an interrupted `up`, API errors). Everything else derives from it:
 *
 * - the check: `checkSchema` parses the inputs with the zod rules and applies the cross rules;
 * - the diff: `changesOf` lists what replaces and what updates, for `diffInputs`;
 * - the sdk: `npm run docs` writes each type's args and outputs interfaces (sdk/generated/<Type>.ts)
 *   and its whole class (its comment, its `SPEC` from `sdk`) from it;
 * - the reference: `npm run docs` writes docs/<Type>.md from it.
 *
 * So a rule or a description changed here changes the check, the sdk type and the page together
 * (`npm run docs -- --check`, run by CI, fails while the written files are stale).
 */
import { z } from "zod";
import type { ApiErrorCode } from "../contract/error-codes";
import { isApiError } from "./client/errors";
import type { CallContext } from "./context";
import {
  checkInputs,
  diffInputs,
  isNotFound,
  isUnknown,
  operationError,
  UNKNOWN,
  type CheckFailure,
  type CheckResult,
  type DiffResult,
  type Props,
  type ReadResult,
  type ResourceImpl,
  type Unknown,
} from "./resource";
import type { SdkClassSpec } from "./sdk-class";

/**
 * How a change to an input applies:
 * - `update`: in place;
 * - `replace`: a new object replaces the old one;
 * - `refused`: refused at preview, with the reason;
 * - `state`: recorded in the state only, no call (settings of how the provider works);
 * - `depends`: decided by the value (`changeText` says how), by the resource's own diff.
 */
export type ChangeKind = "update" | "replace" | "refused" | "state" | "depends";

export interface InputSpec {
  readonly schema: z.ZodType;
  /** What it is, one or two sentences (the sdk's TSDoc and the page). */
  readonly description: string;
  readonly change: ChangeKind;
  /** How a change applies when that is more than the kind says (required for `depends`). */
  readonly changeText?: string;
  /** The default when it is not given, in words or as a value. */
  readonly default?: string;
  /** A secret: never echoed in a check failure, a secret output. */
  readonly secret?: boolean;
  /** Set by the sdk class itself (a derived default name, an idempotency scope): not an argument. */
  readonly internal?: boolean;
  /** The sdk argument's type where the zod type does not say it (an object whose parts are inputs). */
  readonly tsType?: string;
}

export interface OutputSpec {
  readonly schema: z.ZodType;
  readonly description: string;
  readonly secret?: boolean;
  readonly tsType?: string;
}

/** A rule across inputs: its words for the docs and its test. */
export interface CrossRule {
  readonly text: string;
  readonly check: (inputs: Props) => CheckFailure[];
}

export interface WaitSpec {
  /** What create/update/delete waits for. */
  readonly what: string;
  /** The default limit, in words ("20 min", "`timeoutSeconds`"). */
  readonly limit: string;
}

export interface ResourceSchema {
  /** The class name and the token's last part: `pulumi-nodejs:dynamic/svc:<type>`. */
  readonly type: string;
  /** Which API it calls (the key its profile must hold) and the page's group. */
  readonly service: "email" | "platform";
  /** The sdk class's summary: the first paragraph of its TSDoc and of its page. */
  readonly summary: string;
  /**
   * The example program, as a user writes it (importing `pulumi-svc`): a template literal opening
   * and closing on a line break, its backticks escaped. `npm run docs` shows it in the sdk class's
   * TSDoc and on the reference page, and writes it to docs/examples/<type>.ts, which the tests
   * type-check and run (under mocks, and under the CLI) and the package ships.
   */
  readonly example: string;
  readonly inputs: Readonly<Record<string, InputSpec>>;
  /**
   * Outputs besides the inputs (every input but the internal ones is an output too, with the
   * input's description).
   */
  readonly outputs: Readonly<Record<string, OutputSpec>>;
  readonly rules?: readonly CrossRule[];
  readonly waits?: readonly WaitSpec[];
  /** How `adoptId` finds the object and what adoption does for this type; absent: no adoptId. */
  readonly adoption?: string;
  /** Why an adopted object is made anew, for a type that does so (a webhook, for its secret): the
   * line an adoption prints says so instead of "no create call" (create-once.ts, `adoptionLine`). */
  readonly adoptionRemakes?: string;
  /** What an `up` run again after an interrupted one does for this type. */
  readonly interrupted: string;
  /** The API errors a user may meet from this type, each with what to do. */
  readonly errors: Readonly<Partial<Record<ApiErrorCode, ErrorAdvice>>>;
  /** More on how it behaves (markdown), for the page. */
  readonly notes?: string;
  /** Why the object cannot move to another account, for a type whose replace would be unsafe across
   * accounts: a change of `profile` is refused at preview with `reason` (common-inputs.ts); `inShort`
   * is the page's few words for it. */
  readonly moveRefused?: { readonly reason: string; readonly inShort: string };
  /** The type is its service's plan: it needs no plan in force, where the service's other types do
   * (email/plan-limits.ts, and their pages). */
  readonly isServicePlan?: true;
  /** What the preview foresees of the `up` for this type (its price, its limits, what it wipes): foresight.ts. */
  readonly preview?: string;
  /** What the sdk class does besides passing its arguments (its id outputs, the inputs it sets itself, the types it exports). */
  readonly sdk?: SdkClassSpec;
}

/**
 * What to do about one API error (a row of the reference page's table, the hint of a failed call), in
 * words; with its HTTP `status` where the page names the status before the words ("402: the plan
 * allows…").
 */
export type ErrorAdvice = string | { readonly status: number; readonly what: string };

/** The words of an error's advice, without its status. */
export const adviceWords = (advice: ErrorAdvice): string => (typeof advice === "string" ? advice : advice.what);

/**
 * A limit of the service's plan that new objects of a type count against (email/plan-limits.ts):
 * those that exist now and those the run plans, matched by identity. `P`: the inputs each part gets;
 * `K`: the input names.
 */
export interface CountRule<P = Props, K extends string = string> {
  /** The counter's key: the kind and its scope; undefined while the scope is not known (nothing is counted). */
  kind(inputs: P): string | undefined;
  /** The object among its kind: the same object checked again adds nothing. */
  identity(inputs: P): string;
  /** The objects, in the refusal's words ("mailboxes"). */
  what: string;
  /** The input the refusal names. */
  property: K;
  limit(ctx: CallContext): Promise<number | undefined>;
  /** The identities of the objects of the kind that exist now (a recent list of this process). */
  existing(ctx: CallContext, inputs: P): Promise<string[]>;
  /** What to do, in the refusal. */
  fix: string;
}

/**
 * What the service's plan refuses of a new object with these checked inputs besides its counts, as
 * failures (email/plan-limits.ts); `plan`: the plan's name. The inputs are as the check answered
 * them: a list may hold values not known yet.
 */
export type PlanRefuses = (inputs: Props, ctx: CallContext, plan: string) => Promise<CheckFailure[]>;

/** A resource with its schema: the check, the diff, the sdk types and docs/ derive from it. */
export interface SchemaResource extends ResourceImpl {
  readonly schema: ResourceSchema;
  /** The plan limit a new object of this type counts against; absent: none. */
  readonly counted?: CountRule;
  readonly planRefuses?: PlanRefuses;
}

/**
 * A resource type's schema, its literal type kept: each input's and output's zod type reaches the
 * type's CRUD (InputsOf, StoredOf). `npm run docs` finds a type by `export const <name>Schema = defineSchema({`.
 */
export function defineSchema<const S extends ResourceSchema>(schema: S): S {
  return schema;
}

interface FieldSpec {
  readonly schema: z.ZodType;
}
type FieldSpecs = Readonly<Record<string, FieldSpec>>;
type Parsed<F extends FieldSpec> = z.output<F["schema"]>;
/** Each field as its schema parses it: required where the parsed value is never undefined. */
type ParsedFields<F extends FieldSpecs> = { -readonly [K in keyof F as undefined extends Parsed<F[K]> ? never : K]: Parsed<F[K]> } & {
  -readonly [K in keyof F as undefined extends Parsed<F[K]> ? K : never]?: Parsed<F[K]>;
};
/** What the engine passes beside the schema's fields (`__provider`): kept as it is. */
type Engine = Props;

/** The checked inputs a create or an update gets: each parsed by its schema (defaults applied). */
export type InputsOf<S extends ResourceSchema> = ParsedFields<S["inputs"]> & Engine;
/**
 * What the state holds (olds, a read's or a delete's props): inputs and outputs, each of its type
 * where present; any may be absent (an import reads with no state, an older state lacks a newer field).
 */
export type StoredOf<S extends ResourceSchema> = Partial<ParsedFields<S["inputs"]> & ParsedFields<S["outputs"]>> & Engine;
/** The outputs a create, an update or a read answers: what the state then holds. */
export type OutputsOf<S extends ResourceSchema> = StoredOf<S>;
/** The inputs a diff gets: in a preview any may be a value not known yet (UNKNOWN). */
export type PreviewInputsOf<S extends ResourceSchema> = { [K in keyof ParsedFields<S["inputs"]>]?: ParsedFields<S["inputs"]>[K] | Unknown } & Engine;

/** `value` is one its schema answers, as a checked input holds it (a default applied, so absent only where the schema allows). */
function holdsParsed(spec: FieldSpec, value: unknown): boolean {
  const parsed = spec.schema.safeParse(value);
  return parsed.success && (value !== undefined || parsed.data === undefined);
}

/** The fields of `specs` that `props` holds with a value its schema refuses (every one, when `required`, must be there). */
function misfits(specs: FieldSpecs, props: Props, required: boolean): string[] {
  return Object.entries(specs)
    .filter(([name, spec]) => (required || props[name] !== undefined) && !holdsParsed(spec, props[name]))
    .map(([name]) => name);
}

function isInputs<S extends ResourceSchema>(schema: S, props: Props): props is InputsOf<S> {
  return misfits(schema.inputs, props, true).length === 0;
}

function isStored<S extends ResourceSchema>(schema: S, props: Props): props is StoredOf<S> {
  return misfits(schema.inputs, props, false).length === 0 && misfits(schema.outputs, props, false).length === 0;
}

/** Each input absent, unknown, or of its type. */
function isPreviewInputs<S extends ResourceSchema>(schema: S, props: Props): props is PreviewInputsOf<S> {
  return Object.entries(schema.inputs).every(([name, spec]) => props[name] === undefined || isUnknown(props[name]) || holdsParsed(spec, props[name]));
}

/** A value its schema refuses is not the state or the inputs this type's code was written for: named, never used as another type. */
function undecodable(schema: ResourceSchema, what: string, names: readonly string[]): Error {
  return new Error(`${schema.type}: the ${what} hold${names.length === 1 ? "s" : ""} ${names.join(", ")} of a type the schema does not allow`);
}

/** The checked inputs of a create or an update, typed by the schema (check parsed them: this confirms it). */
export function inputsOf<S extends ResourceSchema>(schema: S, props: Props): InputsOf<S> {
  if (isInputs(schema, props)) return props;
  throw undecodable(schema, "inputs", misfits(schema.inputs, props, true));
}

/**
 * The state's properties, typed by the schema. A value the schema refuses (a refresh stored what the
 * API holds after a change out of band: a name or URL the input rules do not allow) counts as absent,
 * so the diff shows the change and the update or the delete still runs: the state never blocks them.
 */
export function storedOf<S extends ResourceSchema>(schema: S, props: Props): StoredOf<S> {
  const refused = new Set([...misfits(schema.inputs, props, false), ...misfits(schema.outputs, props, false)]);
  const known = Object.fromEntries(Object.entries(props).filter(([name]) => !refused.has(name)));
  if (isStored(schema, known)) return known;
  throw undecodable(schema, "state's properties", [...refused]);
}

/**
 * The inputs a diff gets, typed by the schema: a list or object with unknown parts (a preview's
 * `events: [someOutput]`) is unknown as a whole, which changes nothing a diff finds (it differs from
 * the state either way).
 */
export function previewInputsOf<S extends ResourceSchema>(schema: S, props: Props): PreviewInputsOf<S> {
  const known: Props = { ...props };
  for (const [name, spec] of Object.entries(schema.inputs)) if (known[name] !== undefined && !isUnknown(known[name]) && !holdsParsed(spec, known[name])) known[name] = UNKNOWN;
  if (isPreviewInputs(schema, known)) return known;
  throw undecodable(schema, "inputs", []);
}

/** The one `adoptId` input: what it names differs per type (`what`: "a template's id"). */
export function adoptIdInput(what: string) {
  return {
    schema: z.string().min(1, "must not be empty").optional(),
    description: `Manage an existing object instead of creating one: ${what}.`,
    change: "state",
  } satisfies InputSpec;
}

/** The zod fields `checkInputs` parses, internal ones included. */
export function fieldsOf(schema: ResourceSchema): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(schema.inputs).map(([name, input]) => [name, input.schema]));
}

/** The inputs whose change replaces, and those that update in place (for `diffInputs`). */
export function changesOf(schema: ResourceSchema): { replace: string[]; update: string[] } {
  const named = (kind: ChangeKind) => Object.entries(schema.inputs).filter(([, input]) => input.change === kind).map(([name]) => name);
  return { replace: named("replace"), update: named("update") };
}

/**
 * The secret inputs: their failures never carry the value (`sensitiveFailure`). A secret output
 * pasted into the program as an input (a webhook's `secret`) is refused the same way.
 */
export function secretInputsOf(schema: ResourceSchema): string[] {
  const secret = (specs: Readonly<Record<string, { secret?: boolean }>>) => Object.entries(specs).filter(([, spec]) => spec.secret).map(([name]) => name);
  return [...secret(schema.inputs), ...secret(schema.outputs)];
}

/** The check of the schema's rules: each input's, then the cross rules. */
export function checkSchema(schema: ResourceSchema, news: Props): CheckResult {
  return checkInputs(news, fieldsOf(schema), (inputs) => (schema.rules ?? []).flatMap((rule) => rule.check(inputs)), { sensitive: secretInputsOf(schema) });
}

/**
 * The hint of `err` for a user, from the schema's error table (the reference page's, so a hint is
 * written once): the words of its code's entry when the code is one of `codes` (the message holds
 * the status already), as a sentence the message ends with.
 */
export function schemaHint(schema: ResourceSchema, err: unknown, codes: readonly ApiErrorCode[]): string | undefined {
  const code = codes.find((c) => isApiError(err, c));
  const advice = code === undefined ? undefined : schema.errors[code];
  if (advice === undefined) return undefined;
  const what = adviceWords(advice);
  const words = what.replace(/\.$/, "");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What a resource type writes itself (defineResource): its create, and whichever other method
 * differs from the default. Each method gets its props typed by the schema `S` (decoded once, by
 * defineResource: InputsOf, StoredOf, PreviewInputsOf) and answers typed outputs. Each default is
 * what most types do:
 *
 * - `check`: the schema's rules (`checkSchema`); `diff`: `diffInputs` with the schema's change kinds;
 * - `create`: its errors are the create's (`operationError("create", err, hint)`), the hint from
 *   `hintFor`, else the schema's text for one of `hints`' codes; `ownCreateErrors`: it words its
 *   errors itself and they pass as thrown;
 * - `update`: the new inputs over the old outputs, for a type whose every input replaces;
 * - `read` (ReadBy): `find`'s object (undefined: gone, the id "" drops it) and its `properties`, a
 *   failed read `operationError("read", err)`;
 * - `delete` (DeleteBy): `remove`, an object already gone (404) counting as deleted, any other
 *   failure `operationError("delete", err)`.
 */
export type ResourceCrud<S extends ResourceSchema, T> = CrudMethods<S> & ReadBy<S, T> & DeleteBy<S>;

interface CrudMethods<S extends ResourceSchema> {
  /** Gets the program's inputs as they come (the check is what parses them). */
  check?(olds: Props, news: Props, ctx: CallContext): Promise<CheckResult>;
  diff?(id: string, olds: StoredOf<S>, news: PreviewInputsOf<S>, ctx: CallContext): Promise<DiffResult>;
  create(inputs: InputsOf<S>, ctx: CallContext): Promise<{ id: string; outs: OutputsOf<S> }>;
  ownCreateErrors?: boolean;
  /** The codes whose `schema.errors` text is the hint of a failed create. */
  hints?: readonly ApiErrorCode[];
  /** A hint that names the inputs (an id, a domain), where the schema's words cannot. */
  hintFor?(err: unknown, inputs: InputsOf<S>): string | undefined;
  update?(id: string, olds: StoredOf<S>, news: InputsOf<S>, ctx: CallContext): Promise<{ outs: OutputsOf<S> }>;
  /** The plan limit a new object of this type counts against, on its inputs decoded as a diff's are (a value not known yet is UNKNOWN). */
  counted?: CountRule<PreviewInputsOf<S>, keyof S["inputs"] & string>;
  planRefuses?: PlanRefuses;
}

/** A read of its own, or the default read's `find` and `properties` (both): a type without either does not compile. */
type ReadBy<S extends ResourceSchema, T> =
  | { read(id: string, props: StoredOf<S>, ctx: CallContext): Promise<ReadResult>; find?: never; properties?: never }
  | { read?: never; find: FindOf<S, T>; properties: PropertiesOf<S, T> };

type FindOf<S extends ResourceSchema, T> = (id: string, props: StoredOf<S>, ctx: CallContext) => Promise<T | undefined>;
/** The inputs and outputs of the object found (`id`), with the properties the state holds. */
type PropertiesOf<S extends ResourceSchema, T> = (object: T, props: StoredOf<S>, id: string) => { inputs: Props; outputs: OutputsOf<S> };
type RemoveOf<S extends ResourceSchema> = (id: string, props: StoredOf<S>, ctx: CallContext) => Promise<unknown>;

/** A delete of its own, or the default delete's `remove`. */
type DeleteBy<S extends ResourceSchema> =
  | { delete(id: string, props: StoredOf<S>, ctx: CallContext): Promise<void>; remove?: never }
  | { delete?: never; remove: RemoveOf<S> };

/**
 * A resource type from its schema and what its CRUD does beyond the defaults (ResourceCrud): the
 * engine-facing methods (Props in and out), each decoding its props by the schema once. A CRUD
 * that leaves a default without what it needs (find and properties, remove) fails here, as its
 * module loads, naming the type: the compiler refuses it already, this catches a cast.
 */
export function defineResource<S extends ResourceSchema, T>(schema: S, crud: ResourceCrud<S, T>): SchemaResource {
  const has = (method: unknown) => typeof method === "function";
  const missing = [
    ...(has(crud.read) || (has(crud.find) && has(crud.properties)) ? [] : ["read, or find and properties"]),
    ...(has(crud.delete) || has(crud.remove) ? [] : ["delete, or remove"]),
  ];
  if (missing.length > 0) throw new Error(`${schema.type}: defineResource needs ${missing.join("; and ")}`);
  const stored = (props: Props) => storedOf(schema, props);
  const { check, diff, update } = crud;
  const create = async (inputs: Props, ctx: CallContext) => crud.create(inputsOf(schema, inputs), ctx);
  return {
    schema,
    ...(crud.counted ? { counted: countedOn(crud.counted, (props) => previewInputsOf(schema, props)) } : {}),
    ...(crud.planRefuses ? { planRefuses: crud.planRefuses } : {}),
    check: check ?? (async (_olds, news) => checkSchema(schema, news)),
    diff: diff ? async (id, olds, news, ctx) => diff(id, stored(olds), previewInputsOf(schema, news), ctx) : async (_id, olds, news) => diffInputs(olds, news, changesOf(schema)),
    create: crud.ownCreateErrors
      ? create
      : async (inputs, ctx) => {
          try {
            return await create(inputs, ctx);
          } catch (err) {
            throw operationError("create", err, hintOf(inputs, err));
          }
        },
    // Unreachable in practice for a type whose every input replaces; it answers complete outputs all the same.
    update: update ? async (id, olds, news, ctx) => update(id, stored(olds), inputsOf(schema, news), ctx) : async (_id, olds, news) => ({ outs: { ...olds, ...news } }),
    read: crud.read ? readOwn(crud.read, stored) : readByFind(crud.find, crud.properties, stored),
    delete: crud.delete ? deleteOwn(crud.delete, stored) : deleteByRemove(crud.remove, stored),
  };

  function hintOf(inputs: Props, err: unknown): string | undefined {
    const fromInputs = crud.hintFor && isInputs(schema, inputs) ? crud.hintFor(err, inputs) : undefined;
    return fromInputs ?? schemaHint(schema, err, crud.hints ?? []);
  }
}

type Decode<P> = (props: Props) => P;

/** A count rule on the engine's props, each decoded once per call. */
function countedOn<P, K extends string>(rule: CountRule<P, K>, decode: Decode<P>): CountRule {
  return {
    kind: (props) => rule.kind(decode(props)),
    identity: (props) => rule.identity(decode(props)),
    what: rule.what,
    property: rule.property,
    limit: (ctx) => rule.limit(ctx),
    existing: (ctx, props) => rule.existing(ctx, decode(props)),
    fix: rule.fix,
  };
}

function readOwn<P>(read: (id: string, props: P, ctx: CallContext) => Promise<ReadResult>, decode: Decode<P>): ResourceImpl["read"] {
  return async (id, props, ctx) => read(id, decode(props), ctx);
}

function deleteOwn<P>(remove: (id: string, props: P, ctx: CallContext) => Promise<void>, decode: Decode<P>): ResourceImpl["delete"] {
  return async (id, props, ctx) => remove(id, decode(props), ctx);
}

/** The default read: `find`'s object and its `properties`; none found drops it (the id ""). */
function readByFind<P, T>(find: (id: string, props: P, ctx: CallContext) => Promise<T | undefined>, properties: (object: T, props: P, id: string) => { inputs: Props; outputs: Props }, decode: Decode<P>): ResourceImpl["read"] {
  return async (id, raw, ctx) => {
    const props = decode(raw);
    let object: T | undefined;
    try {
      object = await find(id, props, ctx);
    } catch (err) {
      throw operationError("read", err);
    }
    if (object === undefined) return { id: "", props: {} };
    const { inputs, outputs } = properties(object, props, id);
    return { id, props: outputs, inputs };
  };
}

/** The default delete: `remove`, an object already gone (404) counting as deleted. */
function deleteByRemove<P>(remove: (id: string, props: P, ctx: CallContext) => Promise<unknown>, decode: Decode<P>): ResourceImpl["delete"] {
  return async (id, raw, ctx) => {
    const props = decode(raw);
    try {
      await remove(id, props, ctx);
    } catch (err) {
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  };
}
