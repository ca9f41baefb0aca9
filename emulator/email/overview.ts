/**
 * `GET /status` (works without a plan) and `GET /analytics`: real counts from the project's
 * messages. Status adds to the contract's fields the quota usage (`usage`), the reasons sending may
 * be refused (`platformPausedReason`, `tenantPaused`, `reputationSuspended`). Analytics counts
 * recipients (each address once per message), all time; the rates are the rolling reputation
 * window's (reputation.ts), with the spec's limits (2 % bounces, 0.08 % complaints).
 */
import type { Handlers } from "../core/module";
import type { EmailPlanLimits } from "../core/world";
import { usageOf } from "./quota";
import { REPUTATION_LIMITS, reputationOf, totalsOf } from "./reputation";
import { callerProject, emailState } from "./state";

export { REPUTATION_LIMITS };

function planView(plan: EmailPlanLimits) {
  return {
    name: plan.name,
    emailsPerDay: plan.emailsPerDay,
    emailsPerMonth: plan.emailsPerMonth,
    domains: plan.domains,
    templates: plan.templates,
    webhooks: plan.webhooks,
  };
}

export const overviewHandlers: Handlers<"email.status" | "email.analytics"> = {
  "email.status": (ctx) => {
    const project = callerProject(ctx);
    const { switches } = emailState(ctx.world);
    const plan = project.email.plan;
    return {
      projectId: project.id,
      plan: plan ? planView(plan) : null,
      platformPaused: switches.platformPaused,
      platformPausedReason: switches.platformPaused ? (switches.platformPausedReason ?? "The platform's combined sending reputation is at risk") : null,
      sendingEnabled: project.email.sendingEnabled,
      tenantPaused: project.email.tenantPaused === true,
      reputationSuspended: plan ? reputationOf(ctx.emu, project.id).suspended : false,
      usage: plan ? usageOf(ctx.emu, project, plan) : null,
    };
  },

  "email.analytics": (ctx) => {
    const project = callerProject(ctx);
    const totals = totalsOf(ctx.emu, project.id);
    const rep = reputationOf(ctx.emu, project.id);
    return {
      sent: totals.sent,
      delivered: totals.delivered,
      bounced: totals.bounced,
      complained: totals.complained,
      bounceRate: rep.bounceRate,
      complaintRate: rep.complaintRate,
      limits: { ...REPUTATION_LIMITS },
    };
  },
};
