/**
 * The provider process's state: the stack config the engine handed to `configure`, and one
 * ApiContext (clients and pollers) per profile, built on first use (issue 17). Nothing here is ever
 * serialized into a program's state. The dispatcher (common-inputs.ts) hands each resource method
 * the context of its resource's profile as a parameter.
 */
import { ApiContexts, type ApiContext } from "./context";
import { resolveSettings, type ConfigSource } from "./config";
import { setLogLevel } from "./log";

let configSource: ConfigSource | undefined;

/** By profile name ("" for the top-level settings): built once per provider process (configure clears them). */
const contexts = new ApiContexts();

/** The config the contexts were built with, as text. */
let configText: string | undefined;

/**
 * Called through each serialized shim's `configure` with the stack's whole namespaced config: the
 * host configures each serialized provider (one per resource type) at its first use, with the same
 * config. The contexts — their clients, pollers and the lists they read — are kept unless it changed,
 * so that the reads of every type share them (client/poller.ts).
 */
export function configure(config: ConfigSource | undefined): void {
  const text = JSON.stringify(config ?? null);
  if (text === configText) return;
  configText = text;
  configSource = config;
  contexts.clear();
  setLogLevel(resolveSettings(config).log);
}

export function currentConfig(): ConfigSource | undefined {
  return configSource;
}

/** A profile's (undefined: the top-level settings') context, built on its first use in this process. */
export function apiContextOf(profile: string | undefined): ApiContext {
  return contexts.of(profile ?? "", () => resolveSettings(configSource, process.env, profile), profile);
}

/**
 * The ids this process's creates answered, per type. The real CLI runs one dynamic-provider process
 * per deployment and gives it no URN: a resource moved to a new URN without `aliases` is a create of
 * the new URN, which finds the object by its default name (the name ignores the parent) and answers
 * its id, then a delete of the old URN with that same id. Such a delete (its parent differs from the
 * create's) must not remove the object the stack now holds under the new URN.
 */
const createdIds = new Map<string, string>();

/** `parentUrn`: the parent of the resource the create was for (one of a type and name differs only by it). */
export function rememberCreated(type: string, id: string, parentUrn: string): void {
  if (id) createdIds.set(`${type}\u0000${id}`, parentUrn);
}

/** The parent of the resource a create in this process answered `id` for, or undefined. */
export function createdHere(type: string, id: string): string | undefined {
  return createdIds.get(`${type}\u0000${id}`);
}
