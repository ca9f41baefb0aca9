/**
 * Runtime entry of the resource providers (`pulumi-svc/provider`). Serialized provider shims
 * `require` this module by package name at call time, so the provider host always runs the
 * installed version and no closure captures code or credentials.
 */
import { writeSync } from "node:fs";
import type { ConfigSource } from "./config";
import { isMethod, methods } from "./dispatch";
import { dynamicProviderHostEngine, watchEngine, type GrpcLike } from "./engine-watch";
import { resources } from "./generated/resources";
import { ProviderRuntime } from "./runtime";

export * from "./client";
export * from "./config";
export { resources };

/**
 * The provider process's one root of state (runtime.ts): the stack's config, each profile's clients,
 * the ids its creates answered. Every call gets it from here, as a parameter.
 */
const providerProcess = new ProviderRuntime();

/**
 * Inside the dynamic-provider host an engine started (not in a test that loads this module), the
 * process ends once that engine is unreachable (engine-watch.ts): its waits stop with it, and no API
 * call is made for a run whose result nobody will record. The host's own @grpc/grpc-js does the checks.
 */
function endWithEngine(host: NodeJS.Module | undefined): void {
  const address = dynamicProviderHostEngine(host?.filename, process.argv);
  if (!host || !address) return;
  const grpc: GrpcLike = host.require("@grpc/grpc-js");
  watchEngine(grpc, address, (reason) => {
    try {
      writeSync(2, `svc: the engine that started this provider (${address}) is unreachable (${reason}): its run is over, so the provider stops its waits and exits without another API call (README, "After an interrupted \`up\`")\n`);
    } catch {
      // Its stderr was the CLI's pipe, gone with it.
    }
    process.exit(1);
  });
}
endWithEngine(require.main);

/** The stack's config, as the host hands it to each serialized provider's `configure`. */
export function configure(config: ConfigSource | undefined): void {
  providerProcess.configure(config);
}

/** The host's config: what it passes as `config` has a `get` (the host's own object). */
const isConfigSource = (value: unknown): value is ConfigSource => typeof value === "object" && value !== null && "get" in value && typeof value.get === "function";

/** What a serialized shim calls: `run("Webhook", "create", [inputs])`. */
export async function run(type: string, method: string, args: unknown[]): Promise<unknown> {
  if (method === "configure") {
    const request = args[0];
    configure(request && typeof request === "object" && "config" in request && isConfigSource(request.config) ? request.config : undefined);
    return undefined;
  }
  const impl = resources[type];
  if (!impl) throw new Error(`pulumi-svc has no resource type ${type}: the installed pulumi-svc is older than the program that declared it`);
  // Every method's own handling around the resource's, the common inputs included (dispatch.ts).
  return isMethod(method) ? methods[method](providerProcess, type, impl, args) : undefined;
}
