/**
 * The acceptance matrix and every example's test under the REAL `pulumi` CLI (docs/real-cli.md):
 * the same test files as `jest`, their stacks run by the CLI tools/pulumi-cli/build.sh builds
 * (SVC_ENGINE=pulumi, set by the global setup, which fails the run when the CLI is missing).
 */
const base = require("./jest.config.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testPathIgnorePatterns: ["/node_modules/"],
  testMatch: [
    // Programs as teams write them, each only under the CLI.
    "<rootDir>/tests/cli/**/*.test.ts",
    "<rootDir>/tests/acceptance/acceptance.test.ts",
    "<rootDir>/tests/engine/quickstart.test.ts",
    "<rootDir>/tests/engine/server-access.test.ts",
    "<rootDir>/tests/engine/vps-fleet.test.ts",
    "<rootDir>/tests/engine/two-accounts.test.ts",
    "<rootDir>/tests/engine/domain.test.ts",
    "<rootDir>/tests/engine/mail-setup.test.ts",
    "<rootDir>/tests/email-sending/example.test.ts",
    // Engine semantics seen green under the CLI (tools/engine/CONFORMANCE.md, "Seen under the real CLI").
    "<rootDir>/tests/engine/profiles-timeouts.test.ts",
  ],
  globalSetup: "<rootDir>/tests/support/real-cli-setup.js",
  setupFilesAfterEnv: ["<rootDir>/tests/support/real-cli-timeouts.js"],
  // Each CLI operation is a preview pass and an update, each starting Go and two Node processes.
  testTimeout: 300000,
  maxWorkers: 1,
};
