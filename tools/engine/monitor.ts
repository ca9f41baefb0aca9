/**
 * The engine side of the Node language runtime's protocol: a ResourceMonitor gRPC server that
 * `@pulumi/pulumi/cmd/run` connects to (`--monitor`), and the Engine service it logs to (`--engine`),
 * as the Pulumi CLI's engine serves them.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type { Props } from "./state";

export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  /** Inputs as the SDK sent them: secrets wrapped with the secret signature, unknowns as the sentinel. */
  object: Props;
  dependencies: string[];
  /** The resources each input's value came from (the SDK sends them for every input, empty lists included). */
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  ignoreChanges: string[];
  additionalSecretOutputs: string[];
  importId: string;
  /** The `aliases` option as URNs: the SDK computes them itself (parents' aliases included) when the
   * engine does not support the `aliasSpecs` feature, as this one does not. */
  aliases: string[];
  /** The `customTimeouts` option as the SDK sends it (Go durations such as "40m"; "" when not set). */
  customTimeouts: { create: string; update: string; delete: string };
}

/** The request's property dependencies, inputs with none left out (`toArray` gives raw arrays, not messages: read with forEach). */
function propertyDependenciesOf(r: resproto.RegisterResourceRequest): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  r.getPropertydependenciesMap().forEach((deps, key) => {
    const urns = deps.getUrnsList();
    if (urns.length) out[key] = urns;
  });
  return out;
}

/** What a registration and a read carry alike. */
function sharedFields(r: resproto.RegisterResourceRequest | resproto.ReadResourceRequest) {
  return { type: r.getType(), name: r.getName(), parent: r.getParent(), dependencies: r.getDependenciesList(), additionalSecretOutputs: r.getAdditionalsecretoutputsList() };
}

/** A `ReadResourceRequest`: the program reads an existing object (`Res.get(name, id)`). */
export interface ReadRegistration {
  type: string;
  name: string;
  parent: string;
  id: string;
  /** The program's properties (a dynamic resource's carry `__provider`), secrets wrapped. */
  object: Props;
  dependencies: string[];
  additionalSecretOutputs: string[];
}

export interface RegisterAnswer {
  urn: string;
  id?: string;
  /** Outputs, secrets wrapped with the secret signature. */
  object: Props;
}

export type Severity = "debug" | "info" | "warning" | "error";

export interface MonitorHandlers {
  register(reg: Registration): Promise<RegisterAnswer>;
  read(req: ReadRegistration): Promise<RegisterAnswer>;
  registerOutputs(urn: string, outputs: Props): void;
  /** A message the program logged (`pulumi.log`, and its own unhandled errors), with its resource's URN or "". */
  log(severity: Severity, message: string, urn: string): void;
  /** Resolves when the deployment is cancelled (a step failed, or Ctrl-C). */
  cancelled: Promise<void>;
  isCancelled(): boolean;
}

const SEVERITY: Record<number, Severity> = {
  [engproto.LogSeverity.DEBUG]: "debug",
  [engproto.LogSeverity.INFO]: "info",
  [engproto.LogSeverity.WARNING]: "warning",
  [engproto.LogSeverity.ERROR]: "error",
};

/** How the real engine answers a registration once the deployment is cancelled (pulumi/pulumi
 * pkg/resource/deploy/source_eval.go, resmon.RegisterResource): the Node SDK then stops its RPCs
 * (`terminateRpcs`) and does not report the registration's failure as a program error. */
const shutDown = (details: string): grpc.ServiceError => Object.assign(new Error(details), { code: grpc.status.UNAVAILABLE, details, metadata: new grpc.Metadata() });

/** A registration's or read's failure, as the program sees it. */
const fail = (err: unknown): grpc.ServiceError => Object.assign(new Error(String((err as Error)?.message ?? err)), { code: grpc.status.UNKNOWN, details: String((err as Error)?.message ?? err), metadata: new grpc.Metadata() });

/**
 * Answers a registration or a read once: refused Unavailable when the deployment is cancelled
 * already; else with `response` of what `work` answers, or Unavailable as soon as the deployment is
 * cancelled while it waits for its step, its own step's failure included.
 */
