// Written by `npm run docs` from the schema in provider/email/sending-domain-verification.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/SendingDomainVerification");
import { SvcResource, type ClassSpec } from "../common";
import { sendingDomainVerificationOutputs, type SendingDomainVerificationArgs, type SendingDomainVerificationOutputs } from "../generated/SendingDomainVerification";

export type { SendingDomainVerificationArgs };

const SPEC: ClassSpec = {
  type: "SendingDomainVerification",
  outputs: sendingDomainVerificationOutputs,
  noAdoption: "a verification is a state of its sending domain, not an object: declare it over the SendingDomain (adopt that one with adoptId) instead",
};

/**
 * Waits until a sending domain is verified, for programs that publish its DNS records themselves. Make it depend on those records (from `SendingDomain.dnsRecords`, with `waitForVerification: false`). Nothing is created at the API; if the domain stops being verified, `refresh` drops this resource and the next `up` waits again.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * // This program publishes the records itself, so the SendingDomain does not wait...
 * const mail = new svc.SendingDomain("mail", { domain: "mail.example.com", waitForVerification: false });
 *
 * // ...one record resource per entry of mail.dnsRecords, with your DNS provider's package:
 * const published: pulumi.Resource[] = [];
 *
 * // ...and the wait comes after them.
 * const verified = new svc.SendingDomainVerification("mail-verified", { domainId: mail.domainId, timeoutSeconds: 900 }, { dependsOn: published });
 *
 * export const verifiedAt = verified.verifiedAt;
 * ```
 *
 * Reference: docs/SendingDomainVerification.md (inputs, outputs, waits, adoption, errors).
 */
export class SendingDomainVerification extends SvcResource {
  constructor(name: string, args: SendingDomainVerificationArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/SendingDomainVerification.ts).
export interface SendingDomainVerification extends SendingDomainVerificationOutputs {}
