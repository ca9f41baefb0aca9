/**
 * The Node language-host stand-in (tools/pulumi-cli/pulumi-language-nodejs.js) against the released
 * host, pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs/main.go (read at v3.260; the quotes
 * below are its lines), without the CLI: the test plays the engine (a health server, a resource
 * monitor and the Engine service) and calls the host's gRPC service as the CLI does. The program the
 * host starts is, but for the TypeScript case, a script (PULUMI_LANGUAGE_NODEJS_RUN_PATH, which
 * main.go honours too) that records its argv, node options and environment.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as languageRpc from "@pulumi/pulumi/proto/language_grpc_pb";
import * as language from "@pulumi/pulumi/proto/language_pb";
import * as resourceRpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resource from "@pulumi/pulumi/proto/resource_pb";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import { startEngineHealthServer } from "../../tools/support/provider-host";
import { ROOT } from "../../tools/support/engine-harness";
import { running } from "../../tools/support/real-cli";

jest.setTimeout(60_000);

const STAND_IN = join(ROOT, "tools/pulumi-cli/pulumi-language-nodejs.js");
const tmp = mkdtempSync(join(tmpdir(), "svc-langhost-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * The program: records what it was started with in the file named by its last argument, then does
 * what its first argument says — `exit:<code>`, `hang` (ends on SIGINT, as a Node program does),
 * `stubborn` (notes each SIGINT and keeps running).
 */
const RECORDER = join(tmp, "record-run.js");
writeFileSync(
  RECORDER,
  `const fs = require("fs");
const out = process.argv[process.argv.length - 1];
const mode = process.argv[process.argv.length - 2];
fs.writeFileSync(out, JSON.stringify({ argv: process.argv.slice(1), execArgv: process.execArgv, env: process.env, pid: process.pid }));
if (mode.startsWith("exit:")) process.exit(Number(mode.slice(5)));
if (mode === "stubborn") process.on("SIGINT", () => fs.appendFileSync(out + ".signals", "SIGINT\\n"));
setInterval(() => undefined, 1000);
`,
);

interface Recorded {
  argv: string[];
  execArgv: string[];
  env: Record<string, string | undefined>;
  pid: number;
}

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Host {
  child: ChildProcess;
  client: languageRpc.LanguageRuntimeClient;
  stderr: () => string;
}

const hosts: Host[] = [];
afterEach(() => {
  for (const h of hosts.splice(0)) {
    h.client.close();
    if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill("SIGKILL");
  }
});

/** Starts the stand-in as the CLI does (`pulumi-language-nodejs [flags] <engine>`), its port read from stdout. */
async function startHost(engineAddress: string, flags: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Host> {
  const child = spawn(process.execPath, [STAND_IN, ...flags, engineAddress], { env: { ...process.env, PULUMI_LANGUAGE_NODEJS_RUN_PATH: RECORDER, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`the language host exited ${code}: ${stderr}`)));
  });
  const host = { child, client: new languageRpc.LanguageRuntimeClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()), stderr: () => stderr };
  hosts.push(host);
  return host;
}

interface RunFields {
  monitor?: string;
  organization?: string;
  project?: string;
  stack?: string;
  dryRun?: boolean;
  parallel?: number;
  config?: Record<string, string>;
  secretKeys?: string[];
  rootDirectory?: string;
  programDirectory?: string;
  entryPoint?: string;
  options?: Record<string, unknown>;
  args?: string[];
}

function runRequest(f: RunFields): language.RunRequest {
  const req = new language.RunRequest();
  const info = new language.ProgramInfo();
  info.setRootDirectory(f.rootDirectory ?? tmp);
  info.setProgramDirectory(f.programDirectory ?? tmp);
  info.setEntryPoint(f.entryPoint ?? ".");
  info.setOptions(Struct.fromJavaScript((f.options ?? {}) as never));
  req.setInfo(info);
  req.setMonitorAddress(f.monitor ?? "127.0.0.1:1");
  req.setOrganization(f.organization ?? "");
  req.setProject(f.project ?? "proj");
  req.setStack(f.stack ?? "dev");
  req.setDryrun(f.dryRun ?? false);
  req.setParallel(f.parallel ?? 0);
  for (const [k, v] of Object.entries(f.config ?? {})) req.getConfigMap().set(k, v);
  req.setConfigsecretkeysList(f.secretKeys ?? []);
  req.setArgsList(f.args ?? []);
  return req;
}

