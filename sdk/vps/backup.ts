// Written by `npm run docs` from the schema in provider/vps/backup.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsBackup");
import { SvcResource, type ClassSpec } from "../common";
import { vpsBackupOutputs, type VpsBackupArgs, type VpsBackupOutputs } from "../generated/VpsBackup";

export type { VpsBackupArgs };

const SPEC: ClassSpec = { type: "VpsBackup", outputs: vpsBackupOutputs };

/**
 * The backup add-on of a server (one per server; the resource's id is the server's id). Activation is paid and never sent twice; a new plan applies in place. Destroy cancels it.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * const server = new svc.Vps("db", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
 *
 * // The plan codes: svc.getBackupPlans(). A larger plan later changes in place.
 * const backup = new svc.VpsBackup("db-backup", { vpsId: server.id, planCode: "backup-10" });
 *
 * export const backupQuotaGb = backup.quotaGb;
 * ```
 *
 * Reference: docs/VpsBackup.md (inputs, outputs, waits, adoption, errors).
 */
export class VpsBackup extends SvcResource {
  constructor(name: string, args: VpsBackupArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/VpsBackup.ts).
export interface VpsBackup extends VpsBackupOutputs {}
