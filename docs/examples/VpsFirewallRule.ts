// The example of docs/VpsFirewallRule.md. Written by `npm run docs` from the schema in provider/vps/firewall-rule.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const server = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

// SSH from the office only; HTTPS from anywhere.
new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" });
const https = new svc.VpsFirewallRule("https", { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });

export const httpsRuleId = https.ruleId;