/** `Run` as the engine calls it; resolves with its answer (or the call's error). */
function callRun(host: Host, req: language.RunRequest): { answer: Promise<{ error: string; bail: boolean }>; call: grpc.ClientUnaryCall } {
  let call!: grpc.ClientUnaryCall;
  const answer = new Promise<{ error: string; bail: boolean }>((resolve, reject) => {
    call = host.client.run(req, (err, res) => (err ? reject(err) : resolve({ error: res!.getError(), bail: res!.getBail() })));
  });
  return { answer, call };
}

const recordFile = (name: string) => join(tmp, `${name}.json`);
const recorded = (file: string): Recorded => JSON.parse(readFileSync(file, "utf8")) as Recorded;
const started = (file: string) => until(`the program to record ${file}`, () => existsSync(file) && readFileSync(file, "utf8").length > 0);

/** A Run of the recording program in `mode` (hang, stubborn), once the program has started: its pid, its record file and the call. */
async function runningProgram(host: Host, mode: string, name: string): Promise<{ pid: number; out: string; run: ReturnType<typeof callRun> }> {
  const out = recordFile(name);
  const run = callRun(host, runRequest({ args: [mode, out] }));
  await started(out);
  return { pid: recorded(out).pid, out, run };
}

const exited = (host: Host) => host.child.exitCode !== null || host.child.signalCode !== null;

let engine: { address: string; close(): void };
beforeEach(async () => {
  engine = await startEngineHealthServer();
});
afterEach(() => engine.close());

