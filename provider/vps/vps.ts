/**
 * Vps: a virtual server. Changed in place where the API allows (upgrade to a larger plan, reinstall,
 * password reset, auto-renew, power), replaced where it has no call (name, project). Create is paid
 * and non-idempotent: it goes through createOnce (../create-once.ts): `POST /vps` is sent once, and
 * only when the project has no live server of that name. A server with the resource's default name
 * (derived from organization, project, stack and resource name by the sdk) can only be this
 * resource's — an interrupted create made it — and is adopted; a server with an explicit name that
 * already exists stops the create with its id and the `adoptId` line (before issue 15 a second
 * server of the same name was created). `adoptId` takes over any server of the project.
 */
import { z } from "zod";
import { isApiError, OutcomeUnknownError, redact } from "../client/errors";
import { adoptIdOf, createOnce } from "../create-once";
import type { ApiClient } from "../client/http";
import { billingPeriods, serverNameProblem, type Vps, type VpsPlan } from "../../contract/schemas";
import { waitFor } from "../client/poller";
import { checkInputs, diffInputs, isNotFound, isUnknown, operationError, operationFailed, PartialFailure, pick, UUID, type CheckFailure, type DiffResult, type Props, type ResourceImpl } from "../resource";
import type { CallContext } from "../context";
import { vpsPlans } from "./catalogue";
import { retryWhileBusy, serverTimeoutMs, USUAL_MS, waitSettled, waitTerminated } from "./server-waits";

