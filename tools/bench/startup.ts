/**
 * Issue 43's start-up goal: what pulumi-svc adds, over `@pulumi/pulumi` alone, to a program's start
 * and to the dynamic-provider host's. Each figure is measured in fresh Node processes in a project
 * where the package is installed as a user has it (the bench's packed install), by `process.hrtime`
 * around the part that is pulumi-svc's:
 *
 * - the program: `require("pulumi-svc")` after `require("@pulumi/pulumi")`, as a program's first
 *   lines do;
 * - the provider host: after what @pulumi/pulumi's host (cmd/dynamic-provider) loads before its
 *   first call, the provider object a Webhook's `__provider` requires, its `configure` with the stack's
 *   settings, then its first Check and Diff of a webhook as the state holds it, less the same calls
 *   through a provider that answers at once.
 *
 * The machine's load moves these figures: the lowest and the median of the runs are printed.
 */
import { execFileSync } from "node:child_process";

export interface Spread {
  minMs: number;
  medianMs: number;
}

export interface StartupFigures {
  runs: number;
  program: Spread;
  host: Spread;
}

/** The settings the provider is configured with: an emulator's, so that a call it makes is answered. */
export interface StartupSettings {
  apiUrl: string;
  emailUrl: string;
  apiKey: string;
  emailApiKey: string;
  projectId: string;
}

const PROGRAM = `
const t0 = process.hrtime.bigint();
require("@pulumi/pulumi");
const t1 = process.hrtime.bigint();
require("pulumi-svc");
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({ ms: Number(t2 - t1) / 1e6, pulumiMs: Number(t1 - t0) / 1e6 }));
`;

const HOST = `
require("@pulumi/pulumi");
require("@pulumi/pulumi/proto/provider_grpc_pb");
const settings = JSON.parse(process.env.SVC_STARTUP_SETTINGS);
const values = { "svc:apiUrl": settings.apiUrl, "svc:emailUrl": settings.emailUrl, "svc:apiKey": settings.apiKey, "svc:emailApiKey": settings.emailApiKey, "svc:projectId": settings.projectId };
const config = { get: (key) => values[key] };
const hook = { url: "https://hooks.example.com/svc", events: ["email.delivered", "email.bounced"] };
const firstCalls = async (load) => {
  const t0 = process.hrtime.bigint();
  const provider = load();
  await provider.configure({ config });
  await provider.check(hook, hook);
  await provider.diff("wh_1", hook, hook);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
(async () => {
  const trivial = await firstCalls(() => ({ configure: async () => undefined, check: async (_o, news) => ({ inputs: news }), diff: async () => ({ changes: false }) }));
  const ours = await firstCalls(() => require("pulumi-svc/dynamic/Webhook"));
  console.log(JSON.stringify({ ms: ours - trivial }));
  process.exit(0);
})().catch((err) => { console.error(err); process.exit(1); });
`;

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { minMs: sorted[0], medianMs: sorted[Math.floor(sorted.length / 2)] };
}

/** `runs` fresh processes of each kind, alternating, in `projectDir` (where pulumi-svc is installed). */
export function measureStartup(projectDir: string, settings: StartupSettings, runs: number): StartupFigures {
  const once = (script: string) => {
    const printed = execFileSync(process.execPath, ["-e", script], {
      cwd: projectDir,
      encoding: "utf8",
      env: { ...process.env, SVC_STARTUP_SETTINGS: JSON.stringify(settings) },
    });
    return (JSON.parse(printed.trim().split("\n").pop()!) as { ms: number }).ms;
  };
  const program: number[] = [];
  const host: number[] = [];
  for (let i = 0; i < runs; i++) {
    program.push(once(PROGRAM));
    host.push(once(HOST));
  }
  return { runs, program: spread(program), host: spread(host) };
}
