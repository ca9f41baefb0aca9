/**
 * Vps: a virtual server. Changed in place where the API allows (upgrade to a larger plan, reinstall,
 * password reset, auto-renew and its renewal period, power), replaced where it has no call (name, project). Create is paid
 * and non-idempotent: it goes through createOnce (../create-once.ts): `POST /vps` is sent once, and
 * only when the project has no live server of that name. A server with the resource's default name
 * (derived from organization, project, stack and resource name by the sdk) can only be this
 * resource's — an interrupted create made it — and is adopted; a server with an explicit name that
 * already exists stops the create with its id and the `adoptId` line (before issue 15 a second
 * server of the same name was created). `adoptId` takes over any server of the project.
 */
import { z } from "zod";
import { OutcomeUnknownError, redact } from "../client/errors";
import { adoptIdOf, createOnce } from "../create-once";
import type { ApiClient } from "../client/http";
import { billingPeriods, serverNameProblem, vpsStatus, type Vps, type VpsPlan } from "../../contract/schemas";
import { waitFor } from "../client/poller";
import { diffInputs, isNotFound, isUnknown, operationError, operationFailed, PartialFailure, pick, UUID, type CheckFailure, type DiffResult, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema, schemaHint, type InputsOf, type StoredOf } from "../schema";
import type { CallContext } from "../context";
import { vpsPlans } from "./catalogue";
import { busyServerWait, VPS_BUSY_ADVICE } from "./server-access";
import { retryWhileBusy, serverDeadline, USUAL_MS, waitSettled, waitTerminated } from "./server-waits";
import { money } from "../foresight";

// The failure says which part of the rule the name breaks; the rule in words is both (the docs read it without an input).
const serverName = z
  .string()
  .trim()
  .refine((value) => !serverNameProblem(value), {
    error: (issue) => (issue.input === undefined ? "at least 3 characters, no control characters (line breaks, tabs, NUL); spaces and any other character allowed" : serverNameProblem(String(issue.input))),
  });

