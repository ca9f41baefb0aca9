/**
 * Configuration, resolved at run time inside the provider process (never captured in a serialized
 * closure): stack config first (it reaches a dynamic provider through `configure`), then `SVC_*`
 * environment variables.
 */
import { z } from "zod";
import { ApiClient, type ClientOptions } from "./client/http";
import { settingDefs } from "./settings";

export interface ConfigSource {
  get(key: string): string | undefined;
}

export { settingDefs };

export type SettingName = keyof typeof settingDefs;
export type Settings = Partial<Record<SettingName, string>> & { readonly [ORIGIN]?: Origin };

const isSettingName = (name: string): name is SettingName => Object.prototype.hasOwnProperty.call(settingDefs, name);
/** In settingDefs' order. */
const SETTING_NAMES = Object.keys(settingDefs).filter(isSettingName);

/**
 * What resolveSettings knows of a Settings besides its values, kept on the object itself under a
 * symbol (not enumerable: a copy or a listing of the settings has only the values): where each
 * setting came from, in words with how to set it (a refused key's error names it), and the profile
 * the settings are (undefined for the top-level ones).
 */
const ORIGIN: unique symbol = Symbol("settings origin");

interface Origin {
  sources: Partial<Record<SettingName, string>>;
  profile?: string;
}

function originOf(settings: Settings): Origin | undefined {
  return settings[ORIGIN];
}

function setOrigin(settings: Settings, origin: Origin): void {
  Object.defineProperty(settings, ORIGIN, { value: origin, enumerable: false, configurable: true });
}

/** Where `name` of these settings was set, with how to set it again: `stack config svc:apiKey (pulumi config set --secret svc:apiKey <key>)`. */
export function settingSource(settings: Settings, name: SettingName): string | undefined {
  return originOf(settings)?.sources[name];
}

export function resolveSettings(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env, profile?: string): Settings {
  const settings: Settings = {};
  const from: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const d = settingDefs[name];
    const configured = config?.get(d.config);
    const value = configured || env[d.env];
    if (!value) continue;
    settings[name] = value;
    const set = d.secret ? `pulumi config set --secret ${d.config} <value>` : `pulumi config set ${d.config} <value>`;
    from[name] = configured ? `stack config ${d.config}: set the right one with \`${set}\`` : `the environment variable ${d.env}: set the right one there`;
  }
  setOrigin(settings, { sources: from });
  return profile === undefined ? settings : profileSettings(profile, settings, config, env, from);
}

/**
 * Named profiles (issue 17): stack config `svc:profiles` holds, per name, any of the settings above
 * (`pulumi config set --path --secret 'svc:profiles.staging.apiKey' …`); the environment adds
 * `SVC_PROFILE_<NAME>_<SETTING>` (the name upper-cased, other characters as `_`; SETTING as in the
 * table: API_KEY, EMAIL_API_KEY, PROJECT_ID, API_URL…). A profile's keys and project are its own —
 * never taken from the top-level settings, so an object can't land in the default account by a
 * missing entry; the base URLs and the request timeout fall back to the top-level ones (one platform).
 */
const PROFILE_FALLBACK: SettingName[] = ["apiUrl", "emailUrl", "aiUrl", "requestTimeoutSeconds"];

/** Named profiles, each an object of settings (an entry of another kind holds none). */
const PROFILES = z.record(z.string(), z.record(z.string(), z.unknown()).catch({}));

/** The profiles the config defines (their raw settings), or an error naming what is wrong. */
export function configuredProfiles(config?: ConfigSource): Record<string, Record<string, unknown>> {
  const raw = config?.get("svc:profiles");
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("stack config svc:profiles is not an object: set its entries with `pulumi config set --path 'svc:profiles.<name>.<setting>' <value>`");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("stack config svc:profiles must be an object of named profiles");
  const profiles = PROFILES.safeParse(parsed);
  if (!profiles.success) throw new Error("stack config svc:profiles must be an object of named profiles");
  return profiles.data;
}

const envPrefix = (profile: string) => `SVC_PROFILE_${profile.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`;

/** Why a profile cannot be used because it is not defined, or undefined when it is defined. */
export function missingProfile(profile: string, config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (profileExists(profile, config, env)) return undefined;
  return `profile "${profile}" is not configured: set stack config svc:profiles.${profile} (pulumi config set --path --secret 'svc:profiles.${profile}.apiKey' <key>) or ${envPrefix(profile)}API_KEY`;
}

/** Whether the profile is defined at all (in stack config or the environment). */
export function profileExists(profile: string, config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): boolean {
  if (Object.prototype.hasOwnProperty.call(configuredProfiles(config), profile)) return true;
  const prefix = envPrefix(profile);
  return Object.keys(env).some((k) => k.startsWith(prefix) && env[k]);
}

