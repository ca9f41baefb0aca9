/**
 * Running the project's program: the real Node language runtime (`@pulumi/pulumi/cmd/run`) connected
 * to this engine's ResourceMonitor, which names each registration and hands it to the plan.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { startMonitor, type Registration } from "./monitor";
import { registerResource } from "./plan";
import { printProgramOutput } from "./printing";
import { packageRoot, pulumiScript } from "./provider-host";
import { STACK_TYPE, type Run } from "./run";
import { unwrapSecrets } from "./secrets";

const ROOT = packageRoot(__dirname);

/** The organization the CLI hands the language host for a stack of the local file backend. */
export const ORGANIZATION = "organization";

/** What `npm install` gives a user's project: `node_modules/pulumi-svc` is this package. */
export function ensurePackageLink(projectDir: string): void {
  const modules = join(projectDir, "node_modules");
  const link = join(modules, "pulumi-svc");
  if (existsSync(link) || (existsSync(modules) && lstatSync(modules).isSymbolicLink())) return;
  mkdirSync(modules, { recursive: true });
  symlinkSync(ROOT, link, "dir");
}

/** The URNs of one program run's registrations. */
class Urns {
  /** Every URN the program registered. */
  readonly registered = new Set<string>();
  /** The stack's URN once registered: its outputs are the stack outputs. */
  stack = "";
  private readonly typeOf = new Map<string, string>();

  constructor(private readonly run: Run) {}

  /** URNs qualify a type by its parents' types (all but the stack's), as the engine's do. */
  add(reg: Registration): string {
    const parentType = reg.parent && reg.parent !== this.stack ? this.typeOf.get(reg.parent) : undefined;
    const qualified = parentType ? `${parentType}$${reg.type}` : reg.type;
    const urn = `urn:pulumi:${this.run.stack}::${this.run.project.name}::${qualified}::${reg.name}`;
    this.typeOf.set(urn, qualified);
    if (reg.type === STACK_TYPE) this.stack = urn;
    this.registered.add(urn);
    return urn;
  }
}

/** Runs the program to its end, serving its registrations; answers its exit code and the URNs it
 * registered. A program that failed with no resource error to show for it is the run's error. */
export async function runProgram(run: Run): Promise<{ exitCode: number | null; registered: Set<string> }> {
  const urns = new Urns(run);
  const monitor = await startMonitor({
    register: (reg) => registerResource(run, reg, urns.add(reg)),
    registerOutputs(urn, outputs) {
      if (urn !== urns.stack) return;
      const { plain, secrets } = unwrapSecrets(outputs);
      run.next.outputs = plain;
      run.next.secretOutputs = secrets;
    },
  });
  let exitCode: number | null;
  let program: LanguageHost;
  try {
    program = startLanguageHost(run, monitor.address);
    exitCode = await program.exit;
  } finally {
    await monitor.stop();
  }
  run.throwIfInterrupted();
  if (exitCode !== 0 && run.errors.length === 0) run.fail(`the program failed (exit ${exitCode}):\n${program.stderr().trim()}`);
  return { exitCode, registered: urns.registered };
}

interface LanguageHost {
  exit: Promise<number | null>;
  /** What the program wrote on stderr so far. */
  stderr(): string;
}

/** The program under `@pulumi/pulumi/cmd/run`, with the arguments and environment the CLI's
 * language host gives it; its stdout is printed as it comes. */
function startLanguageHost(run: Run, monitorAddress: string): LanguageHost {
  const programDir = run.project.programDir;
  const typescript = existsSync(join(programDir, "index.ts"));
  const child = spawn(
    process.execPath,
    [pulumiScript(programDir, "cmd/run"), `--monitor=${monitorAddress}`, `--organization=${ORGANIZATION}`, `--project=${run.project.name}`, `--stack=${run.stack}`, "--parallel=16", ...(run.dryRun ? ["--dry-run"] : []), programDir],
    {
      cwd: run.options.projectDir,
      env: {
        ...process.env,
        PULUMI_CONFIG: JSON.stringify(run.config.values),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(run.config.secretKeys),
        PULUMI_NODEJS_TYPESCRIPT: typescript ? "true" : "false",
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  run.attachProgram(() => child.kill("SIGKILL"));
  child.stdout.on("data", (chunk: Buffer) => printProgramOutput(run.print, chunk.toString()));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { exit: new Promise((resolveExit) => child.on("exit", (code) => resolveExit(code))), stderr: () => stderr };
}