export const vpsSchema = defineSchema({
  type: "Vps",
  sdk: { defaultName: true, linksServer: true, types: [{ dataType: "BillingPeriod" }] },
  preview: `**Price.** A create states its price (the plan's price for \`billingPeriod\`, from \`GET /vps/plans\`) as a line of the preview (\`Vps: server "web-1a2b3c4" (plan s-1vcpu-1gb, monthly) costs IDR 75,000 now, …\`); an upgrade states the prorated difference for the days left ((new − old monthly price) × days ÷ 30, an estimate of what the API charges at the time of the call). Each is added to the run's paid steps of the same profile (servers, backups, domains, email plan), and the preview refuses, on \`planId\`, the step that brings them over the wallet (\`GET /account/wallet\`, read once per run), naming the total, the wallet and the amount to top up: nothing is made or charged. An adoption, or a server of this name already in the project (an interrupted \`up\` made it and paid then), costs nothing. A delete refunds nothing, so a removal frees no money.

**What an update wipes.** A change of \`osType\`/\`osVersion\` prints \`Warning: Vps "…" will be REINSTALLED with … its disk is wiped\`; a new \`rootPassword\` alone, that the old password stops working; \`powerState: "stopped"\`, that the server is powered off. (A dynamic provider cannot attach a diagnostic to its resource: these are lines of the provider, which the CLI shows under Diagnostics.)

**The account's server limit** is not checked at preview: the API does not tell it (platform-api.md: "not shown"); a create past it fails with \`REQUEST_ERROR\`, nothing charged.`,
  service: "platform",
  summary:
    "A virtual server. `up` waits until it runs. It changes in place where the API allows (a larger plan, a reinstall, a password reset, auto-renew and the renewal period, power) and is replaced where the API has no call (name, project). Its create is paid and never sent twice: an interrupted create is settled by listing the project's servers.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === "s-1vcpu-1gb")!.id);

const web = new svc.Vps("web", {
  planId,
  osType: "ubuntu",
  osVersion: "24.04",
  rootPassword: config.requireSecret("rootPassword"),
});

export const publicIp = web.publicIp;
export const status = web.status; // "running"
`,
  inputs: {
    projectId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a project id (UUID)").optional(),
      description: "The project the server belongs to.",
      change: "replace",
      default: "the stack config `svc:projectId` (environment `SVC_PROJECT_ID`); one of the two is required",
    },
    planId: {
      schema: z.string().min(1, "must not be empty"),
      description: "A plan id from `getVpsPlans` (`GET /vps/plans`): the server's size, region and price. Checked at preview against the plan catalogue.",
      change: "depends",
      changeText:
        "a larger plan of the same family and region **updates in place** (an upgrade, charged prorated); a smaller plan, or one of another family or region, is **refused at preview** (give the server a new name to replace it instead); with a new `name` or `projectId` any plan goes, the server being replaced",
    },
    name: {
      schema: serverName.optional(),
      description: "The server's name in the project.",
      change: "replace",
      default:
        "the resource name and a 7-hex suffix derived from organization, project, stack and resource name, the same on every try (so a repeated first create finds the server an interrupted one made); a state of 0.1.0 keeps its random suffix",
    },
    osType: {
      schema: z.string().min(1, "must not be empty"),
      description: "The operating system: with `osVersion`, one of the plan's `osTemplates` (checked at preview).",
      change: "update",
      changeText: "**reinstalls in place: the disk is wiped**, the server and its address are kept",
    },
    osVersion: {
      schema: z.string().min(1, "must not be empty"),
      description: "The operating system's version: with `osType`, one of the plan's `osTemplates`.",
      change: "update",
      changeText: "**reinstalls in place: the disk is wiped**, the server and its address are kept",
    },
    rootPassword: {
      schema: z.string().regex(/^[A-Za-z0-9!@#$%^*]{12,30}$/, "12 to 30 characters: letters, digits and ! @ # $ % ^ *"),
      description: "The root password the server is installed with.",
      change: "update",
      changeText: "updates in place: the password is reset (done when the server answers the new one)",
      secret: true,
    },
    billingPeriod: {
      schema: z.enum(billingPeriods).default("monthly"),
      description:
        "The period of the purchase, and of the automatic renewals: each renewal charges the plan's price for this period (`getVpsRenewalOptions`) and extends the server by it.",
      change: "update",
      changeText:
        "updates in place with `PATCH /vps/{id}/auto-renew`: the next automatic renewal charges the new period; nothing is charged now. A refresh reads the server's period, so one changed in the dashboard shows as drift",
    },
    autoRenew: {
      schema: z.boolean().default(true),
      description: "Renew from the wallet before the server expires.",
      change: "update",
    },
    powerState: {
      schema: z.enum(["running", "stopped"]).default("running"),
      description: "Whether the server runs.",
      change: "update",
      changeText: "updates in place: starts or stops the server",
    },
    defaultName: {
      schema: z.string().min(3).optional(),
      description: "The name a new server gets when `name` is not given, set by the sdk class (sdk/naming.ts).",
      change: "state",
      internal: true,
    },
    adoptId: { ...adoptIdInput("the id of an existing server (not terminated) of the project"), schema: z.string().regex(UUID, "a server id (UUID)").optional() },
  },
  outputs: {
    status: {
      schema: vpsStatus,
      description: "The server's state at the API: `running` or `stopped` once `up` is done; `error` when a job failed it (the next preview then shows a replace).",
    },
    publicIp: { schema: z.string().nullable(), description: "The server's public IPv4 address (on a plan that shares one, the shared address); null until it has one." },
    expiresAt: { schema: z.string(), description: "When the current billing period ends (ISO 8601): the server is renewed then when `autoRenew`, else it expires." },
    lastJobStatus: { schema: z.string().nullable(), description: "The status of the server's last background job (create, upgrade, reinstall, power…) as the API reports it: `error` when one failed (then `lastJobError` says why); null when none ran." },
    lastJobError: {
      schema: z.string().nullable(),
      description: "Why the last job failed, as the API says it (cleaned of root passwords), or null.",
    },
    username: {
      schema: z.string().optional(),
      tsType: "string | undefined",
      description: "The login user, from the server's credentials (absent when they could not be read).",
    },
  },
  waits: [
    { what: "create, upgrade, reinstall, power, terminate: the server to settle (a create is read 0.5 s after the call, then when it usually has ended, about 8 s)", limit: "20 min" },
    { what: "a password reset: the credentials to answer the new password", limit: "20 min" },
    busyServerWait("any action"),
  ],
  adoption:
    "`adoptId` is the server's id; the server must be of the project (`projectId`) and not terminated. The create reads it (nothing is made or charged), waits while it is being provisioned, and takes it as it is: its root password from its credentials, so a different program password shows as an update that resets it. The next preview shows where it differs from the program.",
  interrupted:
    "The create is paid and sent once (`POST /vps`), and only when the project has no live server of that name. Without `name`, a server with the resource's default name (derived from organization, project, stack and resource name: no other stack has it) is this resource's: the next `up` adopts it and finishes its steps (auto-renew, power). With an explicit `name`, a server of that name may be anyone's: the create stops with its id and the `adoptId` line to add. A create whose answer is lost in the same run is settled the same way, by listing the project's servers and adopting the one with this name made since the attempt, never by sending it again; only if none exists is the create reported failed (nothing charged).",
  errors: {
    INSUFFICIENT_BALANCE: "The wallet cannot cover the create, upgrade or renewal (the message gives both amounts): top up the wallet, then run `pulumi up` again. Nothing was charged.",
    REQUEST_ERROR: "Another rule refused it (the message says which): the account's server limit, an image the plan lacks, an upgrade that is not one, a status that does not accept the action. Nothing was charged.",
    INSTANCE_NOT_RUNNING: "The change is applied on a running server: set `powerState: \"running\"` first.",
    VPS_BUSY: VPS_BUSY_ADVICE,
    PROJECT_NOT_FOUND: "`projectId` is not a project of this key's account: correct it, or the stack config `svc:projectId`.",
    INSTANCE_NOT_FOUND: "On `adoptId`: no server with this id in reach of this key. On update or read: the server is gone; `pulumi refresh` drops it and the next `up` makes it again.",
  },
  notes: `A server that ends in \`error\` (its create or another job failed) stays in the state with its \`lastJobError\`, and the next preview shows a replace.

Every action refused with \`VPS_BUSY\` waits for the server to settle and is tried again. Paid and destructive calls are never resent: if an upgrade's answer is lost, the server's plan tells whether it went through; if a reinstall's is, its system. An update compares the program with the live server, not the old state, so an update that failed half-way (upgraded, then the reinstall failed) is finished by the next one without paying or wiping twice. A changed \`osType\`/\`osVersion\` reinstalls with the program's \`rootPassword\`; a changed password alone resets it.

Refresh brings the live plan, system, power state, auto-renew and renewal period (\`billingPeriod\`) back as inputs, so drift shows in the next preview. Delete terminates the server and waits until it is \`terminated\`; one already gone counts as deleted.

The SSH keys, port forwards and snapshots of a server declared in the same program (\`vpsId: server.id\`) learn its plan and power state at preview, so their rules are checked before the server exists (see [VpsSshKey](VpsSshKey.md)).

**The preview of an update** (an upgrade, a reinstall, a power change) shows the server's new inputs and its \`id\`; every other output — \`publicIp\`, \`status\`, \`expiresAt\`, \`username\` — is unknown there (the real CLI does not call a dynamic provider in a preview of an update). Resources wired by \`vpsId: server.id\` stay unchanged in it; a stack output of \`server.publicIp\` shows as \`output<string>\`, and a resource that takes \`server.publicIp\` as an input previews as an update of its own, which the \`up\` then finds needs nothing. A server whose job was still running when a wait ran out (\`status\` \`provisioning\`, \`upgrading\`…) diffs as an update also after a \`pulumi refresh\`, and the next \`up\` waits for it.

Static \`Vps.get(name, id)\` reads a live server (outputs only, nothing managed).`,
});
const INPUTS = Object.keys(vpsSchema.inputs);
type VpsInputs = InputsOf<typeof vpsSchema>;

