/**
 * Harness of the engine tests: one emulator, one stack of a project (an example, or a generated
 * JavaScript fixture under tests/fixtures/engine-<name>/), its config set as `pulumi config set`
 * would, and its state file in a temp dir, so a test never touches a developer's stack files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorOptions, RequestLogEntry, World } from "../../emulator";
import { readStackState, runEngine, type EngineOptions, type Operation, type RunResult, type Step } from "../engine/engine";
import { setConfig } from "../engine/state";
import { readProject } from "./project";
import type { StackState } from "./stack-state";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { packageRoot } from "./provider-host";
import { CliStack, realCliMissing, realCliPresent, useRealCli, type CliOnlyRunOptions, type CliRun } from "./real-cli";

export const ROOT = packageRoot(__dirname);
const PASSPHRASE = "engine-test-passphrase";

export interface EngineRun extends RunResult {
  /** What the engine printed. */
  output: string[];
  /** Under the real CLI: the preview pass an operation ran before acting (tools/support/real-cli.ts `CliRun`). */
  previewPass?: CliRun["previewPass"];
}

export interface EngineStack {
  emu: TestEmulator;
  /** Which engine runs this stack's operations: the test engine, or the real `pulumi` CLI (SVC_ENGINE=pulumi). */
  engine: "test-engine" | "pulumi";
  /** Under the real CLI: the stack's driver, for any `pulumi` command (`cancel`, `state move`) and the pid of a run. */
  cli?: CliStack;
  options: Required<Pick<EngineOptions, "projectDir" | "stack" | "passphrase" | "stateFile">>;
  /** One operation; throws with the printed output when `ok` is not what `expectOk` says. */
  run(op: Operation, expectOk?: boolean, extra?: RunOptions): Promise<EngineRun>;
  /** One operation, whatever its outcome, with the options both engines take (and, under the real CLI, its own flags). */
  execute(op: Operation, extra?: RunOptions): Promise<EngineRun>;
  config(key: string, value: string, secret?: boolean): void;
  /** The stored state, secrets decrypted with the stack's passphrase. */
  state(): StackState;
  /** The state file as stored on disk. */
  stateText(): string;
  /** Removes the state file: the next run starts from no state. */
  resetState(): void;
  world(): World;
  /** Requests the emulator logged since the last `clearRequests()`, `GET`s left out. */
  writes(): RequestLogEntry[];
  clearRequests(): void;
  close(): Promise<void>;
}

/** Run options that mean the same under the test engine and the real CLI (its flags). */
export type SharedRunOptions = Pick<EngineOptions, "clearPendingCreates" | "refresh" | "parallel" | "signal"> & {
  /** As `pulumi up --skip-preview` (and `destroy`, `refresh`): the operation without its preview
   * pass first; for a test's setup runs, whose preview proves nothing. */
  skipPreview?: boolean;
  /** Under the real CLI: a handle that kills its provider host. */
  onProviderHost?: (host: { kill(): void }) => void;
};

/** A run's options: those both engines take, and the real CLI's own flags (`--target`, `--replace`, `--exclude`, `--json`, `--continue-on-error`), refused by the test engine. */
export type RunOptions = SharedRunOptions & CliOnlyRunOptions;

export interface StackOptions {
  projectDir: string;
  stack: string;
  emulator?: EmulatorOptions;
  /** Remove projectDir at close (generated fixtures). */
  removeProject?: boolean;
  /** Another stack's emulator, shared (a second stack of the same account); not closed by this stack. */
  sharedEmulator?: TestEmulator;
  /**
   * Real CLI only: a file backend shared with other stacks (a `StackReference` reads another stack's
   * outputs from it; `state move` moves between them), kept at close. Default: the stack's own, removed at close.
   */
  backendDir?: string;
}

