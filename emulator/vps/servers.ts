/**
 * Servers: plans, create, list, read, credentials, power actions, reinstall, password reset,
 * auto-renew flag and terminate, with the background jobs that settle them (States and transitions).
 */
import { accountOfProject, projectsOfAccount } from "../core/world";
import type { Ctx, Handler, HandlerTable } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { serverNameProblem } from "../../contract/schemas";
import { JOB, JOB_SECONDS, jobFailed, jobSucceeded, type JobKind } from "./jobs";
import {
  findPlan,
  findServer,
  guardAction,
  hasImage,
  periodEnd,
  planOf,
  planView,
  requireBillingPeriod,
  serverById,
  userActivity,
  vpsState,
  vpsView,
  type ServerRec,
  type VpsState,
  type VpsStatus,
} from "./state";

const ROOT_PASSWORD = /^[A-Za-z0-9!@#$%^*]{12,30}$/;

export function requireRootPassword(password: string): void {
  if (!ROOT_PASSWORD.test(password)) {
    throw new EmuError(400, "REQUEST_ERROR", "rootPassword must be 12 to 30 characters of letters, digits and ! @ # $ % ^ *");
  }
}

function requireName(name: string): void {
  const problem = serverNameProblem(name);
  if (problem) throw new EmuError(400, "REQUEST_ERROR", `invalid name: ${problem}`);
}

/** Documentation ranges (RFC 5737), then shared address space: unique, never reused. */
function nextPublicIp(state: VpsState): string {
  const n = state.ipsAssigned++;
  const pools = ["203.0.113", "198.51.100", "192.0.2"];
  if (n < pools.length * 250) return `${pools[Math.floor(n / 250)]}.${(n % 250) + 2}`;
  const m = n - pools.length * 250;
  return `100.${64 + ((m >> 16) & 63)}.${(m >> 8) & 255}.${m & 255}`;
}

/** The one public address the shared-address servers of a region share: the `.1` of a pool, which nextPublicIp never hands out. */
function sharedAddressOf(region: string): string {
  const pools: Record<string, string> = { jkt: "203.0.113.1", sgp: "198.51.100.1" };
  return pools[region] ?? "192.0.2.1";
}

type PowerAction = "start" | "stop" | "restart";
const POWER: Record<PowerAction, { during: VpsStatus; target: VpsStatus; kind: JobKind }> = {
  start: { during: "starting", target: "running", kind: JOB.start },
  stop: { during: "stopping", target: "stopped", kind: JOB.stop },
  restart: { during: "restarting", target: "running", kind: JOB.restart },
};

function power(action: PowerAction): Handler {
  return (ctx: Ctx) => {
    const s = findServer(ctx);
    guardAction(s, action);
    const { during, target, kind } = POWER[action];
    ctx.emu.schedule(kind, { serverId: s.id, before: s.status, target }, JOB_SECONDS[kind]);
    s.status = during;
    userActivity(ctx.emu, s, `vps.${action}`);
    return vpsView(s, ctx.world);
  };
}

/** Start, stop, restart: success reaches the target status; failure goes back to the status before. */
function powerJob(kind: string): TransitionFn {
  return (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s) return;
    const reason = emu.takeJobFailure(kind);
    if (reason) {
      s.status = p.before as VpsStatus;
      jobFailed(emu, s, kind, reason);
      return;
    }
    s.status = p.target as VpsStatus;
    jobSucceeded(s);
  };
}