/** Fails with the message cleaned of the root password (an API message could echo a value). */
function fail(operation: string, err: unknown, inputs: { rootPassword?: string }, hint?: string): Error {
  const error = operationError(operation, err, hint);
  error.message = redact(error.message, [inputs.rootPassword]);
  // The CLI prints a partial failure's reasons, not its message: cleaned the same.
  if (error instanceof PartialFailure) error.reasons.splice(0, error.reasons.length, ...error.reasons.map((r) => redact(r, [inputs.rootPassword])));
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
    plans = await vpsPlans(ctx.api);
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

const DAY_MS = 86_400_000;

/**
 * The platform's upgrade charge: the difference of the monthly prices for the days left, (new − old) ×
 * days ÷ 30, whole Rupiah (platform-api.md "Prorated difference for the days left"; the emulator's
 * rule). The preview's estimate: the `up` pays what the API computes at the time of the call.
 */
export function proratedUpgrade(from: VpsPlan, to: VpsPlan, expiresAt: string, nowMs = Date.now()): { amount: number; days: number } {
  const days = Math.max(0, Math.ceil((Date.parse(expiresAt) - nowMs) / DAY_MS));
  return { amount: Math.max(0, Math.round(((to.prices.monthly - from.prices.monthly) * days) / 30)), days };
}

/**
 * Preview's price (foresight.ts): what the `up` will charge for this server — its full price on a
 * create, the prorated difference on an upgrade — added to the run's paid steps against the wallet.
 * Nothing for an adoption, nor for a server of this name the project already holds (the create
 * adopts it or stops, never pays: an interrupted `up` made it, and paid then).
 */
async function chargeRule(ctx: CallContext, inputs: Props, olds: Props): Promise<CheckFailure[]> {
  const { projectId } = inputs;
  if (inputs.adoptId !== undefined || isUnknown(inputs.planId) || isUnknown(projectId) || typeof projectId !== "string") return [];
  const plans = await vpsPlans(ctx.api);
  const plan = plans.find((p) => p.id === inputs.planId);
  if (!plan) return [];
  const replaced = (name: string) => olds[name] !== undefined && olds[name] !== inputs[name];
  const created = Object.keys(olds).length === 0 || replaced("name") || replaced("projectId");
  const name = isUnknown(inputs.name) || typeof inputs.name !== "string" ? undefined : inputs.name;
  const label = name ? `server "${name}"` : "a new server";
  let live: Vps | undefined;
  const liveNamed = async (n: string) => sameName(await ctx.api.serverList.lookup(), n, projectId)[0];
  try {
    if (created) {
      if (name && (await liveNamed(name))) return [];
    } else if (olds.planId !== inputs.planId && typeof olds.name === "string") {
      live = await liveNamed(olds.name);
      if (!live || live.planId === inputs.planId) return [];
    } else return [];
  } catch (err) {
    return [{ property: "planId", reason: `could not read the project's servers to price the change: ${operationError("check", err).message}` }];
  }
  const source = { platform: () => ctx.api.platform };
  if (created) {
    const period = billingPeriods.find((p) => p === inputs.billingPeriod);
    const price = period === undefined ? undefined : plan.prices[period];
    if (price === undefined) return [];
    const failure = await ctx.api.foresight.charge("planId", { resource: "Vps", what: `${label} (plan ${plan.name}, ${period})`, amount: price }, source);
    return failure ? [failure] : [];
  }
  const from = plans.find((p) => p.id === live!.planId);
  if (!from) return [];
  const { amount, days } = proratedUpgrade(from, plan, live!.expiresAt);
  if (amount === 0) return [];
  const failure = await ctx.api.foresight.charge(
    "planId",
    { resource: "Vps", what: `the upgrade of ${label} from ${from.name} to ${plan.name} (prorated for the ${days} days left; ${money(plan.prices.monthly)} − ${money(from.prices.monthly)} a month)`, amount },
    source,
  );
  return failure ? [failure] : [];
}

/**
 * What an in-place update destroys or interrupts, in plain words (a line the CLI shows at preview): a
 * reinstall wipes the disk, a password reset locks out the old password, a stop powers the server off.
 */
export function destructiveChanges(olds: Props, news: Props): string[] {
  const server = `Vps "${String(news.name ?? olds.name)}"`;
  const changed = (name: string) => !isUnknown(news[name]) && olds[name] !== undefined && news[name] !== undefined && olds[name] !== news[name];
  const out: string[] = [];
  if (changed("osType") || changed("osVersion")) {
    out.push(
      `Warning: ${server} will be REINSTALLED with ${String(news.osType)} ${String(news.osVersion)} (was ${String(olds.osType)} ${String(olds.osVersion)}): its disk is wiped, everything on it is lost (the server and its address are kept). Take a VpsSnapshot first if you need its data.`,
    );
  } else if (changed("rootPassword")) {
    out.push(`Warning: ${server} will have its root password reset: the old password stops working.`);
  }
  if (olds.powerState !== "stopped" && news.powerState === "stopped") out.push(`Warning: ${server} will be powered off (stopped): it stops serving until powerState is "running" again.`);
  return out;
}

/**
 * The one mapper from an API server to the resource's properties (terraform-provider-hcloud's
 * getServerAttributes): create's outputs, adoption, read and the drift a refresh shows all come from
 * it, so they always agree. What the API's server record does not say comes from `kept`: the root
 * password and login (the credentials' or the state's), pulumi-svc's own inputs (adoptId,
 * defaultName) and, while the server is in a transition, the power state wanted. The billing period
 * is the server's renewal period (`PATCH /vps/{id}/auto-renew` changes it), so a change made
 * elsewhere is drift.
 * No value may be `undefined`: the provider host cannot encode it (a create would then fail after the
 * server was made and paid for). `lastJobError` is API text: cleaned of the root passwords known.
 */
export function serverProperties(server: Vps, kept: Kept, otherSecrets: string[] = []): { inputs: Props; outputs: Props } {
  const inputs: Props = {
    ...pick(kept, ["adoptId", "defaultName", "rootPassword"]),
    projectId: server.projectId,
    planId: server.planId,
    name: server.name,
    osType: server.osType,
    osVersion: server.osVersion,
    billingPeriod: server.billingPeriod,
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
    lastJobError: server.lastJobError === null ? null : redact(server.lastJobError, [kept.rootPassword, ...otherSecrets]),
    ...(kept.username !== undefined ? { username: kept.username } : {}),
  };
  return { inputs, outputs };
}

/** What serverProperties takes from the program or the state: the inputs the API does not hold, the login. */
type Kept = StoredOf<typeof vpsSchema>;

/** The outputs of a server this resource made or changed from the program's `inputs`. */
const outputs = (inputs: VpsInputs, server: Vps, username?: string): Props => serverProperties(server, { ...inputs, username }).outputs;

async function usernameOf(api: ApiClient, vpsId: string): Promise<string | undefined> {
  return (await api.call("vps.credentials", { params: { id: vpsId } }).catch(() => undefined))?.user;
}

/** Live servers of the project with this name: what a create of this name may already have made. */
function sameName(listed: Vps[], name: string, projectId: string): Vps[] {
  return listed.filter((s) => s.name === name && s.projectId === projectId && !["terminated", "terminating", "error"].includes(s.status));
}

/** The server `adoptId` names, if this key can manage it as this resource. */
async function adoptServer(ctx: CallContext, adoptId: string, inputs: VpsInputs): Promise<Vps> {
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
async function createServer(ctx: CallContext, inputs: VpsInputs): Promise<{ server: Vps; adopted: boolean }> {
  const api = ctx.api.platform;
  const { name, projectId } = inputs;
  // The check sets both (from the stack config, the default name).
  if (name === undefined || projectId === undefined) throw operationFailed("create", `the checked inputs lack ${name === undefined ? "name" : "projectId"}`);
  const body = {
    planId: inputs.planId,
    projectId,
    name,
    osType: inputs.osType,
    osVersion: inputs.osVersion,
    rootPassword: inputs.rootPassword,
    billingPeriod: inputs.billingPeriod,
  };
  try {
    const { object, adopted } = await createOnce<Vps>(ctx, inputs, {
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
    throw fail("create", err, inputs, schemaHint(vpsSchema, err, ["INSUFFICIENT_BALANCE"]));
  }
}

/**
 * An adopted server's outputs, from the API: its values for the program's inputs (the password from
 * its credentials, so a different program password shows as an update that resets it). The next
 * preview compares the program with these and shows the update or replace where they differ.
 */
async function adoptedOutputs(api: ApiClient, server: Vps, inputs: VpsInputs): Promise<Props> {
  const credentials = await api.call("vps.credentials", { params: { id: server.id } }).catch(() => undefined);
  const kept = { ...pick(inputs, ["adoptId", "defaultName"]), rootPassword: credentials?.password ?? inputs.rootPassword, username: credentials?.user };
  // A job error is cleaned of the program's password too, not only of the live one.
  return serverProperties(server, kept, [inputs.rootPassword]).outputs;
}

/** Waits for the server to settle; a server in `error` is a partial failure (id kept). */
async function settle(ctx: CallContext, vpsId: string, inputs: VpsInputs, operation: string, expectedMs?: number): Promise<Vps> {
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
        inputs.rootPassword,
      ]),
    );
  }
  return server;
}

