/**
 * The VPS service's part of the world: server records (with internal fields such as the root
 * password, firewall rules and the backup add-on), their views, and the rules shared by every
 * handler: reach, busy, which statuses accept which action, billing periods.
 */
import type { z } from "zod";
import { billingPeriods, type BillingPeriod, type vpsStatus } from "../../contract/schemas";
import type { Ctx } from "../core/module";
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import type { VpsPlanRec, World } from "../core/world";

export type VpsStatus = z.infer<typeof vpsStatus>;

export interface FirewallRuleRec {
  id: string;
  protocol: "tcp" | "udp" | "icmp";
  action: "allow" | "deny";
  port?: string;
  source: string;
}

export interface BackupAddonRec {
  planCode: string;
  status: "setting_up" | "active";
  createdAt: string;
  expiresAt: string;
  /** Emulator ms when setup finished: backups (and so usedGb) accumulate from then. */
  activeSince: number | null;
  /** Tells the setup job whether the add-on it set up is still this one (it may be cancelled). */
  setupId: string;
  /** The expiry an auto-renewal failed for, so the failure is notified once. */
  renewFailedFor: string | null;
}

/** An SSH key on a server (assumed-routes.md "Server access"); the text is the public key only. */
export interface SshKeyRec {
  fingerprint: string;
  type: string;
  label: string | null;
  publicKey: string;
  createdAt: string;
}

export interface PortForwardRec {
  id: string;
  protocol: "tcp" | "udp" | "http" | "https";
  privatePort: number;
  publicPort: number;
  domain: string | null;
  createdAt: string;
}

export interface SnapshotRec {
  id: string;
  name: string;
  status: "creating" | "ready" | "error";
  sizeGb: number;
  createdAt: string;
  error: string | null;
}

export interface ServerRec {
  id: string;
  name: string;
  projectId: string;
  planId: string;
  osType: string;
  osVersion: string;
  billingPeriod: BillingPeriod;
  autoRenew: boolean;
  status: VpsStatus;
  publicIp: string | null;
  expiresAt: string;
  lastJobStatus: string | null;
  lastJobError: string | null;
  createdAt: string;
  /** Internal: answered only by the credentials route. */
  rootPassword: string;
  firewall: FirewallRuleRec[];
  backup: BackupAddonRec | null;
  /** The expiry an auto-renewal failed for, so the failure is notified once. */
  renewFailedFor: string | null;
  /** Server access (absent in worlds saved before it: read through accessOf). */
  sshKeys?: SshKeyRec[];
  portForwards?: PortForwardRec[];
  snapshots?: SnapshotRec[];
}

/** A server's keys, port forwards and snapshots (created empty on first use). */
export function accessOf(s: ServerRec): { sshKeys: SshKeyRec[]; portForwards: PortForwardRec[]; snapshots: SnapshotRec[] } {
  s.sshKeys ??= [];
  s.portForwards ??= [];
  s.snapshots ??= [];
  return { sshKeys: s.sshKeys, portForwards: s.portForwards, snapshots: s.snapshots };
}

export interface VpsState {
  servers: ServerRec[];
  /** Public addresses handed out so far: each new one is the next of the pool, never reused. */
  ipsAssigned: number;
}

export function vpsState(world: World): VpsState {
  const state = world.vps as Partial<VpsState>;
  state.servers ??= [];
  state.ipsAssigned ??= 0;
  return state as VpsState;
}

export const DAY_MS = 86_400_000;

/** The API fields of a server, never the internal ones (`sharedAddress` from its plan). */
export function vpsView(s: ServerRec, world: World) {
  return {
    id: s.id,
    name: s.name,
    projectId: s.projectId,
    planId: s.planId,
    osType: s.osType,
    osVersion: s.osVersion,
    billingPeriod: s.billingPeriod,
    autoRenew: s.autoRenew,
    status: s.status,
    publicIp: s.publicIp,
    expiresAt: s.expiresAt,
    lastJobStatus: s.lastJobStatus,
    lastJobError: s.lastJobError,
    createdAt: s.createdAt,
    sharedAddress: findPlan(world, s.planId)?.sharedAddress ?? false,
  };
}

export function planView(p: VpsPlanRec) {
  return {
    id: p.id,
    name: p.name,
    family: p.family,
    region: p.region,
    cpu: p.cpu,
    memoryMb: p.memoryMb,
    diskGb: p.diskGb,
    prices: { ...p.prices },
    osTemplates: p.osTemplates.map((t) => ({ osType: t.osType, osVersion: t.osVersion })),
    sharedAddress: p.sharedAddress ?? false,
    snapshotLimit: p.snapshotLimit ?? 0,
  };
}

export function findPlan(world: World, planId: string): VpsPlanRec | undefined {
  return world.catalog.vpsPlans.find((p) => p.id === planId);
}

/** The plan a server is on (always in the catalogue: plans are never removed). */
export function planOf(world: World, server: ServerRec): VpsPlanRec {
  const plan = findPlan(world, server.planId);
  if (!plan) throw new Error(`server ${server.id} is on unknown plan ${server.planId}`);
  return plan;
}