function answerOnce<Done, Response>(handlers: MonitorHandlers, cb: grpc.sendUnaryData<Response>, work: () => Promise<Done>, response: (done: Done) => Response): void {
  if (handlers.isCancelled()) return cb(shutDown("resource monitor shut down while sending resource registration"), null);
  const waitingOnStep = () => shutDown("resource monitor shut down while waiting on step's done channel");
  let answered = false;
  const answer = (err: grpc.ServiceError | null, res: Response | null) => {
    if (answered) return;
    answered = true;
    cb(err, res);
  };
  void handlers.cancelled.then(() => answer(waitingOnStep(), null));
  work().then(
    (done) => answer(null, response(done)),
    (err) => answer(handlers.isCancelled() ? waitingOnStep() : fail(err), null),
  );
}

/** Features this engine supports; the SDK asks at start. Secrets: yes; the rest: plain values. */
const SUPPORTED_FEATURES = new Set(["secrets"]);

export async function startMonitor(handlers: MonitorHandlers): Promise<{ address: string; stop(): Promise<void> }> {
  const server = new grpc.Server();
  const unsupported = (name: string) => (_call: unknown, cb: grpc.sendUnaryData<never>) => cb({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not supported by the test engine` } as grpc.ServiceError, null);

  const service: Partial<resrpc.IResourceMonitorServer> = {
    supportsFeature(call, cb) {
      const res = new resproto.SupportsFeatureResponse();
      res.setHassupport(SUPPORTED_FEATURES.has(call.request.getId()));
      cb(null, res);
    },
    registerResource(call, cb) {
      const r = call.request;
      const reg: Registration = {
        ...sharedFields(r),
        custom: r.getCustom(),
        object: (r.getObject()?.toJavaScript() ?? {}) as Props,
        propertyDependencies: propertyDependenciesOf(r),
        protect: Boolean(r.getProtect()),
        retainOnDelete: Boolean(r.getRetainondelete()),
        deleteBeforeReplace: r.getDeletebeforereplace(),
        ignoreChanges: r.getIgnorechangesList(),
        importId: r.getImportid(),
        aliases: r.getAliasurnsList(),
        customTimeouts: {
          create: r.getCustomtimeouts()?.getCreate() ?? "",
          update: r.getCustomtimeouts()?.getUpdate() ?? "",
          delete: r.getCustomtimeouts()?.getDelete() ?? "",
        },
      };
      answerOnce(handlers, cb, () => handlers.register(reg), (done) => {
        const res = new resproto.RegisterResourceResponse();
        res.setUrn(done.urn);
        if (done.id) res.setId(done.id);
        res.setObject(Struct.fromJavaScript(done.object));
        return res;
      });
    },
    registerResourceOutputs(call, cb) {
      handlers.registerOutputs(call.request.getUrn(), (call.request.getOutputs()?.toJavaScript() ?? {}) as Props);
      cb(null, new Empty());
    },
    signalAndWaitForShutdown(_call, cb) {
      cb(null, new Empty());
    },
    invoke: unsupported("Invoke"),
    call: unsupported("Call"),
    // As the real engine's resmon.ReadResource (source_eval.go): a read step, answered with the URN
    // and the outputs the provider's Read gave.
    readResource(call, cb) {
      const r = call.request;
      const req: ReadRegistration = {
        ...sharedFields(r),
        id: r.getId(),
        object: (r.getProperties()?.toJavaScript() ?? {}) as Props,
      };
      answerOnce(handlers, cb, () => handlers.read(req), (done) => new resproto.ReadResourceResponse().setUrn(done.urn).setProperties(Struct.fromJavaScript(done.object)));
    },
    registerStackTransform: unsupported("RegisterStackTransform"),
    registerStackInvokeTransform: unsupported("RegisterStackInvokeTransform"),
    registerResourceHook: unsupported("RegisterResourceHook"),
    registerPackage: unsupported("RegisterPackage"),
  };
  server.addService(resrpc.ResourceMonitorService, service as resrpc.IResourceMonitorServer);
  let root = "";
  const engine: Partial<engrpc.IEngineServer> = {
    log(call, cb) {
      const severity = SEVERITY[call.request.getSeverity()] ?? "info";
      if (severity !== "debug") handlers.log(severity, call.request.getMessage(), call.request.getUrn());
      cb(null, new Empty());
    },
    getRootResource(_call, cb) {
      cb(null, new engproto.GetRootResourceResponse().setUrn(root));
    },
    setRootResource(call, cb) {
      root = call.request.getUrn();
      cb(null, new engproto.SetRootResourceResponse());
    },
  };
  server.addService(engrpc.EngineService, engine as engrpc.IEngineServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
