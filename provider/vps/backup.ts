/**
 * VpsBackup: the backup add-on of a server (one per server: the id is the server's id). Activation
 * and a move to a larger plan are paid: an unknown outcome is settled by reading the add-on, never
 * by a second call. Activation goes through createOnce (../create-once.ts): a server holds one
 * add-on, and the server is this stack's, so an add-on already on it (an interrupted create bought
 * it) is adopted — taken as it is, its plan included, which the next `up` changes if the program asks
 * for another.
 */
import { z } from "zod";
import { isApiError, OutcomeUnknownError, type ErrorCode } from "../client/errors";
import { createOnce } from "../create-once";
import type { ApiClient } from "../client/http";
import type { BackupAddon } from "../../contract/schemas";
import { retryWhileRefused } from "../client/backoff";
import { waitFor } from "../client/poller";
import { isNotFound, isUnknown, operationError, operationFailed, PartialFailure, pick, UUID, type CheckFailure, type Props } from "../resource";
import { adoptIdInput, checkSchema, defineResource, defineSchema, schemaHint } from "../schema";
import { Kept, type CallContext } from "../context";
import { backupPlanCodes, backupPlans } from "./catalogue";
import { busyUntil, retryWhileBusy, serverDeadline, USUAL_MS } from "./server-waits";

