// The example of docs/VpsBackup.md. Written by `npm run docs` from the schema in provider/vps/backup.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const server = new svc.Vps("db", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

// The plan codes: svc.getBackupPlans(). A larger plan later changes in place.
const backup = new svc.VpsBackup("db-backup", { vpsId: server.id, planCode: "backup-10" });

export const backupQuotaGb = backup.quotaGb;
