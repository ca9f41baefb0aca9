/**
 * The inputs every resource takes besides its own (issue 17), handled once, around each resource
 * method, by the dispatcher (dispatch.ts):
 *
 * - `profile`: the name of a set of settings in stack config `svc:profiles` (keys, project, URLs), so
 *   one program reaches several accounts. Dynamic resources cannot take the `provider` resource
 *   option, and the dynamic host configures one process-wide provider: the resource carries the
 *   profile's name instead (never a key), and its methods get that profile's clients (CallContext).
 *   Checked before any call: a profile that does not exist, or lacks the key the resource needs,
 *   fails at preview naming both. A different profile replaces the resource (an object cannot move
 *   between accounts) — except for a type whose schema says why it cannot move (`moveRefused`: a
 *   registered domain would be registered again, and paid for, in the other account): refused.
 * - `timeouts`: the resource's `customTimeouts` (create / update / delete), which the sdk classes
 *   copy into the inputs because the Node dynamic host drops the request's timeout. The operation's
 *   waits use it instead of their defaults; a timeout change alone is no diff and makes no call.
 *
 * Both are kept in the outputs too: read and delete get only the outputs.
 */
import { missingProfile } from "./config";
import { causeOfType } from "./client/errors";
import { WaitTimeoutError } from "./client/poller";
import { Deadline } from "./client/deadline";
import { appendToError, isUnknown, type CheckFailure, type Props } from "./resource";
import type { ResourceSchema } from "./schema";
import type { CallContext, Deployment } from "./context";
import type { ProviderRuntime } from "./runtime";

/** `parentUrn`: the classes of 0.1.0 passed the parent's URN; states they wrote still hold it. */
const COMMON = ["profile", "timeouts", "parentUrn"] as const;

/** The common inputs of `props`, as the outputs keep them. */
export function common(props: Props | undefined): Props {
  const out: Props = {};
  for (const k of COMMON) if (props?.[k] !== undefined) out[k] = props[k];
  return out;
}

/** `props` without the common inputs: what the resource's own method gets. */
export function without(props: Props): Props {
  const out = { ...props };
  for (const k of COMMON) delete out[k];
  return out;
}

export const profileOf = (props: Props | undefined) => (typeof props?.profile === "string" && !isUnknown(props.profile) ? (props.profile) : undefined);

/** A Go duration as Pulumi's customTimeouts takes it ("30s", "40m", "1h30m") in ms, or undefined. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text !== "string" || !/^(\d+(\.\d+)?(h|m|s|ms))+$/.test(text)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  let ms = 0;
  for (const [, n, , u] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g)) ms += Number(n) * unit[u];
  return ms;
}

/** The check of `profile`: a profile that exists and holds the key the type's API needs; no move of a type that cannot move. */
export function profileFailures(runtime: ProviderRuntime, schema: ResourceSchema, olds: Props, news: Props): CheckFailure[] {
  const profile = profileOf(news);
  const failures: CheckFailure[] = [];
  if (news.profile !== undefined && !isUnknown(news.profile) && (typeof news.profile !== "string" || news.profile === "")) {
    return [{ property: "profile", reason: "a profile name: a key of stack config svc:profiles" }];
  }
  if (profile !== undefined) {
    let missing: string | undefined;
    try {
      missing = missingProfile(profile, runtime.config);
    } catch (err) {
      return [{ property: "profile", reason: err instanceof Error ? err.message : String(err) }];
    }
    if (missing) return [{ property: "profile", reason: missing }];
    const { settings } = runtime.apiContextOf(profile);
    const needs = schema.service === "email" ? (settings.emailApiKey || settings.apiKey ? undefined : "emailApiKey (or apiKey)") : settings.apiKey ? undefined : "apiKey";
    if (needs) failures.push({ property: "profile", reason: `profile "${profile}" has no ${needs}: set it with pulumi config set --path --secret 'svc:profiles.${profile}.${needs.split(" ")[0]}' <key>` });
  }
  // A resource already in the state (olds) moving to another account.
  if (schema.moveRefused && Object.keys(olds).length > 0 && !isUnknown(news.profile) && profileOf(olds) !== profile) {
    failures.push({ property: "profile", reason: `changing the profile (${profileOf(olds) ?? "default"} → ${profile ?? "default"}) is refused: ${schema.moveRefused.reason}` });
  }
  return failures;
}