/** A stack's `run`, whichever engine `execute` runs. */
function expectingOutcome(execute: EngineStack["execute"]): EngineStack["run"] {
  return async (op, expectOk = true, extra = {}) => {
    const result = await execute(op, extra);
    if (result.ok !== expectOk) throw new Error(`${op} ${result.ok ? "succeeded" : "failed"}, expected the opposite:\n${result.output.join("\n")}`);
    return result;
  };
}

/** The provider's stack config for the emulator: its URLs, keys and project id. */
function configureFor(emu: TestEmulator, config: EngineStack["config"]): void {
  config("svc:apiUrl", emu.urls.api);
  config("svc:emailUrl", emu.urls.email);
  config("svc:apiKey", emu.keys.account, true);
  config("svc:emailApiKey", emu.keys.email, true);
  config("svc:projectId", emu.projects[0]);
}

/** Starts an emulator and configures `stack` of the project with its URLs, keys and project id. */
export async function engineStack(o: StackOptions): Promise<EngineStack> {
  if (useRealCli()) return cliEngineStack(o);
  if (o.backendDir) throw new Error(`stack ${o.stack}: a shared backend (backendDir) needs the real CLI (SVC_ENGINE=pulumi)`);
  const emu = o.sharedEmulator ?? (await startTestEmulator({ transitions: "immediate", ...o.emulator }));
  const tmp = mkdtempSync(join(tmpdir(), "svc-engine-"));
  const stackFile = join(o.projectDir, `Pulumi.${o.stack}.yaml`);
  rmSync(stackFile, { force: true });
  const options = { projectDir: o.projectDir, stack: o.stack, passphrase: PASSPHRASE, stateFile: join(tmp, "state.json") };
  const config = (key: string, value: string, secret = false) => setConfig(o.projectDir, o.stack, PASSPHRASE, key, value, secret);
  configureFor(emu, config);
  const execute = async (op: Operation, extra: RunOptions = {}): Promise<EngineRun> => {
    const { onProviderHost, target, replace, exclude, previewPlan, continueOnError, onStart, ...rest } = extra;
    const cliOnly = Object.entries({ target, replace, exclude, previewPlan, continueOnError, onStart }).filter(([, v]) => v !== undefined);
    if (cliOnly.length) throw new Error(`${op} --${cliOnly.map(([k]) => k).join(", --")}: a flag of the real CLI only (SVC_ENGINE=pulumi); the test engine has none`);
    const output: string[] = [];
    const result = await runEngine(op, { ...options, ...rest, print: (line) => output.push(line), onProviderHost: onProviderHost && ((h) => onProviderHost(h)) });
    return { ...result, output };
  };
  return {
    emu,
    engine: "test-engine",
    options,
    config,
    execute,
    run: expectingOutcome(execute),
    state: () => readStackState(options),
    stateText: () => readFileSync(options.stateFile, "utf8"),
    resetState: () => rmSync(options.stateFile, { force: true }),
    world: () => emu.control.state(),
    writes: () => emu.control.requests().filter((r) => r.method !== "GET"),
    clearRequests: () => emu.control.clearRequests(),
    async close() {
      rmSync(stackFile, { force: true });
      if (o.removeProject) rmSync(o.projectDir, { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
      if (!o.sharedEmulator) await emu.close();
    },
  };
}

/** The same stack under the real `pulumi` CLI (tools/support/real-cli.ts): its own file backend and PULUMI_HOME in a temp dir. */
async function cliEngineStack(o: StackOptions): Promise<EngineStack> {
  if (!realCliPresent()) throw new Error(`stack ${o.stack} needs the pulumi CLI: ${realCliMissing()}`);
  const emu = o.sharedEmulator ?? (await startTestEmulator({ transitions: "immediate", ...o.emulator }));
  const tmp = mkdtempSync(join(tmpdir(), "svc-cli-"));
  rmSync(join(o.projectDir, `Pulumi.${o.stack}.yaml`), { force: true });
  const cli = new CliStack(o.projectDir, readProject(o.projectDir).name, o.stack, PASSPHRASE, tmp, o.backendDir);
  cli.init();
  const config = (key: string, value: string, secret = false) => cli.config(key, value, secret);
  configureFor(emu, config);
  const execute = (op: Operation, extra: RunOptions = {}): Promise<EngineRun> => cli.run(op, extra);
  return {
    emu,
    engine: "pulumi",
    cli,
    options: { projectDir: o.projectDir, stack: o.stack, passphrase: PASSPHRASE, stateFile: cli.stateFile },
    config,
    execute,
    run: expectingOutcome(execute),
    state: () => cli.state(),
    stateText: () => (existsSync(cli.stateFile) ? readFileSync(cli.stateFile, "utf8") : ""),
    resetState: () => cli.reset(),
    world: () => emu.control.state(),
    writes: () => emu.control.requests().filter((r) => r.method !== "GET"),
    clearRequests: () => emu.control.clearRequests(),
    async close() {
      cli.close();
      if (o.removeProject) rmSync(o.projectDir, { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
      if (!o.sharedEmulator) await emu.close();
    },
  };
}

/**
 * A project's Pulumi.yaml and package.json, as `pulumi new javascript` (or `typescript`, with its
 * tsconfig.json) makes them. The package.json matters: the language host takes the program's entry
 * from the nearest one upward, which for a directory in this repo without its own is the repo's (the
 * package, dist/sdk), not the program.
 */
export function writeProjectFiles(dir: string, project: string, language: "javascript" | "typescript" = "javascript"): void {
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\n`);
  if (language === "javascript") {
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: project, private: true, main: "index.js" }, null, 2)}\n`);
    return;
  }
  // The template's files (pulumi/templates typescript/, as tests/consumer/run.sh quotes them); the
  // dependencies are this repo's node_modules, found upward, and pulumi-svc linked (ensurePackageLink).
  const pkg = { name: project, main: "index.ts", devDependencies: { "@types/node": "^18", typescript: "^5.0.0" }, dependencies: { "@pulumi/pulumi": "^3.113.0", "pulumi-svc": "file:../../.." } };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 4)}\n`);
  const compilerOptions = {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "nodenext",
    moduleResolution: "nodenext",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  };
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 4)}\n`);
}

