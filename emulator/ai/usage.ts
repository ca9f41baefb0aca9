/**
 * What a finished request costs: the charge against the AI balance and the key's spend of this UTC
 * month, and its line in the usage ledger (latest first, capped). Only answers that produced output
 * are recorded: an error answered with a status is never charged.
 */
import type { Emu } from "../core/emu";
import type { AiCall } from "./call";
import { cost } from "./completions";
import type { KeyRecord } from "../core/world";
import { aiAccount, aiState, monthOf, USAGE_CAP, type AiModelRec, type AiUsageRec } from "./state";

export function recordUsage(emu: Emu, call: AiCall, model: AiModelRec, input: number, output: number, outcome: AiUsageRec["outcome"]): void {
  const amount = cost(model, input, output);
  charge(emu, call.key!, amount);
  const ai = aiAccount(emu.world, call.key!.accountId);
  ai.usage.unshift({ requestId: call.requestId!, time: emu.nowIso(), keyPrefix: call.key!.key.slice(0, 12), model: model.id, inputTokens: input, outputTokens: output, cost: amount, outcome });
  if (ai.usage.length > USAGE_CAP) ai.usage.length = USAGE_CAP;
}

/** From the key's account's AI balance; the key's spend of this month grows by it. */
function charge(emu: Emu, key: KeyRecord, amount: number): void {
  if (amount <= 0) return;
  const account = aiAccount(emu.world, key.accountId);
  account.balance = Math.max(0, account.balance - amount);
  const month = monthOf(emu.nowMs());
  const byMonth = (aiState(emu.world).spend[key.key] ??= {});
  byMonth[month] = (byMonth[month] ?? 0) + amount;
}
