// Written by `npm run docs` from the schema in provider/vps/firewall-rule.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsFirewallRule");
import { SvcResource, type ClassSpec } from "../common";
import { vpsFirewallRuleOutputs, type VpsFirewallRuleArgs, type VpsFirewallRuleOutputs } from "../generated/VpsFirewallRule";

export type { VpsFirewallRuleArgs };

const SPEC: ClassSpec = { type: "VpsFirewallRule", outputs: vpsFirewallRuleOutputs, idOutputs: ["ruleId"] };

/**
 * One rule of a server's firewall. Any change replaces the rule (the API has no rule update). One rule per resource; many rules of one server may be created at once.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * const server = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
 *
 * // SSH from the office only; HTTPS from anywhere.
 * new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" });
 * const https = new svc.VpsFirewallRule("https", { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });
 *
 * export const httpsRuleId = https.ruleId;
 * ```
 *
 * Reference: docs/VpsFirewallRule.md (inputs, outputs, waits, adoption, errors).
 */
export class VpsFirewallRule extends SvcResource {
  constructor(name: string, args: VpsFirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/VpsFirewallRule.ts).
export interface VpsFirewallRule extends VpsFirewallRuleOutputs {}
