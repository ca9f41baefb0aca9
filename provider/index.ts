/**
 * Runtime entry of the resource providers (`pulumi-svc/provider`). Serialized provider shims
 * `require` this module by package name at call time, so the provider host always runs the
 * installed version and no closure captures code or credentials.
 */
import { dispatch } from "./common-inputs";
import type { ConfigSource } from "./config";
import { resources } from "./generated/resources";
import type { ResourceImpl } from "./resource";
import { configure } from "./runtime";

export * from "./client";
export * from "./config";
export { configure } from "./runtime";
export { resources };

type Method = "configure" | keyof ResourceImpl;

/** What a serialized shim calls: `run("Webhook", "create", [inputs])`. */
export async function run(type: string, method: Method, args: unknown[]): Promise<unknown> {
  if (method === "configure") {
    configure((args[0] as { config?: ConfigSource } | undefined)?.config);
    return undefined;
  }
  const impl = resources[type];
  if (!impl) throw new Error(`pulumi-svc has no resource type ${type}: the installed pulumi-svc is older than the program that declared it`);
  // Every resource's `profile` and `timeouts` are handled around its own method (common-inputs.ts).
  return dispatch(type, impl, method, args);
}
