/**
 * Project reputation: bounce and complaint rates per recipient over a rolling window of the
 * project's messages. Above the limits (GET /analytics `limits`: 2 % bounces, 0.08 % complaints),
 * once the window holds a minimum volume, sending is suspended (403 REPUTATION_SUSPENDED). The
 * suspension lifts when the rates fall under the limits (messages leave the window) or after the
 * project has been quiet (accepted no message) for QUIET_HOURS; a quiet lift starts the rates afresh.
 */
import type { Emu } from "../core/emu";
import { emailState, type EmailRec } from "./state";

export const REPUTATION_LIMITS = { bounceRate: 0.02, complaintRate: 0.0008 } as const;
/** Rolling window of the rates. */
export const WINDOW_DAYS = 7;
/** Rates are judged once the window holds this many sent recipients. */
export const MIN_VOLUME = 20;
/** A suspended project that accepted nothing for this long is lifted. */
export const QUIET_HOURS = 24;

export interface Reputation {
  sent: number;
  bounced: number;
  complained: number;
  bounceRate: number;
  complaintRate: number;
  suspended: boolean;
}

/** Recipients of a message that left the queue (sent, delivered, bounced, complained). */
function wasSent(e: EmailRec): boolean {
  return e.status !== "queued" && e.status !== "failed";
}

function ratesOf(emails: EmailRec[]): Omit<Reputation, "suspended"> {
  let sent = 0;
  let bounced = 0;
  let complained = 0;
  for (const e of emails) {
    if (!wasSent(e)) continue;
    sent += e.recipients.length;
    bounced += e.bounced.length;
    complained += e.complained.length;
  }
  const rate = (n: number) => (sent === 0 ? 0 : n / sent);
  return { sent, bounced, complained, bounceRate: rate(bounced), complaintRate: rate(complained) };
}

/** All-time counts of the project (analytics). */
export function totalsOf(emu: Emu, projectId: string): Omit<Reputation, "suspended" | "bounceRate" | "complaintRate"> & { delivered: number } {
  const emails = emailState(emu.world).emails.filter((e) => e.projectId === projectId);
  const rates = ratesOf(emails);
  let delivered = 0;
  for (const e of emails) if (e.deliveredAt) delivered += e.recipients.length - e.bounced.length;
  return { sent: rates.sent, bounced: rates.bounced, complained: rates.complained, delivered };
}

/** The project's rolling rates and whether it is suspended now; applies a quiet lift. */
export function reputationOf(emu: Emu, projectId: string): Reputation {
  const state = emailState(emu.world);
  const now = emu.nowMs();
  const resetAt = state.reputationResetAt[projectId] ? Date.parse(state.reputationResetAt[projectId]) : -Infinity;
  const since = Math.max(now - WINDOW_DAYS * 86_400_000, resetAt);
  const own = state.emails.filter((e) => e.projectId === projectId);
  const rates = ratesOf(own.filter((e) => Date.parse(e.createdAt) >= since));
  const over = rates.sent >= MIN_VOLUME && (rates.bounceRate > REPUTATION_LIMITS.bounceRate || rates.complaintRate > REPUTATION_LIMITS.complaintRate);
  if (!over) return { ...rates, suspended: false };
  const lastAccepted = Math.max(...own.map((e) => Date.parse(e.createdAt)));
  if (now - lastAccepted >= QUIET_HOURS * 3_600_000) {
    state.reputationResetAt[projectId] = emu.nowIso();
    return { sent: 0, bounced: 0, complained: 0, bounceRate: 0, complaintRate: 0, suspended: false };
  }
  return { ...rates, suspended: true };
}
