// The CLI's fixed cost (npm run bench): a program that loads what a user's does and declares nothing.
require("@pulumi/pulumi");
require("pulumi-svc");
