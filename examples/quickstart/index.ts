/**
 * pulumi-svc quickstart: send email from your own domain, get its events, and run a server.
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:emailUrl, svc:apiKey (secret), svc:emailApiKey (secret), svc:projectId
 *   svc-quickstart:domain        sending domain (default mail.example.com)
 *   svc-quickstart:webhookUrl    where email events go (default https://hooks.example.com/svc)
 *   svc-quickstart:plan          server plan name (default s-1vcpu-1gb; `getVpsPlans()` lists them)
 *   svc-quickstart:rootPassword  (secret) the server's root password
 *   svc-quickstart:protectServer guard the server against replace and destroy (default true)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// The sending domain. `waitForVerification: false` because this program publishes the records
// itself: the verification below waits for them.
const domain = new svc.SendingDomain("mail", {
  domain: config.get("domain") ?? "mail.example.com",
  waitForVerification: false,
});

// Publish `domain.dnsRecords` with your DNS provider here (for example one cloudflare.Record per
// entry), then make the verification depend on those records. The emulator publishes them for you.
const verification = new svc.SendingDomainVerification("mail-verified", { domainId: domain.domainId, timeoutSeconds: 300 });

const webhook = new svc.Webhook("events", {
  url: config.get("webhookUrl") ?? "https://hooks.example.com/svc",
  events: ["email.delivered", "email.bounced", "email.complained"],
});

const welcome = new svc.Template("welcome", {
  name: "welcome",
  subject: "Welcome, {{firstName}}",
  htmlBody: "<p>Hello {{firstName}}, welcome aboard.</p>",
  textBody: "Hello {{firstName}}, welcome aboard.",
});

// A server with SSH and HTTPS open, and nightly backups. `protect` guards it against an accidental
// replace or destroy. The plan is picked by name from the catalogue (ids differ between accounts).
const planName = config.get("plan") ?? "s-1vcpu-1gb";
const planId = svc.getVpsPlansOutput().apply((plans) => {
  const plan = plans.find((p) => p.name === planName);
  if (!plan) throw new Error(`no server plan named ${planName}; plans: ${plans.map((p) => p.name).join(", ")}`);
  return plan.id;
});
const server = new svc.Vps(
  "web",
  {
    planId,
    osType: "ubuntu",
    osVersion: "24.04",
    rootPassword: config.requireSecret("rootPassword"),
  },
  { protect: config.getBoolean("protectServer") ?? true },
);
new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" });
new svc.VpsFirewallRule("https", { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });
new svc.VpsBackup("web-backup", { vpsId: server.id, planCode: "backup-10" });

export const dnsRecords = domain.dnsRecords;
export const domainStatus = verification.status;
export const webhookSecret = webhook.secret; // a secret output: shown as [secret]
export const templateVariables = welcome.variables;
export const serverIp = server.publicIp;
