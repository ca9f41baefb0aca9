/**
 * The test engine's stack files: config (`Pulumi.<stack>.yaml`) and state (one JSON file), with
 * secret values encrypted by a passphrase (AES-256-GCM, key from scrypt), never in plain text.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SECRET_SIG, SIG_KEY, type PendingOperation, type Props, type ResourceState, type StackState } from "../support/stack-state";

// js-yaml ships with @pulumi/pulumi (the real CLI's project files are YAML too).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require("js-yaml") as { load(text: string): unknown; dump(value: unknown): string };

export class Crypter {
  private readonly key: Buffer;
  constructor(passphrase: string, readonly salt: string) {
    this.key = scryptSync(passphrase, Buffer.from(salt, "base64"), 32);
  }
  static newSalt(): string {
    return randomBytes(16).toString("base64");
  }
  encrypt(value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return `v1:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
  }
  decrypt(text: string): unknown {
    const [version, iv, tag, data] = text.split(":");
    if (version !== "v1" || !iv || !tag || !data) throw new Error("not a value encrypted by this engine");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    try {
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8"));
    } catch {
      throw new Error("cannot decrypt a secret: wrong passphrase (PULUMI_CONFIG_PASSPHRASE)?");
    }
  }
}

// ---- project and config ----

type ConfigValue = string | number | boolean | { secure: string } | ConfigValue[] | { [key: string]: ConfigValue };

interface StackFile {
  encryptionsalt?: string;
  config?: Record<string, ConfigValue>;
}

function stackFilePath(projectDir: string, stack: string): string {
  return join(projectDir, `Pulumi.${stack}.yaml`);
}

function readStackFile(projectDir: string, stack: string): StackFile {
  const file = stackFilePath(projectDir, stack);
  return existsSync(file) ? ((yaml.load(readFileSync(file, "utf8")) as StackFile) ?? {}) : {};
}

function writeStackFile(projectDir: string, stack: string, file: StackFile): void {
  writeFileSync(stackFilePath(projectDir, stack), yaml.dump(file));
}

export interface StackConfig {
  /** Namespaced key → value (secrets decrypted); an object or list value is its JSON, as the CLI
   * hands structured config to the program and the provider. */
  values: Record<string, string>;
  /** Keys whose value is, or holds, a secret. */
  secretKeys: string[];
}

const isSecure = (v: unknown): v is { secure: string } => Boolean(v) && typeof v === "object" && typeof (v as { secure?: unknown }).secure === "string" && Object.keys(v as object).length === 1;

/** A config value with its secure parts decrypted; `secret` tells whether it held any. */
function decryptValue(value: ConfigValue, crypter: () => Crypter): { plain: unknown; secret: boolean } {
  if (isSecure(value)) return { plain: crypter().decrypt(value.secure), secret: true };
  if (Array.isArray(value)) {
    const parts = value.map((v) => decryptValue(v, crypter));
    return { plain: parts.map((p) => p.plain), secret: parts.some((p) => p.secret) };
  }
  if (value && typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => [k, decryptValue(v, crypter)] as const);
    return { plain: Object.fromEntries(parts.map(([k, p]) => [k, p.plain])), secret: parts.some(([, p]) => p.secret) };
  }
  return { plain: value, secret: false };
}

function crypterOf(file: StackFile, stack: string, passphrase: string): () => Crypter {
  return () => {
    if (!file.encryptionsalt) throw new Error(`Pulumi.${stack}.yaml has a secure value but no encryptionsalt`);
    return crypterFor(passphrase, file.encryptionsalt);
  };
}

export function readConfig(projectDir: string, stack: string, passphrase: string): StackConfig {
  const file = readStackFile(projectDir, stack);
  const crypter = crypterOf(file, stack, passphrase);
  const values: Record<string, string> = {};
  const secretKeys: string[] = [];
  for (const [key, value] of Object.entries(file.config ?? {})) {
    const { plain, secret } = decryptValue(value, crypter);
    values[key] = plain !== null && typeof plain === "object" ? JSON.stringify(plain) : String(plain);
    if (secret) secretKeys.push(key);
  }
  return { values, secretKeys };
}

