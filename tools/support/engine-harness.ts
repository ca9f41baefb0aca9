/**
 * Harness of the stack tests: one emulator, one stack of a project (an example, or a generated
 * JavaScript fixture under tests/fixtures/engine-<name>/) run by the `pulumi` CLI, its config set with
 * `pulumi config set`, its backend in a temp dir, so a test never touches a developer's stacks.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorOptions, RequestLogEntry, World } from "../../emulator";
import { readProject } from "./project";
import type { Operation, RunResult, StackState, Step } from "./stack-state";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { packageRoot } from "./provider-host";
import { CliStack, realCliMissing, realCliPresent, type CliRun, type CliRunOptions } from "./real-cli";

export const ROOT = packageRoot(__dirname);
const PASSPHRASE = "engine-test-passphrase";

export interface EngineRun extends RunResult {
  /** What the engine printed. */
  output: string[];
  /** The preview pass an operation ran before acting (tools/support/real-cli.ts `CliRun`). */
  previewPass?: CliRun["previewPass"];
}

export interface EngineStack {
  emu: TestEmulator;
  /** The stack's driver, for any `pulumi` command (`cancel`, `state move`) and the pid of a run. */
  cli: CliStack;
  options: { projectDir: string; stack: string; passphrase: string; stateFile: string };
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

/** A run's options: the CLI's flags (`--skip-preview` for a test's setup runs, whose preview proves nothing; `--target`, `--replace`…). */
export type RunOptions = CliRunOptions;

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

/**
 * Starts an emulator and configures `stack` of the project with its URLs, keys and project id; its
 * operations run under the `pulumi` CLI (tools/support/real-cli.ts), with a file backend and a
 * PULUMI_HOME of its own in a temp dir.
 */
export async function engineStack(o: StackOptions): Promise<EngineStack> {
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
