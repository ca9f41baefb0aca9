// Written by `npm run docs` from the schema in provider/vps/port-forward.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsPortForward");
import { SvcResource, type ClassSpec } from "../common";
import { vpsPortForwardOutputs, type VpsPortForwardArgs, type VpsPortForwardOutputs } from "../generated/VpsPortForward";

export type { VpsPortForwardArgs };

const SPEC: ClassSpec = {
  type: "VpsPortForward",
  outputs: vpsPortForwardOutputs,
  idOutputs: ["forwardId"],
  declaredServer: { kind: "portForward" },
};

/**
 * A port forward of a server that shares a public address: a public port (tcp, udp) or a domain (http, https) of the shared address, forwarded to a port of the server. Any change replaces it (the API has no update).
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 * // Forwards need a plan whose servers share a public address (getVpsPlans: sharedAddress).
 * const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
 *
 * const web = new svc.VpsPortForward("https", { vpsId: server.id, protocol: "https", privatePort: 8443, domain: "app.example.com" });
 * const ssh = new svc.VpsPortForward("ssh", { vpsId: server.id, protocol: "tcp", privatePort: 22 }); // a free public port is assigned
 *
 * export const url = web.address; // "https://app.example.com"
 * export const sshAddress = ssh.address; // "<shared address>:<assigned port>"
 * ```
 *
 * Reference: docs/VpsPortForward.md (inputs, outputs, waits, adoption, errors).
 */
export class VpsPortForward extends SvcResource {
  constructor(name: string, args: VpsPortForwardArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/VpsPortForward.ts).
export interface VpsPortForward extends VpsPortForwardOutputs {}
