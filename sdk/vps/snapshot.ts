import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsSnapshot");
import { commonInputs, type CommonArgs } from "../common";
import { declaredServer } from "./server-links";

export interface VpsSnapshotArgs extends CommonArgs {
  /** The server (`Vps.id`); its plan must hold snapshots (`snapshotLimit` above 0, see getVpsPlans). */
  vpsId: pulumi.Input<string>;
  /** 1 to 60 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit. Changing it replaces the snapshot. */
  name: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the id of a snapshot already on the server. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/**
 * A snapshot of a server: `up` waits until it is ready (the server is busy meanwhile: its other
 * resources in the same `up` wait). One that ends in `error` stays in the state with its `error`
 * and the next `up` replaces it. Destroy deletes it.
 */
export class VpsSnapshot extends pulumi.dynamic.Resource {
  declare readonly vpsId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  /** `ready`, or `error` (then `error` says why). */
  declare readonly status: pulumi.Output<"creating" | "ready" | "error">;
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly error: pulumi.Output<string | null>;

  constructor(name: string, args: VpsSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { status: undefined, sizeGb: undefined, createdAt: undefined, error: undefined, ...args, ...commonInputs(opts), declaredServer: declaredServer(args.vpsId, "snapshot") },
      opts,
      "svc",
      "VpsSnapshot",
    );
  }
}
