/**
 * Server access (assumed-routes.md "Server access"; platform-api.md "Firewall, SSH key, snapshot
 * rules", the VPS codes): SSH keys and port forwards (only on servers that share their plan's public
 * address: 409 FEATURE_NOT_AVAILABLE elsewhere; added on a running server: 409 INSTANCE_NOT_RUNNING),
 * snapshots (a background job that keeps the server busy until the snapshot is `ready` or `error`)
 * and rollback to a snapshot (status `restoring`, then the status before the call, on failure too).
 *
 * Order of the refusals: the request's own values (400), then the server's feature, busy and status
 * (409), then what is on it already (409/400). A private key is refused before anything else and is
 * never stored, logged or echoed.
 */
import type { Ctx, HandlerTable } from "../core/module";
import type { TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { holdsPrivateKey, parseSshPublicKey } from "../../contract/ssh-keys";
import { JOB, JOB_SECONDS, jobFailed, jobSucceeded } from "./jobs";
import {
  accessOf,
  busyReason,
  findServer,
  guardAction,
  planOf,
  serverById,
  userActivity,
  vpsState,
  vpsView,
  type PortForwardRec,
  type ServerRec,
  type SnapshotRec,
  type SshKeyRec,
  type VpsStatus,
} from "./state";

export const SSH_KEY_LIMIT = 10;
/** tcp/udp public ports: given or assigned from here up (1024–65535). */
const FIRST_ASSIGNED_PORT = 20_000;
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}$/;
/** A public fully-qualified name: labels of letters, digits and inner hyphens, a letter-only top level. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function keyView(k: SshKeyRec) {
  return { fingerprint: k.fingerprint, type: k.type, label: k.label, publicKey: k.publicKey, createdAt: k.createdAt };
}
function forwardView(f: PortForwardRec) {
  return { id: f.id, protocol: f.protocol, privatePort: f.privatePort, publicPort: f.publicPort, domain: f.domain, createdAt: f.createdAt };
}
function snapshotView(x: SnapshotRec) {
  return { id: x.id, name: x.name, status: x.status, sizeGb: x.sizeGb, createdAt: x.createdAt, error: x.error };
}

/** Keys and forwards need a server that shares its plan's address, resting and running. */
function requireReachableServer(ctx: Ctx, s: ServerRec, what: string): void {
  if (!planOf(ctx.world, s).sharedAddress) {
    throw new EmuError(409, "FEATURE_NOT_AVAILABLE", `${what} need a server that shares a public address; server ${s.id} has its own address (plan ${planOf(ctx.world, s).name})`);
  }
  const busy = busyReason(s);
  if (busy) throw new EmuError(409, "VPS_BUSY", `Server busy (${busy}): poll GET /vps/${s.id} and retry once settled`);
  if (s.status !== "running") throw new EmuError(409, "INSTANCE_NOT_RUNNING", `The change is applied on the running server; server is ${s.status}: start it first`);
}

/** Live servers behind the same shared address as `s` (itself included). */
function sameAddress(ctx: Ctx, s: ServerRec): ServerRec[] {
  if (s.publicIp === null) return [s];
  return vpsState(ctx.world).servers.filter((x) => x === s || (x.status !== "terminated" && x.publicIp === s.publicIp));
}

function parseForward(body: { protocol: string; privatePort: number; publicPort?: number; domain?: string }): Omit<PortForwardRec, "id" | "createdAt"> {
  const invalid = (message: string): never => {
    throw new EmuError(400, "INVALID_PORT", message);
  };
  const protocol = body.protocol;
  if (protocol !== "tcp" && protocol !== "udp" && protocol !== "http" && protocol !== "https") invalid("protocol must be tcp, udp, http or https");
  if (!Number.isInteger(body.privatePort) || body.privatePort < 1 || body.privatePort > 65535) invalid("privatePort must be 1 to 65535");
  if (protocol === "tcp" || protocol === "udp") {
    if (body.domain !== undefined) invalid(`${protocol} forwards route by port: domain is only for http and https`);
    if (body.publicPort !== undefined && (!Number.isInteger(body.publicPort) || body.publicPort < 1024 || body.publicPort > 65535)) {
      invalid("publicPort must be 1024 to 65535 (or left out: the platform assigns one)");
    }
    return { protocol: protocol as "tcp" | "udp", privatePort: body.privatePort, publicPort: body.publicPort ?? 0, domain: null };
  }
  const fixed = protocol === "http" ? 80 : 443;
  if (body.publicPort !== undefined && body.publicPort !== fixed) invalid(`${protocol} uses public port ${fixed}`);
  if (body.domain === undefined) {
    if (protocol === "https") invalid("https needs a domain");
  } else if (!DOMAIN.test(body.domain)) {
    invalid("domain must be a public fully-qualified name in lower case");
  }
  return { protocol: protocol as "http" | "https", privatePort: body.privatePort, publicPort: fixed, domain: body.domain ?? null };
}