export function hasImage(plan: VpsPlanRec, osType: string, osVersion: string): boolean {
  return plan.osTemplates.some((t) => t.osType === osType && t.osVersion === osVersion);
}

/** A server of the caller's reach, or 404 INSTANCE_NOT_FOUND (never 403: ids cannot be probed). */
export function findServer(ctx: Ctx): ServerRec {
  const server = vpsState(ctx.world).servers.find((s) => s.id === ctx.params.id && ctx.caller.reach.includes(s.projectId));
  if (!server) throw new EmuError(404, "INSTANCE_NOT_FOUND", `No server ${ctx.params.id}`);
  return server;
}

/** A server by id, for background jobs (no reach: the job acts for the platform). */
export function serverById(emu: Emu, id: unknown): ServerRec | undefined {
  return vpsState(emu.world).servers.find((s) => s.id === id);
}

// ---- billing periods ----

const MONTHS: Record<BillingPeriod, number> = { monthly: 1, "3month": 3, "6month": 6, yearly: 12 };

export function isBillingPeriod(value: string): value is BillingPeriod {
  return (billingPeriods as readonly string[]).includes(value);
}

export function requireBillingPeriod(value: string): BillingPeriod {
  if (!isBillingPeriod(value)) {
    throw new EmuError(400, "INVALID_BILLING_PERIOD", `billingPeriod "${value}" is not one of ${billingPeriods.join(", ")}`);
  }
  return value;
}

/** The end of a period that starts at `fromMs`: calendar months, UTC. */
export function periodEnd(fromMs: number, period: BillingPeriod | "monthly"): number {
  const d = new Date(fromMs);
  d.setUTCMonth(d.getUTCMonth() + MONTHS[period]);
  return d.getTime();
}

/** Whole days left until `expiresAt` (a started day counts), never negative. */
export function daysLeft(emu: Emu, expiresAt: string): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - emu.nowMs()) / DAY_MS));
}

/** Prorated difference of two monthly prices for the days left: (new − old) × daysLeft / 30, whole Rupiah. */
export function prorate(newMonthly: number, oldMonthly: number, days: number): number {
  return Math.round(((newMonthly - oldMonthly) * days) / 30);
}

// ---- busy and accepted statuses ----

const TRANSITIONAL: VpsStatus[] = ["provisioning", "starting", "stopping", "restarting", "reinstalling", "upgrading", "restoring", "terminating"];

/** Why the server is busy (a transitional status, a snapshot rollback, backup setup or a snapshot being made on it), or null. */
export function busyReason(s: ServerRec): string | null {
  if (TRANSITIONAL.includes(s.status)) return `server is ${s.status}`;
  if (s.backup?.status === "setting_up") return "backup setup is running on the server";
  if (s.snapshots?.some((x) => x.status === "creating")) return "a snapshot is being made of the server";
  return null;
}

export type ServerAction = "start" | "stop" | "restart" | "reinstall" | "resetPassword" | "upgrade" | "firewall" | "terminate" | "snapshot" | "rollback";

/** Settled statuses each action accepts; a busy server answers 409 VPS_BUSY first. */
const ACCEPTS: Record<ServerAction, VpsStatus[]> = {
  start: ["stopped"],
  stop: ["running"],
  restart: ["running"],
  reinstall: ["running", "stopped"],
  resetPassword: ["running", "stopped"],
  upgrade: ["running", "stopped"],
  firewall: ["running", "stopped"],
  terminate: ["running", "stopped", "error"],
  snapshot: ["running", "stopped"],
  rollback: ["running", "stopped"],
};

export function guardAction(s: ServerRec, action: ServerAction): void {
  const busy = busyReason(s);
  if (busy) throw new EmuError(409, "VPS_BUSY", `Server busy (${busy}): poll GET /vps/${s.id} and retry once settled`);
  if (ACCEPTS[action].includes(s.status)) return;
  if (action === "start" && s.status === "running") throw new EmuError(400, "REQUEST_ERROR", "Server is already running");
  if (action === "stop" && s.status === "stopped") throw new EmuError(400, "REQUEST_ERROR", "Server is already stopped");
  throw new EmuError(400, "REQUEST_ERROR", `Status ${s.status} does not accept ${action} (accepted: ${ACCEPTS[action].join(", ")})`);
}

// ---- feeds ----

/** Activity entry for an action the key owner took on a server. */
export function userActivity(emu: Emu, s: ServerRec, action: string): void {
  emu.recordActivity({ projectId: s.projectId, action, entityType: "vps", entityId: s.id, entityName: s.name, actor: "user", byKeyOwner: true });
}

/** Activity entry for something the platform did on its own (a failed job, an auto-renewal). */
export function systemActivity(emu: Emu, s: ServerRec, action: string): void {
  emu.recordActivity({ projectId: s.projectId, action, entityType: "vps", entityId: s.id, entityName: s.name, actor: "system", byKeyOwner: false });
}
