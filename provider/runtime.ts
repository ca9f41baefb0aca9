/**
 * The provider process's state: the stack config the engine handed to `configure`, and API clients
 * built from it on first use. Nothing here is ever serialized into a program's state.
 */
import type { ApiClient } from "./client/http";
import { Poller } from "./client/poller";
import type { EmailDomain, EmailJob, Vps } from "./client/schemas";
import { emailClient, platformClient, resolveSettings, type ConfigSource, type Settings } from "./config";

let configSource: ConfigSource | undefined;
let clients:
  | { settings: string; email?: ApiClient; platform?: ApiClient; servers?: Poller<Vps>; jobs?: Poller<EmailJob>; domains?: Poller<EmailDomain> }
  | undefined;

/** Called through each serialized shim's `configure` with the stack's whole namespaced config. */
export function configure(config: ConfigSource | undefined): void {
  configSource = config;
  clients = undefined;
}

export function currentSettings(): Settings {
  return resolveSettings(configSource);
}

function cachedClients(): NonNullable<typeof clients> {
  const settings = JSON.stringify(currentSettings());
  if (!clients || clients.settings !== settings) clients = { settings };
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

/** One poller per kind per process: all servers waiting to settle share one `GET /vps` per tick. */
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