/**
 * A `--path` key as the CLI reads it (pulumi/pulumi sdk/go/common/resource/properties_path.go,
 * ParsePropertyPath): `svc:profiles.client.apiKey`, `a.list[0]`, `a["key.with.dots"]`. The first
 * part is the config key.
 */
export function parseConfigPath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\.?([^.[\]]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path))) {
    parts.push(m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]);
    at = re.lastIndex;
  }
  if (at !== path.length || !parts.length || typeof parts[0] !== "string") throw new Error(`invalid configuration path: ${path}`);
  return parts;
}

function coercePathValue(value: string): ConfigValue {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value.length > 1 && value.startsWith("0")) return value;
  return /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/** A key as `pulumi config` takes it: one with no namespace is the project's (`<project>:key`). */
export function qualifyConfigKey(key: string, project: string): string {
  const top = key.split(/[.[]/, 1)[0];
  return top.includes(":") ? key : `${project}:${key}`;
}

/** `pulumi config set [--secret] [--path] key value` for the test engine's stack file. */
export function setConfig(projectDir: string, stack: string, passphrase: string, key: string, value: string, secret = false, path = false): void {
  const file = readStackFile(projectDir, stack);
  file.encryptionsalt ??= Crypter.newSalt();
  file.config ??= {};
  // With --path, a plain "true"/"false" or whole number is stored as a boolean or number (pulumi/pulumi
  // sdk/go/common/resource/config/object.go: "If it's convertible to an int, return the int"; a
  // leading zero keeps the string).
  const stored: ConfigValue = secret ? { secure: crypterFor(passphrase, file.encryptionsalt).encrypt(value) } : path ? coercePathValue(value) : value;
  if (!path) file.config[key] = stored;
  else {
    const parts = parseConfigPath(key);
    let container: Record<string | number, ConfigValue> = file.config as Record<string, ConfigValue>;
    for (const [i, part] of parts.slice(0, -1).entries()) {
      const next = parts[i + 1];
      let child = container[part];
      if (child === undefined || typeof child !== "object" || isSecure(child)) {
        if (child !== undefined) throw new Error(`${parts.slice(0, i + 1).join(".")} is not an object or list: cannot set ${key}`);
        child = typeof next === "number" ? [] : {};
        container[part] = child;
      }
      container = child as Record<string | number, ConfigValue>;
    }
    container[parts[parts.length - 1]] = stored;
  }
  writeStackFile(projectDir, stack, file);
}

/** `pulumi config get [--path] key`: the value (secrets decrypted), or undefined when not set. */
export function getConfig(projectDir: string, stack: string, passphrase: string, key: string, path = false): { value: unknown; secret: boolean } | undefined {
  const file = readStackFile(projectDir, stack);
  const parts = path ? parseConfigPath(key) : [key];
  let at: ConfigValue | undefined = file.config?.[parts[0] as string];
  for (const part of parts.slice(1)) at = at && typeof at === "object" && !isSecure(at) ? (at as Record<string | number, ConfigValue>)[part] : undefined;
  if (at === undefined) return undefined;
  const { plain, secret } = decryptValue(at, crypterOf(file, stack, passphrase));
  return { value: plain, secret };
}

/** `pulumi config rm [--path] key`: answers whether it was there. */
export function removeConfig(projectDir: string, stack: string, key: string, path = false): boolean {
  const file = readStackFile(projectDir, stack);
  const parts = path ? parseConfigPath(key) : [key];
  let container: ConfigValue | undefined = file.config as ConfigValue | undefined;
  for (const part of parts.slice(0, -1)) container = container && typeof container === "object" && !isSecure(container) ? (container as Record<string | number, ConfigValue>)[part] : undefined;
  const last = parts[parts.length - 1];
  if (!container || typeof container !== "object" || isSecure(container) || !(last in container)) return false;
  if (Array.isArray(container) && typeof last === "number") container.splice(last, 1);
  else delete (container as Record<string | number, ConfigValue>)[last];
  writeStackFile(projectDir, stack, file);
  return true;
}

// ---- state ----

interface StoredValue {
  secure: string;
}

function seal(props: Props, secrets: string[], crypter: Crypter): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) out[k] = secrets.includes(k) && v !== undefined ? ({ secure: crypter.encrypt(v) } satisfies StoredValue) : v;
  return out;
}

