import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/ReceivingDomain");
import { commonInputs, type CommonArgs } from "../common";
import type { DnsRecord } from "./sending-domain";

export interface ReceivingDomainArgs extends CommonArgs {
  /** A verified sending domain: `SendingDomain.domainId` (it waits for verification by default) or
   * `SendingDomainVerification.domainId`. Changing it replaces the resource. */
  domainId: pulumi.Input<string>;
  /** The host that receives mail: the domain itself (default) or a subdomain of it, not its `bounce.`
   * host. Changes in place; the addresses stay, on the new host. */
  host?: pulumi.Input<string>;
  /** Receiving already enabled on the domain, to manage instead of enabling it: the domain's id
   * (equal to domainId). Changing or removing it afterwards changes nothing. */
  adoptId?: pulumi.Input<string>;
}

/**
 * Receiving mail on a verified sending domain. Publish `mxRecords` with your DNS provider. Pass this
 * resource's `domainId` to Mailbox, so mailboxes are created after receiving is on. Deleting it turns
 * receiving off, which deletes the domain's addresses with it.
 */
export class ReceivingDomain extends pulumi.dynamic.Resource {
  declare readonly domainId: pulumi.Output<string>;
  /** The host that receives mail. */
  declare readonly host: pulumi.Output<string>;
  /** The sending domain's name. */
  declare readonly domain: pulumi.Output<string>;
  /** MX records to publish, exactly as given. */
  declare readonly mxRecords: pulumi.Output<DnsRecord[]>;

  constructor(name: string, args: ReceivingDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { domain: undefined, mxRecords: undefined, host: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "ReceivingDomain");
  }
}
