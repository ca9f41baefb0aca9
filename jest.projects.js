/**
 * The two jest projects `npm test` runs in one pool of workers: `unit` (a resource against the
 * emulator through the dynamic-provider host, the client, the emulator, the tools) and `cli` (the
 * files jest.cli-tests.js lists: whole stacks under the real `pulumi` CLI).
 */
const underCli = require("./jest.cli-tests.js");

const common = {
  rootDir: __dirname,
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", isolatedModules: true }] },
  // The examples import the package by name, as a user's program does (tsconfig.json maps it the same way).
  moduleNameMapper: { "^pulumi-svc$": "<rootDir>/sdk/index.ts" },
};

const unit = {
  ...common,
  displayName: "unit",
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", ...underCli.map((glob) => glob.replace("**/*.test.ts", "").replace(/\./g, "\\."))],
};

const cli = {
  ...common,
  displayName: "cli",
  testMatch: underCli,
  setupFilesAfterEnv: ["<rootDir>/tests/support/real-cli-timeouts.js"],
};

module.exports = { unit, cli };
