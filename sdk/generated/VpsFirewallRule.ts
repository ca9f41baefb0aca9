// Written by `npm run docs` from the schema in provider/vps/firewall-rule.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link VpsFirewallRule}. Reference: docs/VpsFirewallRule.md. */
export interface VpsFirewallRuleArgs extends AdoptableArgs {
  /**
   * The server whose firewall holds the rule: a `Vps`'s `id`.
   * - Rule: must not be empty; a server id (UUID): the Vps's id.
   * - A change: replaces the object.
   */
  vpsId: pulumi.Input<string>;
  /**
   * The protocol the rule matches.
   * - Rule: one of `tcp`, `udp`, `icmp`.
   * - A change: replaces the object.
   */
  protocol: pulumi.Input<"tcp" | "udp" | "icmp">;
  /**
   * What the rule does with the traffic it matches.
   * - Rule: one of `allow`, `deny`.
   * - A change: replaces the object.
   */
  action: pulumi.Input<"allow" | "deny">;
  /**
   * The port or port range the rule matches, as a string: `"22"` or `"8000-8100"`. Required for tcp and udp, absent for icmp.
   * - Rule: a port "22" or a range "8000-8100"; ports are 1 to 65535; a range must not be reversed.
   * - A change: replaces the object.
   */
  port?: pulumi.Input<string>;
  /**
   * Where the traffic comes from: an IPv4 or IPv6 address or CIDR (`0.0.0.0/0`: anywhere).
   * - Rule: an IPv4 or IPv6 address or CIDR, e.g. 203.0.113.0/24.
   * - A change: replaces the object.
   */
  source: pulumi.Input<string>;
}

/** The outputs of {@link VpsFirewallRule}: every argument as applied, and what the API makes. */
export interface VpsFirewallRuleOutputs {
  /** The server whose firewall holds the rule: a `Vps`'s `id`. */
  readonly vpsId: pulumi.Output<string>;
  /** The protocol the rule matches. */
  readonly protocol: pulumi.Output<"tcp" | "udp" | "icmp">;
  /** What the rule does with the traffic it matches. */
  readonly action: pulumi.Output<"allow" | "deny">;
  /** The port or port range the rule matches, as a string: `"22"` or `"8000-8100"`. Required for tcp and udp, absent for icmp. */
  readonly port: pulumi.Output<string | undefined>;
  /** Where the traffic comes from: an IPv4 or IPv6 address or CIDR (`0.0.0.0/0`: anywhere). */
  readonly source: pulumi.Output<string>;
  /** The rule's id at the API (also the resource's id). */
  readonly ruleId: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsFirewallRuleOutputs = {
  computed: { vpsId: undefined, protocol: undefined, action: undefined, port: undefined, source: undefined, ruleId: undefined },
  secret: [] as string[],
};
