/**
 * Global setup of jest.realcli.config.js: every stack of the run goes through the real CLI. Missing
 * CLI: the run fails and says how to build it (CI builds it first, so there it must be present).
 */
const { existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");

module.exports = async () => {
  const bin = join(__dirname, "../../.pulumi-cli/bin");
  const missing = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"].filter((f) => !existsSync(join(bin, f)));
  if (missing.length) {
    throw new Error(`the real pulumi CLI is not built (${missing.join(", ")} missing in ${bin}): run tools/pulumi-cli/build.sh first`);
  }
  process.env.SVC_ENGINE = "pulumi";
  console.log(`\nreal CLI: pulumi ${readFileSync(join(bin, "VERSION"), "utf8").trim()} (${bin})`);
};