describe("the program's argv and environment are main.go's", () => {
  test("every field set: constructArguments, constructConfig, constructConfigSecretKeys, execRuntime's environment and node arguments", async () => {
    const host = await startHost(engine.address, ["--tracing", "http://127.0.0.1:9411/api/v1/spans"], { SVC_INHERITED_BY_THE_PROGRAM: "yes" });
    const out = recordFile("full");
    const { answer } = callRun(
      host,
      runRequest({
        monitor: "127.0.0.1:40001",
        organization: "acme",
        project: "web",
        stack: "prod",
        dryRun: true,
        parallel: 16,
        config: { "web:size": "2", "svc:apiKey": "k", "aws:config:region": "eu" },
        secretKeys: ["svc:apiKey"],
        rootDirectory: join(tmp, "root"),
        programDirectory: join(tmp, "root/app"),
        entryPoint: "main.ts",
        options: { tsconfig: "tsconfig.pulumi.json", nodeargs: `--max-old-space-size=256 --title="a b"` },
        args: ["exit:0", out],
      }),
    );
    expect(await answer).toEqual({ error: "", bail: false });
    const r = recorded(out);
    expect(r.argv).toEqual([
      RECORDER, //                       args := []string{runPath}
      ...["--monitor", "127.0.0.1:40001"], // maybeAppendArg("monitor", address)   [address: the host's monitor proxy; here the engine's monitor itself]
      ...["--engine", engine.address], //     maybeAppendArg("engine", host.engineAddress)
      //                                      maybeAppendArg("sync", pipesDirectory)   [left out: no synchronous-invoke pipes]
      ...["--organization", "acme"], //       maybeAppendArg("organization", req.GetOrganization())
      ...["--project", "web"], //             maybeAppendArg("project", req.GetProject())
      ...["--root-directory", join(tmp, "root")], // maybeAppendArg("root-directory", req.GetInfo().RootDirectory)
      ...["--stack", "prod"], //              maybeAppendArg("stack", req.GetStack())
      ...["--pwd", join(tmp, "root/app")], // maybeAppendArg("pwd", req.Info.ProgramDirectory)
      "--dry-run", //                         if req.GetDryRun() { args = append(args, "--dry-run") }
      ...["--parallel", "16"], //             maybeAppendArg("parallel", strconv.Itoa(int(req.GetParallel())))
      ...["--tracing", "http://127.0.0.1:9411/api/v1/spans"], // maybeAppendArg("tracing", host.tracing)
      "main.ts", //                           args = append(args, req.Info.EntryPoint)
      "exit:0", //                            args = append(args, req.GetArgs()...)
      out,
    ]);
    // runtimeArgs, err = shlex.Split(opts.nodeargs) … runtimeArgs = append(runtimeArgs, args...)
    expect(r.execArgv).toEqual(["--max-old-space-size=256", "--title=a b"]);
    // env := os.Environ()
    expect(r.env.SVC_INHERITED_BY_THE_PROGRAM).toBe("yes");
    // env = append(env, pulumiConfigVar+"="+config): transformedConfig[pk.Namespace()+":config:"+pk.Name()] = v
    expect(JSON.parse(r.env.PULUMI_CONFIG!)).toEqual({ "web:config:size": "2", "svc:config:apiKey": "k", "aws:config:region": "eu" });
    // env = append(env, pulumiConfigSecretKeysVar+"="+configSecretKeys)
    expect(JSON.parse(r.env.PULUMI_CONFIG_SECRET_KEYS!)).toEqual(["svc:apiKey"]);
    // if opts.typescript { env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true") } — typescript defaults to true (parseOptions)
    expect(r.env.PULUMI_NODEJS_TYPESCRIPT).toBe("true");
    // if opts.tsconfigpath != "" { env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigpath) }
    expect(r.env.PULUMI_NODEJS_TSCONFIG_PATH).toBe("tsconfig.pulumi.json");
    // Nothing in main.go sets PULUMI_NODEJS_TRANSPILE_ONLY: ts-node type-checks.
    expect(r.env.PULUMI_NODEJS_TRANSPILE_ONLY).toBeUndefined();
  });

  test("empty fields are left out, `typescript: false` sets nothing, parallel 0 is still passed", async () => {
    const host = await startHost(engine.address);
    const out = recordFile("minimal");
    const { answer } = callRun(host, runRequest({ options: { typescript: false }, args: ["exit:0", out] }));
    expect(await answer).toEqual({ error: "", bail: false });
    const r = recorded(out);
    expect(r.argv).toEqual([RECORDER, "--monitor", "127.0.0.1:1", "--engine", engine.address, "--project", "proj", "--root-directory", tmp, "--stack", "dev", "--pwd", tmp, "--parallel", "0", ".", "exit:0", out]);
    expect(r.execArgv).toEqual([]);
    expect(r.env.PULUMI_CONFIG).toBe("{}");
    expect(r.env.PULUMI_CONFIG_SECRET_KEYS).toBe("[]");
    expect(r.env.PULUMI_NODEJS_TYPESCRIPT).toBeUndefined();
    expect(r.env.PULUMI_NODEJS_TSCONFIG_PATH).toBeUndefined();
  });

  test("an option of the wrong type is the Run's error, as parseOptions words it; nothing is started", async () => {
    const host = await startHost(engine.address);
    const out = recordFile("bad-option");
    const { answer } = callRun(host, runRequest({ options: { typescript: "yes" }, args: ["exit:0", out] }));
    expect(await answer).toEqual({ error: "typescript option must be a boolean", bail: false });
    expect(existsSync(out)).toBe(false);
  });
});

