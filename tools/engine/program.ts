/**
 * Running the project's program: the real Node language runtime (`@pulumi/pulumi/cmd/run`) connected
 * to this engine's ResourceMonitor, which names each registration and hands it to the plan.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CHILD_STDIO, ownChild, PARENT_WATCH } from "../support/children";
import { startMonitor, type RegisterAnswer, type Registration, type Severity } from "./monitor";
import { registerResource, StepFailed } from "./plan";
import { readExternal } from "./read";
import { printDiagnostic, printProgramOutput, resourceLabel } from "./printing";
import { pulumiScript } from "../support/provider-host";
import { DeploymentCancelled, STACK_TYPE, type Run } from "./run";
import { unwrapSecrets } from "./secrets";


/** The organization the CLI hands the language host for a stack of the local file backend. */
export const ORGANIZATION = "organization";

/** A registration refused before any step: the error is the run's and the deployment is cancelled. */
function refuseRegistration(run: Run, err: Error): Promise<never> {
  run.fail(err.message);
  run.cancel();
  return Promise.reject(new StepFailed(err.message));
}

/** Runs the program to its end, serving its registrations (their URNs kept in `run.urns`); answers
 * its exit code. A failed step cancels the deployment: the registrations waiting are answered
 * Unavailable, the steps in flight finish, and the program is then stopped, as the CLI closes its
 * language host (CONFORMANCE.md, "a failed step"). A program that failed with no error to show
 * for it is the run's error. */
export async function runProgram(run: Run): Promise<number | null> {
  const urns = run.urns;
  /** The label the program's log lines about a resource carry, by URN. */
  const labels = new Map<string, string>();
  /** Names a registration or a read (a duplicate URN refused before any step), then answers it with its step. */
  const serve = (reg: Pick<Registration, "type" | "name" | "parent">, logLabel: string, step: (urn: string) => Promise<RegisterAnswer>): Promise<RegisterAnswer> => {
    let urn: string;
    try {
      urn = urns.register(reg);
    } catch (err) {
      return refuseRegistration(run, err as Error);
    }
    labels.set(urn, logLabel);
    return run.track(step(urn).catch((err: Error) => failRegistration(run, urn, resourceLabel(reg), err)));
  };
  const monitor = await startMonitor({
    register: (reg) => serve(reg, reg.type === STACK_TYPE ? `${STACK_TYPE} ${reg.name}` : resourceLabel(reg), (urn) => registerResource(run, reg, urn)),
    read: (req) => serve(req, resourceLabel(req), (urn) => readExternal(run, req, urn)),
    registerOutputs(urn, outputs) {
      if (urn !== urns.stack) return;
      const { plain, secrets } = unwrapSecrets(outputs);
      run.next.outputs = plain;
      run.next.secretOutputs = secrets;
    },
    log: (severity, message, urn) => programLog(run, severity, message, urn ? labels.get(urn) ?? urn : ""),
    cancelled: run.cancelled,
    isCancelled: () => run.isCancelled,
  });
  let exitCode: number | null;
  let program: LanguageHost | undefined;
  try {
    program = startLanguageHost(run, monitor.address);
    const ended = await Promise.race([program.exit.then(() => "exited" as const), run.cancelled.then(() => "cancelled" as const)]);
    if (ended === "cancelled") {
      await run.settled();
      program.kill();
    }
    exitCode = await program.exit;
  } finally {
    program?.kill();
    await monitor.stop();
  }
  run.throwIfInterrupted();
  if (exitCode !== 0 && run.errors.length === 0 && !run.isCancelled) run.fail(`the program failed (exit ${exitCode}):\n${program.stderr().trim()}`);
  return exitCode;
}

/** A registration that failed: a resource no step changed stays in the state as it was (the CLI's
 * snapshot keeps it; not reached because the deployment was cancelled, or its check broke). Failed
 * other than by its step (which printed its error already): the error is the run's, and the
 * deployment is cancelled. */
function failRegistration(run: Run, urn: string, label: string, err: Error): never {
  const before = run.prior.get(urn);
  if (before && !run.next.resources.some((r) => r.urn === urn && !r.pendingDelete)) run.keep(before);
  if (!(err instanceof StepFailed) && !(err instanceof DeploymentCancelled)) {
    run.fail(`${label}: ${err.message}`);
    run.cancel();
  }
  throw err;
}