export const serverHandlers: HandlerTable = {
  "vps.plans.list": ({ world }) => world.catalog.vpsPlans.map(planView),

  "vps.list": (ctx) => vpsState(ctx.world).servers.filter((s) => ctx.caller.reach.includes(s.projectId)).map((s) => vpsView(s, ctx.world)),

  "vps.get": (ctx) => vpsView(findServer(ctx), ctx.world),

  "vps.create": (ctx) => {
    const { emu, world } = ctx;
    const body = ctx.body;
    const projectId = body.projectId.trim();
    if (!projectId) throw new EmuError(400, "PROJECT_REQUIRED", "projectId is required");
    if (!world.projects.some((p) => p.id === projectId) || !ctx.caller.reach.includes(projectId)) {
      throw new EmuError(404, "PROJECT_NOT_FOUND", `No project ${projectId}`);
    }
    const plan = findPlan(world, body.planId);
    if (!plan) throw new EmuError(400, "REQUEST_ERROR", `Unknown plan ${body.planId}: choose one from GET /vps/plans`);
    if (!hasImage(plan, body.osType, body.osVersion)) {
      throw new EmuError(400, "REQUEST_ERROR", `No image for ${body.osType} ${body.osVersion} on plan ${plan.name}`);
    }
    requireName(body.name);
    requireRootPassword(body.rootPassword);
    const period = requireBillingPeriod(body.billingPeriod);
    const state = vpsState(world);
    const account = ctx.caller.account;
    const accountProjects = projectsOfAccount(world, account).map((p) => p.id);
    const counted = state.servers.filter((s) => s.status !== "terminated" && accountProjects.includes(s.projectId)).length;
    if (counted >= account.serverLimit) {
      throw new EmuError(400, "REQUEST_ERROR", `Account server limit reached (${account.serverLimit}); terminated servers do not count`);
    }
    const price = plan.prices[period];
    emu.charge(account, price, `server ${body.name} (${period})`);

    const now = emu.nowMs();
    const s: ServerRec = {
      id: emu.uuid(),
      name: body.name,
      projectId,
      planId: plan.id,
      osType: body.osType,
      osVersion: body.osVersion,
      billingPeriod: period,
      autoRenew: true,
      status: "provisioning",
      publicIp: null,
      expiresAt: new Date(periodEnd(now, period)).toISOString(),
      lastJobStatus: null,
      lastJobError: null,
      createdAt: new Date(now).toISOString(),
      rootPassword: body.rootPassword,
      firewall: [],
      backup: null,
      renewFailedFor: null,
      sshKeys: [],
      portForwards: [],
      snapshots: [],
    };
    state.servers.push(s);
    emu.schedule(JOB.create, { serverId: s.id, charged: price }, JOB_SECONDS[JOB.create]);
    userActivity(emu, s, "vps.create");
    return { ...vpsView(s, ctx.world), charged: price };
  },

  "vps.credentials": (ctx) => {
    const s = findServer(ctx);
    if (s.status === "terminated") throw new EmuError(400, "REQUEST_ERROR", "Server is terminated");
    return { address: s.publicIp, user: "root", password: s.rootPassword };
  },

  "vps.start": power("start"),
  "vps.stop": power("stop"),
  "vps.restart": power("restart"),

  "vps.reinstall": (ctx) => {
    const s = findServer(ctx);
    guardAction(s, "reinstall");
    const body = ctx.body;
    const plan = planOf(ctx.world, s);
    if (!hasImage(plan, body.osType, body.osVersion)) {
      throw new EmuError(400, "REQUEST_ERROR", `No image for ${body.osType} ${body.osVersion} on plan ${plan.name}`);
    }
    requireRootPassword(body.rootPassword);
    ctx.emu.schedule(
      JOB.reinstall,
      { serverId: s.id, before: s.status, oldOsType: s.osType, oldOsVersion: s.osVersion, rootPassword: body.rootPassword },
      JOB_SECONDS[JOB.reinstall],
    );
    s.status = "reinstalling";
    s.osType = body.osType;
    s.osVersion = body.osVersion;
    userActivity(ctx.emu, s, "vps.reinstall");
    return vpsView(s, ctx.world);
  },

  "vps.resetPassword": (ctx) => {
    const s = findServer(ctx);
    guardAction(s, "resetPassword");
    const { rootPassword } = ctx.body;
    requireRootPassword(rootPassword);
    // No status of its own: the old password stays valid until the job settles.
    ctx.emu.schedule(JOB.resetPassword, { serverId: s.id, rootPassword }, JOB_SECONDS[JOB.resetPassword]);
    userActivity(ctx.emu, s, "vps.resetPassword");
    return vpsView(s, ctx.world);
  },

  /**
   * Auto-renew on or off, and the period the next automatic renewals charge (assumed-routes.md "A
   * server's renewal period"): nothing is charged now. A bad period answers the spec's own code for
   * it, INVALID_BILLING_PERIOD (docs/decisions.md). Never VPS_BUSY (spec: auto-renew is never blocked).
   */
  "vps.autoRenew": (ctx) => {
    const s = findServer(ctx);
    const { enabled, billingPeriod } = ctx.body;
    if (enabled === undefined && billingPeriod === undefined) throw new EmuError(422, "VALIDATION", "Give enabled, billingPeriod or both");
    const period = billingPeriod === undefined ? undefined : requireBillingPeriod(billingPeriod);
    if (s.status === "terminated" || s.status === "terminating") throw new EmuError(400, "REQUEST_ERROR", `Server is ${s.status}`);
    if (enabled !== undefined && s.autoRenew !== enabled) {
      s.autoRenew = enabled;
      userActivity(ctx.emu, s, enabled ? "vps.autoRenew.enable" : "vps.autoRenew.disable");
    }
    if (period !== undefined && s.billingPeriod !== period) {
      s.billingPeriod = period;
      userActivity(ctx.emu, s, "vps.billingPeriod.change");
    }
    return vpsView(s, ctx.world);
  },

  "vps.terminate": (ctx) => {
    const s = findServer(ctx);
    // A repeat (a retry after a lost answer) answers the server again: the route is idempotent.
    if (s.status === "terminating" || s.status === "terminated") return vpsView(s, ctx.world);
    guardAction(s, "terminate");
    s.status = "terminating";
    s.backup = null;
    s.firewall = [];
    s.sshKeys = [];
    s.portForwards = [];
    s.snapshots = [];
    ctx.emu.schedule(JOB.terminate, { serverId: s.id }, JOB_SECONDS[JOB.terminate]);
    userActivity(ctx.emu, s, "vps.terminate");
    return vpsView(s, ctx.world);
  },
};

