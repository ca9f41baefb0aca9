/**
 * The plan purchase's cells of the fault matrix (tools/chaos/plan-purchase.ts): every fault kind on
 * `POST /email/plan` — 500 before acting, the answer dropped after commit, a burst of 429s, an
 * answer slower than the client's timeout, the email API's 503 — ends with one purchase and one
 * charge, every attempt carrying the same Idempotency-Key.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { perFile } from "../support/per-file";
import { runPlanPurchaseCell, startPlanHarness } from "../../tools/chaos/plan-purchase";
import { FAULT_KINDS } from "../../tools/chaos/matrix";

jest.setTimeout(60_000);
let h: ResourceHarness;
perFile<ResourceHarness>({ start: startPlanHarness, set: (x) => (h = x), close: (x) => x.close(), startTimeoutMs: 60_000 });

test.each(FAULT_KINDS)("fault %s on the purchase: one purchase, one charge, one key", async (fault) => {
  const r = await runPlanPurchaseCell(h, fault);
  expect(r.problems).toEqual([]);
  expect(r.attempts).toBeGreaterThanOrEqual(fault === "a" || fault === "e" ? 2 : 1);
  expect({ keys: r.keys, purchases: r.purchases, charged: r.charged }).toEqual({ keys: 1, purchases: 1, charged: 150_000 });
});
