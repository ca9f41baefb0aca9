/**
 * The engine side of the Node language runtime's protocol: a ResourceMonitor gRPC server that
 * `@pulumi/pulumi/cmd/run` connects to (`--monitor`), as the Pulumi CLI's engine serves it.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
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
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  ignoreChanges: string[];
  additionalSecretOutputs: string[];
  importId: string;
  /** The `customTimeouts` option as the SDK sends it (Go durations such as "40m"; "" when not set). */
  customTimeouts: { create: string; update: string; delete: string };
}

export interface RegisterAnswer {
  urn: string;
  id?: string;
  /** Outputs, secrets wrapped with the secret signature. */
  object: Props;
}

export interface MonitorHandlers {
  register(reg: Registration): Promise<RegisterAnswer>;
  registerOutputs(urn: string, outputs: Props): void;
}

/** Features this engine supports; the SDK asks at start. Secrets: yes; the rest: plain values. */
const SUPPORTED_FEATURES = new Set(["secrets"]);

export async function startMonitor(handlers: MonitorHandlers): Promise<{ address: string; stop(): Promise<void> }> {
  const server = new grpc.Server();
  const fail = (err: unknown): grpc.ServiceError => Object.assign(new Error(String((err as Error)?.message ?? err)), { code: grpc.status.UNKNOWN, details: String((err as Error)?.message ?? err), metadata: new grpc.Metadata() });
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
        type: r.getType(),
        name: r.getName(),
        parent: r.getParent(),
        custom: r.getCustom(),
        object: (r.getObject()?.toJavaScript() ?? {}) as Props,
        dependencies: r.getDependenciesList(),
        protect: Boolean(r.getProtect()),
        retainOnDelete: Boolean(r.getRetainondelete()),
        deleteBeforeReplace: r.getDeletebeforereplace(),
        ignoreChanges: r.getIgnorechangesList(),
        additionalSecretOutputs: r.getAdditionalsecretoutputsList(),
        importId: r.getImportid(),
        customTimeouts: {
          create: r.getCustomtimeouts()?.getCreate() ?? "",
          update: r.getCustomtimeouts()?.getUpdate() ?? "",
          delete: r.getCustomtimeouts()?.getDelete() ?? "",
        },
      };
      handlers.register(reg).then(
        (answer) => {
          const res = new resproto.RegisterResourceResponse();
          res.setUrn(answer.urn);
          if (answer.id) res.setId(answer.id);
          res.setObject(Struct.fromJavaScript(answer.object as never));
          cb(null, res);
        },
        (err) => cb(fail(err), null),
      );
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
    readResource: unsupported("ReadResource"),
    registerStackTransform: unsupported("RegisterStackTransform"),
    registerStackInvokeTransform: unsupported("RegisterStackInvokeTransform"),
    registerResourceHook: unsupported("RegisterResourceHook"),
    registerPackage: unsupported("RegisterPackage"),
  };
  server.addService(resrpc.ResourceMonitorService, service as resrpc.IResourceMonitorServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
