// Written by `npm run docs` from the schema in provider/email/receiving-domain.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/ReceivingDomain");
import { SvcResource, type ClassSpec } from "../common";
import { receivingDomainOutputs, type ReceivingDomainArgs, type ReceivingDomainOutputs } from "../generated/ReceivingDomain";

export type { ReceivingDomainArgs };

const SPEC: ClassSpec = { type: "ReceivingDomain", outputs: receivingDomainOutputs };

/**
 * Receiving mail on a verified sending domain, for the domain itself or a subdomain of it, with the MX records to publish. Pass its `domainId` to `Mailbox`, so mailboxes are made after receiving is on. Deleting it turns receiving off, which deletes the domain's addresses with it.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * const mail = new svc.SendingDomain("mail", { domain: "example.org" });
 *
 * // Mail for support@in.example.org and the like; publish `mxRecords` with your DNS provider.
 * const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId, host: "in.example.org" });
 *
 * export const mxRecords = inbound.mxRecords;
 * ```
 *
 * Reference: docs/ReceivingDomain.md (inputs, outputs, waits, adoption, errors).
 */
export class ReceivingDomain extends SvcResource {
  constructor(name: string, args: ReceivingDomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/ReceivingDomain.ts).
export interface ReceivingDomain extends ReceivingDomainOutputs {}
