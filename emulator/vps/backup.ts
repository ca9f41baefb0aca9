/**
 * The backup add-on of a server: plan catalogue, activation (charged, then set up by a background
 * job that keeps the server busy), plan change (larger: prorated charge; smaller: only when the
 * current backups fit), reading and cancelling it.
 */
import type { Ctx, HandlerTable } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { accountOfProject, type BackupPlanRec } from "../core/world";
import { JOB, JOB_SECONDS, jobFailed, jobSucceeded } from "./jobs";
import { busyReason, DAY_MS, daysLeft, findServer, periodEnd, planOf, prorate, serverById, userActivity, type BackupAddonRec, type ServerRec } from "./state";

/** Control triggers read with `takeJobFailure` (no real job behind them). */
export const BACKUP_TRIGGER = {
  /** The next call to a /vps/{id}/backup route answers 503 BACKUP_NOT_CONFIGURED. */
  unavailable: "vps.backup.unavailable",
  /** The next activation answers 409 NODE_NOT_READY. */
  nodeNotReady: "vps.backup.node",
} as const;

/** Daily backups keep this share of the server's disk per day, up to the quota. */
const DAILY_SHARE_OF_DISK = 0.05;

function backupPlanOf(emu: Emu, code: string): BackupPlanRec | undefined {
  return emu.world.catalog.backupPlans.find((p) => p.code === code);
}

/** A plan that can be chosen now: known and not retired. */
function requireOpenPlan(emu: Emu, code: string): BackupPlanRec {
  const plan = backupPlanOf(emu, code);
  if (!plan || plan.retired) throw new EmuError(404, "PLAN_NOT_FOUND", `No backup plan ${code}: choose one from GET /backup/plans`);
  return plan;
}

function usedGb(emu: Emu, s: ServerRec, addon: BackupAddonRec): number {
  if (addon.activeSince === null) return 0;
  const quota = backupPlanOf(emu, addon.planCode)?.quotaGb ?? 0;
  const days = Math.floor((emu.nowMs() - addon.activeSince) / DAY_MS);
  return Math.min(quota, Math.round(days * planOf(emu.world, s).diskGb * DAILY_SHARE_OF_DISK * 10) / 10);
}

function addonView(emu: Emu, s: ServerRec, addon: BackupAddonRec) {
  return {
    planCode: addon.planCode,
    status: addon.status,
    quotaGb: backupPlanOf(emu, addon.planCode)?.quotaGb ?? 0,
    usedGb: usedGb(emu, s, addon),
    createdAt: addon.createdAt,
    expiresAt: addon.expiresAt,
  };
}

/** The server of a backup route, after the 503 trigger; every backup route starts here. */
function backupServer(ctx: Ctx): ServerRec {
  const s = findServer(ctx);
  if (ctx.emu.takeJobFailure(BACKUP_TRIGGER.unavailable) !== undefined) {
    throw new EmuError(503, "BACKUP_NOT_CONFIGURED", "Backups are temporarily unavailable; try again later");
  }
  return s;
}

function requireAddon(s: ServerRec): BackupAddonRec {
  if (!s.backup) throw new EmuError(404, "NOT_SUBSCRIBED", "This server has no backup add-on");
  return s.backup;
}

