/**
 * VpsSnapshot: a restore point of a server. Create waits until the snapshot is `ready`; delete
 * removes it. A snapshot whose job fails ends in `error`: the create is a partial failure (the id and
 * the error stay in the state) and the next preview shows a replace (diff on `status`). A name or
 * server change replaces it too (the API has no update); the new one is made before the old one is
 * deleted, so a plan whose snapshot limit is reached needs the resource option `deleteBeforeReplace`.
 *
 * While a snapshot is made the server is busy (VPS_BUSY for its firewall, keys, forwards, backups,
 * power): the snapshot marks its server busy in this process (server-waits.ts busyUntil) from the
 * moment it is sent until it is ready, so the server's other resources in the same `up` wait for it
 * instead of collecting refusals; a refusal that comes anyway (a snapshot made elsewhere) is waited
 * out by retryWhileBusy. Taking the snapshot goes through createOnce (../create-once.ts): a snapshot of
 * the same name on this stack's server, not failed, is this resource's (an interrupted create made it).
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import { snapshotStatus, type Snapshot } from "../../contract/schemas";
import { waitFor } from "../client/poller";
import { diffInputs, isNotFound, operationError, operationFailed, PartialFailure, pick, UUID, type DiffResult, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema } from "../schema";
import type { CallContext } from "../context";
import { busyUntil, retryWhileBusy, serverDeadline } from "./server-waits";
import { busyServerWait, createsObject, declaredServerInput, serverAccessHint, serverAccessRules, VPS_BUSY_ADVICE } from "./server-access";

export const vpsSnapshotSchema = defineSchema({
  type: "VpsSnapshot",
  sdk: { declaredServer: { kind: "snapshot" } },
  service: "platform",
  summary:
    "A snapshot of a server: a restore point. `up` waits until it is ready (the server is busy meanwhile: its other resources in the same `up` wait). One that ends in `error` stays in the state with its `error`, and the next `up` replaces it. Destroy deletes it. Free of charge.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// The plan must hold snapshots (getVpsPlans: snapshotLimit above 0).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const baseline = new svc.VpsSnapshot("baseline", { vpsId: server.id, name: "baseline" });

export const snapshotStatus = baseline.status; // "ready"
`,
  inputs: {
    vpsId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
      description: "The server to take the snapshot of: a `Vps`'s `id`. Its plan must hold snapshots (`snapshotLimit` above 0, see `getVpsPlans`).",
      change: "replace",
    },
    name: {
      schema: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}$/, "1 to 60 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit"),
      description: "The snapshot's name on the server (names may repeat on a server: give each resource its own).",
      change: "replace",
      changeText:
        "replaces the snapshot: the new one is made before the old one is deleted, so on a plan whose `snapshotLimit` is reached set the resource option `deleteBeforeReplace: true`",
    },
    adoptId: { ...adoptIdInput("the id of a snapshot already on the server"), schema: z.string().regex(UUID, "a snapshot id (UUID)").optional() },
    declaredServer: declaredServerInput,
  },
  outputs: {
    status: { schema: snapshotStatus, description: "`ready` once `up` is done, or `error` (then `error` says why, and the next preview shows a replace)." },
    sizeGb: { schema: z.number(), description: "The snapshot's size, in GB." },
    createdAt: { schema: z.string(), description: "When the snapshot was taken (ISO 8601)." },
    error: { schema: z.string().nullable(), description: "Why the snapshot failed (its own error, else the server's last job error), or null." },
  },
  waits: [
    { what: "create: the snapshot to be `ready` (read 0.5 s after the call, then every 0.75 s growing to 2 s)", limit: "20 min" },
    busyServerWait("create"),
  ],
  adoption:
    "`adoptId` is the snapshot's id. The create finds it on the server (nothing is taken), waits while it is being made, and takes its name: where that differs from the program, the next preview replaces it.",
  interrupted:
    "A snapshot of the same name on this stack's server, not failed, is this resource's (an interrupted create took it): the next `up` adopts it and waits until it is ready.",
  errors: {
    REQUEST_ERROR: "The plan refuses another snapshot (its `snapshotLimit` reached, or snapshots unavailable on it: see `getVpsPlans`): delete one, or, for a replace, set the resource option `deleteBeforeReplace: true`.",
    INVALID_SNAPSHOT_NAME: "The name breaks the API's rule: the check refuses these at preview.",
    INSTANCE_NOT_FOUND: "No server `vpsId` in reach of this key (on delete: the snapshot counts as deleted).",
    VPS_BUSY: VPS_BUSY_ADVICE,
  },
  notes:
    "While a snapshot is made the server is busy (`VPS_BUSY` for its power, firewall, keys, forwards and backups): the server's other resources in the same `up` wait for it, they do not fail; a refusal that comes anyway (a snapshot made elsewhere) is waited out. A plan with `snapshotLimit` 0 is refused at preview (known at preview as for [VpsSshKey](VpsSshKey.md)). A snapshot whose job fails stays in the state with `status: \"error\"` and its `error` (the `up` reports it); a failed snapshot holds nothing to restore and does not count against the plan's limit. Delete removes it; one already gone (or whose server is terminated) counts as deleted.",
});
/** The snapshot's own values: any change replaces it. */
const SNAPSHOT_INPUTS = changesOf(vpsSnapshotSchema).replace;
const OUTPUT_INPUTS = ["vpsId", "name", "adoptId"];

