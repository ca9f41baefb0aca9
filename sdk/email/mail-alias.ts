// Written by `npm run docs` from the schema in provider/email/mail-alias.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/MailAlias");
import { SvcResource, type ClassSpec } from "../common";
import { mailAliasOutputs, type MailAliasArgs, type MailAliasOutputs } from "../generated/MailAlias";

export type { MailAliasArgs };

const SPEC: ClassSpec = { type: "MailAlias", outputs: mailAliasOutputs, idOutputs: ["aliasId"] };

/**
 * Another address of a mailbox, on the mailbox's domain: its mail lands in the mailbox and follows the mailbox's forwarding. Both inputs replace (the API has nothing to update on an alias).
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * const mail = new svc.SendingDomain("mail", { domain: "example.org" });
 * const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });
 * const support = new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });
 *
 * // help@example.org lands in the support mailbox.
 * const help = new svc.MailAlias("help", { mailboxId: support.mailboxId, localPart: "help" });
 *
 * export const aliasAddress = help.address;
 * ```
 *
 * Reference: docs/MailAlias.md (inputs, outputs, waits, adoption, errors).
 */
export class MailAlias extends SvcResource {
  constructor(name: string, args: MailAliasArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/MailAlias.ts).
export interface MailAlias extends MailAliasOutputs {}
