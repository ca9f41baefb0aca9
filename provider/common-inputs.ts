/**
 * The inputs every resource takes besides its own (issue 17), handled once, around each resource
 * method, by the dispatcher (index.ts):
 *
 * - `profile`: the name of a set of settings in stack config `svc:profiles` (keys, project, URLs), so
 *   one program reaches several accounts. Dynamic resources cannot take the `provider` resource
 *   option, and the dynamic host configures one process-wide provider: the resource carries the
 *   profile's name instead (never a key), and its methods get that profile's clients (CallContext).
 *   Checked before any call: a profile that does not exist, or lacks the key the resource needs,
 *   fails at preview naming both. A different profile replaces the resource (an object cannot move
 *   between accounts) — except a Domain, refused: a replace would register the name again in the
 *   other account (paid) while the first registration stays.
 * - `timeouts`: the resource's `customTimeouts` (create / update / delete), which the sdk classes
 *   copy into the inputs because the Node dynamic host drops the request's timeout. The operation's
 *   waits use it instead of their defaults; a timeout change alone is no diff and makes no call.
 *
 * Both are kept in the outputs too: read and delete get only the outputs.
 */
import { missingProfile } from "./config";
import { ApiError, causeOfType } from "./client/errors";
import { WaitTimeoutError } from "./client/poller";
import { isUnknown, PartialFailure, type CheckFailure, type CheckResult, type DiffResult, type Props, type ResourceImpl } from "./resource";
import type { ResourceSchema, SchemaResource } from "./schema";
import type { CallContext } from "./context";
import { apiContextOf, createdHere, currentConfig, rememberCreated } from "./runtime";
import { emailObjectSettled, emailPlanForesight } from "./email/plan-limits";

const COMMON = ["profile", "timeouts", "parentUrn"] as const;

/** Types whose replace would be unsafe across accounts: a profile change is refused at preview. */
const NO_MOVE: Record<string, string> = {
  Domain:
    "a registered domain cannot move to another account: a replace would register the name again in the new account (paid) while the registration in the old one stays. Keep the profile, or move the domain outside pulumi-svc and adopt it there (adoptId)",
};

type Method = keyof ResourceImpl;

function common(props: Props | undefined): Props {
  const out: Props = {};
  for (const k of COMMON) if (props?.[k] !== undefined) out[k] = props[k];
  return out;
}

function without(props: Props): Props {
  const out = { ...props };
  for (const k of COMMON) delete out[k];
  return out;
}

/** The URN of the resource's parent as the class passed it ("" for the stack): with the type and name, which resource this is. */
const parentOf = (props: Props | undefined): string => (typeof props?.parentUrn === "string" ? props.parentUrn : "");

const profileOf = (props: Props | undefined) => (typeof props?.profile === "string" && !isUnknown(props.profile) ? (props.profile as string) : undefined);

