// Benchmark scenario 2: 10 sending domains (verified), 30 webhooks, 30 templates (see ../stacks.js).
const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc");
require("../stacks").email(svc, new pulumi.Config());
