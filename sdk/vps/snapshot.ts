// Written by `npm run docs` from the schema in provider/vps/snapshot.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsSnapshot");
import { SvcResource, type ClassSpec } from "../common";
import { vpsSnapshotOutputs, type VpsSnapshotArgs, type VpsSnapshotOutputs } from "../generated/VpsSnapshot";

export type { VpsSnapshotArgs };

const SPEC: ClassSpec = { type: "VpsSnapshot", outputs: vpsSnapshotOutputs, declaredServer: { kind: "snapshot" } };

/**
 * A snapshot of a server: a restore point. `up` waits until it is ready (the server is busy meanwhile: its other resources in the same `up` wait). One that ends in `error` stays in the state with its `error`, and the next `up` replaces it. Destroy deletes it. Free of charge.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * // The plan must hold snapshots (getVpsPlans: snapshotLimit above 0).
 * const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
 *
 * const baseline = new svc.VpsSnapshot("baseline", { vpsId: server.id, name: "baseline" });
 *
 * export const snapshotStatus = baseline.status; // "ready"
 * ```
 *
 * Reference: docs/VpsSnapshot.md (inputs, outputs, waits, adoption, errors).
 */
export class VpsSnapshot extends SvcResource {
  constructor(name: string, args: VpsSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/VpsSnapshot.ts).
export interface VpsSnapshot extends VpsSnapshotOutputs {}