/** A Go duration as Pulumi's customTimeouts takes it ("30s", "40m", "1h30m") in ms, or undefined. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text !== "string" || !/^(\d+(\.\d+)?(h|m|s|ms))+$/.test(text)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  let ms = 0;
  for (const [, n, , u] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g)) ms += Number(n) * unit[u];
  return ms;
}

function profileFailures(type: string, service: ResourceSchema["service"], olds: Props, news: Props): CheckFailure[] {
  const profile = profileOf(news);
  const failures: CheckFailure[] = [];
  if (news.profile !== undefined && !isUnknown(news.profile) && (typeof news.profile !== "string" || news.profile === "")) {
    return [{ property: "profile", reason: "a profile name: a key of stack config svc:profiles" }];
  }
  if (profile !== undefined) {
    let missing: string | undefined;
    try {
      missing = missingProfile(profile, currentConfig());
    } catch (err) {
      return [{ property: "profile", reason: (err as Error).message }];
    }
    if (missing) return [{ property: "profile", reason: missing }];
    const { settings } = apiContextOf(profile);
    const needs = service === "email" ? (settings.emailApiKey || settings.apiKey ? undefined : "emailApiKey (or apiKey)") : settings.apiKey ? undefined : "apiKey";
    if (needs) failures.push({ property: "profile", reason: `profile "${profile}" has no ${needs}: set it with pulumi config set --path --secret 'svc:profiles.${profile}.${needs.split(" ")[0]}' <key>` });
  }
  // A resource already in the state (olds) moving to another account.
  if (NO_MOVE[type] && Object.keys(olds).length > 0 && !isUnknown(news.profile) && profileOf(olds) !== profile) {
    failures.push({ property: "profile", reason: `changing the profile (${profileOf(olds) ?? "default"} → ${profile ?? "default"}) is refused: ${NO_MOVE[type]}` });
  }
  return failures;
}

function timeoutFailures(news: Props): CheckFailure[] {
  const t = news.timeouts;
  if (t === undefined || isUnknown(t)) return [];
  if (typeof t !== "object" || t === null || Array.isArray(t)) return [{ property: "timeouts", reason: "set by the resource option customTimeouts" }];
  return Object.entries(t as Props)
    .filter(([k, v]) => !["create", "update", "delete"].includes(k) || (v !== undefined && v !== "" && durationMs(v) === undefined))
    .map(([k, v]) => ({ property: "timeouts", reason: `customTimeouts.${k} "${String(v)}": a duration such as "30s", "40m" or "1h30m"` }));
}

/** The operation a method runs for, and its customTimeouts entry (for the wait limit and messages). */
interface Operation {
  name?: "create" | "update" | "delete";
  /** As the program wrote it ("2s"). */
  timeoutText?: string;
}

/** The context a resource method runs with: its profile's clients and pollers, its operation's wait limit. */
function callContext(props: Props, name?: Operation["name"]): { ctx: CallContext; operation: Operation } {
  const text = name ? (props.timeouts as Record<string, string> | undefined)?.[name] : undefined;
  const customMs = durationMs(text);
  const profile = profileOf(props);
  const ctx: CallContext = {
    // Resolved on first use, inside the method: settings that cannot be resolved fail as its error.
    get api() {
      return apiContextOf(profile);
    },
    timeoutMs: (defaultMs) => customMs ?? defaultMs,
  };
  return { ctx, operation: { name, timeoutText: text || undefined } };
}

/** A wait that ran out: names the limit that applied and how to change it. */
function withTimeoutHint(err: unknown, operation: Operation): unknown {
  if (!(err instanceof Error) || !causeOfType(err, WaitTimeoutError) || !operation.name) return err;
  const name = operation.name;
  err.message += operation.timeoutText
    ? `. The limit was customTimeouts.${name} "${operation.timeoutText}": raise it in the resource options, e.g. customTimeouts: { ${name}: "30m" }`
    : `. The limit was the default for this wait: set it with the resource option customTimeouts: { ${name}: "40m" }`;
  return err;
}