export const backupHandlers: HandlerTable = {
  "backup.plans.list": ({ world }) =>
    world.catalog.backupPlans.filter((p) => !p.retired).map((p) => ({ code: p.code, name: p.name, quotaGb: p.quotaGb, price: p.price })),

  "vps.backup.get": (ctx) => {
    const s = backupServer(ctx);
    return addonView(ctx.emu, s, requireAddon(s));
  },

  "vps.backup.activate": (ctx) => {
    const { emu } = ctx;
    const s = backupServer(ctx);
    const plan = requireOpenPlan(emu, ctx.body.planCode);
    if (s.osType === "windows") throw new EmuError(400, "NOT_ELIGIBLE", "Backups need a Linux server");
    if (s.status === "provisioning" || s.status === "error") throw new EmuError(400, "NOT_ELIGIBLE", "Server is not provisioned");
    if (s.status === "terminating" || s.status === "terminated") throw new EmuError(400, "NOT_ELIGIBLE", "Server is terminated");
    if (s.backup) throw new EmuError(409, "ALREADY_SUBSCRIBED", `Server already has the backup add-on (${s.backup.planCode})`);
    // A snapshot being made or rolled back keeps the server busy: the setup waits (VPS_BUSY, States).
    if (s.status === "restoring" || s.snapshots?.some((x) => x.status === "creating")) {
      throw new EmuError(409, "VPS_BUSY", `Server busy (${busyReason(s)}): poll GET /vps/${s.id} and retry once settled`);
    }
    if (s.status !== "running") throw new EmuError(409, "VPS_NOT_RUNNING", `Server must be running to activate backups (it is ${s.status})`);
    if (emu.takeJobFailure(BACKUP_TRIGGER.nodeNotReady) !== undefined) {
      throw new EmuError(409, "NODE_NOT_READY", "Backups are not yet available on this server; try again later");
    }
    emu.charge(accountOfProject(emu.world, s.projectId), plan.price, `backup plan ${plan.code} for server ${s.name}`);
    const now = emu.nowMs();
    const addon: BackupAddonRec = {
      planCode: plan.code,
      status: "setting_up",
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(periodEnd(now, "monthly")).toISOString(),
      activeSince: null,
      setupId: emu.uuid(),
      renewFailedFor: null,
    };
    s.backup = addon;
    emu.schedule(JOB.backupSetup, { serverId: s.id, setupId: addon.setupId, amount: plan.price }, JOB_SECONDS[JOB.backupSetup]);
    userActivity(emu, s, "vps.backup.activate");
    return { ...addonView(emu, s, addon), charged: plan.price };
  },

  "vps.backup.changePlan": (ctx) => {
    const { emu } = ctx;
    const s = backupServer(ctx);
    const addon = requireAddon(s);
    const next = requireOpenPlan(emu, ctx.body.planCode);
    if (next.code === addon.planCode) throw new EmuError(400, "BACKUP_ERROR", `The add-on is already on plan ${next.code}`);
    if (addon.status !== "active") throw new EmuError(409, "BACKUP_ERROR", "The add-on is still being set up; retry once it is active");
    const current = backupPlanOf(emu, addon.planCode)!;
    let charged = 0;
    if (next.quotaGb > current.quotaGb) {
      charged = Math.max(0, prorate(next.price, current.price, daysLeft(emu, addon.expiresAt)));
      emu.charge(accountOfProject(emu.world, s.projectId), charged, `backup plan change to ${next.code} for server ${s.name}`);
    } else {
      const used = usedGb(emu, s, addon);
      if (used > next.quotaGb) {
        throw new EmuError(409, "OVER_NEW_QUOTA", `Current backups use ${used} GB; plan ${next.code} holds ${next.quotaGb} GB`);
      }
    }
    addon.planCode = next.code;
    userActivity(emu, s, "vps.backup.changePlan");
    return { ...addonView(emu, s, addon), charged };
  },

  "vps.backup.cancel": (ctx) => {
    const s = backupServer(ctx);
    requireAddon(s);
    s.backup = null;
    userActivity(ctx.emu, s, "vps.backup.cancel");
    return { cancelled: true as const };
  },
};

export const backupTransitions: Record<string, TransitionFn> = {
  [JOB.backupSetup]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    // Cancelled (or the server terminated) while setting up: nothing left to set up.
    const addon = s?.backup;
    if (!s || !addon || addon.setupId !== p.setupId) return;
    const reason = emu.takeJobFailure(JOB.backupSetup);
    if (reason) {
      emu.refund(accountOfProject(emu.world, s.projectId), p.amount as number);
      s.backup = null;
      jobFailed(emu, s, JOB.backupSetup, reason);
      return;
    }
    addon.status = "active";
    addon.activeSince = emu.nowMs();
    jobSucceeded(s);
  },
};
