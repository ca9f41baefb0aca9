/**
 * What every resource's provider shares: the lifecycle contract the dynamic-provider host calls,
 * input checking with the property named, diffs on normalized values, the partial-failure error,
 * and errors that name the operation, the API call, its status and code.
 */
import { z } from "zod";
import { ApiError, OperationError, type ErrorCode } from "./client/errors";
import type { CallContext } from "./context";

/** The engine's placeholder for a value not known during preview (any type). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export type Unknown = typeof UNKNOWN;
export const isUnknown = (value: unknown): value is Unknown => value === UNKNOWN;
/** The spec's ids (servers, projects, plans, webhooks) are UUIDs; domain ids are numbers. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Props = Record<string, unknown>;
/** An object's properties (an array or null is none). */
export const isProps = (value: unknown): value is Props => typeof value === "object" && value !== null && !Array.isArray(value);
export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
}
export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace?: boolean;
}
export interface CreateResult {
  id: string;
  outs: Props;
}
export interface ReadResult {
  id: string;
  props: Props;
  inputs?: Props;
}

/** A resource's lifecycle; each method gets the CallContext of its resource's profile and operation (common-inputs.ts). */
export interface ResourceImpl {
  check(olds: Props, news: Props, ctx: CallContext): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props, ctx: CallContext): Promise<DiffResult>;
  create(inputs: Props, ctx: CallContext): Promise<CreateResult>;
  read(id: string, props: Props, ctx: CallContext): Promise<ReadResult>;
  update(id: string, olds: Props, news: Props, ctx: CallContext): Promise<{ outs: Props }>;
  delete(id: string, props: Props, ctx: CallContext): Promise<void>;
}

export const PROVIDER_KEY = "__provider";

/** Old inputs beside the new: the resource is in the state (the engine sends only the provider reference otherwise). */
export const inState = (olds: Props | undefined): boolean => Object.keys(olds ?? {}).some((k) => k !== PROVIDER_KEY);

/**
 * A failure of a secret-bearing input (a password, a key): the CLI prints a failing property's value
 * beside its reason (pulumi/pulumi step_generator.go issueCheckFailures, diag code 2003), in clear
 * when the program passed a plain string. With no `property` it prints the reason alone (code
 * 2002), so the property is named at the start of the reason instead, and the reason never holds
 * the value.
 */
export function sensitiveFailure(property: string, reason: string): CheckFailure {
  return { property: "", reason: `${property}: ${reason}` };
}

export interface CheckOptions {
  /** Inputs whose value must never appear in a failure: reported with `sensitiveFailure`. */
  sensitive?: readonly string[];
}

/**
 * Checks each input with its schema (defaults and normalization included), skipping values the
 * engine does not know yet, and refuses properties the resource does not have. `rules` then check
 * rules between properties; each gets only known values.
 */
export function checkInputs(
  news: Props,
  fields: Record<string, z.ZodType>,
  rules: (inputs: Props) => CheckFailure[] = () => [],
  options: CheckOptions = {},
): CheckResult {
  const inputs: Props = {};
  const failures: CheckFailure[] = [];
  for (const [name, schema] of Object.entries(fields)) {
    const value = news[name];
    if (isUnknown(value)) {
      inputs[name] = value;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) inputs[name] = parsed.data;
      continue;
    }
    // A list or object may hold unknown values (`events: [someOutput]` in a preview): rules about
    // those parts are skipped; the value is kept as given (normalized once it is known).
    const issue = parsed.error.issues.find((i) => !isUnknown(valueAt(value, i.path)));
    if (issue && options.sensitive?.includes(name)) failures.push(sensitiveFailure(name, withoutValue(describeIssue(name, value, issue).replace(`${name}: `, ""), value)));
    else if (issue) failures.push({ property: name, reason: describeIssue(name, value, issue) });
    else inputs[name] = value;
  }
  for (const name of Object.keys(news)) {
    if (name !== PROVIDER_KEY && !(name in fields)) {
      const reason = `unknown property "${name}": this resource takes ${Object.keys(fields).join(", ")}`;
      failures.push(options.sensitive?.includes(name) ? sensitiveFailure(name, reason) : { property: name, reason });
    }
  }
  if (failures.length === 0) failures.push(...rules(inputs));
  if (news[PROVIDER_KEY] !== undefined) inputs[PROVIDER_KEY] = news[PROVIDER_KEY];
  return { inputs, failures };
}

/** `reason` with every string of `value` in it masked (a schema's message may quote what it got). */
function withoutValue(reason: string, value: unknown): string {
  const strings = typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).filter((v): v is string => typeof v === "string") : [];
  return strings.filter((v) => v.length > 0).reduce((text, v) => text.split(v).join("[secret]"), reason);
}

