/**
 * Provider-host test harness: drives resources the way the Pulumi engine does.
 *
 * - `programRegistrations()` runs a real program (the sdk classes, as a user's program would import
 *   them) in the fixture project under `pulumi.runtime.setMocks`, and hands back every registration:
 *   its inputs, with the serialized `__provider` string, and its `additionalSecretOutputs`.
 * - `startProviderHost()` starts the real `@pulumi/pulumi/cmd/dynamic-provider` host with its working
 *   directory in the fixture project (whose `node_modules/pulumi-svc` is this package, built) and
 *   talks to it over gRPC: Configure → Check → Diff → Create / Read / Update / Delete.
 *
 * Needs `npm run build` first (`npm test` does it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { CHILD_STDIO, ownChild, PARENT_WATCH } from "./children";

const ROOT = packageRoot(__dirname);
/** The package's root: the nearest folder up whose package.json is pulumi-svc's (works from tests/
 * and from the compiled tools in build-tools/). */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-svc") return dir;
    if (dirname(dir) === dir) throw new Error(`no pulumi-svc package.json above ${from}`);
  }
}

/**
 * A script of `@pulumi/pulumi` as the Pulumi CLI finds it for a project: resolved from the project's
 * directory, so the project's own installation runs (the `pulumi-resource-pulumi-nodejs` plugin runs
 * `node -e "require.resolve('@pulumi/pulumi/cmd/dynamic-provider')"` in it; the Node language host
 * resolves `@pulumi/pulumi/cmd/run` from the program directory). A project with none of its own
 * (the repository's fixtures) gets the repository's.
 */
export function pulumiScript(projectDir: string, script: "cmd/run" | "cmd/dynamic-provider"): string {
  return require.resolve(`@pulumi/pulumi/${script}`, { paths: [projectDir, ROOT] });
}

