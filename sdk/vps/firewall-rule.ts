import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsFirewallRule");
import { commonInputs, type CommonArgs } from "../common";
import type { FirewallAction, FirewallProtocol } from "../../contract/schemas";

export interface VpsFirewallRuleArgs extends CommonArgs {
  /** The server (`Vps.id`). */
  vpsId: pulumi.Input<string>;
  protocol: pulumi.Input<FirewallProtocol>;
  action: pulumi.Input<FirewallAction>;
  /** `"22"` or `"8000-8100"` (1–65535, not reversed); required for tcp/udp, absent for icmp. */
  port?: pulumi.Input<string>;
  /** IPv4/IPv6 address or CIDR. */
  source: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the id of a rule already on the server. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** One firewall rule of a server. Any change replaces the rule (the API has no rule update). */
export class VpsFirewallRule extends pulumi.dynamic.Resource {
  declare readonly vpsId: pulumi.Output<string>;
  declare readonly protocol: pulumi.Output<string>;
  declare readonly action: pulumi.Output<string>;
  declare readonly port: pulumi.Output<string | undefined>;
  declare readonly source: pulumi.Output<string>;
  declare readonly ruleId: pulumi.Output<string>;

  constructor(name: string, args: VpsFirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ruleId: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "VpsFirewallRule");
  }
}
