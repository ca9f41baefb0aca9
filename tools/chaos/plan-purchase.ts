/**
 * Fault matrix cells of the email plan purchase (issue 26): the purchase (`POST /email/plan`, with
 * its Idempotency-Key) under each fault kind of ./matrix.ts, through the real provider host. Each
 * cell ends with one purchase and one charge from the wallet, every attempt carrying the same key;
 * a create that failed clearly is run again as the next `up` would, and must converge. Shared by
 * tests/email-plan/plan-faults.test.ts and `npm run chaos`.
 */
import type { FaultRuleInput } from "../../emulator/core/faults";
import { stackConfig } from "../support/provider-host";
import { startResourceHarness, type ResourceHarness } from "../support/resource-harness";
import { freshWorld, walletOf } from "../support/world";
import { FAULT_NAMES, SLOW_MS, TIMEOUT_SECONDS, type FaultKind } from "./matrix";

const PURCHASE = { method: "POST", path: "/email/plan" };
const PLAN = { planCode: "starter", idempotencyScope: "c0ffee00c0ffee00c0ffee00" };
export const PLAN_PRICE = 150_000;

/** The fault rule of each kind on the purchase (e: the email API's 503 "temporarily unavailable", which has no code of its own). */
export const PLAN_PURCHASE_CELLS: Record<FaultKind, FaultRuleInput> = {
  a: { ...PURCHASE, status: 500, code: "INTERNAL_ERROR", times: 1 },
  b: { ...PURCHASE, afterCommit: true, drop: true, times: 1 },
  c: { ...PURCHASE, status: 429, code: "RATE_LIMITED", times: 3 },
  d: { ...PURCHASE, afterCommit: true, delayMs: SLOW_MS, times: 1 },
  e: { ...PURCHASE, status: 503, code: "INTERNAL_ERROR", times: 1 },
};

/** A harness whose client gives up on an answer after TIMEOUT_SECONDS (fault d). */
export function startPlanHarness(): Promise<ResourceHarness> {
  return startResourceHarness({
    config: (emu) => ({
      ...stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] }),
      "svc:requestTimeoutSeconds": String(TIMEOUT_SECONDS),
    }),
  });
}

export interface PlanCellResult {
  label: string;
  problems: string[];
  /** Keyed purchase attempts the emulator received. */
  attempts: number;
  /** Distinct Idempotency-Keys among them (must be 1). */
  keys: number;
  /** Purchases the API carried out (must be 1). */
  purchases: number;
  charged: number;
  faultedOk: boolean;
}

export async function runPlanPurchaseCell(h: ResourceHarness, fault: FaultKind, times = 1): Promise<PlanCellResult> {
  const label = `EmailPlan create × ${fault} (${FAULT_NAMES[fault]})${times > 1 ? ` ×${times}` : ""}`;
  await freshWorld(h.emu);
  const before = walletOf(h.emu);
  const inputs = await h.checked("EmailPlan", PLAN);
  h.emu.control.clearRequests();
  const rule = PLAN_PURCHASE_CELLS[fault];
  await h.emu.ctl("POST", "/faults", { ...rule, times: (rule.times ?? 1) * times });
  const problems: string[] = [];
  let faultedOk = true;
  try {
    await h.host.create("EmailPlan", inputs);
  } catch (err) {
    faultedOk = false;
    const message = (err as Error).message;
    if (!/POST \/plan \d{3} [A-Z_]+|outcome unknown|REQUEST_IN_PROGRESS/.test(message)) problems.push(`unclear error: ${message}`);
    // Held answers (fault d) leave the key in progress until they are sent: the next `up` comes later.
    await new Promise((r) => setTimeout(r, fault === "d" ? SLOW_MS : 0));
    await h.emu.ctl("DELETE", "/faults");
    try {
      await h.host.create("EmailPlan", inputs);
    } catch (again) {
      problems.push(`the next up did not converge: ${(again as Error).message}`);
    }
  }
  await h.emu.ctl("DELETE", "/faults");
  const log = h.emu.control.requests().filter((r) => r.method === "POST" && r.path === "/email/plan" && r.idempotencyKey !== undefined);
  const keys = new Set(log.map((r) => r.idempotencyKey)).size;
  const purchases = h.emu.control.emu.world.activity.filter((a) => a.action === "email.plan.changed").length;
  const charged = before - walletOf(h.emu);
  if (keys !== 1) problems.push(`${keys} different Idempotency-Keys over ${log.length} attempts`);
  if (purchases !== 1) problems.push(`${purchases} purchases carried out`);
  if (charged !== PLAN_PRICE) problems.push(`charged IDR ${charged}, expected IDR ${PLAN_PRICE} once`);
  return { label, problems, attempts: log.length, keys, purchases, charged, faultedOk };
}
