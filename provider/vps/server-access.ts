/**
 * What the server-access resources (VpsSshKey, VpsPortForward, VpsSnapshot) check about their server
 * before any object is made, and the hints of the API's refusals about it.
 *
 * At preview a new server has no id yet, so the API cannot be asked. The sdk classes therefore pass
 * `declaredServer`: what the program itself declares about the server the `vpsId` came from (its
 * `planId` and `powerState`, linked by the Vps's `id` output, sdk/vps/vps.ts), and, past a limit, the
 * number of such objects the program declares for that server (sdk/vps/server-links.ts). With it the
 * check knows from the plan catalogue (read once a minute, shared with the Vps's own check) whether
 * the server shares a public address and how many snapshots its plan holds, and whether the program
 * stops it — without a call about the server. A `vpsId` given as a plain id of a server the program
 * does not declare is read once (the reads of one server's objects shared).
 *
 * Only what a create would meet is checked: an object already made (olds, same server and values)
 * is not refused on every preview because its server was stopped since.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import type { Vps, VpsPlan } from "../../contract/schemas";
import { isNotFound, isUnknown, operationError, type CheckFailure, type Props } from "../resource";
import type { CallContext } from "../context";
import type { InputSpec, WaitSpec } from "../schema";
import { vpsPlans } from "./catalogue";

export const SSH_KEY_LIMIT = 10;

/**
 * What the sdk class saw in the program about the object's server (set by the sdk, never by the
 * user); a part of another type is left out (as not seen).
 */
const declaredServer = z.object({
  planId: z.string().optional().catch(undefined),
  powerState: z.string().optional().catch(undefined),
  /** This object is the n-th of its kind the program declares for the server (set only past the limit). */
  ordinal: z.number().optional().catch(undefined),
});
export type DeclaredServer = z.output<typeof declaredServer>;

export type AccessFeature = "SSH keys" | "port forwards" | "snapshots";

const known = (value: unknown): value is string => typeof value === "string" && value !== "" && !isUnknown(value);

export function declaredServerOf(inputs: Props): DeclaredServer {
  const parsed = declaredServer.safeParse(inputs.declaredServer);
  return parsed.success ? parsed.data : {};
}

/** The server facts a check can know: the plan, and whether it will be stopped, or undefined (unknown until up). */
async function serverFacts(ctx: CallContext, inputs: Props): Promise<{ plan?: VpsPlan; stopped: boolean; status?: string } | CheckFailure> {
  const declared = declaredServerOf(inputs);
  const plans = () => vpsPlans(ctx.api);
  if (known(declared.planId)) {
    const plan = (await plans()).find((p) => p.id === declared.planId);
    return { plan, stopped: declared.powerState === "stopped" };
  }
  if (!known(inputs.vpsId)) return { stopped: false };
  let server: Vps;
  try {
    server = await ctx.api.platform.call("vps.get", { params: { id: inputs.vpsId } });
  } catch (err) {
    if (isNotFound(err)) return { property: "vpsId", reason: `no server ${inputs.vpsId} in reach of this key` };
    return { property: "vpsId", reason: `could not read the server to check it: ${operationError("check", err).message}` };
  }
  const plan = (await plans()).find((p) => p.id === server.planId);
  return { plan, stopped: server.status === "stopped", status: server.status };
}

/**
 * The failures of a server for `feature`: its own address (keys, forwards), snapshots unavailable on
 * its plan, stopped (keys, forwards), too many keys declared. `creating`: the check is for an object
 * that a create will make (new, or replaced).
 */
export async function serverAccessRules(ctx: CallContext, inputs: Props, feature: AccessFeature, creating: boolean): Promise<CheckFailure[]> {
  const declared = declaredServerOf(inputs);
  // Counted in the program by the sdk: refused with no call at all.
  if (feature === "SSH keys" && (declared.ordinal ?? 0) > SSH_KEY_LIMIT) {
    return [{ property: "vpsId", reason: `this program declares ${declared.ordinal} SSH keys for this server; a server holds at most ${SSH_KEY_LIMIT} (SSH_KEY_LIMIT): remove a key` }];
  }
  if (!creating) return [];
  let facts: Awaited<ReturnType<typeof serverFacts>>;
  try {
    facts = await serverFacts(ctx, inputs);
  } catch (err) {
    return [{ property: "vpsId", reason: `could not read the plan catalogue to check the server: ${operationError("check", err).message}` }];
  }
  if ("reason" in facts) return [facts];
  const failures: CheckFailure[] = [];
  const { plan } = facts;
  if (plan && feature !== "snapshots" && plan.sharedAddress === false) {
    failures.push({ property: "vpsId", reason: `${feature} need a server that shares a public address (FEATURE_NOT_AVAILABLE); this server's plan ${plan.name} gives it an address of its own. ${sharedPlansHint(await vpsPlans(ctx.api))}` });
  }
  if (plan && feature === "snapshots" && (plan.snapshotLimit ?? 0) === 0) {
    failures.push({ property: "vpsId", reason: `snapshots are unavailable on this server's plan ${plan.name}: choose a plan with a snapshotLimit above 0 (getVpsPlans)` });
  }
  if (feature !== "snapshots" && facts.stopped) {
    failures.push({ property: "vpsId", reason: `${feature} are applied on a running server (INSTANCE_NOT_RUNNING) and this server ${facts.status ? "is stopped" : 'is declared with powerState "stopped"'}: set powerState: "running", or leave the ${feature} out while it is stopped` });
  }
  return failures;
}

function sharedPlansHint(plans: VpsPlan[]): string {
  const shared = plans.filter((p) => p.sharedAddress).map((p) => p.name);
  return shared.length ? `Plans whose servers share one: ${shared.join(", ")}` : "No plan of this account shares one";
}

/** What to do about the API's refusals that concern the server, for an operation's error. */
export function serverAccessHint(err: unknown, vpsId: string, feature: AccessFeature): string | undefined {
  if (isApiError(err, "INSTANCE_NOT_RUNNING")) return `Server ${vpsId} is not running: ${feature} are applied on the running server. Set the Vps's powerState to "running", then run \`pulumi up\` again`;
  if (isApiError(err, "FEATURE_NOT_AVAILABLE")) return `Server ${vpsId} has a public address of its own: ${feature} need a server on a plan that shares one (see getVpsPlans, sharedAddress)`;
  if (isApiError(err, "INSTANCE_NOT_FOUND")) return `No server ${vpsId} in reach of this key`;
  return undefined;
}

/** True when the object a check is for will be made by a create: no olds, or a value that replaces changed. */
export function createsObject(olds: Props, inputs: Props, replacing: readonly string[]): boolean {
  if (Object.keys(olds).length === 0) return true;
  return replacing.some((name) => JSON.stringify(olds[name]) !== JSON.stringify(inputs[name]));
}

/** What every server resource's page says about `VPS_BUSY` (retryWhileBusy, ./server-waits.ts): its wait and its advice. */
export function busyServerWait(operations: string): WaitSpec {
  return { what: `${operations}: a busy server (\`VPS_BUSY\`) to be free, then the call again`, limit: "20 min" };
}
export const VPS_BUSY_ADVICE = "Waited out: the call is sent again once the server is free (up to the timeout).";

/** The `declaredServer` input of the server-access resources: set by their sdk classes, never by a program. */
export const declaredServerInput: InputSpec = {
  schema: z.looseObject({}).optional(),
  description: "What the program declares about the server (its plan and power state; past a limit, how many such objects it declares for it), set by the sdk class (sdk/vps/server-links.ts).",
  change: "state",
  internal: true,
};
