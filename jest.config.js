const underCli = require("./jest.cli-tests.js");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  // Files whose stacks run under the real pulumi CLI only, by jest.realcli.config.js (the CLI is built after `npm test`).
  testPathIgnorePatterns: ["/node_modules/", ...underCli.map((glob) => glob.replace("**/*.test.ts", "").replace(/\./g, "\\."))],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", isolatedModules: true }] },
  testTimeout: 30000,
  // The examples import the package by name, as a user's program does (tsconfig.json maps it the same way).
  moduleNameMapper: { "^pulumi-svc$": "<rootDir>/sdk/index.ts" },
  // Most suites wait on the emulator's timings, not on the CPU: two workers on 2 cores cut `npm test` from ~410 s to ~300 s.
  maxWorkers: 2,
};
