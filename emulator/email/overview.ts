/**
 * `GET /status` (works without a plan) and `GET /analytics`. The emulator sends no email yet, so
 * every count and rate is 0; the reputation limits are the spec's (2 % bounces, 0.08 % complaints).
 */
import type { Handler } from "../core/app";
import type { EmailPlanLimits } from "../core/world";
import { callerProject } from "./state";

export const REPUTATION_LIMITS = { bounceRate: 0.02, complaintRate: 0.0008 } as const;

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

export const overviewHandlers: Record<"email.status" | "email.analytics", Handler> = {
  "email.status": (ctx) => {
    const project = callerProject(ctx);
    return {
      projectId: project.id,
      plan: project.email.plan ? planView(project.email.plan) : null,
      platformPaused: false,
      sendingEnabled: project.email.sendingEnabled,
    };
  },

  "email.analytics": () => ({
    sent: 0,
    delivered: 0,
    bounced: 0,
    complained: 0,
    bounceRate: 0,
    complaintRate: 0,
    limits: { ...REPUTATION_LIMITS },
  }),
};