function unseal(props: Props, crypter: Crypter): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) out[k] = v && typeof v === "object" && typeof (v as StoredValue).secure === "string" ? crypter.decrypt((v as StoredValue).secure) : v;
  return out;
}

/** The key derivation (scrypt) is slow on purpose: the engine saves after every step, so one
 * crypter per passphrase and salt is kept. */
const crypters = new Map<string, Crypter>();
function crypterFor(passphrase: string, salt: string): Crypter {
  const id = `${salt}\u0000${passphrase}`;
  let crypter = crypters.get(id);
  if (!crypter) {
    crypter = new Crypter(passphrase, salt);
    crypters.set(id, crypter);
  }
  return crypter;
}

export function loadState(file: string, passphrase: string): StackState {
  if (!existsSync(file)) return { salt: Crypter.newSalt(), resources: [], outputs: {}, secretOutputs: [] };
  const stored = JSON.parse(readFileSync(file, "utf8")) as StackState;
  const crypter = crypterFor(passphrase, stored.salt);
  const pending = (stored.pendingOperations ?? []).map((p) => ({ ...p, inputs: unseal(p.inputs, crypter) }));
  return {
    salt: stored.salt,
    resources: stored.resources.map((r) => ({
      ...r,
      // Fields left out when at their defaults (see saveState).
      secrets: r.secrets ?? [],
      secretInputs: r.secretInputs ?? r.secrets ?? [],
      dependencies: r.dependencies ?? [],
      protect: r.protect ?? false,
      retainOnDelete: r.retainOnDelete ?? false,
      inputs: unseal(r.inputs ?? {}, crypter),
      outputs: unseal(r.outputs ?? {}, crypter),
    })),
    outputs: unseal(stored.outputs, crypter),
    secretOutputs: stored.secretOutputs ?? [],
    ...(pending.length ? { pendingOperations: pending } : {}),
  };
}

/** A resource as stored: fields at their defaults left out, as the CLI's checkpoint does (pulumi/pulumi
 * sdk/go/common/apitype/core.go, ResourceV3: `protect`, `retainOnDelete`, `dependencies`… are
 * `omitempty`). */
function stored(r: ResourceState, crypter: Crypter): Partial<ResourceState> {
  const { secrets, secretInputs = [], dependencies, protect, retainOnDelete, ...rest } = r;
  return {
    ...rest,
    inputs: seal(r.inputs, secretInputs, crypter),
    outputs: seal(r.outputs, secrets, crypter),
    ...(secrets.length ? { secrets } : {}),
    // Written whenever either list has a key, so an empty list is not read back as `secrets`.
    ...(secrets.length || secretInputs.length ? { secretInputs } : {}),
    ...(dependencies.length ? { dependencies } : {}),
    ...(protect ? { protect } : {}),
    ...(retainOnDelete ? { retainOnDelete } : {}),
  };
}

/**
 * Writes the state (atomically) and answers the bytes written. Compact JSON, as the CLI's file and
 * object-store backends write their checkpoints (pulumi/pulumi pkg/backend/diy/state.go,
 * `compactJSONMarshaler`: a json.Encoder with no indent).
 */
export function saveState(file: string, state: StackState, passphrase: string): number {
  const crypter = crypterFor(passphrase, state.salt);
  const pending = (state.pendingOperations ?? []).map((p) => ({ ...p, inputs: seal(p.inputs, p.secrets, crypter) }));
  const written = {
    salt: state.salt,
    resources: state.resources.map((r) => stored(r, crypter)),
    outputs: seal(state.outputs, state.secretOutputs, crypter),
    secretOutputs: state.secretOutputs,
    ...(pending.length ? { pendingOperations: pending } : {}),
  };
  const tmp = `${file}.tmp`;
  const text = JSON.stringify(written);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  return Buffer.byteLength(text);
}

export { SECRET_SIG, SIG_KEY, type PendingOperation, type Props, type ResourceState, type StackState } from "../support/stack-state";
export { readProject, type Project } from "../support/project";
