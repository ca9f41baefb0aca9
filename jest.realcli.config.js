/**
 * The stack tests run under the REAL `pulumi` CLI (docs/real-cli.md; the files: jest.cli-tests.js),
 * their stacks run by the CLI tools/pulumi-cli/build.sh builds (SVC_ENGINE=pulumi, set by the global
 * setup, which fails the run when the CLI is missing).
 */
const base = require("./jest.config.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testPathIgnorePatterns: ["/node_modules/"],
  testMatch: require("./jest.cli-tests.js"),
  globalSetup: "<rootDir>/tests/support/real-cli-setup.js",
  setupFilesAfterEnv: ["<rootDir>/tests/support/real-cli-timeouts.js"],
  // Each CLI operation is a preview pass and an update, each starting Go and two Node processes.
  testTimeout: 300000,
  maxWorkers: 1,
};
