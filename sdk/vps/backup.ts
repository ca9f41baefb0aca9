import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsBackup");
import { commonInputs, type CommonArgs } from "../common";

export interface VpsBackupArgs extends CommonArgs {
  /** The server (`Vps.id`); one add-on per server. Changing it replaces the add-on. */
  vpsId: pulumi.Input<string>;
  /** A backup plan code from `GET /backup/plans`. Changes in place; a larger plan is charged prorated. */
  planCode: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the server id whose existing backup add-on to manage. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** The backup add-on of a server (paid; activation is never sent twice). Destroy cancels it. */
export class VpsBackup extends pulumi.dynamic.Resource {
  declare readonly vpsId: pulumi.Output<string>;
  declare readonly planCode: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string>;
  declare readonly quotaGb: pulumi.Output<number>;
  declare readonly usedGb: pulumi.Output<number>;
  declare readonly expiresAt: pulumi.Output<string>;

  constructor(name: string, args: VpsBackupArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { status: undefined, quotaGb: undefined, usedGb: undefined, expiresAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "VpsBackup");
  }
}