const fields = {
  projectId: z.string().min(1, "must not be empty").regex(UUID, "a project id (UUID)").optional(),
  planId: z.string().min(1, "must not be empty"),
  name: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = serverNameProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  /** The name a new server gets when `name` is not given, set by the sdk class (sdk/naming.ts). */
  defaultName: z.string().min(3).optional(),
  /** An existing server to manage instead of creating one. */
  adoptId: z.string().regex(UUID, "a server id (UUID)").optional(),
  osType: z.string().min(1, "must not be empty"),
  osVersion: z.string().min(1, "must not be empty"),
  rootPassword: z.string().regex(/^[A-Za-z0-9!@#$%^*]{12,30}$/, "12 to 30 characters: letters, digits and ! @ # $ % ^ *"),
  billingPeriod: z.enum(billingPeriods).default("monthly"),
  autoRenew: z.boolean().default(true),
  powerState: z.enum(["running", "stopped"]).default("running"),
};
const INPUTS = Object.keys(fields);
/** Changed in place; the others of SERVER_INPUTS replace the server. */
const UPDATED_INPUTS = ["planId", "osType", "osVersion", "rootPassword", "billingPeriod", "autoRenew", "powerState"];

/** Fails with the message cleaned of the root password (an API message could echo a value). */
function fail(operation: string, err: unknown, inputs: Props, hint?: string): Error {
  const error = operationError(operation, err, hint);
  error.message = redact(error.message, [inputs.rootPassword as string]);
  return error;
}

/** One plan can replace another in place only when it is larger, in the same family and region. */
export function upgradeProblem(from: VpsPlan, to: VpsPlan): string | undefined {
  if (from.family !== to.family || from.region !== to.region) {
    return `plan ${to.name} is in family ${to.family} / region ${to.region}, the server's plan ${from.name} in ${from.family} / ${from.region}: a server moves only to a larger plan of its own family and region (to change them, give the server a new name so it is replaced)`;
  }
  const larger = to.prices.monthly > from.prices.monthly && to.cpu >= from.cpu && to.memoryMb >= from.memoryMb && to.diskGb >= from.diskGb;
  if (!larger) return `plan ${to.name} is not larger than ${from.name}: a server can only be upgraded, never downsized (give it a new name to replace it)`;
  return undefined;
}

async function planRules(ctx: CallContext, inputs: Props, olds: Props): Promise<CheckFailure[]> {
  const known = (name: string) => inputs[name] !== undefined && !isUnknown(inputs[name]);
  if (!known("planId")) return [];
  let plans: VpsPlan[];
  try {
    plans = await vpsPlans(ctx.api.platform);
  } catch (err) {
    return [{ property: "planId", reason: `could not read the plan catalogue to check the plan: ${operationError("check", err).message}` }];
  }
  const plan = plans.find((p) => p.id === inputs.planId);
  if (!plan) return [{ property: "planId", reason: `no plan ${inputs.planId}; plans: ${plans.map((p) => `${p.name} (${p.id})`).join(", ")}` }];
  const failures: CheckFailure[] = [];
  if (known("osType") && known("osVersion") && !plan.osTemplates.some((t) => t.osType === inputs.osType && t.osVersion === inputs.osVersion)) {
    failures.push({
      property: "osType",
      reason: `plan ${plan.name} has no image ${inputs.osType} ${inputs.osVersion}; it offers ${plan.osTemplates.map((t) => `${t.osType} ${t.osVersion}`).join(", ")}`,
    });
  }
  // Only an update is bound to upgrades: a new name or project replaces the server, on any plan.
  const replaced = (name: string) => olds[name] !== undefined && olds[name] !== inputs[name];
  if (olds.planId && olds.planId !== inputs.planId && !replaced("name") && !replaced("projectId")) {
    const from = plans.find((p) => p.id === olds.planId);
    const problem = from && upgradeProblem(from, plan);
    if (problem) failures.push({ property: "planId", reason: problem });
  }
  return failures;
}

/**
 * The one mapper from an API server to the resource's properties (terraform-provider-hcloud's
 * getServerAttributes): create's outputs, adoption, read and the drift a refresh shows all come from
 * it, so they always agree. What the API's server record does not say comes from `kept`: the root
 * password and login (the credentials' or the state's), pulumi-svc's own inputs (adoptId,
 * defaultName), the billing period chosen (it applies at the next renewal: no call changes it
 * before, so it is never drift) and, while the server is in a transition, the power state wanted.
 * No value may be `undefined`: the provider host cannot encode it (a create would then fail after the
 * server was made and paid for). `lastJobError` is API text: cleaned of the root passwords known.
 */
export function serverProperties(server: Vps, kept: Props, otherSecrets: string[] = []): { inputs: Props; outputs: Props } {
  const inputs: Props = {
    ...pick(kept, ["adoptId", "defaultName", "rootPassword"]),
    projectId: server.projectId,
    planId: server.planId,
    name: server.name,
    osType: server.osType,
    osVersion: server.osVersion,
    billingPeriod: kept.billingPeriod ?? server.billingPeriod,
    autoRenew: server.autoRenew,
    powerState: server.status === "stopped" ? "stopped" : server.status === "running" ? "running" : (kept.powerState ?? "running"),
  };
  // `defaultName` is the program's every time: kept out of the outputs, the state is smaller by its bytes.
  const { defaultName: _defaultName, ...own } = inputs;
  const outputs: Props = {
    ...own,
    status: server.status,
    publicIp: server.publicIp,
    expiresAt: server.expiresAt,
    lastJobStatus: server.lastJobStatus,
    lastJobError: server.lastJobError === null ? null : redact(server.lastJobError, [kept.rootPassword as string, ...otherSecrets]),
    ...(kept.username !== undefined ? { username: kept.username } : {}),
  };
  return { inputs, outputs };
}

/** The outputs of a server this resource made or changed from the program's `inputs`. */
const outputs = (inputs: Props, server: Vps, username?: unknown): Props => serverProperties(server, { ...inputs, username }).outputs;

async function usernameOf(api: ApiClient, vpsId: string): Promise<string | undefined> {
  return (await api.call("vps.credentials", { params: { id: vpsId } }).catch(() => undefined))?.user;
}

/** Live servers of the project with this name: what a create of this name may already have made. */
function sameName(listed: Vps[], name: string, projectId: string): Vps[] {
  return listed.filter((s) => s.name === name && s.projectId === projectId && !["terminated", "terminating", "error"].includes(s.status));
}

/** The server `adoptId` names, if this key can manage it as this resource. */
async function adoptServer(ctx: CallContext, adoptId: string, inputs: Props): Promise<Vps> {
  // Read on its own, not through the poller: an unknown id's error carries the API's own answer.
  let server: Vps;
  try {
    server = await ctx.api.platform.call("vps.get", { params: { id: adoptId } });
  } catch (err) {
    if (isNotFound(err)) throw fail("create", err, inputs, `adoptId "${adoptId}": no server with this id in reach of this key`);
    throw fail("create", err, inputs);
  }
  if (server.status === "terminated" || server.status === "terminating") {
    throw operationFailed("create", `adoptId "${adoptId}": server ${server.name} is ${server.status} and cannot be managed; remove adoptId to create a new server`);
  }
  if (server.projectId !== inputs.projectId) {
    throw operationFailed("create", `adoptId "${adoptId}": server ${server.name} is in project ${server.projectId}, not ${String(inputs.projectId)}; set projectId to its project to adopt it`);
  }
  return server;
}

/** Sends the paid create at most once (createOnce): adopts what an earlier attempt made, or stops. */
async function createServer(ctx: CallContext, inputs: Props): Promise<{ server: Vps; adopted: boolean }> {
  const api = ctx.api.platform;
  const body = {
    planId: inputs.planId as string,
    projectId: inputs.projectId as string,
    name: inputs.name as string,
    osType: inputs.osType as string,
    osVersion: inputs.osVersion as string,
    rootPassword: inputs.rootPassword as string,
    billingPeriod: inputs.billingPeriod as string,
  };
  try {
    const { object, adopted } = await createOnce<Vps>(inputs, {
      noun: "server",
      idOf: (s) => s.id,
      describe: (s) => `named "${s.name}"`,
      adopt: (adoptId) => adoptServer(ctx, adoptId, inputs),
      // A fleet's creates look at once: one list serves those that join it.
      find: async (joinInFlight) => ({
        objects: sameName(await (joinInFlight ? ctx.api.serverList.lookup() : ctx.api.serverList.fresh()), body.name, body.projectId),
        provablyMine: inputs.defaultName !== undefined && body.name === inputs.defaultName,
      }),
      send: () => api.call("vps.create", { body }),
      otherwise: "give this server another name",
    });
    return { server: object, adopted };
  } catch (err) {
    throw fail("create", err, inputs, isApiError(err, "INSUFFICIENT_BALANCE") ? "Top up the wallet, then run `pulumi up` again" : undefined);
  }
}

/**
 * An adopted server's outputs, from the API: its values for the program's inputs (the password from
 * its credentials, so a different program password shows as an update that resets it). The next
 * preview compares the program with these and shows the update or replace where they differ.
 */
async function adoptedOutputs(api: ApiClient, server: Vps, inputs: Props): Promise<Props> {
  const credentials = await api.call("vps.credentials", { params: { id: server.id } }).catch(() => undefined);
  const kept = { ...pick(inputs, ["adoptId", "defaultName"]), rootPassword: credentials?.password ?? inputs.rootPassword, username: credentials?.user };
  // A job error is cleaned of the program's password too, not only of the live one.
  return serverProperties(server, kept, [inputs.rootPassword as string]).outputs;
}

/** Waits for the server to settle; a server in `error` is a partial failure (id kept). */
async function settle(ctx: CallContext, vpsId: string, inputs: Props, operation: string, expectedMs?: number): Promise<Vps> {
  let server: Vps;
  try {
    server = await waitSettled(ctx, vpsId, undefined, expectedMs);
  } catch (err) {
    throw new PartialFailure(vpsId, { ...pick(inputs, INPUTS) }, inputs, fail(operation, err, inputs));
  }
  if (server.status === "error") {
    throw new PartialFailure(
      vpsId,
      outputs(inputs, server),
      inputs,
      redact(`${operation} failed: server ${vpsId} ended in status error: ${server.lastJobError ?? "no reason given"}. The next \`pulumi up\` replaces it`, [
        inputs.rootPassword as string,
      ]),
    );
  }
  return server;
}

/** A job that settled without doing its work (the API undid it): the reason is the server's last job error. */
function jobFailed(what: string, server: Vps, undone: string): Error {
  return new Error(`${what} did not happen: ${server.lastJobError ?? "the job failed, no reason given"}; ${undone}`);
}

/**
 * Brings the power state to what the program asks. Raw errors (the caller names the operation); a
 * stop or start whose job failed settles back where it was, which is an error too.
 */
async function applyPower(ctx: CallContext, server: Vps, inputs: Props, operation: string): Promise<Vps> {
  const api = ctx.api.platform;
  const wanted = inputs.powerState as "running" | "stopped";
  if (server.status === wanted) return server;
  const route = wanted === "running" ? "vps.start" : "vps.stop";
  await retryWhileBusy(ctx, server.id, () => api.call(route, { params: { id: server.id } }));
  const settled = await settle(ctx, server.id, inputs, operation);
  if (settled.status !== wanted) throw jobFailed(`the ${wanted === "running" ? "start" : "stop"} of server ${server.id} (to ${wanted})`, settled, `it is ${settled.status}`);
  return settled;
}

/**
 * The password reset has no status of its own: it is done when the credentials answer the new one,
 * and failed when the server reports a new job error (the old password then stays valid).
 */
async function resetPassword(ctx: CallContext, vpsId: string, inputs: Props): Promise<void> {
  const api = ctx.api.platform;
  const rootPassword = inputs.rootPassword as string;
  // The answer is the server as the call found it: its last job before this one.
  const before = await retryWhileBusy(ctx, vpsId, () => api.call("vps.resetPassword", { params: { id: vpsId }, body: { rootPassword } }));
  const outcome = await waitFor(
    async () => {
      if ((await api.call("vps.credentials", { params: { id: vpsId } })).password === rootPassword) return { done: true };
      const server = await api.call("vps.get", { params: { id: vpsId } });
      const failed = server.lastJobStatus === "error" && (before.lastJobStatus !== "error" || before.lastJobError !== server.lastJobError);
      return { done: false, failed: failed ? server : undefined };
    },
    (o) => o.done || o.failed !== undefined,
    { what: `the new root password of server ${vpsId} to take effect`, timeoutMs: serverTimeoutMs(ctx), describe: () => "old password still active" },
  );
  if (outcome.failed) throw jobFailed(`the password reset of server ${vpsId}`, outcome.failed, "the old password stays valid");
}

async function upgrade(ctx: CallContext, vpsId: string, inputs: Props): Promise<void> {
  const api = ctx.api.platform;
  const planId = inputs.planId as string;
  try {
    await retryWhileBusy(ctx, vpsId, () => api.call("vps.upgrade", { params: { id: vpsId }, body: { planId } }));
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    // Paid: never resent. The server's plan tells whether it went through.
    const server = await waitSettled(ctx, vpsId);
    if (server.planId !== planId) throw err;
  }
}

/** Reinstall in place: the disk is wiped, the server and its address are kept. Never sent twice. */
async function reinstall(ctx: CallContext, vpsId: string, inputs: Props): Promise<void> {
  const api = ctx.api.platform;
  const body = { osType: inputs.osType as string, osVersion: inputs.osVersion as string, rootPassword: inputs.rootPassword as string };
  try {
    await retryWhileBusy(ctx, vpsId, () => api.call("vps.reinstall", { params: { id: vpsId }, body }));
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    // A second reinstall would wipe the disk again: the server's system tells whether it went through.
    const server = await waitSettled(ctx, vpsId);
    if (server.osType !== body.osType || server.osVersion !== body.osVersion) throw err;
  }
}

export const vps: ResourceImpl = {
  async check(olds, news, ctx) {
    // The CLI would print a refused rootPassword beside its reason: it is reported without its value.
    const result = checkInputs(news, fields, undefined, { sensitive: ["rootPassword"] });
    const inputs = result.inputs;
    if (news.projectId === undefined) {
      const configured = ctx.api.settings.projectId;
      if (configured) inputs.projectId = configured;
      else result.failures.push({ property: "projectId", reason: "projectId is required: set it, or the stack config svc:projectId (environment SVC_PROJECT_ID)" });
    }
    // Only a name that was not given is generated (a given name that failed is reported once, above).
    if (news.name === undefined) {
      // Auto-naming: keep the name already chosen, else the default name the sdk derived (the same on
      // every try, so a repeated first create finds the server an interrupted one made). A state of
      // 0.1.0 has no defaultName: its random suffix is kept with the name. (A name that was given
      // and is then left out is kept too: no replace.)
      if (olds.name) inputs.name = olds.name;
      else if (inputs.defaultName && !isUnknown(inputs.defaultName)) inputs.name = inputs.defaultName;
      else if (isUnknown(inputs.defaultName)) inputs.name = inputs.defaultName;
      else result.failures.push({ property: "name", reason: "name is required (at least 3 characters)" });
    }
    if (result.failures.length === 0) result.failures.push(...(await planRules(ctx, inputs, olds)));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    // A server that ended in `error` cannot be updated into shape: replace it.
    if (olds.status === "error") return { changes: true, replaces: ["status"] };
    return diffInputs(olds, news, { replace: ["name", "projectId"], update: UPDATED_INPUTS });
  },

  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const { server: created, adopted } = await createServer(ctx, inputs);
    if (!adopted) ctx.api.serverMadeHere(created.id);
    if (adopted && adoptIdOf(inputs) !== undefined) {
      // Taken over as it is (a server being provisioned is waited for): the next preview shows
      // where it differs from the program.
      const server = await settle(ctx, created.id, inputs, "create");
      return { id: server.id, outs: await adoptedOutputs(api, server, inputs) };
    }
    // Made by this create, or by an interrupted earlier one (adopted by its default name): the
    // create's own steps are finished. A server just made is not polled through its provisioning.
    let server = await settle(ctx, created.id, inputs, "create", adopted ? undefined : USUAL_MS.create);
    if (inputs.autoRenew === false && server.autoRenew) {
      server = await retryWhileBusy(ctx, server.id, () => api.call("vps.autoRenew", { params: { id: created.id }, body: { enabled: false } })).catch((err) => {
        throw new PartialFailure(created.id, outputs(inputs, server), inputs, fail("create", err, inputs));
      });
    }
    server = await applyPower(ctx, server, inputs, "create").catch((err) => {
      throw err instanceof PartialFailure ? err : new PartialFailure(created.id, outputs(inputs, server), inputs, fail("create", err, inputs));
    });
    // An earlier attempt's server answers its own values (the program may have changed since).
    if (adopted) return { id: server.id, outs: await adoptedOutputs(api, server, inputs) };
    return { id: server.id, outs: outputs(inputs, server, await usernameOf(api, server.id)) };
  },

  async update(id, olds, news, ctx) {
    const api = ctx.api.platform;
    try {
      // Compared with the live server, not the old state: an update that failed half-way (upgraded,
      // then the reinstall failed) is finished by the next one without paying or wiping twice.
      let server = await waitSettled(ctx, id);
      if (server.planId !== news.planId) {
        await upgrade(ctx, id, news);
        server = await settle(ctx, id, news, "update");
        if (server.planId !== news.planId) throw jobFailed(`the upgrade of server ${id} to plan ${news.planId}`, server, "the charge is refunded and the old plan kept");
      }
      if (server.osType !== news.osType || server.osVersion !== news.osVersion) {
        await reinstall(ctx, id, news);
        server = await settle(ctx, id, news, "update");
        if (server.osType !== news.osType || server.osVersion !== news.osVersion) {
          throw jobFailed(`the reinstall of server ${id} with ${news.osType} ${news.osVersion}`, server, "the old system and password stay");
        }
      } else if (olds.rootPassword !== news.rootPassword) {
        await resetPassword(ctx, id, news);
      }
      if (server.autoRenew !== news.autoRenew) {
        server = await retryWhileBusy(ctx, id, () => api.call("vps.autoRenew", { params: { id }, body: { enabled: news.autoRenew as boolean } }));
      }
      // billingPeriod needs no call: it applies at the next renewal.
      server = await applyPower(ctx, await waitSettled(ctx, id), news, "update");
      return { outs: outputs(news, server, await usernameOf(api, id)) };
    } catch (err) {
      if (err instanceof PartialFailure) throw err;
      const hint = isApiError(err, "INSTANCE_NOT_RUNNING")
        ? "Set powerState: running first"
        : isApiError(err, "INSUFFICIENT_BALANCE")
          ? "Top up the wallet, then run `pulumi up` again"
          : undefined;
      throw fail("update", err, news, hint);
    }
  },

  async read(id, props, ctx) {
    let server: Vps | undefined;
    try {
      server = await ctx.api.servers.read(id);
    } catch (err) {
      throw fail("read", err, props);
    }
    if (!server || server.status === "terminated" || server.status === "terminating") return { id: "", props: {} };
    // Live values come back as inputs, so drift shows in the next preview.
    const username = props.username ?? (await usernameOf(ctx.api.platform, id));
    const { inputs, outputs } = serverProperties(server, { ...props, username });
    return { id, props: outputs, inputs };
  },

  async delete(id, props, ctx) {
    const api = ctx.api.platform;
    try {
      await retryWhileBusy(ctx, id, () => api.call("vps.terminate", { params: { id } }));
      await waitTerminated(ctx, id);
    } catch (err) {
      if (!isNotFound(err)) throw fail("delete", err, props);
    }
  },
};
