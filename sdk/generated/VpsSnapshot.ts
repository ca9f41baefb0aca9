// Written by `npm run docs` from the schema in provider/vps/snapshot.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link VpsSnapshot}. Reference: docs/VpsSnapshot.md. */
export interface VpsSnapshotArgs extends AdoptableArgs {
  /**
   * The server to take the snapshot of: a `Vps`'s `id`. Its plan must hold snapshots (`snapshotLimit` above 0, see `getVpsPlans`).
   * - Rule: must not be empty; a server id (UUID): the Vps's id.
   * - A change: replaces the object.
   */
  vpsId: pulumi.Input<string>;
  /**
   * The snapshot's name on the server (names may repeat on a server: give each resource its own).
   * - Rule: 1 to 60 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.
   * - A change: replaces the snapshot: the new one is made before the old one is deleted, so on a plan whose `snapshotLimit` is reached set the resource option `deleteBeforeReplace: true`.
   */
  name: pulumi.Input<string>;
}

/** The outputs of {@link VpsSnapshot}: every argument as applied, and what the API makes. */
export interface VpsSnapshotOutputs {
  /** The server to take the snapshot of: a `Vps`'s `id`. Its plan must hold snapshots (`snapshotLimit` above 0, see `getVpsPlans`). */
  readonly vpsId: pulumi.Output<string>;
  /** The snapshot's name on the server (names may repeat on a server: give each resource its own). */
  readonly name: pulumi.Output<string>;
  /** `ready` once `up` is done, or `error` (then `error` says why, and the next preview shows a replace). */
  readonly status: pulumi.Output<"creating" | "ready" | "error">;
  /** The snapshot's size, in GB. */
  readonly sizeGb: pulumi.Output<number>;
  /** When the snapshot was taken (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
  /** Why the snapshot failed (its own error, else the server's last job error), or null. */
  readonly error: pulumi.Output<string | null>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsSnapshotOutputs = {
  computed: { vpsId: undefined, name: undefined, status: undefined, sizeGb: undefined, createdAt: undefined, error: undefined },
  secret: [] as string[],
};
