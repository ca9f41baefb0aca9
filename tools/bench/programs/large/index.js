// Benchmark scenario 6: a 1,000-resource stack — 100 servers, each with 3 firewall rules and a backup
// add-on (500, on the platform key), 20 sending domains, 160 webhooks and 320 templates (500, on the
// email key) (see ../stacks.js).
const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc");
const config = new pulumi.Config();
const stacks = require("../stacks");
stacks.fleet(svc, config, 100);
stacks.email(svc, config, { domains: 20, webhooks: 160, templates: 320 });
