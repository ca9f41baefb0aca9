/**
 * The four limits the spec checks before every request, a key's model allowlist, and the hold a
 * request takes against the AI balance before its model runs.
 */
import type { Emu } from "../core/emu";
import type { KeyRecord } from "../core/world";
import { AiError } from "./errors";
import { aiAccount, aiRuntime, aiState, heldTotal, monthOf, runtimeAccountId, type AiKeyLimits } from "./state";

export function keyLimitsOf(emu: Emu, key: string): AiKeyLimits {
  return aiState(emu.world).keyLimits[key] ?? { perMinute: null, monthlySpendLimit: null, models: null };
}

/** Whether the key's model allowlist, when it has one, names the model. */
export function keyAllowsModel(emu: Emu, key: KeyRecord, modelId: string): boolean {
  const allow = keyLimitsOf(emu, key.key).models;
  return !allow || allow.includes(modelId);
}

function spentThisMonth(emu: Emu, key: string): number {
  return aiState(emu.world).spend[key]?.[monthOf(emu.nowMs())] ?? 0;
}

/**
 * Checks 1 to 4 in the spec's order. Every attempt counts toward both per-minute windows first
 * (refused ones too); a refusal takes no slot. On success the account's concurrency slot is taken
 * and the returned function gives it back (idempotent).
 */
export function checkLimits(emu: Emu, key: KeyRecord): () => void {
  const ai = aiAccount(emu.world, key.accountId);
  const rt = aiRuntime(emu);
  const accountId = runtimeAccountId(emu.world, key.accountId);
  const minute = Math.floor(emu.nowMs() / 60_000);
  const bump = (id: string) => {
    const w = rt.windows.get(id);
    const next = w && w.minute === minute ? { minute, count: w.count + 1 } : { minute, count: 1 };
    rt.windows.set(id, next);
    return next.count;
  };
  const limits = keyLimitsOf(emu, key.key);
  const keyCount = bump(`key:${key.key}`);
  const accountCount = bump(`account:${accountId}`);
  if (limits.perMinute !== null && keyCount > limits.perMinute) {
    throw new AiError(429, "rate_limited", `Rate limit reached for this API key: limit ${limits.perMinute} per minute`);
  }
  if (accountCount > ai.account.perMinute) {
    throw new AiError(429, "rate_limited", `Rate limit reached for the account: limit ${ai.account.perMinute} per minute`);
  }
  if (limits.monthlySpendLimit !== null) {
    const spent = spentThisMonth(emu, key.key);
    if (spent >= limits.monthlySpendLimit) {
      throw new AiError(
        403,
        "key_spend_limit_reached",
        `This API key reached its monthly spend limit (IDR ${limits.monthlySpendLimit.toLocaleString("en-US")}, spent IDR ${spent.toLocaleString("en-US")} this UTC month)`,
      );
    }
  }
  const inFlight = rt.inFlight.get(accountId) ?? 0;
  if (inFlight >= ai.account.concurrency) {
    throw new AiError(429, "too_many_concurrent_requests", `Too many requests in progress for the account: limit ${ai.account.concurrency} at a time`);
  }
  rt.inFlight.set(accountId, inFlight + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (rt.inFlight.get(accountId) ?? 1) - 1;
    if (left > 0) rt.inFlight.set(accountId, left);
    else rt.inFlight.delete(accountId);
  };
}

/** Takes a hold of `amount` Rupiah against the key's account's available AI balance (balance minus its open holds), or 402. */
export function takeHold(emu: Emu, key: KeyRecord, requestId: string, amount: number): () => void {
  const ai = aiAccount(emu.world, key.accountId);
  const rt = aiRuntime(emu);
  const accountId = runtimeAccountId(emu.world, key.accountId);
  const available = ai.balance - heldTotal(rt, accountId);
  if (amount > available) {
    throw new AiError(
      402,
      "insufficient_balance",
      `Available AI balance IDR ${Math.max(0, available).toLocaleString("en-US")} cannot cover the hold of IDR ${amount.toLocaleString("en-US")} for this request: top up, enable auto top-up or lower max_tokens`,
    );
  }
  rt.holds.set(requestId, { accountId, amount });
  return () => void rt.holds.delete(requestId);
}
