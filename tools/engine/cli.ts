/**
 * The test engine from the command line (a stand-in for the `pulumi` CLI on machines without it):
 *   npm run engine -- <preview|up|refresh|destroy> <project dir> [--stack dev] [--clear-pending-creates]
 *                    [--parallel N] [--refresh (preview, up)] [--skip-preview]
 *   npm run engine -- config set <project dir> <key> <value> [--secret] [--path] [--stack dev]
 *   npm run engine -- config get <project dir> <key> [--path] [--json] [--stack dev]
 *   npm run engine -- config rm <project dir> <key> [--path] [--stack dev]
 *   npm run engine -- stack output <project dir> [name] [--json] [--show-secrets] [--stack dev]
 * (`config <project dir> <key> <value>` still sets, as before.) Secrets are encrypted with
 * PULUMI_CONFIG_PASSPHRASE. Ctrl-C as the CLI: the first cancels (the steps in flight finish, the
 * state is saved), the second terminates at once.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { killChildren } from "../support/children";
import { readStackState, runEngine, type EngineOptions, type Operation } from "./engine";
import { formatStackOutputs, printTerminating } from "./printing";
import { getConfig, qualifyConfigKey, readProject, removeConfig, setConfig } from "./state";

const USAGE = [
  "usage: npm run engine -- <preview|up|refresh|destroy> <project dir> [--stack dev] [--clear-pending-creates (refresh)] [--parallel N] [--refresh (preview, up)] [--skip-preview]",
  "       npm run engine -- config set <project dir> <key> <value> [--secret] [--path] [--stack dev]",
  "       npm run engine -- config get <project dir> <key> [--path] [--json] [--stack dev]",
  "       npm run engine -- config rm <project dir> <key> [--path] [--stack dev]",
  "       npm run engine -- stack output <project dir> [name] [--json] [--show-secrets] [--stack dev]",
].join("\n");

const OPTIONS = {
  stack: { type: "string", default: "dev" },
  secret: { type: "boolean", default: false },
  path: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  "show-secrets": { type: "boolean", default: false },
  "clear-pending-creates": { type: "boolean", default: false },
  parallel: { type: "string", short: "p" },
  refresh: { type: "boolean", short: "r", default: false },
  "skip-preview": { type: "boolean", default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

function config(args: string[], values: Values, passphrase: string): void {
  // `config <dir> <key> <value>`: the short form kept from before `config set`.
  const [verb, dir, given, value] = ["set", "get", "rm"].includes(args[0]) ? args : ["set", ...args];
  if (!dir || !given) usage();
  const projectDir = resolve(dir);
  const stack = values.stack!;
  // `pulumi config set k v` stores `<project>:k` (pkg/cmd/pulumi/config/io.go parseConfigKey).
  const key = qualifyConfigKey(given, readProject(projectDir).name);
  if (verb === "set") {
    if (value === undefined) usage();
    setConfig(projectDir, stack, passphrase, key, value, values.secret, values.path);
    return;
  }
  if (verb === "rm") {
    if (!removeConfig(projectDir, stack, key, values.path)) console.error(`configuration key '${key}' not found for stack '${stack}'`);
    return;
  }
  const found = getConfig(projectDir, stack, passphrase, key, values.path);
  if (!found) {
    console.error(`configuration key '${key}' not found for stack '${stack}'`);
    process.exit(1);
  }
  // As `pulumi config get`: a secret is shown decrypted; --json gives value, objectValue and secret.
  const text = typeof found.value === "string" ? found.value : JSON.stringify(found.value);
  if (values.json) console.log(JSON.stringify({ value: text, ...(typeof found.value === "object" ? { objectValue: found.value } : {}), secret: found.secret }, null, 2));
  else console.log(text);
}

function stackOutput(args: string[], values: Values, passphrase: string): void {
  const [sub, dir, name] = args;
  if (sub !== "output" || !dir) usage();
  const state = readStackState({ projectDir: resolve(dir), stack: values.stack, passphrase });
  const lines = formatStackOutputs(state, { name, json: values.json, showSecrets: values["show-secrets"] });
  if (lines === undefined) {
    console.error(`current stack does not have output property '${name}'`);
    process.exit(1);
  }
  for (const line of lines) console.log(line);
}

/** Ctrl-C as the CLI (its cancellation scope): the first cancels, the second terminates. */
function watchCtrlC(options: EngineOptions, print: (line: string) => void): void {
  const cancel = new AbortController();
  const terminate = new AbortController();
  options.cancel = cancel.signal;
  options.signal = terminate.signal;
  const onSigint = () => {
    if (!cancel.signal.aborted) return cancel.abort();
    printTerminating(print);
    terminate.abort();
    killChildren();
    process.exit(1);
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: OPTIONS });
  const [operation, ...rest] = positionals;
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE ?? "";
  if (operation === "config") return config(rest, values, passphrase);
  if (operation === "stack") return stackOutput(rest, values, passphrase);
  const dir = rest[0];
  if (!["preview", "up", "refresh", "destroy"].includes(operation) || !dir) usage();
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  if (parallel !== undefined && !(Number.isInteger(parallel) && parallel > 0)) {
    console.error(`--parallel takes a whole number above 0, got ${values.parallel}`);
    process.exit(2);
  }
  const print = (line: string) => console.log(line);
  const options: EngineOptions = { projectDir: resolve(dir), stack: values.stack, clearPendingCreates: values["clear-pending-creates"], parallel, refresh: values.refresh, skipPreview: values["skip-preview"], print };
  watchCtrlC(options, print);
  const result = await runEngine(operation as Operation, options);
  // The CLI's exit codes (pkg/cmd/pulumi/cmd/exit_codes.go ExitCodeFor): cancelled 8, else 1.
  process.exit(result.ok ? 0 : result.cancelled ? 8 : 1);
}

main().catch((err: Error) => {
  console.error(`engine: ${err.message}`);
  process.exit(1);
});