/** The check of `timeouts`: durations for create, update and delete only. */
export function timeoutFailures(news: Props): CheckFailure[] {
  const t = news.timeouts;
  if (t === undefined || isUnknown(t)) return [];
  if (typeof t !== "object" || t === null || Array.isArray(t)) return [{ property: "timeouts", reason: "set by the resource option customTimeouts" }];
  return Object.entries(t)
    .filter(([k, v]) => !["create", "update", "delete"].includes(k) || (v !== undefined && v !== "" && durationMs(v) === undefined))
    .map(([k, v]) => ({ property: "timeouts", reason: `customTimeouts.${k} "${String(v)}": a duration such as "30s", "40m" or "1h30m"` }));
}

/** The operation a method runs for, and its customTimeouts entry (for the wait limit and messages). */
export interface Operation {
  name?: "create" | "update" | "delete";
  /** As the program wrote it ("2s"). */
  timeoutText?: string;
}

/** The customTimeouts entry of one operation, as the program wrote it. */
function timeoutOf(timeouts: unknown, name: string): string | undefined {
  const text = timeouts && typeof timeouts === "object" ? Object.entries(timeouts).find(([k]) => k === name)?.[1] : undefined;
  return typeof text === "string" ? text : undefined;
}

/** The context a resource method runs with: its profile's clients and pollers, its operation's wait limit. */
export function callContext(runtime: ProviderRuntime, props: Props, name?: Operation["name"], deployment?: Deployment): { ctx: CallContext; operation: Operation } {
  const text = name ? timeoutOf(props.timeouts, name) : undefined;
  const customMs = durationMs(text);
  const profile = profileOf(props);
  const ctx: CallContext = {
    // Resolved on first use, inside the method: settings that cannot be resolved fail as its error.
    get api() {
      return runtime.apiContextOf(profile);
    },
    deadline: customMs === undefined ? Deadline.none : Deadline.after(customMs),
    ...(deployment ? { deployment } : {}),
  };
  return { ctx, operation: { name, timeoutText: text || undefined } };
}

/** A wait that ran out: names the limit that applied and how to change it. */
export function withTimeoutHint(err: unknown, operation: Operation): unknown {
  if (!(err instanceof Error) || !causeOfType(err, WaitTimeoutError) || !operation.name) return err;
  const name = operation.name;
  appendToError(
    err,
    operation.timeoutText
      ? `. The limit was customTimeouts.${name} "${operation.timeoutText}": raise it in the resource options, e.g. customTimeouts: { ${name}: "30m" }`
      : `. The limit was the default for this wait: set it with the resource option customTimeouts: { ${name}: "40m" }`,
  );
  return err;
}

/** A create or an update: its outputs, and a partial failure's properties, keep the common inputs. */
export async function write<R extends { outs?: Props }>(runtime: ProviderRuntime, name: "create" | "update", inputs: Props, run: (ctx: CallContext) => Promise<R>, deployment?: Deployment): Promise<R> {
  const { ctx, operation } = callContext(runtime, inputs, name, deployment);
  try {
    const r = await run(ctx);
    return { ...r, outs: { ...r.outs, ...common(inputs) } };
  } catch (err) {
    throw keepCommon(withTimeoutHint(err, operation), inputs);
  }
}

/** A partial failure keeps the profile and timeouts in what the state records. */
function keepCommon(err: unknown, inputs: Props): unknown {
  if (err && typeof err === "object" && "properties" in err && err.properties && typeof err.properties === "object") {
    Object.assign(err.properties, JSON.parse(JSON.stringify(common(inputs))));
  }
  return err;
}
