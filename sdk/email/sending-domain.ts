import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/SendingDomain");
import { commonInputs, type CommonArgs } from "../common";

export interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority?: number;
}

export interface SendingDomainArgs extends CommonArgs {
  /** The domain to send from, e.g. `mail.example.com`. Lower-cased; changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Wait in `up` until the domain is verified (default true). Set false when the same program
   * publishes the DNS records; then add a SendingDomainVerification that depends on them. */
  waitForVerification?: pulumi.Input<boolean>;
  /** How long to wait for verification (default 600 s). */
  verificationTimeoutSeconds?: pulumi.Input<number>;
  /** Manage an existing object instead of creating one: the id of a sending domain already in the project (from `GET /domains`). The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** A domain the project sends email from, with the DNS records to publish for it. */
export class SendingDomain extends pulumi.dynamic.Resource {
  declare readonly domain: pulumi.Output<string>;
  declare readonly waitForVerification: pulumi.Output<boolean>;
  declare readonly verificationTimeoutSeconds: pulumi.Output<number>;
  declare readonly domainId: pulumi.Output<string>;
  /** `pending`, `verifying`, `verified` or `failed`. */
  declare readonly status: pulumi.Output<string>;
  /** Records to publish exactly as given. */
  declare readonly dnsRecords: pulumi.Output<DnsRecord[]>;
  declare readonly verifiedAt: pulumi.Output<string | undefined>;

  constructor(name: string, args: SendingDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { domainId: undefined, status: undefined, dnsRecords: undefined, verifiedAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "SendingDomain");
  }
}
