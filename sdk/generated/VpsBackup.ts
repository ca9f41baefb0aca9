// Written by `npm run docs` from the schema in provider/vps/backup.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link VpsBackup}. Reference: docs/VpsBackup.md. */
export interface VpsBackupArgs extends AdoptableArgs {
  /**
   * The server the add-on backs up: a `Vps`'s `id`. One add-on per server.
   * - Rule: must not be empty; a server id (UUID): the Vps's id.
   * - A change: replaces the object.
   */
  vpsId: pulumi.Input<string>;
  /**
   * A backup plan code from `getBackupPlans` (`GET /backup/plans`). Checked at preview when it changes: unknown and retired codes are refused (an add-on already on a plan retired since keeps it).
   * - Rule: must not be empty.
   * - A change: updates in place (`PATCH`); a larger plan is charged prorated, a smaller one must hold the server's current backups (`OVER_NEW_QUOTA`).
   */
  planCode: pulumi.Input<string>;
}

/** The outputs of {@link VpsBackup}: every argument as applied, and what the API makes. */
export interface VpsBackupOutputs {
  /** The server the add-on backs up: a `Vps`'s `id`. One add-on per server. */
  readonly vpsId: pulumi.Output<string>;
  /** A backup plan code from `getBackupPlans` (`GET /backup/plans`). Checked at preview when it changes: unknown and retired codes are refused (an add-on already on a plan retired since keeps it). */
  readonly planCode: pulumi.Output<string>;
  /** The add-on's status at the API: `active` once `up` is done. */
  readonly status: pulumi.Output<string>;
  /** The backup space the plan gives, in GB. */
  readonly quotaGb: pulumi.Output<number>;
  /** The backup space in use, in GB. */
  readonly usedGb: pulumi.Output<number>;
  /** When the add-on's current period ends (ISO 8601). */
  readonly expiresAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsBackupOutputs = {
  computed: { vpsId: undefined, planCode: undefined, status: undefined, quotaGb: undefined, usedGb: undefined, expiresAt: undefined },
  secret: [] as string[],
};
