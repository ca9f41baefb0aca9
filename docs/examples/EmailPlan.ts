// Written by `npm run docs` from the schema in provider/email/plan.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

// The project's plan: starter, bought by the month, with one extra mailbox.
const plan = new svc.EmailPlan("plan", {
  planCode: "starter",
  months: 1,
  addons: { "extra-mailboxes": 1 },
});

export const activePlan = plan.activePlanCode;
export const renewsAt = plan.expiresAt;
