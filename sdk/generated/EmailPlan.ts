// Written by `npm run docs` from the schema in provider/email/plan.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link EmailPlan}. Reference: docs/EmailPlan.md. */
export interface EmailPlanArgs extends AdoptableArgs {
  /**
   * A plan code from `getEmailPlans()` (the emulator sells `free`, `starter`, `business`…).
   * - Rule: must not be empty.
   * - A change: updates in place: a larger plan applies at once, charged the prorated difference; a smaller one is scheduled for the next renewal (`scheduledPlanCode`), nothing charged.
   */
  planCode: pulumi.Input<string>;
  /**
   * The period a purchase and each renewal buys, in months.
   * - Rule: 1 or 12: the API sells a plan by the month or by the year.
   * - Default: `1`.
   * - A change: updates in place: the plan is bought again for the new period (`POST /plan`).
   */
  months?: pulumi.Input<1 | 12>;
  /**
   * Inbox add-ons by code (`extra-mailboxes`, `extra-storage`) with their quantity, for example `{ "extra-mailboxes": 2 }`; needs a plan with receiving. 0 removes one; an add-on left out is left as it is.
   * - Rule: each value: a whole number; at least 0.
   * - A change: updates in place: more units are charged pro rata; fewer (0 removes) are neither charged nor refunded.
   */
  addons?: pulumi.Input<Record<string, pulumi.Input<number>>>;
}

/** The outputs of {@link EmailPlan}: every argument as applied, and what the API makes. */
export interface EmailPlanOutputs {
  /** A plan code from `getEmailPlans()` (the emulator sells `free`, `starter`, `business`…). */
  readonly planCode: pulumi.Output<string>;
  /** The period a purchase and each renewal buys, in months. */
  readonly months: pulumi.Output<1 | 12>;
  /** Inbox add-ons by code (`extra-mailboxes`, `extra-storage`) with their quantity, for example `{ "extra-mailboxes": 2 }`; needs a plan with receiving. 0 removes one; an add-on left out is left as it is. */
  readonly addons: pulumi.Output<Record<string, number> | undefined>;
  /** The project whose plan this is (also the Pulumi id). */
  readonly projectId: pulumi.Output<string>;
  /** The plan in force now: differs from `planCode` while a smaller plan is scheduled. */
  readonly activePlanCode: pulumi.Output<string>;
  /** The smaller plan that starts at the next renewal, or null. */
  readonly scheduledPlanCode: pulumi.Output<string | null>;
  /** `active`; `ended` once the plan ran out (the next `up` buys it again); `none` before any plan. */
  readonly status: pulumi.Output<"active" | "ended" | "none">;
  /** When the current period started (ISO 8601), or null. */
  readonly startedAt: pulumi.Output<string | null>;
  /** When the current period ends and the plan renews or ends (ISO 8601), or null. */
  readonly expiresAt: pulumi.Output<string | null>;
  /** Whether the plan renews from the wallet at `expiresAt` (set in the dashboard). */
  readonly autoRenew: pulumi.Output<boolean>;
  /** How many `up`s changed the plan through this resource: part of each Idempotency-Key, so a later, different change gets a new key. */
  readonly changes: pulumi.Output<number>;
  /** What the last change charged: `total` and the part of it paid from the deposit (`depositCharged`), in the wallet's currency; undefined before any. */
  readonly billing: pulumi.Output<{ total: number; depositCharged: number } | undefined>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const emailPlanOutputs = {
  computed: { planCode: undefined, months: undefined, addons: undefined, projectId: undefined, activePlanCode: undefined, scheduledPlanCode: undefined, status: undefined, startedAt: undefined, expiresAt: undefined, autoRenew: undefined, changes: undefined, billing: undefined },
  secret: [] as string[],
};
