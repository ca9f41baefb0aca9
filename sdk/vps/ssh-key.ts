// Written by `npm run docs` from the schema in provider/vps/ssh-key.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsSshKey");
import { SvcResource, type ClassSpec } from "../common";
import { vpsSshKeyOutputs, type VpsSshKeyArgs, type VpsSshKeyOutputs } from "../generated/VpsSshKey";

export type { VpsSshKeyArgs };

const SPEC: ClassSpec = {
  type: "VpsSshKey",
  outputs: vpsSshKeyOutputs,
  idOutputs: ["fingerprint"],
  declaredServer: { kind: "sshKey", perServer: 10 },
};

/**
 * An SSH public key on a server. The resource's id is the key's fingerprint (OpenSSH's `SHA256:…`). Any change replaces it (the old key is removed first when the key itself stays). At most 10 per server: an 11th declared in the program is refused at preview.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * // Keys need a plan whose servers share a public address (getVpsPlans: sharedAddress).
 * const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
 *
 * const admin = new svc.VpsSshKey("admin-key", {
 *   vpsId: server.id,
 *   publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIARAYXRkBYQqpgWOjkFqlBr7mojh5fWsUmU5Fe87Qdjp admin@laptop",
 *   label: "admin",
 * });
 *
 * export const adminFingerprint = admin.fingerprint; // "SHA256:oXYUQ3xFW2EM3o8Rme/MlTZmOd92e6JJNWXqYr4wNPg", as `ssh-keygen -lf` prints it
 * ```
 *
 * Reference: docs/VpsSshKey.md (inputs, outputs, waits, adoption, errors).
 */
export class VpsSshKey extends SvcResource {
  constructor(name: string, args: VpsSshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/VpsSshKey.ts).
export interface VpsSshKey extends VpsSshKeyOutputs {}