type Access = ReturnType<typeof accessOf>;

/** Removes the one record of the server's `list` that `matches`, or throws `notFound` (nothing removed). */
function remove<K extends keyof Access>(ctx: Ctx, list: K, matches: (item: Access[K][number]) => boolean, notFound: EmuError, activity: string) {
  const s = findServer(ctx);
  const items = accessOf(s)[list] as Access[K][number][];
  const found = items.find(matches);
  if (!found) throw notFound;
  (s[list] as Access[K][number][]) = items.filter((x) => x !== found);
  userActivity(ctx.emu, s, activity);
  return { deleted: true as const };
}

export const accessHandlers: HandlerTable = {
  // ---- SSH keys ----
  "vps.sshKeys.list": (ctx) => accessOf(findServer(ctx)).sshKeys.map(keyView),

  "vps.sshKeys.add": (ctx) => {
    const s = findServer(ctx);
    const body = ctx.body;
    // Never stored, never echoed: the message says what it was, not what it said.
    if (holdsPrivateKey(body.publicKey)) throw new EmuError(400, "PRIVATE_KEY_REJECTED", "A private key was sent; it was not stored. Send the public key (the .pub file)");
    const parsed = parseSshPublicKey(body.publicKey);
    if ("problem" in parsed) throw new EmuError(400, "INVALID_SSH_KEY", `publicKey: ${parsed.problem}`);
    requireReachableServer(ctx, s, "SSH keys");
    const { sshKeys } = accessOf(s);
    if (sshKeys.some((k) => k.fingerprint === parsed.fingerprint)) throw new EmuError(409, "SSH_KEY_EXISTS", `Key ${parsed.fingerprint} is already on the server`);
    if (sshKeys.length >= SSH_KEY_LIMIT) throw new EmuError(400, "SSH_KEY_LIMIT", `Server already has ${SSH_KEY_LIMIT} keys`);
    const key: SshKeyRec = { fingerprint: parsed.fingerprint, type: parsed.type, label: body.label ?? null, publicKey: body.publicKey.trim(), createdAt: ctx.emu.nowIso() };
    sshKeys.push(key);
    userActivity(ctx.emu, s, "vps.sshKey.add");
    return keyView(key);
  },

  "vps.sshKeys.delete": (ctx) =>
    remove(ctx, "sshKeys", (k) => k.fingerprint === ctx.params.fingerprint, new EmuError(404, "SSH_KEY_NOT_FOUND", `No key ${ctx.params.fingerprint} on this server`), "vps.sshKey.remove"),

  // ---- port forwards ----
  "vps.portForwards.list": (ctx) => accessOf(findServer(ctx)).portForwards.map(forwardView),

  "vps.portForwards.add": (ctx) => {
    const s = findServer(ctx);
    const wanted = parseForward(ctx.body);
    requireReachableServer(ctx, s, "Port forwards");
    const taken = sameAddress(ctx, s).flatMap((x) => accessOf(x).portForwards);
    if (wanted.domain !== null) {
      // http and https route by domain: one forward per domain and protocol on the address.
      if (taken.some((f) => f.protocol === wanted.protocol && f.domain === wanted.domain)) {
        throw new EmuError(409, "PORT_TAKEN", `${wanted.domain} is already routed (${wanted.protocol}) on address ${s.publicIp}`);
      }
    } else if (wanted.protocol === "tcp" || wanted.protocol === "udp") {
      const used = new Set(taken.filter((f) => f.protocol === wanted.protocol).map((f) => f.publicPort));
      if (wanted.publicPort === 0) {
        let port = FIRST_ASSIGNED_PORT;
        while (used.has(port)) port++;
        wanted.publicPort = port;
      } else if (used.has(wanted.publicPort)) {
        throw new EmuError(409, "PORT_TAKEN", `Public ${wanted.protocol} port ${wanted.publicPort} is already forwarded on address ${s.publicIp}`);
      }
    } else if (taken.some((f) => f.protocol === wanted.protocol && f.domain === null)) {
      // http without a domain takes the whole port 80 of the address.
      throw new EmuError(409, "PORT_TAKEN", `Public port ${wanted.publicPort} is already forwarded on address ${s.publicIp}`);
    }
    const forward: PortForwardRec = { id: ctx.emu.uuid(), ...wanted, createdAt: ctx.emu.nowIso() };
    accessOf(s).portForwards.push(forward);
    userActivity(ctx.emu, s, "vps.portForward.add");
    return forwardView(forward);
  },

  "vps.portForwards.delete": (ctx) =>
    remove(ctx, "portForwards", (f) => f.id === ctx.params.portId, new EmuError(404, "PORT_NOT_FOUND", `No port forward ${ctx.params.portId} on this server`), "vps.portForward.remove"),

  // ---- snapshots ----
  "vps.snapshots.list": (ctx) => accessOf(findServer(ctx)).snapshots.map(snapshotView),

  "vps.snapshots.create": (ctx) => {
    const s = findServer(ctx);
    const { name } = ctx.body;
    if (!SNAPSHOT_NAME.test(name)) {
      throw new EmuError(400, "INVALID_SNAPSHOT_NAME", "Snapshot name: 1 to 60 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit");
    }
    const plan = planOf(ctx.world, s);
    const limit = plan.snapshotLimit ?? 0;
    if (limit === 0) throw new EmuError(400, "REQUEST_ERROR", `Snapshots are unavailable on plan ${plan.name}`);
    guardAction(s, "snapshot");
    const { snapshots } = accessOf(s);
    // A snapshot that failed holds nothing: it does not count against the limit.
    if (snapshots.filter((x) => x.status !== "error").length >= limit) {
      throw new EmuError(400, "REQUEST_ERROR", `Snapshot limit reached (${limit} on plan ${plan.name}): delete one first`);
    }
    const snapshot: SnapshotRec = { id: ctx.emu.uuid(), name, status: "creating", sizeGb: 0, createdAt: ctx.emu.nowIso(), error: null };
    snapshots.push(snapshot);
    ctx.emu.schedule(JOB.snapshot, { serverId: s.id, snapshotId: snapshot.id }, JOB_SECONDS[JOB.snapshot]);
    userActivity(ctx.emu, s, "vps.snapshot.create");
    return snapshotView(snapshot);
  },

  // A snapshot still being made is cancelled with it: the server is free again.
  "vps.snapshots.delete": (ctx) =>
    remove(ctx, "snapshots", (x) => x.id === ctx.params.snapshotId, new EmuError(404, "SNAPSHOT_NOT_FOUND", `No snapshot ${ctx.params.snapshotId} on this server`), "vps.snapshot.delete"),

  "vps.snapshots.rollback": (ctx) => {
    const s = findServer(ctx);
    const snapshot = accessOf(s).snapshots.find((x) => x.id === ctx.params.snapshotId);
    if (!snapshot) throw new EmuError(400, "REQUEST_ERROR", `Snapshot ${ctx.params.snapshotId} is not a snapshot of this server`);
    guardAction(s, "rollback");
    if (snapshot.status !== "ready") throw new EmuError(400, "REQUEST_ERROR", `Snapshot ${snapshot.id} is not ready (it is ${snapshot.status})`);
    ctx.emu.schedule(JOB.rollback, { serverId: s.id, before: s.status }, JOB_SECONDS[JOB.rollback]);
    s.status = "restoring";
    userActivity(ctx.emu, s, "vps.snapshot.rollback");
    return vpsView(s, ctx.world);
  },
};

export const accessTransitions: Record<string, TransitionFn> = {
  [JOB.snapshot]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    const snapshot = s?.snapshots?.find((x) => x.id === p.snapshotId);
    // Deleted (or the server terminated) while being made: nothing left to finish.
    if (!s || !snapshot || snapshot.status !== "creating") return;
    const reason = emu.takeJobFailure(JOB.snapshot);
    if (reason) {
      snapshot.status = "error";
      snapshot.error = reason;
      jobFailed(emu, s, JOB.snapshot, reason);
      return;
    }
    snapshot.status = "ready";
    // What the disk holds: a share of the plan's disk, in tenths of a GB.
    snapshot.sizeGb = Math.round(planOf(emu.world, s).diskGb * 0.3 * 10) / 10;
    jobSucceeded(s);
  },

  // Success and failure both end in the status before the call; a failure leaves the disk as it was.
  [JOB.rollback]: (emu, p) => {
    const s = serverById(emu, p.serverId);
    if (!s || s.status !== "restoring") return;
    s.status = p.before as VpsStatus;
    const reason = emu.takeJobFailure(JOB.rollback);
    if (reason) {
      jobFailed(emu, s, JOB.rollback, reason);
      return;
    }
    jobSucceeded(s);
  },
};
