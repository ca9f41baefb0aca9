/** Only the stack tests under the real `pulumi` CLI (`npm run test:real-cli`; jest.projects.js `cli`). */
const { cli } = require("./jest.projects.js");

/** @type {import('jest').Config} */
module.exports = {
  projects: [cli],
  globalSetup: "<rootDir>/tests/support/real-cli-setup.js",
  maxWorkers: 2,
};