/**
 * The one `PATCH /vps/{id}/auto-renew` body that brings auto-renew and the renewal period to the
 * program's (only what differs), or undefined when both already are. Charges nothing.
 */
export function renewalChange(server: Vps, inputs: Pick<VpsInputs, "autoRenew" | "billingPeriod">): { enabled?: boolean; billingPeriod?: string } | undefined {
  const body = {
    ...(server.autoRenew !== inputs.autoRenew ? { enabled: inputs.autoRenew } : {}),
    ...(server.billingPeriod !== inputs.billingPeriod ? { billingPeriod: inputs.billingPeriod } : {}),
  };
  return Object.keys(body).length ? body : undefined;
}

/** A job that settled without doing its work (the API undid it): the reason is the server's last job error. */
function jobFailed(what: string, server: Vps, undone: string): Error {
  return new Error(`${what} did not happen: ${server.lastJobError ?? "the job failed, no reason given"}; ${undone}`);
}

/**
 * Brings the power state to what the program asks. Raw errors (the caller names the operation); a
 * stop or start whose job failed settles back where it was, which is an error too.
 */
async function applyPower(ctx: CallContext, server: Vps, inputs: VpsInputs, operation: string): Promise<Vps> {
  const api = ctx.api.platform;
  const wanted = inputs.powerState;
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
async function resetPassword(ctx: CallContext, vpsId: string, inputs: VpsInputs): Promise<void> {
  const api = ctx.api.platform;
  const rootPassword = inputs.rootPassword;
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
    { what: `the new root password of server ${vpsId} to take effect`, deadline: serverDeadline(ctx), describe: () => "old password still active", log: ctx.api.log },
  );
  if (outcome.failed) throw jobFailed(`the password reset of server ${vpsId}`, outcome.failed, "the old password stays valid");
}

