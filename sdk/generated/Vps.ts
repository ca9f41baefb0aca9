// Written by `npm run docs` from the schema in provider/vps/vps.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link Vps}. Reference: docs/Vps.md. */
export interface VpsArgs extends AdoptableArgs {
  /**
   * The project the server belongs to.
   * - Rule: must not be empty; a project id (UUID).
   * - Default: the stack config `svc:projectId` (environment `SVC_PROJECT_ID`); one of the two is required.
   * - A change: replaces the object.
   */
  projectId?: pulumi.Input<string>;
  /**
   * A plan id from `getVpsPlans` (`GET /vps/plans`): the server's size, region and price. Checked at preview against the plan catalogue.
   * - Rule: must not be empty.
   * - A change: a larger plan of the same family and region **updates in place** (an upgrade, charged prorated); a smaller plan, or one of another family or region, is **refused at preview** (give the server a new name to replace it instead); with a new `name` or `projectId` any plan goes, the server being replaced.
   */
  planId: pulumi.Input<string>;
  /**
   * The server's name in the project.
   * - Rule: at least 3 characters, no control characters (line breaks, tabs, NUL); spaces and any other character allowed.
   * - Default: the resource name and a 7-hex suffix derived from organization, project, stack and resource name, the same on every try (so a repeated first create finds the server an interrupted one made); a state of 0.1.0 keeps its random suffix.
   * - A change: replaces the object.
   */
  name?: pulumi.Input<string>;
  /**
   * The operating system: with `osVersion`, one of the plan's `osTemplates` (checked at preview).
   * - Rule: must not be empty.
   * - A change: **reinstalls in place: the disk is wiped**, the server and its address are kept.
   */
  osType: pulumi.Input<string>;
  /**
   * The operating system's version: with `osType`, one of the plan's `osTemplates`.
   * - Rule: must not be empty.
   * - A change: **reinstalls in place: the disk is wiped**, the server and its address are kept.
   */
  osVersion: pulumi.Input<string>;
  /**
   * The root password the server is installed with.
   * - Rule: 12 to 30 characters: letters, digits and ! @ # $ % ^ *.
   * - A change: updates in place: the password is reset (done when the server answers the new one).
   * - Secret: stored encrypted, never printed.
   */
  rootPassword: pulumi.Input<string>;
  /**
   * The period of the purchase, and of the automatic renewals: each renewal charges the plan's price for this period (`getVpsRenewalOptions`) and extends the server by it.
   * - Rule: one of `monthly`, `3month`, `6month`, `yearly`.
   * - Default: `"monthly"`.
   * - A change: updates in place with `PATCH /vps/{id}/auto-renew`: the next automatic renewal charges the new period; nothing is charged now. A refresh reads the server's period, so one changed in the dashboard shows as drift.
   */
  billingPeriod?: pulumi.Input<"monthly" | "3month" | "6month" | "yearly">;
  /**
   * Renew from the wallet before the server expires.
   * - Default: `true`.
   * - A change: updates in place.
   */
  autoRenew?: pulumi.Input<boolean>;
  /**
   * Whether the server runs.
   * - Rule: one of `running`, `stopped`.
   * - Default: `"running"`.
   * - A change: updates in place: starts or stops the server.
   */
  powerState?: pulumi.Input<"running" | "stopped">;
}

/** The outputs of {@link Vps}: every argument as applied, and what the API makes. */
export interface VpsOutputs {
  /** The project the server belongs to. */
  readonly projectId: pulumi.Output<string>;
  /** A plan id from `getVpsPlans` (`GET /vps/plans`): the server's size, region and price. Checked at preview against the plan catalogue. */
  readonly planId: pulumi.Output<string>;
  /** The server's name in the project. */
  readonly name: pulumi.Output<string>;
  /** The operating system: with `osVersion`, one of the plan's `osTemplates` (checked at preview). */
  readonly osType: pulumi.Output<string>;
  /** The operating system's version: with `osType`, one of the plan's `osTemplates`. */
  readonly osVersion: pulumi.Output<string>;
  /** The root password the server is installed with. A secret output. */
  readonly rootPassword: pulumi.Output<string>;
  /** The period of the purchase, and of the automatic renewals: each renewal charges the plan's price for this period (`getVpsRenewalOptions`) and extends the server by it. */
  readonly billingPeriod: pulumi.Output<"monthly" | "3month" | "6month" | "yearly">;
  /** Renew from the wallet before the server expires. */
  readonly autoRenew: pulumi.Output<boolean>;
  /** Whether the server runs. */
  readonly powerState: pulumi.Output<"running" | "stopped">;
  /** The server's state at the API: `running` or `stopped` once `up` is done; `error` when a job failed it (the next preview then shows a replace). */
  readonly status: pulumi.Output<"provisioning" | "starting" | "stopping" | "restarting" | "reinstalling" | "upgrading" | "restoring" | "running" | "stopped" | "error" | "terminating" | "terminated">;
  /** The server's public IPv4 address (on a plan that shares one, the shared address); null until it has one. */
  readonly publicIp: pulumi.Output<string | null>;
  /** When the current billing period ends (ISO 8601): the server is renewed then when `autoRenew`, else it expires. */
  readonly expiresAt: pulumi.Output<string>;
  /** The status of the server's last background job (create, upgrade, reinstall, power…) as the API reports it: `error` when one failed (then `lastJobError` says why); null when none ran. */
  readonly lastJobStatus: pulumi.Output<string | null>;
  /** Why the last job failed, as the API says it (cleaned of root passwords), or null. */
  readonly lastJobError: pulumi.Output<string | null>;
  /** The login user, from the server's credentials (absent when they could not be read). */
  readonly username: pulumi.Output<string | undefined>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsOutputs = {
  computed: { projectId: undefined, planId: undefined, name: undefined, osType: undefined, osVersion: undefined, rootPassword: undefined, billingPeriod: undefined, autoRenew: undefined, powerState: undefined, status: undefined, publicIp: undefined, expiresAt: undefined, lastJobStatus: undefined, lastJobError: undefined, username: undefined },
  secret: ["rootPassword"] as string[],
};
