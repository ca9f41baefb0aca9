/**
 * The provider process's state: the stack config the engine handed to `configure`, and one
 * ApiContext (clients and pollers) per profile, built on first use (issue 17). Nothing here is ever
 * serialized into a program's state.
 *
 * Which profile, and which custom timeouts, a call runs under is carried by the call itself (an
 * AsyncLocalStorage context set by the dispatcher from the resource's inputs, provider/common-inputs.ts):
 * the resource code asks `platformApi()` and gets the client of its resource's profile.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ApiClient } from "./client/http";
import type { Poller } from "./client/poller";
import { ApiContext } from "./context";
import type { EmailDomain, EmailJob, Vps } from "../contract/schemas";
import { resolveSettings, type ConfigSource, type Settings } from "./config";

let configSource: ConfigSource | undefined;

/** By profile name ("" for the top-level settings): built once per provider process (configure clears them). */
const contexts = new Map<string, ApiContext>();

/** What the current resource call runs under. */
export interface CallScope {
  /** The resource's `profile` (undefined: the top-level settings). */
  profile?: string;
  /** The resource's `customTimeouts` for this operation, in ms (undefined: the wait's default). */
  timeoutMs?: number;
  /** The operation, for messages: create, update, delete. */
  operation?: string;
  /** As the program wrote it ("2s"), for messages. */
  timeoutText?: string;
}
const scope = new AsyncLocalStorage<CallScope>();

export function inScope<T>(s: CallScope, fn: () => Promise<T>): Promise<T> {
  return scope.run(s, fn);
}

export function currentScope(): CallScope {
  return scope.getStore() ?? {};
}

/** The wait limit of the current operation: the resource's customTimeouts, else `defaultMs`. */
export function operationTimeoutMs(defaultMs: number): number {
  return currentScope().timeoutMs ?? defaultMs;
}

/** Called through each serialized shim's `configure` with the stack's whole namespaced config. */
export function configure(config: ConfigSource | undefined): void {
  configSource = config;
  contexts.clear();
}

export function currentConfig(): ConfigSource | undefined {
  return configSource;
}

/** The clients and pollers of the current call's profile, built on its first use in this process. */
export const apiContext = (): ApiContext => apiContextOf(currentScope().profile);

/** A profile's (undefined: the top-level settings') context, built on its first use in this process. */
export function apiContextOf(profile: string | undefined): ApiContext {
  let context = contexts.get(profile ?? "");
  if (!context) {
    context = new ApiContext(resolveSettings(configSource, process.env, profile));
    contexts.set(profile ?? "", context);
  }
  return context;
}

export const currentSettings = (): Settings => apiContext().settings;
export const platformApi = (): ApiClient => apiContext().platform;
export const emailApi = (): ApiClient => apiContext().email;
export const serverPoller = (): Poller<Vps> => apiContext().servers;
export const emailJobPoller = (): Poller<EmailJob> => apiContext().emailJobs;
export const sendingDomainPoller = (): Poller<EmailDomain> => apiContext().sendingDomains;
