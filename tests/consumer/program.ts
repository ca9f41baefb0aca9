/**
 * The consumer test's program (tests/consumer/run.sh writes it to `index.ts` of a fresh
 * `pulumi new typescript` project): the resource classes of pulumi-svc and three data functions,
 * as a user writes them — strict, no esModuleInterop, the package imported by name. A class not
 * constructed here (a type added since) is added after it from its acceptance row
 * (tools/support/consumer-program.ts), whose lines take `rootPassword` and `planIdNamed` from here.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const rootPassword = config.requireSecret("rootPassword");

// Three data functions: plan ids differ between accounts, so programs pick plans by name.
const planIdNamed = (name: string) => svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === name)!.id);
const backupPlanCode = svc.getBackupPlansOutput().apply((plans) => [...plans].sort((a, b) => a.quotaGb - b.quotaGb)[0].code);
const emailPlanCode = svc.getEmailPlansOutput().apply((plans) => plans.find((p) => p.code === "business")!.code);

// Email: plan, sending domain (verified), webhook, template, receiving, mailbox, alias, topic, segment.
const plan = new svc.EmailPlan("plan", { planCode: emailPlanCode, months: 1 });
const onPlan = { dependsOn: [plan] };
const mail = new svc.SendingDomain("mail", { domain: "mail.consumer-check.dev", waitForVerification: false }, onPlan);
const verified = new svc.SendingDomainVerification("mail-verified", { domainId: mail.domainId, timeoutSeconds: 300 });
const events = new svc.Webhook("events", { url: "https://hooks.example.com/svc", events: ["email.delivered", "email.received"] }, onPlan);
const welcome = new svc.Template("welcome", { subject: "Welcome, {{firstName}}", htmlBody: "<p>Hello {{firstName}}</p>" }, onPlan);
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });
const support = new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });
const help = new svc.MailAlias("help", { mailboxId: support.id, localPart: "help" });
const news = new svc.EmailTopic("news", { name: "Product news" }, onPlan);
const customers = new svc.EmailSegment("customers", { name: "Customers", rules: [{ field: "email", operator: "contains", value: "@acme.dev" }] }, onPlan);

// Servers: one with its own address (firewall, backup), one on a shared address (keys, forward, snapshot).
// Neither is named: each gets the name derived from the stack and resource name.
const web = new svc.Vps("web", { planId: planIdNamed("s-1vcpu-1gb"), osType: "ubuntu", osVersion: "24.04", rootPassword });
new svc.VpsFirewallRule("ssh", { vpsId: web.id, protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" });
new svc.VpsBackup("web-backup", { vpsId: web.id, planCode: backupPlanCode });
const app = new svc.Vps("app", { planId: planIdNamed("nat-1vcpu-1gb"), osType: "ubuntu", osVersion: "24.04", rootPassword });
const admin = new svc.VpsSshKey("admin-key", { vpsId: app.id, publicKey: config.require("adminKey"), label: "admin" });
const https = new svc.VpsPortForward("https", { vpsId: app.id, protocol: "https", privatePort: 8443, domain: "app.consumer-check.dev" });
const baseline = new svc.VpsSnapshot("baseline", { vpsId: app.id, name: "baseline" });

// The owner details, then a registered domain that waits for them.
const owner = new svc.DomainRegistrant("owner", {
  name: "Budi Santoso",
  email: "budi@consumer-check.dev",
  phone: "+62.8123456789",
  address: "Jl. Merdeka 1",
  city: "Jakarta",
  province: "DKI Jakarta",
  postalCode: "10110",
  country: "ID",
});
const site = new svc.Domain("site", { name: config.require("domainName"), whoisProtection: true, registrant: owner.id });

// An address the project must never mail.
const bounced = new svc.EmailSuppression("bounced", { email: "bounced@consumer-check.dev" }, onPlan);

// Outputs of optional inputs left out: each is an Output holding what the API settled on.
export const webName = web.name;
export const webProjectId = web.projectId;
export const webAutoRenew = web.autoRenew;
export const webPowerState = web.powerState;
export const templateName = welcome.name;
export const mailboxForwardTo = support.forwardTo;
export const siteAutoRenew = site.autoRenew;
export const verificationStatus = verified.status;
export const webhookSecret = events.secret;
export const helpAddress = help.address;
export const topicId = news.topicId;
export const segmentId = customers.segmentId;
export const adminFingerprint = admin.fingerprint;
export const forwardAddress = https.address;
export const snapshotStatus = baseline.status;
export const ownerComplete = owner.complete;
export const suppressedBecause = bounced.reason;