/** Runs a resource method with the common inputs handled (see above). */
export async function dispatch(type: string, impl: SchemaResource, method: Method, args: unknown[]): Promise<unknown> {
  switch (method) {
    case "check": {
      const [olds, news] = args as [Props, Props];
      // The API the type calls (its schema says) is the key its profile must hold.
      const failures = [...profileFailures(type, impl.schema.service, olds ?? {}, news), ...timeoutFailures(news)];
      // Nothing is called for a profile that cannot serve the resource.
      if (failures.length) return { inputs: news, failures } satisfies CheckResult;
      const { ctx } = callContext(news);
      if (type === "EmailPlan") ctx.api.foresight.emailPlanDeclared = true;
      const result = await impl.check(without(olds ?? {}), without(news), ctx);
      // Before any email object is made: the plan it needs, and the room its limits leave (email/plan-limits.ts).
      if (result.failures.length === 0 && impl.schema.service === "email") result.failures.push(...(await emailPlanForesight(type, without(olds ?? {}), result.inputs, ctx)));
      return { ...result, inputs: { ...result.inputs, ...common(news) } };
    }
    case "diff": {
      const [id, olds, news] = args as [string, Props, Props];
      const result: DiffResult = await impl.diff(id, without(olds), without(news), callContext(news).ctx);
      if (result.changes && result.replaces.length === 0 && profileOf(olds) === profileOf(news)) await refuseGone(type, impl, id, olds);
      if (isUnknown(news.profile) || profileOf(olds) !== profileOf(news)) return { ...result, changes: true, replaces: [...(result.replaces ?? []), "profile"] };
      return result;
    }
    case "create": {
      const [inputs] = args as [Props];
      try {
        const created = await write("create", inputs, (ctx) => impl.create(without(inputs), ctx));
        rememberCreated(type, created.id, parentOf(inputs));
        return created;
      } catch (err) {
        // A partial failure answers the id too: the object is the new resource's all the same.
        if (err instanceof PartialFailure) rememberCreated(type, err.id, parentOf(inputs));
        throw err;
      } finally {
        if (impl.schema.service === "email") emailObjectSettled(type, without(inputs), callContext(inputs).ctx);
      }
    }
    case "update": {
      const [id, olds, news] = args as [string, Props, Props];
      return write("update", news, (ctx) => impl.update(id, without(olds), without(news), ctx)).catch((err) => {
        throw goneHint(type, id, err);
      });
    }
    case "read": {
      const [id, props] = args as [string, Props];
      const r = await impl.read(id, without(props), callContext(props).ctx);
      if (!r.id) return r;
      return { ...r, props: { ...r.props, ...common(props) }, ...(r.inputs ? { inputs: { ...r.inputs, ...common(props) } } : {}) };
    }
    case "delete": {
      const [id, props] = args as [string, Props];
      const creator = createdHere(type, id);
      if (creator !== undefined && creator !== parentOf(props)) {
        // Another resource of this deployment holds the object now (see runtime.ts, createdIds): the
        // old one leaves the stack, the object stays.
        process.stderr.write(`svc: ${type} ${id} is kept: a create of this deployment answered it for another resource (a resource moved without aliases), so deleting the old resource removes it from the stack only\n`);
        return undefined;
      }
      const { ctx, operation } = callContext(props, "delete");
      try {
        await impl.delete(id, without(props), ctx);
        if (impl.schema.service === "email") emailObjectSettled(type, without(props), ctx);
        return;
      } catch (err) {
        throw withTimeoutHint(err, operation);
      }
    }
  }
}

const GONE = (type: string, id: string) =>
  `the ${type} ${id} that the state holds was deleted outside Pulumi: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` makes it again (or remove it from the program)`;

/**
 * An in-place update of an object that is no longer there would fail half-way through the `up`
 * (`404 …_NOT_FOUND`): the preview reads it (one read, only for an update) and stops with what to
 * do. A read that fails for another reason stops nothing here: the update reports its own error.
 */
async function refuseGone(type: string, impl: SchemaResource, id: string, olds: Props): Promise<void> {
  let found: boolean;
  try {
    found = (await impl.read(id, without(olds), callContext(olds).ctx)).id !== "";
  } catch {
    return;
  }
  if (!found) throw new Error(`preview: ${GONE(type, id)}`);
}

/** A 404 on the object the update works on (its id in the path): it was deleted outside Pulumi. */
function goneHint(type: string, id: string, err: unknown): unknown {
  const api = causeOfType(err, ApiError);
  if (!(err instanceof Error) || api?.status !== 404 || !id || !api.path.includes(encodeURIComponent(id))) return err;
  err.message += `. ${GONE(type, id).replace(/^the/, "The")}`;
  return err;
}

/** A create or an update: its outputs, and a partial failure's properties, keep the common inputs. */
async function write<R extends { outs?: Props }>(name: "create" | "update", inputs: Props, run: (ctx: CallContext) => Promise<R>): Promise<R> {
  const { ctx, operation } = callContext(inputs, name);
  try {
    const r = await run(ctx);
    return { ...r, outs: { ...r.outs, ...common(inputs) } };
  } catch (err) {
    throw keepCommon(withTimeoutHint(err, operation), inputs);
  }
}

/** A partial failure keeps the profile and timeouts in what the state records. */
function keepCommon(err: unknown, inputs: Props): unknown {
  if (err && typeof err === "object" && "properties" in err && (err as { properties: unknown }).properties) {
    Object.assign((err as { properties: Props }).properties, JSON.parse(JSON.stringify(common(inputs))));
  }
  return err;
}
