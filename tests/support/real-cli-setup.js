/**
 * Global setup of `npm test` (jest.config.js): finds the `pulumi` CLI the stack tests run
 * (tools/pulumi-cli/locate.js: the built one, one on PATH of a supported version, or built now) and
 * says which. With none, the unit tests still run and every stack test fails saying why; under CI
 * (which builds it first) the run stops here.
 */
const { locate } = require("../../tools/pulumi-cli/locate");

module.exports = async () => {
  const cli = locate({ build: true });
  if (cli.missing) {
    if (process.env.CI === "true") throw new Error(`no pulumi CLI for the stack tests: ${cli.missing}`);
    process.env.SVC_PULUMI_MISSING = cli.missing;
    console.log(`\nno pulumi CLI: ${cli.missing}. The stack tests will fail; the unit tests run.`);
    return;
  }
  process.env.SVC_PULUMI_BIN = cli.bin;
  console.log(`\nstack tests run pulumi ${cli.version}, ${cli.source}`);
};
