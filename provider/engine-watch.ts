/**
 * A plugin process ends when the engine that started it is gone. pulumi's Go plugins poll the
 * engine's gRPC health service and stop once a check fails with anything but UNIMPLEMENTED
 * (pulumi/pulumi sdk/go/common/util/rpcutil/health.go, `Healthcheck`, started by
 * sdk/go/pulumi/provider/main.go `Main` and sdk/nodejs/cmd/pulumi-language-nodejs/main.go `main`
 * and `Handshake`, there every 5 minutes). The engine's address is the plugin's first argument
 * (sdk/go/common/resource/plugin/plugin.go `buildPluginArguments`: flags first, then the address).
 *
 * The Node dynamic-provider host (@pulumi/pulumi cmd/dynamic-provider) has no such check: after a
 * `kill -9` of the CLI it lives on, and so would the provider's waits and API calls. The provider
 * entry (index.ts) starts this watch when it runs inside that host; the language-host stand-in
 * (tools/pulumi-cli/pulumi-language-nodejs.js) uses it too. Checks run every half second, not every
 * five minutes: a create whose result no engine will record must not go on calling the API.
 */

/** How often the engine is asked whether it lives: a gone engine is seen within about this long. */
export const ENGINE_CHECK_INTERVAL_MS = 500;

/** The part of @grpc/grpc-js the watch uses: the host's own copy is handed in, this package adds no dependency. */
export interface GrpcLike {
  Client: new (address: string, credentials: unknown, options?: object) => {
    makeUnaryRequest(
      method: string,
      serialize: (value: unknown) => Buffer,
      deserialize: (bytes: Buffer) => unknown,
      argument: unknown,
      callback: (err: { code: number; details?: string; message: string } | null) => void,
    ): unknown;
    close(): void;
  };
  credentials: { createInsecure(): unknown };
  status: { UNIMPLEMENTED: number };
}

export interface EngineWatch {
  stop(): void;
}

/**
 * Polls `grpc.health.v1.Health/Check` at `address` every `intervalMs` (one check at a time, no
 * deadline: a slow engine is alive) and calls `onGone` once, with the reason, when a check fails
 * with any status but UNIMPLEMENTED, as `Healthcheck` does. The timer never keeps the process alive.
 */
export function watchEngine(grpc: GrpcLike, address: string, onGone: (reason: string) => void, intervalMs = ENGINE_CHECK_INTERVAL_MS): EngineWatch {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    client.close();
  };
  const check = () => {
    // An empty HealthCheckRequest (service "": the server as a whole) is zero bytes on the wire.
    client.makeUnaryRequest("/grpc.health.v1.Health/Check", () => Buffer.alloc(0), (bytes) => bytes, {}, (err) => {
      if (stopped) return;
      if (err && err.code !== grpc.status.UNIMPLEMENTED) {
        stop();
        onGone(err.details || err.message);
        return;
      }
      schedule();
    });
  };
  const schedule = () => {
    timer = setTimeout(check, intervalMs);
    timer.unref();
  };
  schedule();
  return { stop };
}

/** The engine's address among a plugin's arguments: the first that is not a flag (`--tracing` takes a value). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-")) return arg;
    if (/^--?tracing$/.test(arg)) i++;
  }
  return undefined;
}

/** The script the `pulumi-resource-pulumi-nodejs` launcher runs (@pulumi/pulumi cmd/dynamic-provider). */
const DYNAMIC_PROVIDER_HOST = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/;

/** The engine address when this process is the dynamic-provider host an engine started, else undefined (a test loading the provider in-process). */
export function dynamicProviderHostEngine(mainScript: string | undefined, argv: readonly string[]): string | undefined {
  return mainScript && DYNAMIC_PROVIDER_HOST.test(mainScript) ? engineAddressOf(argv.slice(2)) : undefined;
}
