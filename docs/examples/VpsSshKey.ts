// The example of docs/VpsSshKey.md. Written by `npm run docs` from the schema in provider/vps/ssh-key.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// Keys need a plan whose servers share a public address (getVpsPlans: sharedAddress).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const admin = new svc.VpsSshKey("admin-key", {
  vpsId: server.id,
  publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIARAYXRkBYQqpgWOjkFqlBr7mojh5fWsUmU5Fe87Qdjp admin@laptop",
  label: "admin",
});

export const adminFingerprint = admin.fingerprint; // "SHA256:oXYUQ3xFW2EM3o8Rme/MlTZmOd92e6JJNWXqYr4wNPg", as `ssh-keygen -lf` prints it
