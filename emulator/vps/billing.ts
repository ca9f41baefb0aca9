/**
 * What a server costs after it is created: renewal (and its options), upgrade with a prorated
 * charge, and auto-renewal of servers and their backup add-ons from the wallet.
 */
import { accountOfProject } from "../core/world";
import type { HandlerTable } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { billingPeriods } from "../../contract/schemas";
import { JOB, JOB_SECONDS, jobFailed, jobSucceeded } from "./jobs";
import {
  DAY_MS,
  daysLeft,
  findPlan,
  findServer,
  guardAction,
  hasImage,
  periodEnd,
  planOf,
  prorate,
  requireBillingPeriod,
  serverById,
  systemActivity,
  userActivity,
  vpsState,
  vpsView,
  type ServerRec,
  type VpsStatus,
} from "./state";

/** Auto-renewal takes the wallet this long before expiry (the platform's nightly run, lazily). */
const AUTO_RENEW_WINDOW_MS = DAY_MS;
/** Cap of renewals caught up in one sweep (a clock moved by years). */
const MAX_CATCH_UP = 60;

export const billingHandlers: HandlerTable = {
  "vps.renewalOptions": (ctx) => {
    const plan = planOf(ctx.world, findServer(ctx));
    return billingPeriods.map((billingPeriod) => ({ billingPeriod, price: plan.prices[billingPeriod], currency: "IDR" }));
  },

  // Never answers VPS_BUSY: renewals go through whatever runs on the server.
  "vps.renew": (ctx) => {
    const { emu } = ctx;
    const s = findServer(ctx);
    const period = requireBillingPeriod(ctx.body.billingPeriod);
    if (s.status === "error" || s.status === "terminating" || s.status === "terminated") {
      throw new EmuError(400, "REQUEST_ERROR", `Status ${s.status} does not accept renew`);
    }
    const amount = planOf(ctx.world, s).prices[period];
    emu.charge(accountOfProject(emu.world, s.projectId), amount, `renewal of server ${s.name} (${period})`);
    const from = Date.parse(s.expiresAt);
    const to = periodEnd(Math.max(from, emu.nowMs()), period);
    s.expiresAt = new Date(to).toISOString();
    // The shift, not the old date, is undone on failure: a renewal queued after this one stays.
    emu.schedule(JOB.renew, { serverId: s.id, amount, shiftMs: to - from }, JOB_SECONDS[JOB.renew]);
    userActivity(emu, s, "vps.renew");
    return { ...vpsView(s, ctx.world), charged: amount };
  },

  "vps.upgrade": (ctx) => {
    const { emu, world } = ctx;
    const s = findServer(ctx);
    guardAction(s, "upgrade");
    const { planId } = ctx.body;
    const next = findPlan(world, planId);
    if (!next) throw new EmuError(400, "REQUEST_ERROR", `Unknown plan ${planId}: choose one from GET /vps/plans`);
    const current = planOf(world, s);
    if (next.region !== current.region) throw new EmuError(400, "REQUEST_ERROR", `Cannot upgrade to another region (${current.region} → ${next.region})`);
    if (next.family !== current.family) throw new EmuError(400, "REQUEST_ERROR", `Cannot upgrade to another family (${current.family} → ${next.family})`);
    const larger =
      next.prices.monthly > current.prices.monthly && next.cpu >= current.cpu && next.memoryMb >= current.memoryMb && next.diskGb >= current.diskGb;
    if (!larger) throw new EmuError(400, "REQUEST_ERROR", `Plan ${next.name} is not larger than ${current.name}`);
    if (!hasImage(next, s.osType, s.osVersion)) throw new EmuError(400, "REQUEST_ERROR", `Plan ${next.name} has no image for ${s.osType} ${s.osVersion}`);
    const amount = prorate(next.prices.monthly, current.prices.monthly, daysLeft(emu, s.expiresAt));
    if (amount <= 0) throw new EmuError(400, "REQUEST_ERROR", "Nothing to pay for this upgrade: renew the server first");
    emu.charge(accountOfProject(emu.world, s.projectId), amount, `upgrade of server ${s.name} to ${next.name}`);
    emu.schedule(JOB.upgrade, { serverId: s.id, before: s.status, oldPlanId: current.id, amount }, JOB_SECONDS[JOB.upgrade]);
    s.status = "upgrading";
    s.planId = next.id;
    userActivity(emu, s, "vps.upgrade");
    return { ...vpsView(s, ctx.world), charged: amount };
  },
};

export const billingTransitions: Record<string, TransitionFn> = {
  [JOB.renew]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s) return;
    const reason = emu.takeJobFailure(JOB.renew);
    if (reason) {
      emu.refund(accountOfProject(emu.world, s.projectId), p.amount as number);
      s.expiresAt = new Date(Date.parse(s.expiresAt) - (p.shiftMs as number)).toISOString();
      jobFailed(emu, s, JOB.renew, reason);
      return;
    }
    jobSucceeded(s);
  },

  [JOB.upgrade]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s) return;
    s.status = p.before as VpsStatus;
    const reason = emu.takeJobFailure(JOB.upgrade);
    if (reason) {
      emu.refund(accountOfProject(emu.world, s.projectId), p.amount as number);
      s.planId = p.oldPlanId as string;
      jobFailed(emu, s, JOB.upgrade, reason);
      return;
    }
    jobSucceeded(s);
  },
};

/**
 * Renews, from the wallet, every server with auto-renew on (and its active backup add-on) that
 * expires within a day, as the platform's nightly run would. Runs before each VPS route, so a
 * clock moved forward catches up. A wallet that cannot pay is notified once per expiry; the
 * server is left as it is.
 */
export function sweepAutoRenewals(emu: Emu): void {
  for (const s of vpsState(emu.world).servers) {
    if (!s.autoRenew || s.status === "error" || s.status === "terminating" || s.status === "terminated") continue;
    const plan = planOf(emu.world, s);
    autoRenew(emu, s, s, plan.prices[s.billingPeriod], s.billingPeriod, "vps.autoRenew", `renewal of server ${s.name}`);
    const backup = s.backup;
    const backupPlan = backup && emu.world.catalog.backupPlans.find((b) => b.code === backup.planCode);
    if (backup?.status === "active" && backupPlan) {
      autoRenew(emu, s, backup, backupPlan.price, "monthly", "vps.backup.autoRenew", `backup renewal of server ${s.name}`);
    }
  }
}

function autoRenew(
  emu: Emu,
  s: ServerRec,
  item: { expiresAt: string; renewFailedFor: string | null },
  price: number,
  period: ServerRec["billingPeriod"],
  action: string,
  what: string,
): void {
  const account = accountOfProject(emu.world, s.projectId);
  for (let i = 0; i < MAX_CATCH_UP && Date.parse(item.expiresAt) - emu.nowMs() <= AUTO_RENEW_WINDOW_MS; i++) {
    if (account.wallet < price) {
      if (item.renewFailedFor !== item.expiresAt) {
        item.renewFailedFor = item.expiresAt;
        systemActivity(emu, s, `${action}.failed`);
        emu.notify({
          type: "vps.auto_renew_failed",
          title: `Server ${s.name}: auto-renewal failed`,
          message: `Saldo tidak cukup for the ${what}: required IDR ${price}, available IDR ${account.wallet}`,
          link: `/vps/${s.id}`,
          projectId: s.projectId,
        });
      }
      return;
    }
    emu.charge(account, price, what);
    item.expiresAt = new Date(periodEnd(Date.parse(item.expiresAt), period)).toISOString();
    systemActivity(emu, s, action);
  }
}
