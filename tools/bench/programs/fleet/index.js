// Benchmark scenario 1: 20 servers, 60 firewall rules, 20 backups (see ../stacks.js).
const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc");
require("../stacks").fleet(svc, new pulumi.Config());
