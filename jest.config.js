const { unit, cli } = require("./jest.projects.js");

/** @type {import('jest').Config} */
module.exports = {
  projects: [unit, cli],
  // Finds (or builds) the pulumi CLI the stack tests run, and says which.
  globalSetup: "<rootDir>/tests/support/real-cli-setup.js",
  testTimeout: 30000,
  // Most suites wait on the emulator's timings or on the processes a CLI run starts, not on one CPU.
  maxWorkers: 2,
};
