// Written by `npm run docs` from the schema in provider/email/sending-domain.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/SendingDomain");
import { SvcResource, type ClassSpec } from "../common";
import { sendingDomainOutputs, type SendingDomainArgs, type SendingDomainOutputs } from "../generated/SendingDomain";

export type { SendingDomainArgs };

/** A DNS record to publish, exactly as given: an entry of `SendingDomain.dnsRecords` and `ReceivingDomain.mxRecords`. */
export interface DnsRecord {
  type: string;
  name: string;
  value: string;
  priority?: number;
}

const SPEC: ClassSpec = { type: "SendingDomain", outputs: sendingDomainOutputs, idOutputs: ["domainId"] };

/**
 * A domain the project sends email from, with the DNS records to publish for it. By default `up` waits until the domain is verified; a program that publishes the records itself turns the wait off and adds a `SendingDomainVerification` that depends on them.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // `up` waits until the domain is verified (publish the records it lists, or see SendingDomainVerification).
 * const mail = new svc.SendingDomain("mail", {
 *   domain: "mail.example.com",
 *   verificationTimeoutSeconds: 1800,
 * });
 *
 * export const domainId = mail.domainId;
 * export const recordsToPublish = mail.dnsRecords;
 * ```
 *
 * Reference: docs/SendingDomain.md (inputs, outputs, waits, adoption, errors).
 */
export class SendingDomain extends SvcResource {
  constructor(name: string, args: SendingDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/SendingDomain.ts).
export interface SendingDomain extends SendingDomainOutputs {}