export const vpsBackupSchema = defineSchema({
  type: "VpsBackup",
  preview: `**Price.** An activation states the backup plan's price (\`GET /backup/plans\`), a move to a larger plan the prorated difference for the add-on's time left; each joins the run's paid steps against the wallet (see [Vps](Vps.md#what-the-preview-foresees)) and the step that brings them over it is refused on \`planCode\`. A smaller plan costs nothing; a server that already holds an add-on (adopted by the create) costs nothing.`,
  service: "platform",
  summary:
    "The backup add-on of a server (one per server; the resource's id is the server's id). Activation is paid and never sent twice; a new plan applies in place. Destroy cancels it.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const server = new svc.Vps("db", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

// The plan codes: svc.getBackupPlans(). A larger plan later changes in place.
const backup = new svc.VpsBackup("db-backup", { vpsId: server.id, planCode: "backup-10" });

export const backupQuotaGb = backup.quotaGb;
`,
  inputs: {
    vpsId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
      description: "The server the add-on backs up: a `Vps`'s `id`. One add-on per server.",
      change: "replace",
    },
    planCode: {
      schema: z.string().min(1, "must not be empty"),
      description:
        "A backup plan code from `getBackupPlans` (`GET /backup/plans`). Checked at preview when it changes: unknown and retired codes are refused (an add-on already on a plan retired since keeps it).",
      change: "update",
      changeText: "updates in place (`PATCH`); a larger plan is charged prorated, a smaller one must hold the server's current backups (`OVER_NEW_QUOTA`)",
    },
    adoptId: { ...adoptIdInput("the id of the server whose existing backup add-on to manage"), schema: z.string().regex(UUID, "a server id (UUID)").optional() },
  },
  outputs: {
    status: { schema: z.string(), description: "The add-on's status at the API: `active` once `up` is done." },
    quotaGb: { schema: z.number(), description: "The backup space the plan gives, in GB." },
    usedGb: { schema: z.number(), description: "The backup space in use, in GB." },
    expiresAt: { schema: z.string(), description: "When the add-on's current period ends (ISO 8601)." },
  },
  rules: [
    {
      text: "`adoptId`, when given, equals `vpsId` (the id of a VpsBackup is its server's id)",
      check: (inputs) => {
        if (inputs.adoptId === undefined || isUnknown(inputs.adoptId) || isUnknown(inputs.vpsId) || inputs.adoptId === inputs.vpsId) return [];
        return [{ property: "adoptId", reason: "the id of a VpsBackup is its server's id: adoptId must equal vpsId" }];
      },
    },
  ],
  waits: [
    { what: "create and plan change: the add-on to be active (a setup is read 0.5 s after the call, then when it usually has ended, about 10 s)", limit: "20 min" },
    { what: "`NODE_NOT_READY`, `AGENT_OFFLINE` and `VPS_BUSY` refusals: waited out, then the call again", limit: "20 min" },
  ],
  adoption:
    "`adoptId` is the server's id (the id of a VpsBackup is its server's id: it must equal `vpsId`). The create reads the add-on (nothing is bought) and takes it on its own plan: the next preview shows the plan change, if the program asks for another. A server without an add-on fails the create.",
  interrupted:
    "A server holds one add-on, and the server is this stack's: an add-on already on it (an interrupted create bought it) is this resource's, and the next `up` adopts it as it is, its plan included (the `up` after changes the plan if the program asks for another). An activation whose answer is lost is settled by reading the add-on, never by a second call.",
  errors: {
    INSUFFICIENT_BALANCE: "The wallet cannot cover the activation or the larger plan: top up the wallet, then run `pulumi up` again.",
    ALREADY_SUBSCRIBED: "The server already has an add-on (bought outside this resource): to manage it here, add `adoptId` with the server's id.",
    OVER_NEW_QUOTA: "The smaller plan cannot hold the server's current backups: keep the larger plan, or delete backups first.",
    VPS_NOT_RUNNING: "Backups need a running server: set the Vps's `powerState` to `running`.",
    NOT_ELIGIBLE: "Backups need a provisioned Linux server (not terminated).",
    PLAN_NOT_FOUND: "The plan code is unknown or retired (the check refuses these when it can read the catalogue): choose one of `getBackupPlans`.",
    NODE_NOT_READY: "Waited out (the backup node will be ready soon), up to the timeout.",
    AGENT_OFFLINE: "Waited out up to the timeout; if it lasts, the server's management agent does not answer: restart the server (`powerState` stopped, then running).",
    BACKUP_NOT_CONFIGURED: "Backups are temporarily unavailable at the platform: run `pulumi up` again later.",
  },
  notes:
    "If the add-on's setup fails, the platform removes it and refunds the charge: the create fails with the server's last job error, and `pulumi up` may try again. Delete cancels the add-on; `NOT_SUBSCRIBED` (already cancelled) counts as deleted. A refresh reads the add-on once per resource (it has no list).",
});
const INPUTS = Object.keys(vpsBackupSchema.inputs);

/** Refusals that say "not yet": the node or its agent will be ready soon. */
const NOT_YET = new Set<ErrorCode>(["NODE_NOT_READY", "AGENT_OFFLINE"]);

/**
 * The one mapper from the API's add-on to the resource's properties: create's outputs, adoption,
 * read and drift. `kept`: what the add-on does not say (its server, adoptId).
 */
export function backupProperties(addon: BackupAddon, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...pick(kept, ["vpsId", "adoptId"]), planCode: addon.planCode };
  return { inputs, outputs: { ...inputs, status: addon.status, quotaGb: addon.quotaGb, usedGb: addon.usedGb, expiresAt: addon.expiresAt } };
}

async function readAddon(api: ApiClient, vpsId: string): Promise<BackupAddon | undefined> {
  try {
    return await api.call("vps.backup.get", { params: { id: vpsId } });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Runs a paid backup call, waiting out NODE_NOT_READY / AGENT_OFFLINE and VPS_BUSY refusals. */
async function paidCall<T>(ctx: CallContext, vpsId: string, call: () => Promise<T>): Promise<T> {
  const deadline = serverDeadline(ctx);
  // They wait for the work of this process that already keeps the server busy (a snapshot being
  // made); an activation marks itself busy only once sent (`activate`), so it never waits for itself.
  return retryWhileRefused(() => retryWhileBusy(ctx, vpsId, call, deadline), {
    refused: (err) => isApiError(err, ...NOT_YET),
    deadline,
  });
}

/**
 * Waits until the add-on is active on `planCode` (undefined: it is gone, its setup failed). `seen`
 * is the add-on as a call just answered it: when it is still being set up, the first read waits.
 */
async function waitActive(ctx: CallContext, vpsId: string, planCode: string, seen?: BackupAddon): Promise<BackupAddon | undefined> {
  const api = ctx.api.platform;
  const isDone = (a: BackupAddon | undefined) => a === undefined || (a.planCode === planCode && a.status === "active");
  if (seen && isDone(seen)) return seen;
  const settingUp = seen?.status === "setting_up";
  const earlyRead = earlySetupRead(ctx);
  const early = settingUp && earlyRead.outcome !== "misses";
  let reads = 0;
  const read = async () => {
    const addon = await readAddon(api, vpsId);
    if (early && ++reads === 1) earlyRead.outcome = isDone(addon) ? "pays" : "misses";
    return addon;
  };
  return waitFor(read, isDone, {
    what: `the backup add-on of server ${vpsId} to be active on ${planCode}`,
    deadline: serverDeadline(ctx),
    log: ctx.api.log,
    describe: (a) => (a ? `${a.planCode} ${a.status}` : "none"),
    // A setup is not polled through: one read at 0.5 s (a fast setup; skipped once such a read has
    // missed in this process), the next when it usually has ended, then every 0.75 s growing to 2 s
    // at most, so a late end is seen soon after it comes.
    expectedMs: settingUp ? USUAL_MS.backupSetup : undefined,
    maxDelayMs: 2_000,
    // The same reads as from a first read at once (0.5 s, then ×1.5), without that first read.
    ...(seen ? { firstReadInMs: settingUp && !early ? USUAL_MS.backupSetup : 500, firstDelayMs: 750 } : {}),
  });
}

/**
 * Whether the read 0.5 s after an activation finds the setup done, as this process has seen it on
 * the profile's platform. Once it has missed (setups there take their usual time), later waits skip
 * it: a fleet's backups then cost one status read each, not two (issue 16). While it pays (a fast
 * platform, the tests' emulator), it is kept.
 */
const EARLY_SETUP_READ = new Kept((): { outcome?: "pays" | "misses" } => ({}));
const earlySetupRead = (ctx: CallContext) => EARLY_SETUP_READ.of(ctx.api);

/**
 * A plan code being chosen must be one the catalogue offers (the API answers PLAN_NOT_FOUND for an
 * unknown or retired one). A code already in the state is not checked again: an add-on on a plan
 * retired since keeps working.
 */
async function planCodeRule(ctx: CallContext, inputs: Props, olds: Props): Promise<CheckFailure[]> {
  const code = inputs.planCode;
  if (typeof code !== "string" || isUnknown(code) || code === olds.planCode) return [];
  let codes: string[];
  try {
    codes = await backupPlanCodes(ctx.api);
  } catch (err) {
    return [{ property: "planCode", reason: `could not read the backup plan catalogue to check the plan: ${operationError("check", err).message}` }];
  }
  if (codes.includes(code)) return [];
  return [{ property: "planCode", reason: `no backup plan ${code} (unknown or retired); plans: ${codes.join(", ")}` }];
}

/**
 * Preview's price (foresight.ts): an activation costs the plan's price for the first period; a move to
 * a larger plan the prorated difference for the add-on's time left ((new − old) × days ÷ 30, as a
 * server's upgrade); a smaller plan nothing. Nothing for an adoption, nor for a server that already
 * holds an add-on (the create adopts it: an interrupted `up` bought it, and paid then).
 */
async function chargeRule(ctx: CallContext, inputs: Props, olds: Props): Promise<CheckFailure[]> {
  const code = inputs.planCode;
  if (inputs.adoptId !== undefined || isUnknown(code)) return [];
  const created = Object.keys(olds).length === 0 || (olds.vpsId !== undefined && olds.vpsId !== inputs.vpsId);
  if (!created && olds.planCode === code) return [];
  const vpsId = isUnknown(inputs.vpsId) || typeof inputs.vpsId !== "string" ? undefined : inputs.vpsId;
  const api = ctx.api.platform;
  let plans, addon: BackupAddon | undefined;
  try {
    plans = await backupPlans(ctx.api);
    addon = vpsId ? await readAddon(api, vpsId) : undefined;
  } catch (err) {
    return [{ property: "planCode", reason: `could not read the backup plans or the add-on to price the change: ${operationError("check", err).message}` }];
  }
  const plan = plans.find((p) => p.code === code);
  if (!plan) return [];
  const server = vpsId ? `server ${vpsId}` : "a new server";
  let step;
  if (created) {
    if (addon) return [];
    step = { resource: "VpsBackup", what: `the backup add-on ${plan.code} of ${server}`, amount: plan.price };
  } else {
    const from = plans.find((p) => p.code === addon?.planCode);
    if (!addon || !from || addon.planCode === code || plan.quotaGb <= from.quotaGb) return [];
    const days = Math.max(0, Math.ceil((Date.parse(addon.expiresAt) - Date.now()) / 86_400_000));
    const amount = Math.max(0, Math.round(((plan.price - from.price) * days) / 30));
    if (amount === 0) return [];
    step = { resource: "VpsBackup", what: `the backup plan change of ${server} from ${from.code} to ${plan.code} (prorated for the ${days} days left)`, amount };
  }
  const failure = await ctx.api.foresight.charge("planCode", step, { platform: () => api });
  return failure ? [failure] : [];
}

function hintFor(err: unknown, vpsId: string): string | undefined {
  if (isApiError(err, "ALREADY_SUBSCRIBED")) return `Server ${vpsId} already has a backup add-on: to manage it here, add \`adoptId: "${vpsId}"\` to this VpsBackup`;
  return schemaHint(vpsBackupSchema, err, ["OVER_NEW_QUOTA", "VPS_NOT_RUNNING", "NOT_ELIGIBLE", "INSUFFICIENT_BALANCE"]);
}

export const vpsBackup = defineResource(vpsBackupSchema, {
  async check(olds, news, ctx) {
    const result = checkSchema(vpsBackupSchema, news);
    if (result.failures.length === 0) result.failures.push(...(await planCodeRule(ctx, result.inputs, olds)));
    if (result.failures.length === 0) result.failures.push(...(await chargeRule(ctx, result.inputs, olds)));
    return result;
  },

  // A failed setup and a wait's failure are worded here (refunded; a partial failure that keeps the add-on).
  ownCreateErrors: true,
  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId;
    const planCode = inputs.planCode;
    // The setup keeps the server busy (VPS_BUSY): this process's other actions on the server (a
    // fleet's firewall rules) wait for it from the moment the activation is sent; a refused
    // activation frees the server at once.
    let setupEnded!: () => void;
    const setup = new Promise<void>((resolve) => (setupEnded = resolve));
    const activate = () => {
      const answered = api.call("vps.backup.activate", { params: { id: vpsId }, body: { planCode } });
      void busyUntil(ctx, vpsId, answered.then(() => setup));
      return answered;
    };
    let addon: BackupAddon | undefined;
    let plan = planCode;
    try {
      let found: { object: BackupAddon; adopted: boolean };
      try {
        found = await createOnce<BackupAddon>(ctx, inputs, {
          noun: "backup add-on",
          idOf: () => vpsId,
          describe: (a) => `on plan ${a.planCode}`,
          adopt: async () => {
            const live = await ctx.api.backups.read(vpsId);
            if (!live) throw operationFailed("create", `adoptId "${vpsId}": server ${vpsId} has no backup add-on; remove adoptId to activate one`);
            return live;
          },
          find: async () => {
            const live = await readAddon(api, vpsId);
            return { objects: live ? [live] : [], provablyMine: true };
          },
          send: () => paidCall(ctx, vpsId, activate),
          refusedAsDuplicate: (err) => isApiError(err, "ALREADY_SUBSCRIBED"),
          otherwise: "cancel it",
        });
      } catch (err) {
        throw operationError("create", err, hintFor(err, vpsId));
      }
      // An adopted add-on is taken on its own plan: the next preview shows the plan change, if any.
      if (found.adopted) plan = found.object.planCode;
      addon = await waitActive(ctx, vpsId, plan, found.object).catch((err) => {
        throw new PartialFailure(vpsId, { ...pick(inputs, INPUTS), planCode: plan }, inputs, operationError("create", err));
      });
    } finally {
      setupEnded();
    }
    if (!addon) {
      // The add-on is gone: its setup job failed; the server's last job error says why.
      const reason = await api.call("vps.get", { params: { id: vpsId } }).then((s) => s.lastJobError, () => null);
      throw operationFailed("create", `the backup setup of server ${vpsId} failed${reason ? ` (${reason})` : ""} and was refunded; \`pulumi up\` may try again`);
    }
    return { id: vpsId, outs: backupProperties(addon, inputs).outputs };
  },

  async update(id, olds, news, ctx) {
    const api = ctx.api.platform;
    const planCode = news.planCode;
    if (olds.planCode !== planCode) {
      try {
        await paidCall(ctx, id, () => api.call("vps.backup.changePlan", { params: { id }, body: { planCode } }));
      } catch (err) {
        const settled = err instanceof OutcomeUnknownError && (await readAddon(api, id).catch(() => undefined))?.planCode === planCode;
        if (!settled) throw operationError("update", err, hintFor(err, id));
      }
    }
    const addon = await waitActive(ctx, id, planCode).catch((err) => {
      throw operationError("update", err);
    });
    if (!addon) throw operationFailed("update", `server ${id} has no backup add-on any more: run \`pulumi refresh\`, then \`pulumi up\``);
    return { outs: backupProperties(addon, news).outputs };
  },

  find: (id, _props, ctx) => ctx.api.backups.read(id),
  properties: (addon, props, id) => backupProperties(addon, { ...props, vpsId: id }),
  // NOT_SUBSCRIBED or INSTANCE_NOT_FOUND: nothing left to cancel.
  remove: (id, _props, ctx) => ctx.api.platform.call("vps.backup.cancel", { params: { id } }),
});
