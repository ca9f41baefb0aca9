import * as pulumi from "@pulumi/pulumi";
import { resourceIdentity } from "../naming";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailPlan");
import { SvcResource, type ClassSpec } from "../common";
import { emailPlanOutputs, type EmailPlanArgs, type EmailPlanOutputs } from "../generated/EmailPlan";

export type { EmailPlanArgs };

/** What the last change of an {@link EmailPlan} charged (its output `billing`). */
export type EmailPlanBilling = EmailPlanOutputs["billing"] extends pulumi.Output<infer T> ? NonNullable<T> : never;

/** Profiles (by name; "" = the top-level settings) that have an EmailPlan in this program. */
const PLANS_KEY = Symbol.for("pulumi-svc.EmailPlan.profiles");
function claimProject(resourceName: string, profile: pulumi.Input<string> | undefined): void {
  // A profile given as an output is only known later: the guard covers the plain names programs use.
  if (profile !== undefined && typeof profile !== "string") return;
  const registry = ((globalThis as Record<symbol, Map<string, string>>)[PLANS_KEY] ??= new Map<string, string>());
  const key = profile ?? "";
  const first = registry.get(key);
  if (first !== undefined) {
    throw new Error(
      `EmailPlan "${resourceName}": the program already declares EmailPlan "${first}" for ${key ? `profile "${key}"` : "the default settings"}. ` +
        "A project has one email plan: declare one EmailPlan per project (per profile)",
    );
  }
  registry.set(key, resourceName);
}

const SPEC: ClassSpec = { type: "EmailPlan", outputs: emailPlanOutputs, idOutputs: ["projectId"] };

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
    // A `get` reads the plan: it claims nothing.
    if (!opts?.id) claimProject(name, args.profile);
    // The stable part of every Idempotency-Key this resource sends (the provider cannot see the URN).
    super(provider, SPEC, name, args, opts, { idempotencyScope: resourceIdentity("EmailPlan", name).slice(0, 24) });
  }
}
// The outputs, with their TSDoc, from the schema (../generated/EmailPlan.ts).
export interface EmailPlan extends EmailPlanOutputs {}
