import * as pulumi from "@pulumi/pulumi";
import { defaultName } from "../naming";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Vps");
import { commonInputs, type CommonArgs } from "../common";
import { linkServer } from "./server-links";

import type { BillingPeriod } from "../../contract/schemas";

export type { BillingPeriod };

export interface VpsArgs extends CommonArgs {
  /** Project of the server (default: stack config svc:projectId). Changing it replaces the server. */
  projectId?: pulumi.Input<string>;
  /** A plan id from `GET /vps/plans`. A larger plan of the same family and region upgrades in place
   * (prorated charge); a smaller or other-family plan is refused at preview. */
  planId: pulumi.Input<string>;
  /** At least 3 characters (default: the resource name and a suffix derived from organization, project, stack and
   * resource name, so a repeated first create finds the server an interrupted one made). Changing it replaces the server. */
  name?: pulumi.Input<string>;
  /** One of the plan's `osTemplates`. Changing osType/osVersion REINSTALLS in place: the disk is wiped, server and IP kept. */
  osType: pulumi.Input<string>;
  osVersion: pulumi.Input<string>;
  /** 12 to 30 letters, digits and `! @ # $ % ^ *`. Stored as a secret. Changing it resets the password. */
  rootPassword: pulumi.Input<string>;
  /** `monthly` (default), `3month`, `6month` or `yearly`. A change applies at the next renewal. */
  billingPeriod?: pulumi.Input<BillingPeriod>;
  /** Renew from the wallet before expiry (default true). */
  autoRenew?: pulumi.Input<boolean>;
  /** `running` (default) or `stopped`. */
  powerState?: pulumi.Input<"running" | "stopped">;
  /** Manage an existing object instead of creating one: the id of an existing server (not terminated) of the project. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/**
 * A virtual server. `up` waits until it runs. Create is paid and never sent twice: an interrupted
 * create is settled by listing the project's servers.
 */
export class Vps extends pulumi.dynamic.Resource {
  declare readonly projectId: pulumi.Output<string>;
  declare readonly planId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly osType: pulumi.Output<string>;
  declare readonly osVersion: pulumi.Output<string>;
  declare readonly rootPassword: pulumi.Output<string>;
  declare readonly billingPeriod: pulumi.Output<BillingPeriod>;
  declare readonly autoRenew: pulumi.Output<boolean>;
  declare readonly powerState: pulumi.Output<"running" | "stopped">;
  declare readonly status: pulumi.Output<string>;
  declare readonly publicIp: pulumi.Output<string | null>;
  declare readonly expiresAt: pulumi.Output<string>;
  declare readonly lastJobStatus: pulumi.Output<string | null>;
  declare readonly lastJobError: pulumi.Output<string | null>;
  /** Login user from the server's credentials. */
  declare readonly username: pulumi.Output<string | undefined>;

  constructor(name: string, args: VpsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        status: undefined, publicIp: undefined, expiresAt: undefined, lastJobStatus: undefined, lastJobError: undefined, username: undefined,
        ...args,
        ...commonInputs(opts),
        // The name a new server gets when `name` is not given (see ../naming.ts); not sent beside a
        // name given as a plain value (it would only take room in the state).
        defaultName: typeof args.name === "string" ? undefined : defaultName("Vps", name),
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["rootPassword"] }),
      "svc",
      "Vps",
    );
    // Its keys, forwards and snapshots learn its plan and power state at preview (./server-links.ts).
    linkServer(this.id, args);
  }
}
