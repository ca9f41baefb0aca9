/**
 * The provider process's state: the stack config the engine handed to `configure`, and API clients
 * built from it on first use — one set per profile (issue 17). Nothing here is ever serialized into
 * a program's state.
 *
 * Which profile, and which custom timeouts, a call runs under is carried by the call itself (an
 * AsyncLocalStorage context set by the dispatcher from the resource's inputs, provider/common-inputs.ts):
 * the resource code asks `platformApi()` and gets the client of its resource's profile.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ApiClient } from "./client/http";
import { Poller } from "./client/poller";
import type { EmailDomain, EmailJob, Vps } from "../contract/schemas";
import { emailClient, platformClient, resolveSettings, type ConfigSource, type Settings } from "./config";

let configSource: ConfigSource | undefined;

interface Clients {
  settings: string;
  email?: ApiClient;
  platform?: ApiClient;
  servers?: Poller<Vps>;
  jobs?: Poller<EmailJob>;
  domains?: Poller<EmailDomain>;
}
/** By profile name ("" for the top-level settings). Each key keeps its own rate-limit bucket. */
const clientsByProfile = new Map<string, Clients>();

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
  clientsByProfile.clear();
}

export function currentConfig(): ConfigSource | undefined {
  return configSource;
}

export function currentSettings(): Settings {
  return resolveSettings(configSource, process.env, currentScope().profile);
}

function cachedClients(): Clients {
  const key = currentScope().profile ?? "";
  const settings = JSON.stringify(currentSettings());
  let clients = clientsByProfile.get(key);
  if (!clients || clients.settings !== settings) {
    clients = { settings };
    clientsByProfile.set(key, clients);
  }
  return clients;
}

export function emailApi(): ApiClient {
  const c = cachedClients();
  return (c.email ??= emailClient(currentSettings()));
}

export function platformApi(): ApiClient {
  const c = cachedClients();
  return (c.platform ??= platformClient(currentSettings()));
}

/** One poller per kind per profile: all servers waiting to settle share one `GET /vps` per tick. */
export function serverPoller(): Poller<Vps> {
  const c = cachedClients();
  return (c.servers ??= new Poller<Vps>(platformApi(), { list: "vps.list", get: "vps.get", param: "id", idOf: (s) => s.id }));
}

/** Email jobs: `GET /jobs` answers the 50 most recent; older ones are read one by one. */
export function emailJobPoller(): Poller<EmailJob> {
  const c = cachedClients();
  return (c.jobs ??= new Poller<EmailJob>(emailApi(), { list: "email.jobs.list", get: "email.jobs.get", param: "jobId", idOf: (j) => j.jobId }));
}

export function sendingDomainPoller(): Poller<EmailDomain> {
  const c = cachedClients();
  return (c.domains ??= new Poller<EmailDomain>(emailApi(), { list: "email.domains.list", get: "email.domains.get", param: "domainId", idOf: (d) => d.id }));
}
