// Benchmark scenario 3: a 200-resource stack for the no-op preview — the fleet (100), the email
// resources (70) and 30 more templates (cheap: no call at preview) (see ../stacks.js).
const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc");
const config = new pulumi.Config();
const stacks = require("../stacks");
stacks.fleet(svc, config);
stacks.email(svc, config, { domains: 10, webhooks: 30, templates: 60 });
