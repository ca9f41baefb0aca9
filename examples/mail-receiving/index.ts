/**
 * pulumi-svc mail receiving: mail for your own domain arrives in a mailbox, is forwarded to an
 * outside address, reaches it through an alias too, and each arrival is an `email.received` event.
 *
 * Config (`pulumi config set ...`):
 *   svc:emailUrl, svc:emailApiKey (secret)
 *   svc-mail-receiving:domain      the domain (default mail.example-shop.dev); it is verified for sending first
 *   svc-mail-receiving:forwardTo   where the mailbox forwards (default oncall@example.org); needs a plan with forwarding
 *   svc-mail-receiving:webhookUrl  where email.received events go (default https://hooks.example.com/svc-inbound)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// Receiving needs a verified domain: the SendingDomain waits for verification (publish its
// dnsRecords with your DNS provider; the emulator publishes them for you).
const domain = new svc.SendingDomain("mail", { domain: config.get("domain") ?? "mail.example-shop.dev" });

// Receiving on the domain itself; publish `mxRecords` so mail for it reaches the platform.
const receiving = new svc.ReceivingDomain("inbound", { domainId: domain.domainId });

// `receiving.domainId`, not `domain.domainId`: the mailbox is then made after receiving is on.
const support = new svc.Mailbox("support", {
  domainId: receiving.domainId,
  localPart: "support",
  name: "Support desk",
  forwardTo: [config.get("forwardTo") ?? "oncall@example.org"],
});

const help = new svc.MailAlias("help", { mailboxId: support.id, localPart: "help" });

const received = new svc.Webhook("received", {
  url: config.get("webhookUrl") ?? "https://hooks.example.com/svc-inbound",
  events: ["email.received"],
});

export const mxRecords = receiving.mxRecords;
export const supportAddress = support.address;
export const helpAddress = help.address;
export const webhookSecret = received.secret; // a secret output: shown as [secret]
