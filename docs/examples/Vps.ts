// The example of docs/Vps.md. Written by `npm run docs` from the schema in provider/vps/vps.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === "s-1vcpu-1gb")!.id);

const web = new svc.Vps("web", {
  planId,
  osType: "ubuntu",
  osVersion: "24.04",
  rootPassword: config.requireSecret("rootPassword"),
});

export const publicIp = web.publicIp;
export const status = web.status; // "running"
