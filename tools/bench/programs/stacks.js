/**
 * The benchmark's stacks, shared by the programs in this folder (each program folder is one Pulumi
 * project; `svc` is passed in because only a project folder resolves `pulumi-svc`). Plain JavaScript:
 * the language runtime then starts without compiling TypeScript, so the measured time is the stack's.
 */

/** 20 servers, each with 3 firewall rules and a backup add-on: 100 resources. */
function fleet(svc, config, servers = 20) {
  const planId = config.require("planId");
  const rootPassword = config.requireSecret("rootPassword");
  for (let i = 0; i < servers; i++) {
    const server = new svc.Vps(`web-${i}`, { planId, osType: "ubuntu", osVersion: "24.04", rootPassword });
    // The backup's setup keeps the server busy (VPS_BUSY) for a while: a rule that comes after the
    // activation waits for the setup in the provider process.
    for (const port of ["22", "80", "443"]) {
      new svc.VpsFirewallRule(`web-${i}-tcp-${port}`, { vpsId: server.id, protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" });
    }
    new svc.VpsBackup(`web-${i}-backup`, { vpsId: server.id, planCode: "backup-10" });
  }
}

/** 10 sending domains (each waits for verification), 30 webhooks, 30 templates: 70 resources. */
function email(svc, config, sizes = { domains: 10, webhooks: 30, templates: 30 }) {
  const zone = config.get("zone") || "bench-shop.com";
  for (let i = 0; i < sizes.domains; i++) new svc.SendingDomain(`mail-${i}`, { domain: `mail${i}.${zone}` });
  for (let i = 0; i < sizes.webhooks; i++) {
    new svc.Webhook(`hook-${i}`, { url: `https://hooks.${zone}/svc/${i}`, events: ["email.delivered", "email.bounced", "email.complained"] });
  }
  for (let i = 0; i < sizes.templates; i++) {
    new svc.Template(`template-${i}`, {
      name: `bench-${i}`,
      subject: `Order {{orderId}} (${i})`,
      htmlBody: `<p>Hello {{name}}, your order {{orderId}} has shipped.</p>`,
      textBody: `Hello {{name}}, your order {{orderId}} has shipped.`,
    });
  }
}

module.exports = { fleet, email };
