/**
 * The test files that run whole stacks under the real `pulumi` CLI: jest.projects.js's `cli` project
 * (part of `npm test`; alone: `npm run test:real-cli`). The `unit` project leaves them out.
 */
module.exports = [
  "<rootDir>/tests/cli/**/*.test.ts",
  "<rootDir>/tests/acceptance/acceptance.test.ts",
  "<rootDir>/tests/engine/quickstart.test.ts",
  "<rootDir>/tests/engine/server-access.test.ts",
  "<rootDir>/tests/engine/vps-fleet.test.ts",
  "<rootDir>/tests/engine/two-accounts.test.ts",
  "<rootDir>/tests/engine/domain.test.ts",
  "<rootDir>/tests/engine/mail-setup.test.ts",
  "<rootDir>/tests/email-sending/example.test.ts",
  "<rootDir>/tests/engine/profiles-timeouts.test.ts",
  "<rootDir>/tests/engine/account.test.ts",
  "<rootDir>/tests/engine/debug-log.test.ts",
  "<rootDir>/tests/engine/email-plan.test.ts",
  "<rootDir>/tests/engine/package-semantics.test.ts",
  "<rootDir>/tests/engine/preview-foresight.test.ts",
  "<rootDir>/tests/engine/preview-refusals.test.ts",
  "<rootDir>/tests/engine/renewal-period.test.ts",
  "<rootDir>/tests/engine/semantics.test.ts",
  "<rootDir>/tests/engine/server-access-checks.test.ts",
  "<rootDir>/tests/reliability/drift.test.ts",
  "<rootDir>/tests/reliability/fault-matrix.test.ts",
  "<rootDir>/tests/reliability/interrupted-create-access.test.ts",
  "<rootDir>/tests/reliability/interrupted-create-matrix.test.ts",
  "<rootDir>/tests/reliability/interrupted.test.ts",
  "<rootDir>/tests/reliability/secrets.test.ts",
];
