/** Setup file of the stack tests' jest project: their stacks run under the real CLI (each test file's own `process.env`). */
process.env.SVC_ENGINE = "pulumi";
