/**
 * The platform's catalogues the server checks need: server plans and backup plan codes. Each is read
 * at most once a minute per provider process, and checks running at the same time (a fleet's) share
 * one read; a failed read is not kept.
 */
import type { ApiClient } from "../client/http";
import type { VpsPlan } from "../../contract/schemas";
import type { RouteResponse } from "../../contract/routes";

const FRESH_MS = 60_000;

function minuteCache<T>(): (read: () => Promise<T>) => Promise<T> {
  let entry: { at: number; value: Promise<T> } | undefined;
  return (read) => {
    if (!entry || Date.now() - entry.at > FRESH_MS) {
      const current = { at: Date.now(), value: read() };
      entry = current;
      current.value.catch(() => {
        if (entry === current) entry = undefined;
      });
    }
    return entry.value;
  };
}

const plans = minuteCache<VpsPlan[]>();
const backupCatalogue = minuteCache<RouteResponse<"backup.plans.list">>();

export const vpsPlans = (api: ApiClient): Promise<VpsPlan[]> => plans(() => api.call("vps.plans.list"));

/** The backup plans on sale (retired ones left out), with their quota and price. */
export const backupPlans = (api: ApiClient): Promise<RouteResponse<"backup.plans.list">> => backupCatalogue(() => api.call("backup.plans.list"));

export const backupPlanCodes = (api: ApiClient): Promise<string[]> => backupPlans(api).then((list) => list.map((p) => p.code));
