// Written by `npm run docs` from the schema in provider/vps/port-forward.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link VpsPortForward}. Reference: docs/VpsPortForward.md. */
export interface VpsPortForwardArgs extends AdoptableArgs {
  /**
   * The server the traffic goes to: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running.
   * - Rule: must not be empty; a server id (UUID): the Vps's id.
   * - A change: replaces the object.
   */
  vpsId: pulumi.Input<string>;
  /**
   * `tcp` and `udp` forward a public port; `http` (public port 80) and `https` (public port 443, needs `domain`) route by domain.
   * - Rule: one of `tcp`, `udp`, `http`, `https`.
   * - A change: replaces the object.
   */
  protocol: pulumi.Input<"tcp" | "udp" | "http" | "https">;
  /**
   * The server's port the traffic goes to.
   * - Rule: a whole number; 1 to 65535.
   * - A change: replaces the object.
   */
  privatePort: pulumi.Input<number>;
  /**
   * tcp/udp: the public port of the shared address, 1024 to 65535; http/https: 80/443, may be left out.
   * - Rule: a whole number; 1 to 65535.
   * - Default: tcp/udp: a free port the platform assigns (output `publicPort`); http: 80; https: 443.
   * - A change: replaces the forward; a new forward that keeps the same public port or domain removes the old one first (the shared address holds each once).
   */
  publicPort?: pulumi.Input<number>;
  /**
   * http/https: the public fully-qualified name the platform routes (and, for https, holds the certificate for) to the server. Lower-cased.
   * - Rule: a public fully-qualified domain name, e.g. app.example.com; under a public top-level domain.
   * - A change: replaces the forward; a new forward that keeps the same public port or domain removes the old one first (the shared address holds each once).
   */
  domain?: pulumi.Input<string>;
}

/** The outputs of {@link VpsPortForward}: every argument as applied, and what the API makes. */
export interface VpsPortForwardOutputs {
  /** The server the traffic goes to: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running. */
  readonly vpsId: pulumi.Output<string>;
  /** `tcp` and `udp` forward a public port; `http` (public port 80) and `https` (public port 443, needs `domain`) route by domain. */
  readonly protocol: pulumi.Output<"tcp" | "udp" | "http" | "https">;
  /** The server's port the traffic goes to. */
  readonly privatePort: pulumi.Output<number>;
  /** http/https: the public fully-qualified name the platform routes (and, for https, holds the certificate for) to the server. Lower-cased. */
  readonly domain: pulumi.Output<string | undefined>;
  /** The public port: the one given, or the one the platform assigned. */
  readonly publicPort: pulumi.Output<number>;
  /** The public port the program asked for (`publicPort` as given; absent when left out): what a change of the program is compared with. */
  readonly requestedPublicPort: pulumi.Output<number | undefined>;
  /** Where the forward is reached: `<server address>:<publicPort>`, or `https://<domain>` (`http://<domain>`). */
  readonly address: pulumi.Output<string>;
  /** The forward's id at the API: the resource's id and its `adoptId`. */
  readonly forwardId: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsPortForwardOutputs = {
  computed: { vpsId: undefined, protocol: undefined, privatePort: undefined, domain: undefined, publicPort: undefined, requestedPublicPort: undefined, address: undefined, forwardId: undefined },
  secret: [] as string[],
};