describe("the program's exit, as execRuntime reports it", () => {
  test.each([
    ["exit:0", { error: "", bail: false }],
    // case nodeJSProcessExitedAfterShowingUserActionableMessage: return &pulumirpc.RunResponse{Error: "", Bail: true}
    ["exit:32", { error: "", bail: true }],
    // default: err = fmt.Errorf("Program exited with non-zero exit code: %d", code)
    ["exit:3", { error: "Program exited with non-zero exit code: 3", bail: false }],
  ])("%s → %j", async (mode, expected) => {
    const host = await startHost(engine.address);
    expect(await callRun(host, runRequest({ args: [mode, recordFile(`exit-${mode.slice(5)}`)] })).answer).toEqual(expected);
  });
});

describe("cancellation: main.go's cmd.Cancel (SIGINT) and cmd.WaitDelay (SIGKILL 5 s later)", () => {
  test("`Cancel`: a program that ends on SIGINT ends at once; the Run answers exit code -1 (a signal, as Go's ExitCode() says)", async () => {
    const host = await startHost(engine.address);
    const { run } = await runningProgram(host, "hang", "cancel-hang");
    const t0 = Date.now();
    await new Promise((r) => host.client.cancel(new Empty(), r));
    expect(await run.answer).toEqual({ error: "Program exited with non-zero exit code: -1", bail: false });
    expect(Date.now() - t0).toBeLessThan(2_000);
    // host.cancelCtx stays cancelled: a later Run's exec.CommandContext refuses to start.
    const later = recordFile("after-cancel");
    expect(await callRun(host, runRequest({ args: ["exit:0", later] })).answer).toEqual({ error: "Problem executing program (could not run language executor): context canceled", bail: false });
    expect(existsSync(later)).toBe(false);
  });

  test("`Cancel`: a program that ignores SIGINT is killed 5 s later", async () => {
    const host = await startHost(engine.address);
    const { out, run } = await runningProgram(host, "stubborn", "cancel-stubborn");
    const t0 = Date.now();
    await new Promise((r) => host.client.cancel(new Empty(), r));
    expect(await run.answer).toEqual({ error: "Program exited with non-zero exit code: -1", bail: false });
    const waited = Date.now() - t0;
    expect(readFileSync(`${out}.signals`, "utf8")).toBe("SIGINT\n");
    expect(waited).toBeGreaterThanOrEqual(4_900);
    expect(waited).toBeLessThan(8_000);
  });

  test("the Run request ends (the engine went away or gave up): the program is interrupted", async () => {
    const host = await startHost(engine.address);
    const { pid, run } = await runningProgram(host, "hang", "request-ends");
    run.answer.catch(() => undefined);
    run.call.cancel();
    await until("the program to end", () => !running(pid), 3_000);
  });
});

describe("the host ends when its engine is gone (rpcutil.Healthcheck on the engine address), and its program with it", () => {
  test.each([
    ["hang", "a program that ends on SIGINT: host and program gone within 2 s of the engine", 2_000],
    ["stubborn", "a program that ignores SIGINT: killed when the host exits, 5 s later at most", 7_000],
  ])("%s: %s", async (mode, _what, withinMs) => {
    const host = await startHost(engine.address);
    const { pid, run } = await runningProgram(host, mode, `engine-gone-${mode}`);
    run.answer.catch(() => undefined);
    const t0 = Date.now();
    engine.close();
    await until("the host to exit", () => exited(host), 10_000);
    await until("the program to end", () => !running(pid), 1_000);
    expect(Date.now() - t0).toBeLessThan(withinMs);
    expect(host.stderr()).toContain(`the engine at ${engine.address} is unreachable`);
  });

  test("SIGTERM to the host: the program does not outlive it", async () => {
    const host = await startHost(engine.address);
    const { pid, run } = await runningProgram(host, "stubborn", "sigterm");
    run.answer.catch(() => undefined);
    host.child.kill("SIGTERM");
    await until("the host to exit", () => exited(host), 5_000);
    await until("the program to end", () => !running(pid), 2_000);
  });
});

