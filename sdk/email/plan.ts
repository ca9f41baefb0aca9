import * as pulumi from "@pulumi/pulumi";
import { resourceIdentity } from "../naming";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailPlan");
import { commonInputs, type CommonArgs } from "../common";

export interface EmailPlanArgs extends CommonArgs {
  /** A plan code from `getEmailPlans()`. A larger plan applies at once, charged the prorated
   * difference; a smaller one is scheduled for the next renewal (`scheduledPlanCode`), nothing charged. */
  planCode: pulumi.Input<string>;
  /** The period a purchase and each renewal buys: 1 (default) or 12 months. */
  months?: pulumi.Input<1 | 12>;
  /** Inbox add-ons by code with their quantity, e.g. `{ "extra-mailboxes": 2 }` (needs a plan with
   * receiving). More units are charged pro rata; fewer (0 removes) charge and refund nothing. */
  addons?: pulumi.Input<Record<string, pulumi.Input<number>>>;
  /** The project's id (`getEmailStatus().projectId`): manage the current plan as it is, buying nothing.
   * Where it differs from this program, the next `pulumi up` changes it as usual. */
  adoptId?: pulumi.Input<string>;
}

export interface EmailPlanBilling {
  total: number;
  depositCharged: number;
}

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

/**
 * The project's email plan, bought from the account's wallet. Preview prices any change (a free dry
 * run) and refuses one the wallet cannot pay; `up` sends each purchase once, with an Idempotency-Key
 * derived from the stack, this resource and the change, so a retry or a rerun never charges twice.
 * One per project: a second EmailPlan for the same profile fails the program at preview.
 * `pulumi destroy` leaves the plan active: cancelling is dashboard-only.
 */
export class EmailPlan extends pulumi.dynamic.Resource {
  declare readonly planCode: pulumi.Output<string>;
  declare readonly months: pulumi.Output<1 | 12>;
  declare readonly addons: pulumi.Output<Record<string, number> | undefined>;
  declare readonly projectId: pulumi.Output<string>;
  /** The plan in force now (differs from `planCode` while a smaller plan is scheduled). */
  declare readonly activePlanCode: pulumi.Output<string>;
  /** The smaller plan that starts at the next renewal, or null. */
  declare readonly scheduledPlanCode: pulumi.Output<string | null>;
  declare readonly status: pulumi.Output<"active" | "ended" | "none">;
  declare readonly startedAt: pulumi.Output<string | null>;
  declare readonly expiresAt: pulumi.Output<string | null>;
  declare readonly autoRenew: pulumi.Output<boolean>;
  /** What the last change charged. */
  declare readonly billing: pulumi.Output<EmailPlanBilling | undefined>;

  constructor(name: string, args: EmailPlanArgs, opts?: pulumi.CustomResourceOptions) {
    claimProject(name, args.profile);
    super(
      provider,
      name,
      {
        projectId: undefined, activePlanCode: undefined, scheduledPlanCode: undefined, status: undefined, startedAt: undefined,
        expiresAt: undefined, autoRenew: undefined, billing: undefined,
        ...args,
        ...commonInputs(opts),
        // The stable part of every Idempotency-Key this resource sends (the provider cannot see the URN).
        idempotencyScope: resourceIdentity("EmailPlan", name).slice(0, 24),
      },
      opts,
      "svc",
      "EmailPlan",
    );
  }
}
