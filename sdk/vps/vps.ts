// Written by `npm run docs` from the schema in provider/vps/vps.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Vps");
import { SvcResource, type ClassSpec } from "../common";
import { vpsOutputs, type VpsArgs, type VpsOutputs } from "../generated/Vps";
import type { BillingPeriod } from "../generated/data-types";

export type { VpsArgs, BillingPeriod };

const SPEC: ClassSpec = { type: "Vps", outputs: vpsOutputs, defaultName: true, linksServer: true };

/**
 * A virtual server. `up` waits until it runs. It changes in place where the API allows (a larger plan, a reinstall, a password reset, auto-renew and the renewal period, power) and is replaced where the API has no call (name, project). Its create is paid and never sent twice: an interrupted create is settled by listing the project's servers.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === "s-1vcpu-1gb")!.id);
 *
 * const web = new svc.Vps("web", {
 *   planId,
 *   osType: "ubuntu",
 *   osVersion: "24.04",
 *   rootPassword: config.requireSecret("rootPassword"),
 * });
 *
 * export const publicIp = web.publicIp;
 * export const status = web.status; // "running"
 * ```
 *
 * Reference: docs/Vps.md (inputs, outputs, waits, adoption, errors).
 */
export class Vps extends SvcResource {
  constructor(name: string, args: VpsArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Vps.ts).
export interface Vps extends VpsOutputs {}