const PROGRAM_HEADER = {
  javascript: 'const pulumi = require("@pulumi/pulumi");\nconst svc = require("pulumi-svc");\nconst config = new pulumi.Config();\n',
  typescript: 'import * as pulumi from "@pulumi/pulumi";\nimport * as svc from "pulumi-svc";\n\nconst config = new pulumi.Config();\n',
};

/** A Pulumi project generated under tests/fixtures/engine-<name>/ (gitignored), JavaScript unless
 * told; `program` (re)writes its index.js (index.ts), with `pulumi`, `svc` and `config` in scope. */
export function fixtureProject(name: string, language: "javascript" | "typescript" = "javascript"): { dir: string; project: string; program(code: string): void } {
  const dir = join(ROOT, "tests/fixtures", `engine-${name}`);
  const project = `svc-engine-${name}`;
  mkdirSync(dir, { recursive: true });
  writeProjectFiles(dir, project, language);
  return {
    dir,
    project,
    program(code) {
      writeFileSync(join(dir, language === "javascript" ? "index.js" : "index.ts"), PROGRAM_HEADER[language] + code);
    },
  };
}

/** The steps other than `same`, as "op name" strings, in the order they ran. */
export const changes = (r: RunResult): string[] => r.steps.filter((s: Step) => s.op !== "same").map((s) => `${s.op} ${s.name}`);

/** Only `same` steps: nothing to do. */
export const onlySame = (r: RunResult): boolean => r.steps.length > 0 && r.steps.every((s) => s.op === "same");

/** `METHOD path` of request log entries. */
export const calls = (entries: RequestLogEntry[]): string[] => entries.map((e) => `${e.method} ${e.path}`);