/** The part of `value` an issue's path points at. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = Reflect.get(at, key);
  }
  return at;
}

function describeIssue(name: string, value: unknown, issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return `${name} is invalid`;
  const where = issue.path.length ? `${name}.${issue.path.join(".")}` : name;
  // zod 4 leaves `issue.input` out unless asked to: look at the value itself, or a wrong type
  // (`planId: 5`) would read "is required".
  if (issue.code === "invalid_type" && valueAt(value, issue.path) === undefined) return `${where} is required`;
  return `${where}: ${issue.message}`;
}

/** Stable text of a value, so that diffs compare meaning, not key order. */
export function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Diff of checked (normalized) inputs: which properties changed, and which of them replace. */
/**
 * Replaces if a `replace` field changed, updates if an `update` field did. `defaults`: the value a
 * field has when absent (settings the state keeps only when the user set them), so a default written
 * out and the same default left out are no change.
 */
export function diffInputs(
  olds: Props,
  news: Props,
  fields: { replace: readonly string[]; update: readonly string[]; defaults?: Props },
): DiffResult {
  const value = (props: Props, name: string) => props[name] ?? fields.defaults?.[name];
  const changed = (name: string) => isUnknown(news[name]) || stable(value(olds, name)) !== stable(value(news, name));
  const replaces = fields.replace.filter(changed);
  const updates = fields.update.filter(changed);
  return { changes: replaces.length + updates.length > 0, replaces };
}

/** The properties of `defaults` whose value in `props` is set and is not the default (what a read puts back in the inputs). */
export function changedFromDefaults(props: Props, defaults: Props): Props {
  const out: Props = {};
  for (const [name, value] of Object.entries(defaults)) if (props[name] !== undefined && stable(props[name]) !== stable(value)) out[name] = props[name];
  return out;
}

/** Copies the named properties. */
export function pick(props: Props, names: readonly string[]): Props {
  const out: Props = {};
  for (const name of names) if (props[name] !== undefined) out[name] = props[name];
  return out;
}

/**
 * The thing was created but is not ready: the engine records the id and these properties (with
 * `__provider`, or a later delete or refresh cannot load the provider) as a partial failure; the
 * next `up` runs `update`, which finishes the job. `failure`: the error (kept as the cause, so its
 * class and code stay visible to callers) or only its words.
 */
export class PartialFailure extends Error {
  readonly properties: Props;
  readonly reasons: string[];
  constructor(
    readonly id: string,
    outs: Props,
    inputs: Props,
    failure: string | Error,
    reasons?: string[],
  ) {
    const message = typeof failure === "string" ? failure : failure.message;
    super(message, typeof failure === "string" ? undefined : { cause: failure });
    this.reasons = reasons ?? [message];
    this.name = "PartialFailure";
    // Plain JSON: the host encodes these as a protobuf Struct, which throws on an `undefined` value
    // inside its error handler, and the engine then never gets an answer to the create.
    const plain: Props = JSON.parse(JSON.stringify({ ...outs, [PROVIDER_KEY]: inputs[PROVIDER_KEY] }));
    this.properties = plain;
  }
}

/**
 * Appends `text` to an error's message, and for a partial failure to the reason that is its message:
 * the CLI prints a partial failure's reasons, not its message (pulumi/pulumi
 * pkg/resource/plugin/provider_plugin.go reads ErrorResourceInitFailed's reasons).
 */
export function appendToError(err: Error, text: string): void {
  if (err instanceof PartialFailure) {
    const i = err.reasons.indexOf(err.message);
    if (i >= 0) err.reasons[i] += text;
  }
  err.message += text;
}

/**
 * The error a user sees for a failed call: `create failed: POST /vps 402 INSUFFICIENT_BALANCE — <API
 * message>. <what to do>` (an OperationError). The engine adds the resource's type and name in front.
 */
export function operationError(operation: string, err: unknown, hint?: string): Error {
  if (err instanceof PartialFailure) return err;
  // Already the error of this operation (create-once and the resources word their own): not wrapped twice.
  if (err instanceof OperationError && err.operation === operation) return err;
  return new OperationError(operation, err, { hint });
}

/** An operation that failed for a reason of its own, not an API error: `create failed: <detail>`. */
export function operationFailed(operation: string, detail: string, code?: ErrorCode): OperationError {
  return new OperationError(operation, undefined, { detail, code });
}

/** True for a 404 answer (whatever the route's not-found code): the object is gone. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** For a read of the objects under a parent (a server's keys): the parent gone (404) holds none. */
export function goneIfNotFound(err: unknown): never[] {
  if (isNotFound(err)) return [];
  throw err;
}
