// Benchmark scenario 0 (and `npm run bench -- --smoke`): 2 servers, 6 firewall rules, 2 backups.
const pulumi = require("@pulumi/pulumi");
const svc = require("pulumi-svc");
require("../stacks").fleet(svc, new pulumi.Config(), 2);
