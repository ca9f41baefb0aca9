/**
 * The provider process's state: the stack config the engine handed to `configure`, and API clients
 * built from it on first use. Nothing here is ever serialized into a program's state.
 */
import type { ApiClient } from "./client/http";
import { emailClient, platformClient, resolveSettings, type ConfigSource, type Settings } from "./config";

let configSource: ConfigSource | undefined;
let clients: { settings: string; email?: ApiClient; platform?: ApiClient } | undefined;

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
