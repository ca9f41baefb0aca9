// Written by `npm run docs` from the schema in provider/email/mailbox.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Mailbox");
import { SvcResource, type ClassSpec } from "../common";
import { mailboxOutputs, type MailboxArgs, type MailboxOutputs } from "../generated/Mailbox";

export type { MailboxArgs };

const SPEC: ClassSpec = { type: "Mailbox", outputs: mailboxOutputs, idOutputs: ["mailboxId"] };

/**
 * A receiving address that keeps the mail it gets, on a domain with receiving on (a `ReceivingDomain`). Its display name, forwarding and notifications update in place; its webmail password is set in the dashboard only (the API refuses it to a key), so it is no input here. Deleting a mailbox deletes its aliases too.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // Forwarding needs a plan that includes it (getEmailPlans(): forwarding true). A project has one
 * // EmailPlan: declare it once, and make the mailbox depend on it so the plan is bought first.
 * const plan = new svc.EmailPlan("plan", { planCode: "business" });
 *
 * const mail = new svc.SendingDomain("mail", { domain: "example.org" });
 * const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });
 *
 * // Pass the ReceivingDomain's domainId: the mailbox is made once receiving is on.
 * const support = new svc.Mailbox(
 *   "support",
 *   {
 *     domainId: inbound.domainId,
 *     localPart: "support",
 *     name: "Support desk",
 *     forwardTo: ["oncall@example.net"],
 *   },
 *   { dependsOn: [plan] },
 * );
 *
 * export const address = support.address; // support@example.org
 * ```
 *
 * Reference: docs/Mailbox.md (inputs, outputs, waits, adoption, errors).
 */
export class Mailbox extends SvcResource {
  constructor(name: string, args: MailboxArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Mailbox.ts).
export interface Mailbox extends MailboxOutputs {}
