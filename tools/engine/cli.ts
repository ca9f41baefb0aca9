/**
 * The test engine from the command line (a stand-in for the `pulumi` CLI on machines without it):
 *   npm run engine -- <preview|up|refresh|destroy> <project dir> [--stack dev] [--clear-pending-creates]
 *                    [--parallel N] [--refresh (preview, up)]
 *   npm run engine -- config <project dir> <key> <value> [--secret] [--stack dev]
 * Secrets are encrypted with PULUMI_CONFIG_PASSPHRASE.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { runEngine, type Operation } from "./engine";
import { setConfig } from "./state";

const USAGE = [
  "usage: npm run engine -- <preview|up|refresh|destroy> <project dir> [--stack dev] [--clear-pending-creates (refresh)] [--parallel N] [--refresh (preview, up)]",
  "       npm run engine -- config <project dir> <key> <value> [--secret] [--stack dev]",
].join("\n");

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { stack: { type: "string", default: "dev" }, secret: { type: "boolean", default: false }, "clear-pending-creates": { type: "boolean", default: false }, parallel: { type: "string", short: "p" }, refresh: { type: "boolean", short: "r", default: false } } });
  const [operation, dir, key, value] = positionals;
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE ?? "";
  if (operation === "config" && dir && key && value !== undefined) {
    setConfig(resolve(dir), values.stack!, passphrase, key, value, values.secret);
    console.log(`${key} set in ${resolve(dir, `Pulumi.${values.stack}.yaml`)}${values.secret ? " (encrypted)" : ""}`);
    return;
  }
  if (!["preview", "up", "refresh", "destroy"].includes(operation) || !dir) {
    console.error(USAGE);
    process.exit(2);
  }
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  if (parallel !== undefined && !(Number.isInteger(parallel) && parallel > 0)) {
    console.error(`--parallel takes a whole number above 0, got ${values.parallel}`);
    process.exit(2);
  }
  const options = { projectDir: resolve(dir), stack: values.stack, clearPendingCreates: values["clear-pending-creates"], parallel, refresh: values.refresh, print: (line: string) => console.log(line) };
  const result = await runEngine(operation as Operation, options);
  process.exit(result.ok ? 0 : 1);
}

main().catch((err: Error) => {
  console.error(`engine: ${err.message}`);
  process.exit(1);
});
