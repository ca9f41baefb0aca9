/**
 * The platform's catalogues the server checks need: server plans and backup plan codes. Each is read
 * at most once a minute per profile (its context: a profile may set its own \`apiUrl\`, so another
 * platform's catalogue), and checks running at the same time (a fleet's) share one read; a failed
 * read is not kept.
 */
import { systemClock, type Clock } from "../client/clock";
import { Kept, type ApiContext } from "../context";
import type { VpsPlan } from "../../contract/schemas";
import type { RouteResponse } from "../../contract/routes";

const FRESH_MS = 60_000;

/** `clock`: the one every wait and cache of the client reads (client/backoff.ts). */
function minuteCache<T>(clock: Clock = systemClock): (read: () => Promise<T>) => Promise<T> {
  let entry: { at: number; value: Promise<T> } | undefined;
  return (read) => {
    if (!entry || clock.now() - entry.at > FRESH_MS) {
      const current = { at: clock.now(), value: read() };
      entry = current;
      current.value.catch(() => {
        if (entry === current) entry = undefined;
      });
    }
    return entry.value;
  };
}

const VPS_PLANS = new Kept(() => minuteCache<VpsPlan[]>());
const BACKUP_PLANS = new Kept(() => minuteCache<RouteResponse<"backup.plans.list">>());

export const vpsPlans = (api: ApiContext): Promise<VpsPlan[]> => VPS_PLANS.of(api)(() => api.platform.call("vps.plans.list"));

/** The backup plans on sale (retired ones left out), with their quota and price. */
export const backupPlans = (api: ApiContext): Promise<RouteResponse<"backup.plans.list">> =>
  BACKUP_PLANS.of(api)(() => api.platform.call("backup.plans.list"));

export const backupPlanCodes = (api: ApiContext): Promise<string[]> => backupPlans(api).then((list) => list.map((p) => p.code));
