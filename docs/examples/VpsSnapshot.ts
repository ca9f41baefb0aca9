// The example of docs/VpsSnapshot.md. Written by `npm run docs` from the schema in provider/vps/snapshot.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// The plan must hold snapshots (getVpsPlans: snapshotLimit above 0).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const baseline = new svc.VpsSnapshot("baseline", { vpsId: server.id, name: "baseline" });

export const snapshotStatus = baseline.status; // "ready"