export const serverTransitions: Record<string, TransitionFn> = {
  [JOB.create]: (emu: Emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s || s.status !== "provisioning") return;
    const reason = emu.takeJobFailure(JOB.create);
    if (reason) {
      s.status = "error";
      emu.refund(accountOfProject(emu.world, s.projectId), p.charged as number);
      jobFailed(emu, s, JOB.create, reason);
      return;
    }
    s.status = "running";
    const plan = planOf(emu.world, s);
    s.publicIp = plan.sharedAddress ? sharedAddressOf(plan.region) : nextPublicIp(vpsState(emu.world));
    jobSucceeded(s);
  },

  [JOB.start]: powerJob(JOB.start),
  [JOB.stop]: powerJob(JOB.stop),
  [JOB.restart]: powerJob(JOB.restart),

  [JOB.reinstall]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s) return;
    s.status = p.before as VpsStatus;
    const reason = emu.takeJobFailure(JOB.reinstall);
    if (reason) {
      // The old system stays, and with it the old password.
      s.osType = p.oldOsType as string;
      s.osVersion = p.oldOsVersion as string;
      jobFailed(emu, s, JOB.reinstall, reason);
      return;
    }
    s.rootPassword = p.rootPassword as string;
    jobSucceeded(s);
  },

  [JOB.resetPassword]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s || s.status === "terminated") return;
    const reason = emu.takeJobFailure(JOB.resetPassword);
    if (reason) {
      jobFailed(emu, s, JOB.resetPassword, reason);
      return;
    }
    s.rootPassword = p.rootPassword as string;
    jobSucceeded(s);
  },

  [JOB.terminate]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s) return;
    s.status = "terminated";
    s.publicIp = null;
    jobSucceeded(s);
  },
};