export const FIXTURE_DIR = join(ROOT, "tests/fixtures/project");
export const FIXTURE_PROJECT = "svc-fixture";
export const FIXTURE_STACK = "test";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Makes the fixture's `node_modules/pulumi-svc` this package, as `npm install` would for a user. */
export function ensureFixture(): void {
  if (!existsSync(join(ROOT, "dist/provider/index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  const modules = join(FIXTURE_DIR, "node_modules");
  const link = join(modules, "pulumi-svc");
  mkdirSync(modules, { recursive: true });
  if (existsSync(link)) {
    if (resolve(modules, readlinkSync(link)) === ROOT) return;
    throw new Error(`${link} exists and is not a link to ${ROOT}`);
  }
  symlinkSync(ROOT, link, "dir");
}

export interface Registration {
  type: string;
  name: string;
  inputs: Props;
  additionalSecretOutputs: string[];
}

/**
 * Runs `program` (JavaScript, with `svc` = require("pulumi-svc") and `pulumi` in scope) in the
 * fixture project (or `cwd`, a project whose node_modules has pulumi-svc) under mocks, in a child
 * process, and answers its registrations.
 */
export async function programRegistrations(program: string, cwd?: string): Promise<Registration[]> {
  if (!cwd) ensureFixture();
  const script = `
    const pulumi = require("@pulumi/pulumi");
    const mocks = require("@pulumi/pulumi/runtime/mocks");
    const seen = [];
    const register = mocks.MockMonitor.prototype.registerResource;
    mocks.MockMonitor.prototype.registerResource = function (req, cb) {
      seen.push({ urn: req.getName(), secrets: req.getAdditionalsecretoutputsList() });
      return register.call(this, req, cb);
    };
    const out = [];
    pulumi.runtime.setMocks({
      newResource: (a) => { out.push({ type: a.type, name: a.name, inputs: a.inputs }); return { id: a.name + "-id", state: a.inputs }; },
      call: () => ({}),
    }, ${JSON.stringify(FIXTURE_PROJECT)}, ${JSON.stringify(FIXTURE_STACK)}, false);
    const svc = require("pulumi-svc");
    ${program}
    setTimeout(() => {
      for (const r of out) r.additionalSecretOutputs = (seen.find((s) => s.urn === r.name) || { secrets: [] }).secrets;
      process.stdout.write(JSON.stringify(out));
    }, 500);
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: cwd ?? FIXTURE_DIR, env: fixtureEnv() });
  return JSON.parse(stdout) as Registration[];
}

/** The serialized provider a user's program produces for one resource of `type`. */
export async function providerFor(type: string, args: Props): Promise<Registration> {
  const [registration] = await programRegistrations(`new svc.${type}("r", ${JSON.stringify(args)});`);
  return registration;
}

/**
 * Declares one resource of every class the package exports, without arguments (a `__provider` is the
 * same whatever the arguments): each type's `__provider` by type, from one program, so one node
 * process serves every type a caller asks for. A class that throws without arguments fails the
 * program, with its error: every class takes none today, and one that stopped would otherwise make
 * each caller fall back to a program per type, unseen.
 */
async function providersOfEveryType(): Promise<Map<string, string>> {
  const registrations = await programRegistrations(`
    for (const [type, cls] of Object.entries(svc)) {
      if (typeof cls === "function" && cls.prototype instanceof pulumi.CustomResource) new cls("every-" + type, {});
    }`);
  return new Map(registrations.filter((r) => r.name.startsWith("every-")).map((r) => [r.name.slice("every-".length), r.inputs.__provider as string]));
}

/** The `__provider` of each type (it is the same whatever the arguments), all made by the first call
 * in one program; a type that program did not declare is made by a program of its own with the
 * caller's arguments. Each caller keeps its own cache. A failed attempt is not kept: the next call tries again. */
export function serializedProviders(): (type: string, args: Props) => Promise<string> {
  const made = new Map<string, Promise<string>>();
  let every: Promise<Map<string, string>> | undefined;
  return (type, args) => {
    let provider = made.get(type);
    if (!provider) {
      if (!every) {
        every = providersOfEveryType();
        every.catch(() => (every = undefined));
      }
      provider = every.then((all) => all.get(type) ?? providerFor(type, args).then((r) => r.inputs.__provider as string));
      made.set(type, provider);
      provider.catch(() => made.delete(type));
    }
    return provider;
  };
}

export function fixtureEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_NODEJS_PROJECT: FIXTURE_PROJECT, PULUMI_NODEJS_STACK: FIXTURE_STACK, ...extra };
  // The provider must get its settings from Configure, not from whatever the test runner has. The
  // coalescing switch is not a setting: `npm run bench` turns it off to measure what it saves.
  for (const name of Object.keys(env)) if (name.startsWith("SVC_") && name !== "SVC_POLL_COALESCING" && !(name in extra)) delete env[name];
  return env;
}

export class HostError extends Error {
  constructor(
    message: string,
    /** Set when the provider reported a partial failure (ErrorResourceInitFailed). */
    readonly initFailed?: { id: string; properties: Props; reasons: string[] },
    /** The host could not be reached or went away during the call (it was killed or crashed): the
     * provider did not answer, so whatever it was doing has an unknown outcome. */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = "HostError";
  }
}

export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * What the engine adds to a request beyond the properties (pulumi/pulumi
 * pkg/resource/plugin/provider_plugin.go: every request carries the URN, name and type; Diff, Update
 * and Delete the old inputs; Create, Update and Delete the custom timeout in seconds; Diff and
 * Update the ignoreChanges paths). The resource tests leave it out: the Node dynamic host reads
 * none of these fields (docs/cli-behaviour.md); the CLI sends them all.
 */
export interface EngineFields {
  /** The resource's URN (default: `urn:pulumi:<stack>::<project>::pulumi-nodejs:dynamic/svc:<type>::r`). */
  urn?: string;
  oldInputs?: Props;
  ignoreChanges?: string[];
  /** customTimeouts of the operation, in seconds (0: none). */
  timeout?: number;
}

export interface ProviderHost {
  configure(config: Record<string, string>): Promise<void>;
  check(type: string, olds: Props, news: Props, call?: EngineFields): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }>;
  /** `olds` are the old outputs, as the engine sends them; the old inputs go in `call.oldInputs`. */
  diff(type: string, id: string, olds: Props, news: Props, call?: EngineFields): Promise<DiffAnswer>;
  create(type: string, props: Props, call?: EngineFields): Promise<{ id: string; properties: Props }>;
  /** `props` undefined: no properties at all, as the import step sends (pulumi/pulumi step.go ImportStep.Apply). */
  read(type: string, id: string, props: Props | undefined, inputs?: Props, call?: EngineFields): Promise<{ id: string; properties: Props; inputs: Props }>;
  update(type: string, id: string, olds: Props, news: Props, call?: EngineFields): Promise<{ properties: Props }>;
  delete(type: string, id: string, props: Props, call?: EngineFields): Promise<void>;
  /** Everything the host printed on stderr (uncaught errors, logs). */
  stderr(): string;
  stop(): Promise<void>;
  /** Kills the host at once (SIGKILL), as a crash would: for tests of interrupted runs. */
  kill(): void;
  /** The host's process id (the bench reads its memory). */
  readonly pid: number | undefined;
}

const struct = (value: Props) => Struct.fromJavaScript(value as never);

function toHostError(err: grpc.ServiceError): HostError {
  const raw = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (raw) {
    const status = statusproto.Status.deserializeBinary(raw as Buffer);
    for (const any of status.getDetailsList()) {
      if (any.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
        const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
        return new HostError(err.details, { id: detail.getId(), properties: detail.getProperties()?.toJavaScript() ?? {}, reasons: detail.getReasonsList() });
      }
    }
  }
  const unreachable = err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.CANCELLED;
  return new HostError(err.details ?? err.message, undefined, unreachable);
}

export interface HostOptions {
  /** The Pulumi project directory the host runs in (default: the fixture project). */
  cwd?: string;
  project?: string;
  stack?: string;
  /** Extra environment variables of the host (the user's `SVC_*`, as the CLI passes them). */
  env?: Record<string, string>;
  /** Launched as the real engine launches a `pulumi-nodejs` provider plugin: its
   * environment gains PULUMI_NODEJS_PROJECT, PULUMI_PROJECT and PULUMI_CONFIG (the config of the
   * `pulumi-nodejs` namespace: none) and no stack (pulumi/pulumi provider_plugin.go NewProvider). */
  asEngine?: boolean;
  /** With `asEngine`: the stack config of the `pulumi-nodejs` namespace, keys without it (the real
   * engine's PULUMI_CONFIG for a provider plugin: pkg/host/host.go `Provider`, `k.Namespace() != pkg`). */
  packageConfig?: Record<string, string>;
  /** The engine address the host is started with (default: a server of this process that lives while
   * any host does); the provider exits once it is unreachable (provider/engine-watch.ts). */
  engineAddress?: string;
}

export async function startProviderHost(options: HostOptions = {}): Promise<ProviderHost> {
  const cwd = options.cwd ?? FIXTURE_DIR;
  if (!options.cwd) ensureFixture();
  const engine = options.engineAddress ? undefined : await engineStandIn();
  const child = spawnHost(cwd, options, options.engineAddress ?? engine!.address);
  if (engine) {
    child.once("exit", engine.release);
    child.once("error", engine.release);
  }
  const output = captureStderr(child);
  const port = await listeningPort(child, output);
  return new HostClient(child, port, output, options.stack ?? FIXTURE_STACK, options.project ?? FIXTURE_PROJECT);
}

/**
 * A gRPC server answering the health service as the engine's does (pulumi/pulumi
 * sdk/go/common/util/rpcutil/serve.go `ServeWithOptions`: `healthgrpc.RegisterHealthServer`, every
 * service SERVING): the address a plugin is started with and checks (provider/engine-watch.ts).
 */
export async function startEngineHealthServer(): Promise<{ address: string; close(): void }> {
  const server = new grpc.Server();
  // HealthCheckResponse{status: SERVING}: field 1, varint 1.
  const serving = Buffer.from([0x08, 0x01]);
  server.addService(
    {
      check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: (b: Buffer) => b,
        requestDeserialize: (b: Buffer) => b,
        responseSerialize: (b: Buffer) => b,
        responseDeserialize: (b: Buffer) => b,
      },
    },
    { check: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, serving) },
  );
  const port = await new Promise<number>((resolvePort, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolvePort(p))));
  return { address: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}

/**
 * The engine address each host is started with. The provider ends its process once its engine is
 * unreachable (provider/engine-watch.ts), so a host gets the address of a health server of this
 * process that lives while any host does.
 */
let engineServer: { server: Promise<{ address: string; close(): void }>; users: number } | undefined;

async function engineStandIn(): Promise<{ address: string; release: () => void }> {
  engineServer ??= { server: startEngineHealthServer(), users: 0 };
  const current = engineServer;
  current.users++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (--current.users > 0) return;
    if (engineServer === current) engineServer = undefined;
    current.server.then((s) => s.close(), () => undefined);
  };
  try {
    return { address: (await current.server).address, release };
  } catch (err) {
    release();
    throw err;
  }
}

function spawnHost(cwd: string, options: HostOptions, engineAddress: string): ChildProcess {
  const project = options.project ?? FIXTURE_PROJECT;
  const env = options.asEngine
    ? fixtureEnv({ ...options.env, PULUMI_NODEJS_PROJECT: project, PULUMI_PROJECT: project, PULUMI_CONFIG: JSON.stringify(options.packageConfig ?? {}) })
    : fixtureEnv({ ...options.env, PULUMI_NODEJS_PROJECT: project, PULUMI_NODEJS_STACK: options.stack ?? FIXTURE_STACK });
  if (options.asEngine) delete env.PULUMI_NODEJS_STACK;
  return ownChild(spawn(process.execPath, [`--import=${PARENT_WATCH}`, pulumiScript(cwd, "cmd/dynamic-provider"), engineAddress], { cwd, env, stdio: [...CHILD_STDIO] }));
}

function captureStderr(child: ChildProcess): { text: string } {
  const output = { text: "" };
  child.stderr!.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
  return output;
}

/** The port the host prints on stdout once it listens; the rest of its stdout joins `stderr`. */
function listeningPort(child: ChildProcess, stderr: { text: string }): Promise<number> {
  return new Promise<number>((resolvePort, reject) => {
    let out = "";
    let port: number | undefined;
    child.stdout!.on("data", (chunk: Buffer) => {
      // After the port line, what the host prints on stdout is kept with its stderr: the CLI shows
      // both as diagnostics (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go, newPlugin:
      // "set up a tracer on stdout just so other output doesn't disappear").
      if (port !== undefined) return void (stderr.text += chunk.toString());
      out += chunk.toString();
      const match = /^(\d+)[^\S\n]*\n?/m.exec(out);
      if (match) {
        port = Number(match[1]);
        stderr.text += out.slice(match.index + match[0].length);
        resolvePort(port);
      }
    });
    child.on("exit", (code) => reject(new Error(`provider host exited ${code}: ${stderr.text}`)));
  });
}

/** The engine's side of the ResourceProvider gRPC service of one host process. */
class HostClient implements ProviderHost {
  private readonly client: provrpc.ResourceProviderClient;

  constructor(
    private readonly child: ChildProcess,
    port: number,
    private readonly output: { text: string },
    private readonly stack: string,
    private readonly project: string,
  ) {
    this.client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async configure(config: Record<string, string>): Promise<void> {
    // As the engine configures a provider: the config both as `variables` and as `args`.
    const req = new provproto.ConfigureRequest();
    for (const [key, value] of Object.entries(config)) req.getVariablesMap().set(`pulumi-nodejs:config:${key}`, value);
    req.setArgs(struct(config));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setSendsOldInputs(true);
    req.setSendsOldInputsToDelete(true);
    await this.unary(this.client.configure, req);
  }

  async check(type: string, olds: Props, news: Props, call?: EngineFields) {
    const req = this.address(new provproto.CheckRequest(), type, call);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    req.setRandomseed(randomBytes(32));
    const res = await this.unary<provproto.CheckRequest, provproto.CheckResponse>(this.client.check, req);
    return {
      inputs: res.getInputs()?.toJavaScript() ?? {},
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(type: string, id: string, olds: Props, news: Props, call?: EngineFields): Promise<DiffAnswer> {
    const req = this.change(this.address(new provproto.DiffRequest(), type, call), id, olds, news, call);
    const res = await this.unary<provproto.DiffRequest, provproto.DiffResponse>(this.client.diff, req);
    const changes = res.getChanges();
    const C = provproto.DiffResponse.DiffChanges;
    return {
      changes: changes === C.DIFF_SOME ? "some" : changes === C.DIFF_NONE ? "none" : "unknown",
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  async create(type: string, props: Props, call?: EngineFields) {
    const req = this.address(new provproto.CreateRequest(), type, call);
    req.setProperties(struct(props));
    req.setTimeout(call?.timeout ?? 0);
    req.setPreview(false);
    const res = await this.unary<provproto.CreateRequest, provproto.CreateResponse>(this.client.create, req);
    return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
  }

  async read(type: string, id: string, props: Props | undefined, inputs?: Props, call?: EngineFields) {
    const req = this.address(new provproto.ReadRequest(), type, call);
    req.setId(id);
    if (props) req.setProperties(struct(props));
    if (inputs) req.setInputs(struct(inputs));
    const res = await this.unary<provproto.ReadRequest, provproto.ReadResponse>(this.client.read, req);
    return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() ?? {} };
  }

  async update(type: string, id: string, olds: Props, news: Props, call?: EngineFields) {
    const req = this.change(this.address(new provproto.UpdateRequest(), type, call), id, olds, news, call);
    req.setTimeout(call?.timeout ?? 0);
    req.setPreview(false);
    const res = await this.unary<provproto.UpdateRequest, provproto.UpdateResponse>(this.client.update, req);
    return { properties: res.getProperties()?.toJavaScript() ?? {} };
  }

  async delete(type: string, id: string, props: Props, call?: EngineFields): Promise<void> {
    const req = this.address(new provproto.DeleteRequest(), type, call);
    req.setId(id);
    req.setProperties(struct(props));
    if (call?.oldInputs) req.setOldInputs(struct(call.oldInputs));
    req.setTimeout(call?.timeout ?? 0);
    await this.unary(this.client.delete, req);
  }

  stderr(): string {
    return this.output.text;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }

  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      // "close", not "exit": stderr is read to its end first.
      const exited = new Promise((r) => this.child.once("close", r));
      this.child.kill();
      await exited;
    }
  }

  /** URN, name and type, as every request of the engine carries them. */
  private address<R extends { setUrn(v: string): unknown; setName(v: string): unknown; setType(v: string): unknown }>(req: R, type: string, call?: EngineFields): R {
    const urn = call?.urn ?? `urn:pulumi:${this.stack}::${this.project}::pulumi-nodejs:dynamic/svc:${type}::r`;
    req.setUrn(urn);
    req.setName(urn.slice(urn.lastIndexOf("::") + 2));
    req.setType(urn.split("::")[2].split("$").pop()!);
    return req;
  }

  /** What Diff and Update both carry: the id, old outputs, new inputs, old inputs and ignoreChanges. */
  private change<R extends provproto.DiffRequest | provproto.UpdateRequest>(req: R, id: string, olds: Props, news: Props, call?: EngineFields): R {
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    if (call?.oldInputs) req.setOldInputs(struct(call.oldInputs));
    req.setIgnorechangesList(call?.ignoreChanges ?? []);
    return req;
  }

  private unary<Req, Res>(method: (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown, req: Req): Promise<Res> {
    return new Promise((ok, fail) => method.call(this.client, req, (err, res) => (err ? fail(toHostError(err)) : ok(res))));
  }
}

/** The namespaced stack config the engine passes to Configure, from an emulator's URLs and a key. */
export function stackConfig(values: { apiUrl: string; emailUrl: string; aiUrl?: string; apiKey?: string; emailApiKey?: string; projectId?: string }): Record<string, string> {
  const config: Record<string, string> = { "svc:apiUrl": values.apiUrl, "svc:emailUrl": values.emailUrl };
  if (values.aiUrl) config["svc:aiUrl"] = values.aiUrl;
  if (values.apiKey) config["svc:apiKey"] = values.apiKey;
  if (values.emailApiKey) config["svc:emailApiKey"] = values.emailApiKey;
  if (values.projectId) config["svc:projectId"] = values.projectId;
  return config;
}