function profileSettings(profile: string, base: Settings, config: ConfigSource | undefined, env: NodeJS.ProcessEnv, baseFrom: Partial<Record<SettingName, string>>): Settings {
  const own = configuredProfiles(config)[profile] ?? {};
  const settings: Settings = {};
  const from: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const d = settingDefs[name];
    const variable = envPrefix(profile) + d.env.slice("SVC_".length);
    const configured = own[name];
    const value = configured ?? env[variable];
    if (value !== undefined && value !== null && value !== "") {
      settings[name] = String(value);
      const set = `pulumi config set --path${d.secret ? " --secret" : ""} 'svc:profiles.${profile}.${name}' <value>`;
      from[name] =
        configured !== undefined && configured !== null && configured !== ""
          ? `stack config svc:profiles.${profile}.${name} (profile "${profile}"): set the right one with \`${set}\``
          : `the environment variable ${variable} (profile "${profile}"): set the right one there`;
    } else if (PROFILE_FALLBACK.includes(name) && base[name]) {
      settings[name] = base[name];
      from[name] = baseFrom[name];
    }
  }
  setOrigin(settings, { sources: from, profile });
  return settings;
}

export class MissingSettingError extends Error {
  /** `profile`: the profile whose setting is missing (its own entries are named, not the top-level ones). */
  constructor(
    readonly setting: SettingName,
    readonly profile?: string,
  ) {
    super(MissingSettingError.describe(setting, profile));
    this.name = "MissingSettingError";
  }

  private static describe(setting: SettingName, profile?: string): string {
    const d = settingDefs[setting];
    if (profile === undefined) {
      const set = d.secret ? `pulumi config set --secret ${d.config} <value>` : `pulumi config set ${d.config} <value>`;
      return `${d.what} is not configured: set stack config ${d.config} (${set}) or the environment variable ${d.env}`;
    }
    const set = `pulumi config set --path${d.secret ? " --secret" : ""} 'svc:profiles.${profile}.${setting}' <value>`;
    return `${d.what} is not configured for profile "${profile}": set stack config svc:profiles.${profile}.${setting} (${set}) or the environment variable ${envPrefix(profile)}${d.env.slice("SVC_".length)}`;
  }
}

export function requireSetting(settings: Settings, name: SettingName): string {
  const value = settings[name];
  if (!value) throw new MissingSettingError(name, originOf(settings)?.profile);
  return value;
}

type Extra = Omit<ClientOptions, "service" | "baseUrl" | "apiKey" | "project">;

/** Client options that come from settings rather than code. */
function tuning(settings: Settings, extra: Extra): Extra {
  const seconds = Number(settings.requestTimeoutSeconds);
  if (!settings.requestTimeoutSeconds || !(seconds > 0)) return extra;
  return { ...extra, timeouts: { ...extra.timeouts, requestMs: seconds * 1000, headersMs: Math.min(seconds * 1000, extra.timeouts?.headersMs ?? 30_000) } };
}

/** Client of the platform API (servers, domains, account). */
export function platformClient(settings: Settings, extra: Extra = {}): ApiClient {
  return new ApiClient({
    ...tuning(settings, extra),
    service: "platform",
    baseUrl: requireSetting(settings, "apiUrl"),
    apiKey: requireSetting(settings, "apiKey"),
    keySource: settingSource(settings, "apiKey"),
  });
}

/**
 * Client of the email API. An email key decides the project by itself; a platform key names the
 * configured project with `X-Svc-Project` (needed when several projects of the account have email).
 */
export function emailClient(settings: Settings, extra: Extra = {}): ApiClient {
  const baseUrl = requireSetting(settings, "emailUrl");
  const options = tuning(settings, extra);
  if (settings.emailApiKey) return new ApiClient({ ...options, service: "email", baseUrl, apiKey: settings.emailApiKey, keySource: settingSource(settings, "emailApiKey") });
  if (!settings.apiKey) throw new MissingSettingError("emailApiKey", originOf(settings)?.profile);
  return new ApiClient({ ...options, service: "email", baseUrl, apiKey: settings.apiKey, project: settings.projectId, keySource: settingSource(settings, "apiKey") });
}

/** Client of the AI gateway (`{ai_base_url}`): its own key when configured, else the platform key. */
export function aiClient(settings: Settings, extra: Extra = {}): ApiClient {
  const baseUrl = requireSetting(settings, "aiUrl");
  const apiKey = settings.aiApiKey ?? settings.apiKey;
  if (!apiKey) throw new MissingSettingError("apiKey", originOf(settings)?.profile);
  return new ApiClient({ ...tuning(settings, extra), service: "ai", baseUrl, apiKey, keySource: settingSource(settings, settings.aiApiKey ? "aiApiKey" : "apiKey") });
}
