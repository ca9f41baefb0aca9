// The example of docs/VpsPortForward.md. Written by `npm run docs` from the schema in provider/vps/port-forward.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// Forwards need a plan whose servers share a public address (getVpsPlans: sharedAddress).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const web = new svc.VpsPortForward("https", { vpsId: server.id, protocol: "https", privatePort: 8443, domain: "app.example.com" });
const ssh = new svc.VpsPortForward("ssh", { vpsId: server.id, protocol: "tcp", privatePort: 22 }); // a free public port is assigned

export const url = web.address; // "https://app.example.com"
export const sshAddress = ssh.address; // "<shared address>:<assigned port>"
