import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/SendingDomainVerification");
import { commonInputs, type CommonArgs } from "../common";

export interface SendingDomainVerificationArgs extends CommonArgs {
  /** `SendingDomain.domainId`. Changing it replaces the resource. */
  domainId: pulumi.Input<string>;
  /** How long to wait for verification (default 600 s). */
  timeoutSeconds?: pulumi.Input<number>;
}

/**
 * Waits until a sending domain is verified. Make it depend on the DNS records your program publishes
 * (from `SendingDomain.dnsRecords`). If the domain stops being verified, `refresh` drops this resource
 * and the next `up` waits again.
 */
export class SendingDomainVerification extends pulumi.dynamic.Resource {
  declare readonly domainId: pulumi.Output<string>;
  declare readonly timeoutSeconds: pulumi.Output<number>;
  declare readonly domain: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string>;
  declare readonly verifiedAt: pulumi.Output<string | undefined>;

  constructor(name: string, args: SendingDomainVerificationArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { domain: undefined, status: undefined, verifiedAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "SendingDomainVerification");
  }
}
