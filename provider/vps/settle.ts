/**
 * What the server resources share: waiting for a server to settle, and retrying an action the API
 * refused with VPS_BUSY once the server has settled (the spec's retry guidance).
 */
import { isApiError } from "../client/errors";
import type { ApiClient } from "../client/http";
import type { Vps, VpsPlan } from "../client/schemas";
import { systemClock } from "../client/rate-limit";
import { waitFor } from "../client/wait";

/** Statuses a server rests in; every other status is a transition in progress. */
export const SETTLED_STATUSES = new Set(["running", "stopped", "error", "terminated"]);

export const SERVER_TIMEOUT_MS = 20 * 60_000;

export function waitSettled(api: ApiClient, vpsId: string, timeoutMs = SERVER_TIMEOUT_MS): Promise<Vps> {
  return waitFor(
    () => api.call("vps.get", { params: { id: vpsId } }),
    (server) => SETTLED_STATUSES.has(server.status),
    { what: `server ${vpsId} to settle`, timeoutMs, describe: (s) => `status ${s.status}` },
  );
}

/**
 * Runs an action; while the API answers 409 VPS_BUSY (a transition, or backup setup running on the
 * server), waits for the server to settle and tries again, until `deadline` (epoch ms).
 */
export async function retryWhileBusy<T>(api: ApiClient, vpsId: string, action: () => Promise<T>, deadline = Date.now() + SERVER_TIMEOUT_MS): Promise<T> {
  let pauseMs = 500;
  for (;;) {
    try {
      return await action();
    } catch (err) {
      if (!isApiError(err, "VPS_BUSY") || Date.now() >= deadline) throw err;
      const now = await api.call("vps.get", { params: { id: vpsId } });
      if (!SETTLED_STATUSES.has(now.status)) {
        // In a transition: ask again as soon as it settles.
        await waitSettled(api, vpsId, Math.max(1_000, deadline - Date.now()));
      } else {
        // Settled yet busy: a backup job runs on it, with no status to watch. Back off.
        await systemClock.sleep(pauseMs);
        pauseMs = Math.min(pauseMs * 1.5, 5_000);
      }
    }
  }
}

let plansCache: { at: number; plans: VpsPlan[] } | undefined;

/** The plan catalogue, read at most once a minute per provider process. */
export async function vpsPlans(api: ApiClient): Promise<VpsPlan[]> {
  if (!plansCache || Date.now() - plansCache.at > 60_000) plansCache = { at: Date.now(), plans: await api.call("vps.plans.list") };
  return plansCache.plans;
}
