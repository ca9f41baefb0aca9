import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsPortForward");
import { commonInputs, type CommonArgs } from "../common";
import { declaredServer } from "./server-links";
import type { PortForwardProtocol } from "../../contract/schemas";

export interface VpsPortForwardArgs extends CommonArgs {
  /** The server (`Vps.id`); it must be on a plan that shares a public address, and running. */
  vpsId: pulumi.Input<string>;
  /** `tcp`, `udp`, `http` (public port 80) or `https` (public port 443, needs `domain`). */
  protocol: pulumi.Input<PortForwardProtocol>;
  /** The server's port (1–65535). */
  privatePort: pulumi.Input<number>;
  /** tcp/udp: a public port of 1024–65535; left out, the platform assigns one (output `publicPort`).
   * http/https: 80/443 (may be left out). */
  publicPort?: pulumi.Input<number>;
  /** http/https: the public fully-qualified name routed to the server (https needs one). */
  domain?: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the id of a port forward already on the server. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** A port forward of a server that shares a public address. Any change replaces it. */
export class VpsPortForward extends pulumi.dynamic.Resource {
  declare readonly vpsId: pulumi.Output<string>;
  declare readonly protocol: pulumi.Output<PortForwardProtocol>;
  declare readonly privatePort: pulumi.Output<number>;
  /** The public port: the one given, or the one the platform assigned. */
  declare readonly publicPort: pulumi.Output<number>;
  declare readonly domain: pulumi.Output<string | undefined>;
  /** Where it is reached: `<server address>:<publicPort>`, or `https://<domain>` (`http://<domain>`). */
  declare readonly address: pulumi.Output<string>;
  /** The forward's id (also the resource's id). */
  declare readonly forwardId: pulumi.Output<string>;

  constructor(name: string, args: VpsPortForwardArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { address: undefined, forwardId: undefined, ...args, publicPort: args.publicPort, ...commonInputs(opts), declaredServer: declaredServer(args.vpsId, "portForward") },
      opts,
      "svc",
      "VpsPortForward",
    );
  }
}
