// Written by `npm run docs` from the schema in provider/email/plan.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailPlan");
import { SvcResource, type ClassSpec } from "../common";
import { emailPlanOutputs, type EmailPlanArgs, type EmailPlanOutputs } from "../generated/EmailPlan";

export type { EmailPlanArgs };

/** What the last change of an {@link EmailPlan} charged (its output `billing`). */
export type EmailPlanBilling = EmailPlanOutputs["billing"] extends pulumi.Output<infer T> ? NonNullable<T> : never;

const SPEC: ClassSpec = {
  type: "EmailPlan",
  outputs: emailPlanOutputs,
  idOutputs: ["projectId"],
  idempotencyScope: true,
  onePerProfile: "A project has one email plan: declare one EmailPlan per project (per profile)",
};

/**
 * The project's email plan, bought, changed and given its inbox add-ons from the account's wallet. Preview prices any change (a free dry run) and refuses one the wallet cannot pay; `up` sends each purchase once, with an Idempotency-Key derived from the stack, this resource and the change, so a retry or a rerun never charges twice. One per project; `pulumi destroy` leaves the plan active (cancelling is dashboard-only).
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // The project's plan: starter, bought by the month, with one extra mailbox.
 * const plan = new svc.EmailPlan("plan", {
 *   planCode: "starter",
 *   months: 1,
 *   addons: { "extra-mailboxes": 1 },
 * });
 *
 * export const activePlan = plan.activePlanCode;
 * export const renewsAt = plan.expiresAt;
 * ```
 *
 * Reference: docs/EmailPlan.md (inputs, outputs, waits, adoption, errors).
 */
export class EmailPlan extends SvcResource {
  constructor(name: string, args: EmailPlanArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/EmailPlan.ts).
export interface EmailPlan extends EmailPlanOutputs {}
