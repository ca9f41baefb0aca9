// The example of docs/MailAlias.md. Written by `npm run docs` from the schema in provider/email/mail-alias.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

const mail = new svc.SendingDomain("mail", { domain: "example.org" });
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });
const support = new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });

// help@example.org lands in the support mailbox.
const help = new svc.MailAlias("help", { mailboxId: support.mailboxId, localPart: "help" });

export const aliasAddress = help.address;