async function upgrade(ctx: CallContext, vpsId: string, inputs: VpsInputs): Promise<void> {
  const api = ctx.api.platform;
  const planId = inputs.planId;
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
async function reinstall(ctx: CallContext, vpsId: string, inputs: VpsInputs): Promise<void> {
  const api = ctx.api.platform;
  const body = { osType: inputs.osType, osVersion: inputs.osVersion, rootPassword: inputs.rootPassword };
  try {
    await retryWhileBusy(ctx, vpsId, () => api.call("vps.reinstall", { params: { id: vpsId }, body }));
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    // A second reinstall would wipe the disk again: the server's system tells whether it went through.
    const server = await waitSettled(ctx, vpsId);
    if (server.osType !== body.osType || server.osVersion !== body.osVersion) throw err;
  }
}

export const vps = defineResource(vpsSchema, {
  async check(olds, news, ctx) {
    // The CLI would print a refused rootPassword beside its reason: it is reported without its value (a secret input).
    const result = checkSchema(vpsSchema, news);
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
    if (result.failures.length === 0) result.failures.push(...(await chargeRule(ctx, inputs, olds)));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    // A server that ended in `error` cannot be updated into shape: replace it.
    if (olds.status === "error") return { changes: true, replaces: ["status"] };
    // A server left mid-job by a wait that ran out is waited for by the update: after a refresh
    // the engine no longer remembers that failure (it clears the init errors), its status does.
    const unfinished = typeof olds.status === "string" && !["running", "stopped"].includes(olds.status);
    // planId (`depends`) diffs as an update: check refuses a plan change that is not an upgrade.
    const { replace, update } = changesOf(vpsSchema);
    const diff = diffInputs(olds, news, { replace, update: [...update, "planId"] });
    // Said at preview (the CLI shows the provider's stderr lines): an in-place update that wipes,
    // locks out or powers off. A replace makes a new server instead: nothing of these happens to it.
    if (diff.changes && diff.replaces.length === 0) for (const line of destructiveChanges(olds, news)) process.stderr.write(`${line}\n`);
    return unfinished && !diff.changes ? { ...diff, changes: true } : diff;
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
    const renewal = renewalChange(server, inputs);
    if (renewal) {
      server = await retryWhileBusy(ctx, server.id, () => api.call("vps.autoRenew", { params: { id: created.id }, body: renewal })).catch((err) => {
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
  // A failure after the server is made keeps it in the state (PartialFailure); `fail` words the rest.
  ownCreateErrors: true,

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
      const renewal = renewalChange(server, news);
      if (renewal) server = await retryWhileBusy(ctx, id, () => api.call("vps.autoRenew", { params: { id }, body: renewal }));
      server = await applyPower(ctx, await waitSettled(ctx, id), news, "update");
      return { outs: outputs(news, server, await usernameOf(api, id)) };
    } catch (err) {
      if (err instanceof PartialFailure) throw err;
      throw fail("update", err, news, schemaHint(vpsSchema, err, ["INSTANCE_NOT_RUNNING", "INSUFFICIENT_BALANCE"]));
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
});
