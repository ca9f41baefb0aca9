/**
 * pulumi-svc example: a server you can reach and restore. A server on a plan that shares the
 * region's public address, two SSH keys (who may log in), an https port forward for a domain (what
 * reaches it), and a snapshot (a restore point before risky changes).
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:apiKey (secret), svc:projectId
 *   svc-server-access:plan          a plan that shares a public address (default nat-1vcpu-1gb)
 *   svc-server-access:rootPassword  (secret) the server's root password
 *   svc-server-access:adminKey      the admin's SSH public key (the contents of ~/.ssh/id_ed25519.pub)
 *   svc-server-access:deployKey     the deploy robot's SSH public key
 *   svc-server-access:deployLabel   the deploy key's label (default "deploy")
 *   svc-server-access:domain        the domain the https forward routes (default app.example.com)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const planName = config.get("plan") ?? "nat-1vcpu-1gb";
// Plans are picked by name: ids differ between accounts and the emulator's change with its seed.
const planId = svc.getVpsPlansOutput().apply((plans) => {
  const plan = plans.find((p) => p.name === planName);
  if (!plan) throw new Error(`no server plan named ${planName}; plans: ${plans.map((p) => p.name).join(", ")}`);
  if (plan.sharedAddress === false) throw new Error(`plan ${planName} gives its servers an address of their own: SSH keys and port forwards need one that shares it`);
  return plan.id;
});

const server = new svc.Vps("app", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

// Each depends on its server (`vpsId: server.id`): made after it, removed before it.
const admin = new svc.VpsSshKey("admin-key", { vpsId: server.id, publicKey: config.require("adminKey"), label: "admin" });
new svc.VpsSshKey("deploy-key", { vpsId: server.id, publicKey: config.require("deployKey"), label: config.get("deployLabel") ?? "deploy" });
const web = new svc.VpsPortForward("https", { vpsId: server.id, protocol: "https", privatePort: 8443, domain: config.get("domain") ?? "app.example.com" });
// The server is busy while the snapshot is made: the keys and the forward wait for it, they do not fail.
const snapshot = new svc.VpsSnapshot("baseline", { vpsId: server.id, name: "baseline" });

export const address = server.publicIp;
export const url = web.address;
export const adminFingerprint = admin.fingerprint;
export const snapshotStatus = snapshot.status;