function outputs(inputs: Props, snapshot: Snapshot, error: string | null): Props {
  return { ...pick(inputs, OUTPUT_INPUTS), status: snapshot.status, sizeGb: snapshot.sizeGb, createdAt: snapshot.createdAt, error };
}

/** Why a snapshot failed: its own error, else the server's last job error. */
async function errorOf(ctx: CallContext, vpsId: string, snapshot: Snapshot): Promise<string | null> {
  if (snapshot.status !== "error") return null;
  if (snapshot.error) return snapshot.error;
  const server = await ctx.api.platform.call("vps.get", { params: { id: vpsId } }).catch(() => undefined);
  return server?.lastJobError ?? "the snapshot job failed, no reason given";
}

/** Waits until the snapshot is no longer `creating` (undefined: it was deleted meanwhile). */
function waitMade(ctx: CallContext, vpsId: string, id: string, seen: Snapshot): Promise<Snapshot | undefined> {
  if (seen.status !== "creating") return Promise.resolve(seen);
  return waitFor(async () => (await ctx.api.snapshotsOf(vpsId).fresh()).find((s) => s.id === id), (s) => s === undefined || s.status !== "creating", {
    what: `snapshot ${id} of server ${vpsId} to be ready`,
    deadline: serverDeadline(ctx),
    log: ctx.api.log,
    describe: (s) => (s ? s.status : "gone"),
    // How long a snapshot takes depends on the disk (the API gives no figure): read 0.5 s after the
    // answer, then every 0.75 s growing to 2 s at most, so its end is seen within 2 s.
    firstReadInMs: 500,
    firstDelayMs: 750,
    maxDelayMs: 2_000,
  });
}

function hintFor(err: unknown, vpsId: string): string | undefined {
  if (isApiError(err, "REQUEST_ERROR")) {
    return `The plan of server ${vpsId} refuses another snapshot (limit reached or snapshots unavailable: see getVpsPlans, snapshotLimit). Delete one, or, for a replace, set the resource option deleteBeforeReplace: true`;
  }
  return serverAccessHint(err, vpsId, "snapshots");
}