test("the version it reports is the sdk/v3 version the CLI is pinned at (GetPluginInfo: `Version: version.Version`; `--version`)", async () => {
  const pinned = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(readFileSync(join(ROOT, "tools/pulumi-cli/go.mod"), "utf8"))![1];
  const host = await startHost(engine.address);
  const version = await new Promise<string>((resolve, reject) => host.client.getPluginInfo(new Empty(), (err, res) => (err ? reject(err) : resolve(res!.getVersion()))));
  expect(version).toBe(pinned);
  const printed = await new Promise<string>((resolve) => {
    const c = spawn(process.execPath, [STAND_IN, "--version"]);
    let text = "";
    c.stdout.on("data", (d: Buffer) => (text += d.toString()));
    c.on("close", () => resolve(text));
  });
  expect(printed).toBe(`${pinned}\n`);
});

/**
 * The engine side a real program needs to get as far as loading its entry point: a resource monitor
 * that supports no optional feature and registers the stack, and the Engine service, whose `Log`
 * calls are the diagnostics a user would see.
 */
async function fakeMonitor(): Promise<{ address: string; logs: string[]; close(): void }> {
  const logs: string[] = [];
  const server = new grpc.Server();
  server.addService(resourceRpc.ResourceMonitorService, {
    supportsFeature: (_call: unknown, cb: grpc.sendUnaryData<resource.SupportsFeatureResponse>) => cb(null, new resource.SupportsFeatureResponse()),
    registerResource: (call: grpc.ServerUnaryCall<resource.RegisterResourceRequest, unknown>, cb: grpc.sendUnaryData<resource.RegisterResourceResponse>) => {
      const res = new resource.RegisterResourceResponse();
      res.setUrn(`urn:pulumi:dev::proj::${call.request.getType()}::${call.request.getName()}`);
      res.setObject(Struct.fromJavaScript({}));
      cb(null, res);
    },
    registerResourceOutputs: (_call: unknown, cb: grpc.sendUnaryData<Empty>) => cb(null, new Empty()),
    // The methods left out answer UNIMPLEMENTED (grpc-js's default handler).
  } as never);
  server.addService(engineRpc.EngineService, {
    log: (call: grpc.ServerUnaryCall<engineProto.LogRequest, unknown>, cb: grpc.sendUnaryData<Empty>) => {
      logs.push(call.request.getMessage());
      cb(null, new Empty());
    },
    getRootResource: (_call: unknown, cb: grpc.sendUnaryData<engineProto.GetRootResourceResponse>) => cb(null, new engineProto.GetRootResourceResponse()),
    setRootResource: (_call: unknown, cb: grpc.sendUnaryData<engineProto.SetRootResourceResponse>) => cb(null, new engineProto.SetRootResourceResponse()),
  } as never);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  return { address: `127.0.0.1:${port}`, logs, close: () => server.forceShutdown() };
}

test("a TypeScript program is type-checked by ts-node, as under the released host: a type error stops it before it runs", async () => {
  const project = join(ROOT, "tests/fixtures/engine-langhost-typecheck");
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "langhost-typecheck", main: "index.ts" }));
  writeFileSync(join(project, "index.ts"), `const count: number = "three";\nconsole.log("RAN", count);\n`);
  const monitor = await fakeMonitor();
  try {
    // The real @pulumi/pulumi/cmd/run: no PULUMI_LANGUAGE_NODEJS_RUN_PATH.
    const host = await startHost(monitor.address, [], { PULUMI_LANGUAGE_NODEJS_RUN_PATH: "" });
    let stdout = "";
    host.child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    const answer = await callRun(host, runRequest({ monitor: monitor.address, rootDirectory: project, programDirectory: project })).answer;
    // The SDK printed the compile error as a diagnostic and exited 32 (bail): nothing more to say.
    expect(answer).toEqual({ error: "", bail: true });
    expect(monitor.logs.join("\n")).toMatch(/TS2322: Type 'string' is not assignable to type 'number'/);
    expect(stdout).not.toContain("RAN");
  } finally {
    monitor.close();
    rmSync(project, { recursive: true, force: true });
  }
});
