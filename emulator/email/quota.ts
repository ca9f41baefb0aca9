/**
 * Sending quota, counted per recipient (each address once per message) and reserved when a message
 * is accepted; refused sends count nothing. Usage is computed from the accepted messages, so the
 * windows move by themselves: the day starts at 00:00 UTC of the emulator clock, the month on the
 * subscription's day of the month (clamped to the month's length, at the subscription's time).
 * Past the monthly limit a plan with a pay-as-you-go rate keeps sending when the project switched
 * pay-as-you-go on, each recipient past the limit charged from the account wallet.
 */
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import { accountOfProject, type EmailPlanLimits, type Project } from "../core/world";
import { EMAIL_SUBSCRIBED_AT } from "../core/seed";
import { emailState } from "./state";

const DAY_MS = 86_400_000;

export function dayWindow(nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { start, end: start + DAY_MS };
}

/** The month window containing `nowMs`, anchored on the subscription date. */
export function monthWindow(subscribedAt: string, nowMs: number): { start: number; end: number } {
  const anchor = new Date(subscribedAt);
  const at = (year: number, month: number) => {
    const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return Date.UTC(year, month, Math.min(anchor.getUTCDate(), days), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds());
  };
  const now = new Date(nowMs);
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth();
  if (at(year, month) > nowMs) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
  }
  const start = at(year, month);
  const end = month === 11 ? at(year + 1, 0) : at(year, month + 1);
  return { start, end };
}

export interface Usage {
  daily: { used: number; limit: number | null; remaining: number | null; resetsAt: string };
  monthly: { used: number; limit: number; remaining: number; windowStart: string; resetsAt: string };
  payAsYouGo: { enabled: boolean; rate: number | null; charged: number };
}

function usedSince(emu: Emu, projectId: string, since: number): { recipients: number; charged: number } {
  let recipients = 0;
  let charged = 0;
  for (const e of emailState(emu.world).emails) {
    if (e.projectId !== projectId || Date.parse(e.createdAt) < since) continue;
    recipients += e.recipients.length;
    charged += e.charged;
  }
  return { recipients, charged };
}

export function usageOf(emu: Emu, project: Project, plan: EmailPlanLimits): Usage {
  const now = emu.nowMs();
  const day = dayWindow(now);
  const month = monthWindow(project.email.subscribedAt ?? EMAIL_SUBSCRIBED_AT, now);
  const daily = usedSince(emu, project.id, day.start).recipients;
  const monthly = usedSince(emu, project.id, month.start);
  return {
    daily: {
      used: daily,
      limit: plan.emailsPerDay,
      remaining: plan.emailsPerDay === null ? null : Math.max(0, plan.emailsPerDay - daily),
      resetsAt: new Date(day.end).toISOString(),
    },
    monthly: {
      used: monthly.recipients,
      limit: plan.emailsPerMonth,
      remaining: Math.max(0, plan.emailsPerMonth - monthly.recipients),
      windowStart: new Date(month.start).toISOString(),
      resetsAt: new Date(month.end).toISOString(),
    },
    payAsYouGo: { enabled: project.email.paygEnabled === true, rate: plan.paygRate ?? null, charged: monthly.charged },
  };
}

/**
 * Checks that `count` more recipients fit, in this order: DAILY_QUOTA_EXCEEDED, then past the
 * monthly limit MONTHLY_QUOTA_EXCEEDED (no rate), PAYG_DISABLED, WALLET_NOT_FOUND,
 * INSUFFICIENT_BALANCE. Answers the IDR to charge (0 within the plan); charges nothing itself.
 */
export function quotaCharge(emu: Emu, project: Project, plan: EmailPlanLimits, count: number): number {
  const usage = usageOf(emu, project, plan);
  const { daily, monthly } = usage;
  if (daily.limit !== null && daily.used + count > daily.limit) {
    throw new EmuError(402, "DAILY_QUOTA_EXCEEDED", `Daily limit reached: ${daily.used} of ${daily.limit} recipients used today, this message has ${count}; the limit resets at ${daily.resetsAt}`);
  }
  const over = Math.max(0, monthly.used + count - monthly.limit) - Math.max(0, monthly.used - monthly.limit);
  if (over === 0) return 0;
  const rate = usage.payAsYouGo.rate;
  if (rate === null) {
    throw new EmuError(402, "MONTHLY_QUOTA_EXCEEDED", `Monthly limit reached: ${monthly.used} of ${monthly.limit} recipients used since ${monthly.windowStart}, and the plan has no pay-as-you-go rate`);
  }
  if (!usage.payAsYouGo.enabled) {
    throw new EmuError(402, "PAYG_DISABLED", `Monthly limit reached (${monthly.used} of ${monthly.limit}) and pay-as-you-go is off: turn it on in the dashboard or wait until ${monthly.resetsAt}`);
  }
  if (emailState(emu.world).switches.walletMissing) throw new EmuError(404, "WALLET_NOT_FOUND", "No wallet found for pay-as-you-go");
  const amount = over * rate;
  const available = accountOfProject(emu.world, project.id).wallet;
  if (amount > available) {
    throw new EmuError(
      402,
      "INSUFFICIENT_BALANCE",
      `Pay-as-you-go needs more wallet deposit: ${over} recipients past the monthly limit cost IDR ${amount.toLocaleString("en-US")}, available IDR ${available.toLocaleString("en-US")}`,
      { required: amount, available },
    );
  }
  return amount;
}