export const vpsSnapshot = defineResource(vpsSnapshotSchema, {
  async check(olds, news, ctx) {
    const result = checkSchema(vpsSnapshotSchema, news);
    if (result.failures.length === 0) result.failures.push(...(await serverAccessRules(ctx, result.inputs, "snapshots", createsObject(olds, result.inputs, SNAPSHOT_INPUTS))));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    // A snapshot that failed holds nothing to restore: the next `up` takes it again.
    if (olds.status === "error") return { changes: true, replaces: ["status"] };
    return diffInputs(olds, news, changesOf(vpsSnapshotSchema));
  },

  // Each failure is worded here: the wait's as a partial failure, the snapshot's own error by its status.
  ownCreateErrors: true,
  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId;
    const name = inputs.name;
    // From the moment it is sent until it is made, the server is busy: this process's other actions
    // on it wait for `made` (a refused send frees it at once).
    let madeEnded!: () => void;
    const made = new Promise<void>((resolve) => (madeEnded = resolve));
    const take = () => {
      const answered = api.call("vps.snapshots.create", { params: { id: vpsId }, body: { name } });
      void busyUntil(ctx, vpsId, answered.then(() => made));
      return answered;
    };
    try {
      let found: { object: Snapshot; adopted: boolean };
      try {
        found = await createOnce<Snapshot>(ctx, inputs, {
          noun: "snapshot",
          idOf: (s) => s.id,
          describe: (s) => `named "${s.name}" on server ${vpsId}`,
          adopt: async (adoptId) => {
            const live = (await ctx.api.snapshotsOf(vpsId).fresh()).find((s) => s.id === adoptId);
            if (!live) throw operationFailed("create", `adoptId "${adoptId}": server ${vpsId} has no snapshot with this id; remove adoptId to take one`);
            return live;
          },
          // Its name on this stack's server tells the snapshot; a failed one is never taken for it.
          find: async () => ({ objects: (await ctx.api.snapshotsOf(vpsId).fresh()).filter((s) => s.name === name && s.status !== "error"), provablyMine: true }),
          send: () => retryWhileBusy(ctx, vpsId, take),
          otherwise: "give this snapshot another name",
        });
      } catch (err) {
        throw operationError("create", err, hintFor(err, vpsId));
      }
      const id = found.object.id;
      const values = found.adopted && inputs.adoptId !== undefined ? { ...inputs, name: found.object.name } : inputs;
      let snapshot: Snapshot | undefined;
      try {
        snapshot = await waitMade(ctx, vpsId, id, found.object);
      } catch (err) {
        throw new PartialFailure(id, outputs(values, found.object, null), inputs, operationError("create", err).message);
      }
      if (!snapshot) throw operationFailed("create", `snapshot ${id} of server ${vpsId} was deleted while it was being made; \`pulumi up\` may take it again`);
      if (snapshot.status === "error") {
        const error = await errorOf(ctx, vpsId, snapshot);
        // Kept in the state with its error: the next preview shows the replace that takes it again.
        throw new PartialFailure(id, outputs(values, snapshot, error), inputs, `create failed: snapshot "${name}" of server ${vpsId} ended in status error: ${error}. The next \`pulumi up\` replaces it`);
      }
      return { id, outs: outputs(values, snapshot, null) };
    } finally {
      madeEnded();
    }
  },

  async update(id, _olds, news, ctx) {
    // Reached only after a partial failure with nothing to replace (a wait that timed out): finish waiting.
    const vpsId = news.vpsId;
    const live = (await ctx.api.snapshotsOf(vpsId).fresh().catch((err) => Promise.reject(operationError("update", err)))).find((s) => s.id === id);
    if (!live) throw new Error(`update failed: server ${vpsId} has no snapshot ${id} any more: run \`pulumi refresh\`, then \`pulumi up\``);
    const snapshot = (await waitMade(ctx, vpsId, id, live)) ?? live;
    return { outs: outputs(news, snapshot, await errorOf(ctx, vpsId, snapshot)) };
  },

  async read(id, props, ctx) {
    const vpsId = props.vpsId;
    // An import has no state to name the server.
    if (vpsId === undefined) return { id: "", props: {} };
    let snapshots: Snapshot[];
    try {
      snapshots = await ctx.api.snapshotsOf(vpsId).snapshot();
    } catch (err) {
      if (isNotFound(err)) return { id: "", props: {} };
      throw operationError("read", err);
    }
    const snapshot = snapshots.find((s) => s.id === id);
    if (!snapshot) return { id: "", props: {} };
    const inputs = { ...pick(props, ["vpsId", "adoptId"]), name: snapshot.name };
    return { id, props: outputs(inputs, snapshot, await errorOf(ctx, vpsId, snapshot)), inputs };
  },

  // SNAPSHOT_NOT_FOUND or INSTANCE_NOT_FOUND: already gone (a terminated server keeps no snapshots).
  remove: async (id, { vpsId }, ctx) => {
    // An import has no state to name the server: nothing to delete.
    if (vpsId !== undefined) await ctx.api.platform.call("vps.snapshots.delete", { params: { id: vpsId, snapshotId: id } });
  },
});
