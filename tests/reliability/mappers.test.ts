/**
 * Issue 24, one mapper per resource: create's outputs, adoption's and read's all come from the one
 * function that maps the API's record to the resource's properties (serverProperties,
 * firewallRuleProperties, backupProperties, webhookProperties, templateProperties,
 * sendingDomainProperties, verificationProperties, domainProperties). So, for every type, through the
 * real provider host: the outputs a read answers right after a create are the create's (a refresh
 * right after `up` shows no drift), and the outputs of the same object adopted with `adoptId` are the
 * create's, `adoptId` aside (a webhook taken over is made anew for its secret: its id, secret and
 * creation time are new, the rest agrees).
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { freshWorld } from "../../tools/support/world";
import { useResourceHarness } from "../support/per-file";
import { catalogue, outputsOf, PASSWORD, type Props } from "../vps/helpers";

jest.setTimeout(120_000);

let h: ResourceHarness;
let smallPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "immediate", dns: "auto" },
  setup: async (h) => {
    await freshWorld(h.emu, { mode: "immediate" });
    smallPlan = (await catalogue(h)).plan("s-1vcpu-1gb").id;
  },
});

const without = (props: Props, names: string[]): Props => Object.fromEntries(Object.entries(outputsOf(props)).filter(([k]) => !names.includes(k)));

/**
 * Creates from `args`, reads it back, adopts it; answers the created object. `adoptIdOf` names the
 * object for adoptId; `renewed`: outputs that a take-over makes anew.
 */
async function agree(type: string, args: Props, adoptIdOf?: (created: { id: string; properties: Props }) => string, renewed: string[] = []) {
  const created = await h.host.create(type, await h.checked(type, args));
  const read = await h.host.read(type, created.id, created.properties);
  expect({ type, outputs: outputsOf(read.properties) }).toEqual({ type, outputs: outputsOf(created.properties) });
  if (adoptIdOf) {
    const adopted = await h.host.create(type, await h.checked(type, { ...args, adoptId: adoptIdOf(created) }));
    expect({ type, outputs: without(adopted.properties, ["adoptId", ...renewed]) }).toEqual({ type, outputs: without(created.properties, renewed) });
  }
  return created;
}

test("Vps, VpsFirewallRule, VpsBackup: read and adoption answer the create's outputs", async () => {
  const server = await agree("Vps", { planId: smallPlan, name: "mapper-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD }, (c) => c.id);
  await agree("VpsFirewallRule", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" }, (c) => c.id);
  await agree("VpsBackup", { vpsId: server.id, planCode: "backup-10" }, (c) => c.id);
});

test("Webhook, Template, SendingDomain, SendingDomainVerification: read and adoption answer the create's outputs", async () => {
  await agree("Webhook", { url: "https://hooks.acme-shop.com/svc/mapper", events: ["email.delivered", "email.bounced"] }, (c) => c.id, ["webhookId", "secret", "createdAt"]);
  await agree("Template", { name: "mapper-welcome", subject: "Hi {{name}}", textBody: "Hello {{name}}" }, (c) => c.id);
  const domain = await agree("SendingDomain", { domain: "mail.acme-shop.com" }, (c) => c.id);
  await agree("SendingDomainVerification", { domainId: domain.id });
});

test("Domain: read and adoption answer the create's outputs (billing is the registration's answer only)", async () => {
  await agree("Domain", { name: "mapper-shop.com" }, (c) => c.id, ["billing"]);
});
