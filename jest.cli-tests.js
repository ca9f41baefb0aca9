/**
 * The test files whose stacks run under the real `pulumi` CLI only (jest.realcli.config.js, `npm run
 * test:real-cli`, a lane of CI): programs as teams write them (tests/cli/), the examples' own
 * tests, the lifecycle scenarios, refresh, the program's entry point and the 0.1.0-era state. `npm test` (jest.config.js) leaves them out: its stack tests still run under
 * the test engine (tools/engine/, issue 43 moves them here).
 */
module.exports = [
  "<rootDir>/tests/cli/**/*.test.ts",
  "<rootDir>/tests/engine/quickstart.test.ts",
  "<rootDir>/tests/engine/server-access.test.ts",
  "<rootDir>/tests/engine/vps-fleet.test.ts",
  "<rootDir>/tests/engine/two-accounts.test.ts",
  "<rootDir>/tests/engine/domain.test.ts",
  "<rootDir>/tests/engine/mail-setup.test.ts",
  "<rootDir>/tests/email-sending/example.test.ts",
  "<rootDir>/tests/engine/profiles-timeouts.test.ts",
  "<rootDir>/tests/engine/lifecycle/**/*.test.ts",
  "<rootDir>/tests/engine/entry-point.test.ts",
  "<rootDir>/tests/engine/refresh-parallel.test.ts",
  "<rootDir>/tests/compat/state-v010.test.ts",
];
