/**
 * pulumi-svc example: the project's email plan, bought from the wallet, and its audience structure.
 *
 * `pulumi preview` prices the plan with a free dry run (the price shows as a message; a plan the
 * wallet cannot pay is refused there); `pulumi up` buys it once — a retry or a rerun after an
 * interrupted `up` sends the same Idempotency-Key and is never charged twice. `pulumi destroy`
 * removes the topic and the segment and leaves the plan active: cancelling is dashboard-only.
 *
 * Config (`pulumi config set ...`):
 *   svc:emailUrl, svc:emailApiKey (secret)
 *   svc-email-plan:planCode   a code from getEmailPlans() (default: starter)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

const plan = new svc.EmailPlan("plan", { planCode: config.get("planCode") ?? "starter", months: 1 });

const news = new svc.EmailTopic("news", { name: "Product news", description: "Monthly product updates" }, { dependsOn: [plan] });

const customers = new svc.EmailSegment(
  "customers",
  { name: "Acme customers", rules: [{ field: "email", operator: "contains", value: "@acme.dev" }] },
  { dependsOn: [plan] },
);

export const planCode = plan.activePlanCode;
export const expiresAt = plan.expiresAt;
export const charged = plan.billing.apply((b) => b?.total ?? 0);
export const topicId = news.topicId;
export const segmentId = customers.segmentId;
