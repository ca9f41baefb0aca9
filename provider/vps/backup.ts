/**
 * VpsBackup: the backup add-on of a server (one per server: the id is the server's id). Activation
 * and a move to a larger plan are paid: an unknown outcome is settled by reading the add-on, never
 * by a second call.
 */
import { z } from "zod";
import { isApiError, OutcomeUnknownError } from "../client/errors";
import type { ApiClient } from "../client/http";
import type { BackupAddon } from "../client/schemas";
import { systemClock } from "../client/rate-limit";
import { waitFor } from "../client/wait";
import { checkInputs, diffInputs, isNotFound, operationError, PartialFailure, pick, type Props, type ResourceImpl } from "../resource";
import { platformApi } from "../runtime";
import { retryWhileBusy, SERVER_TIMEOUT_MS } from "./settle";

const fields = {
  vpsId: z.string().min(1, "must not be empty"),
  planCode: z.string().min(1, "must not be empty"),
};
const INPUTS = Object.keys(fields);
/** Refusals that say "not yet": the node or its agent will be ready soon. */
const NOT_YET = new Set(["NODE_NOT_READY", "AGENT_OFFLINE"]);

function outputs(inputs: Props, addon: BackupAddon): Props {
  return { ...pick(inputs, INPUTS), status: addon.status, quotaGb: addon.quotaGb, usedGb: addon.usedGb, expiresAt: addon.expiresAt };
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
async function paidCall(api: ApiClient, vpsId: string, call: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + SERVER_TIMEOUT_MS;
  let pauseMs = 1_000;
  for (;;) {
    try {
      await retryWhileBusy(api, vpsId, call, deadline);
      return;
    } catch (err) {
      if (!(isApiError(err) && NOT_YET.has(err.code)) || Date.now() >= deadline) throw err;
      await systemClock.sleep(pauseMs);
      pauseMs = Math.min(pauseMs * 1.5, 10_000);
    }
  }
}

function waitActive(api: ApiClient, vpsId: string, planCode: string): Promise<BackupAddon | undefined> {
  return waitFor(
    () => readAddon(api, vpsId),
    (a) => a === undefined || (a.planCode === planCode && a.status === "active"),
    { what: `the backup add-on of server ${vpsId} to be active on ${planCode}`, timeoutMs: SERVER_TIMEOUT_MS, describe: (a) => (a ? `${a.planCode} ${a.status}` : "none") },
  );
}

function hintFor(err: unknown, vpsId: string): string | undefined {
  if (isApiError(err, "ALREADY_SUBSCRIBED")) return `Server ${vpsId} already has a backup add-on: to manage it here, add the resource option \`import: "${vpsId}"\`, run \`pulumi up\`, then remove the option`;
  if (isApiError(err, "OVER_NEW_QUOTA")) return "The smaller plan cannot hold the server's current backups: keep the larger plan, or delete backups first";
  if (isApiError(err, "VPS_NOT_RUNNING")) return "Backups need a running server: set the Vps powerState to running";
  if (isApiError(err, "NOT_ELIGIBLE")) return "Backups need a provisioned Linux server";
  if (isApiError(err, "INSUFFICIENT_BALANCE")) return "Top up the wallet, then run `pulumi up` again";
  return undefined;
}

export const vpsBackup: ResourceImpl = {
  async check(_olds, news) {
    return checkInputs(news, fields);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: ["vpsId"], update: ["planCode"] });
  },

  async create(inputs) {
    const api = platformApi();
    const vpsId = inputs.vpsId as string;
    const planCode = inputs.planCode as string;
    try {
      await paidCall(api, vpsId, () => api.call("vps.backup.activate", { params: { id: vpsId }, body: { planCode } }));
    } catch (err) {
      const settled = err instanceof OutcomeUnknownError ? await readAddon(api, vpsId).catch(() => undefined) : undefined;
      if (!settled) throw operationError("create", err, err instanceof OutcomeUnknownError ? "No add-on was activated, so nothing was charged; `pulumi up` may try again" : hintFor(err, vpsId));
    }
    const addon = await waitActive(api, vpsId, planCode).catch((err) => {
      throw new PartialFailure(vpsId, pick(inputs, INPUTS), inputs, operationError("create", err).message);
    });
    if (!addon) {
      // The add-on is gone: its setup job failed; the server's last job error says why.
      const reason = await api.call("vps.get", { params: { id: vpsId } }).then((s) => s.lastJobError, () => null);
      throw new Error(`create failed: the backup setup of server ${vpsId} failed${reason ? ` (${reason})` : ""} and was refunded; \`pulumi up\` may try again`);
    }
    return { id: vpsId, outs: outputs(inputs, addon) };
  },

  async update(id, olds, news) {
    const api = platformApi();
    const planCode = news.planCode as string;
    if (olds.planCode !== planCode) {
      try {
        await paidCall(api, id, () => api.call("vps.backup.changePlan", { params: { id }, body: { planCode } }));
      } catch (err) {
        const settled = err instanceof OutcomeUnknownError && (await readAddon(api, id).catch(() => undefined))?.planCode === planCode;
        if (!settled) throw operationError("update", err, hintFor(err, id));
      }
    }
    const addon = await waitActive(api, id, planCode).catch((err) => {
      throw operationError("update", err);
    });
    if (!addon) throw new Error(`update failed: server ${id} has no backup add-on any more: run \`pulumi refresh\`, then \`pulumi up\``);
    return { outs: outputs(news, addon) };
  },

  async read(id) {
    let addon: BackupAddon | undefined;
    try {
      addon = await readAddon(platformApi(), id);
    } catch (err) {
      throw operationError("read", err);
    }
    if (!addon) return { id: "", props: {} };
    const inputs = { vpsId: id, planCode: addon.planCode };
    return { id, props: outputs(inputs, addon), inputs };
  },

  async delete(id) {
    try {
      await platformApi().call("vps.backup.cancel", { params: { id } });
    } catch (err) {
      // NOT_SUBSCRIBED or INSTANCE_NOT_FOUND: nothing left to cancel.
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
