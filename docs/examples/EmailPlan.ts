// The example of docs/EmailPlan.md. Written by `npm run docs` from the schema in provider/email/plan.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// The project's plan: starter, bought by the month, with one extra mailbox.
const plan = new svc.EmailPlan("plan", {
  planCode: "starter",
  months: 1,
  addons: { "extra-mailboxes": 1 },
});

export const activePlan = plan.activePlanCode;
export const renewsAt = plan.expiresAt;
