/**
 * pulumi-svc example: a fleet of identical servers, each with its own two firewall rules
 * (SSH and HTTPS).
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:apiKey (secret), svc:projectId
 *   svc-vps-fleet:count         how many servers (default 2)
 *   svc-vps-fleet:plan          server plan name (default s-1vcpu-1gb; a larger plan of the same
 *                               family and region upgrades the servers in place)
 *   svc-vps-fleet:rootPassword  (secret) the servers' root password
 *   svc-vps-fleet:sshPort       the SSH port to open (default 22)
 *   svc-vps-fleet:sshSource     who may reach SSH, an address or CIDR (default 0.0.0.0/0)
 *   svc-vps-fleet:openHttps     open port 443 to everyone (default true)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 2;
const planName = config.get("plan") ?? "s-1vcpu-1gb";
// Plans are picked by name: ids differ between accounts and the emulator's change with its seed.
const planId = svc.getVpsPlansOutput().apply((plans) => {
  const plan = plans.find((p) => p.name === planName);
  if (!plan) throw new Error(`no server plan named ${planName}; plans: ${plans.map((p) => p.name).join(", ")}`);
  return plan.id;
});
const rootPassword = config.requireSecret("rootPassword");
const sshPort = config.get("sshPort") ?? "22";
const sshSource = config.get("sshSource") ?? "0.0.0.0/0";
const openHttps = config.getBoolean("openHttps") ?? true;

const servers = Array.from({ length: count }, (_, i) => {
  const server = new svc.Vps(`web-${i}`, { planId, osType: "ubuntu", osVersion: "24.04", rootPassword });
  // A rule depends on its server (`vpsId`), so it is created after it and deleted before it.
  new svc.VpsFirewallRule(`web-${i}-ssh`, { vpsId: server.id, protocol: "tcp", action: "allow", port: sshPort, source: sshSource });
  if (openHttps) {
    new svc.VpsFirewallRule(`web-${i}-https`, { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });
  }
  return server;
});

export const publicIps = servers.map((s) => s.publicIp);