/** The SDK's own message for a registration answered Unavailable (sdk/nodejs/runtime/resource.ts):
 * the engine has printed the cause; the CLI shows nothing more for it. */
const MONITOR_TERMINATING = "Resource monitor is terminating";

/** What the program logged, as the CLI shows diagnostics; its errors fail the run. */
function programLog(run: Run, severity: Severity, message: string, label: string): void {
  if (severity === "error" && message.includes(MONITOR_TERMINATING)) return;
  const text = label ? `${label}: ${message}` : message;
  if (severity === "error") run.fail(text);
  else printDiagnostic(run.print, severity, text);
}

interface LanguageHost {
  exit: Promise<number | null>;
  /** What the program wrote on stderr so far. */
  stderr(): string;
  /** Stops the program at once (SIGKILL), as the CLI closes its language host plugin. */
  kill(): void;
}

/**
 * Preloaded into the program (`node --import`): Node 20.20's `util.inspect` of an Error with
 * `colors: true` loops, growing a string to gigabytes until a RangeError, when a stack frame names a
 * scoped package's file with no folder after it (`node_modules/@pulumi/config.ts:301`, which the
 * SDK's source maps produce); the SDK's cmd/run inspects every unhandled error that way
 * (cmd/run/error.ts defaultErrorMessage, called for its tracing span even for a RunError). The
 * guard inspects errors without colors: the same text, uncoloured, at once. This is a workaround
 * of a Node bug, not a behaviour of the CLI (CONFORMANCE.md).
 */
const INSPECT_GUARD = `data:text/javascript,${encodeURIComponent(`import util from "node:util";
const inspect = util.inspect;
const guarded = function (value, options) {
  if (value instanceof Error && options && typeof options === "object" && options.colors) return inspect.call(this, value, { ...options, colors: false });
  return inspect.apply(this, arguments);
};
for (const key of Reflect.ownKeys(inspect)) if (!["length", "name", "prototype"].includes(key)) Object.defineProperty(guarded, key, Object.getOwnPropertyDescriptor(inspect, key));
util.inspect = guarded;`)}`;

/** The program under `@pulumi/pulumi/cmd/run`, with the arguments and environment the CLI's
 * language host gives it; its stdout is printed as it comes. */
function startLanguageHost(run: Run, monitorAddress: string): LanguageHost {
  // As the CLI's language host calls cmd/run (pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs
  // main.go constructArguments): `--pwd` the program's directory and the entry point, "." unless
  // Pulumi.yaml's `main` names a file. With ".", cmd/run takes the entry from the nearest
  // package.json upward (its `exports`, else `main`), as a user's project has one.
  const main = run.project.programDir;
  const isFile = existsSync(main) && statSync(main).isFile();
  const programDir = isFile ? dirname(main) : main;
  const entryPoint = isFile ? basename(main) : ".";
  const typescript = existsSync(join(programDir, "index.ts"));
  const child = ownChild(spawn(
    process.execPath,
    [`--import=${INSPECT_GUARD}`, `--import=${PARENT_WATCH}`, pulumiScript(programDir, "cmd/run"), `--monitor=${monitorAddress}`, `--engine=${monitorAddress}`, `--organization=${ORGANIZATION}`, `--project=${run.project.name}`, `--stack=${run.stack}`, "--parallel=16", `--pwd=${programDir}`, ...(run.dryRun ? ["--dry-run"] : []), entryPoint],
    {
      cwd: programDir,
      env: {
        ...process.env,
        PULUMI_CONFIG: JSON.stringify(run.config.values),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(run.config.secretKeys),
        PULUMI_NODEJS_TYPESCRIPT: typescript ? "true" : "false",
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      },
      stdio: [...CHILD_STDIO],
    },
  ));
  run.attachProgram(() => child.kill("SIGKILL"));
  child.stdout!.on("data", (chunk: Buffer) => printProgramOutput(run.print, chunk.toString()));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  return { exit: new Promise((resolveExit) => child.on("exit", (code) => resolveExit(code))), stderr: () => stderr, kill };
}

export { ensurePackageLink } from "../support/project";
