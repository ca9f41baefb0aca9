/**
 * pulumi-svc mail setup: the project's email plan, a sending domain that also receives mail, a
 * mailbox that forwards to an outside address, an alias, a webhook for `email.received`, and the
 * audience structure (a topic and a segment).
 *
 * `pulumi preview` prices the plan with a free dry run (the price shows as a message; a plan the
 * wallet cannot pay is refused there); `pulumi up` buys it once — a retry or a rerun after an
 * interrupted `up` sends the same Idempotency-Key and is never charged twice. `pulumi destroy`
 * removes everything else and leaves the plan active: cancelling a plan is dashboard-only.
 *
 * Config (`pulumi config set ...`):
 *   svc:emailUrl, svc:emailApiKey (secret)
 *   svc-mail-setup:planCode    a code from getEmailPlans() with forwarding (default: business)
 *   svc-mail-setup:domain      the domain (default mail.example-shop.dev); it is verified for sending first
 *   svc-mail-setup:forwardTo   where the mailbox forwards (default oncall@example.org)
 *   svc-mail-setup:webhookUrl  where email.received events go (default https://hooks.example.com/svc-inbound)
 *   svc-mail-setup:verificationTimeoutSeconds  how long `up` waits for the domain's verification (default 600)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// The plan sets every limit and whether forwarding is included: what depends on it waits for it.
const plan = new svc.EmailPlan("plan", { planCode: config.get("planCode") ?? "business", months: 1 });
const onPlan = { dependsOn: [plan] };

// Receiving needs a verified domain: the SendingDomain waits for verification (publish its
// dnsRecords with your DNS provider; the emulator publishes them for you).
const domain = new svc.SendingDomain(
  "mail",
  { domain: config.get("domain") ?? "mail.example-shop.dev", verificationTimeoutSeconds: config.getNumber("verificationTimeoutSeconds") },
  onPlan,
);

// Receiving on the domain itself; publish `mxRecords` so mail for it reaches the platform.
// `domain.domainId` is the domain's resource id: known in the preview of an update of the domain,
// so a changed wait setting previews as one update, and receiving is left alone.
const receiving = new svc.ReceivingDomain("inbound", { domainId: domain.domainId });

// `receiving.domainId`, not `domain.domainId`: the mailbox is then made after receiving is on.
const support = new svc.Mailbox("support", {
  domainId: receiving.domainId,
  localPart: "support",
  name: "Support desk",
  forwardTo: [config.get("forwardTo") ?? "oncall@example.org"],
});

const help = new svc.MailAlias("help", { mailboxId: support.id, localPart: "help" });

const received = new svc.Webhook("received", { url: config.get("webhookUrl") ?? "https://hooks.example.com/svc-inbound", events: ["email.received"] }, onPlan);

const news = new svc.EmailTopic("news", { name: "Product news", description: "Monthly product updates" }, onPlan);
const customers = new svc.EmailSegment("customers", { name: "Acme customers", rules: [{ field: "email", operator: "contains", value: "@acme.dev" }] }, onPlan);

export const planCode = plan.activePlanCode;
export const charged = plan.billing.apply((b) => b?.total ?? 0);
export const mxRecords = receiving.mxRecords;
export const supportAddress = support.address;
export const helpAddress = help.address;
export const webhookSecret = received.secret; // a secret output: shown as [secret]
export const topicId = news.topicId;
export const segmentId = customers.segmentId;
