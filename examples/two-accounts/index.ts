/**
 * pulumi-svc example: one program, two accounts. The same server and welcome template are made in
 * your own account (the top-level settings) and in a client's account (the profile "client").
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:emailUrl, svc:apiKey (secret), svc:emailApiKey (secret), svc:projectId
 *                                   your own account
 *   svc:profiles.client.apiKey, .emailApiKey (both secret), .projectId
 *                                   the client's account: `pulumi config set --path --secret
 *                                   'svc:profiles.client.apiKey' …`; or the environment's
 *                                   SVC_PROFILE_CLIENT_API_KEY, … (`npx svc-emulator` prints them)
 *   svc-two-accounts:rootPassword   (secret) the servers' root password
 *   svc-two-accounts:plan           server plan name (default s-1vcpu-1gb)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const planName = config.get("plan") ?? "s-1vcpu-1gb";
const rootPassword = config.requireSecret("rootPassword");

/** The account's server and template; `profile` undefined is the top-level settings. */
function site(suffix: string, profile?: string) {
  // Plans are picked by name, with the account's own key: ids need not be the same in every account.
  const planId = svc.getVpsPlansOutput({ profile }).apply((plans) => {
    const plan = plans.find((p) => p.name === planName);
    if (!plan) throw new Error(`no server plan named ${planName}; plans: ${plans.map((p) => p.name).join(", ")}`);
    return plan.id;
  });
  const server = new svc.Vps(`web-${suffix}`, { planId, osType: "ubuntu", osVersion: "24.04", rootPassword, profile });
  const welcome = new svc.Template(`welcome-${suffix}`, {
    name: "welcome",
    subject: "Welcome",
    textBody: "Hello {{name}}, welcome aboard.",
    profile,
  });
  return { ip: server.publicIp, template: welcome.templateId };
}

export const ours = site("ours");
export const client = site("client", "client");
