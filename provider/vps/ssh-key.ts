/**
 * VpsSshKey: one SSH public key on one server. The Pulumi id is the key's fingerprint (OpenSSH's
 * `SHA256:…`, contract/ssh-keys.ts), which the check computes at preview. The API has no key update:
 * any change replaces, and a replace of the same key on the same server (a new label or comment)
 * deletes the old one first — the server refuses the same key twice (SSH_KEY_EXISTS).
 *
 * A private key pasted as `publicKey` is refused at preview without its text: the failure names no
 * property (the CLI would print the value) and starts with "publicKey:"; nothing of it is kept in the
 * checked inputs. Adding goes through createOnce (../create-once.ts): the fingerprint tells the key,
 * and the server is this stack's, so the same key already on it is this resource's (an interrupted
 * create made it) and is adopted; the API's SSH_KEY_EXISTS is that refusal, so nothing is read first.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import type { SshKey } from "../../contract/schemas";
import { holdsPrivateKey, parseSshPublicKey } from "../../contract/ssh-keys";
import { checkInputs, isNotFound, isUnknown, operationError, pick, sensitiveFailure, UUID, type CheckFailure, type DiffResult, type Props, type ResourceImpl } from "../resource";
import { retryWhileBusy } from "./server-waits";
import { createsObject, serverAccessHint, serverAccessRules, SSH_KEY_LIMIT } from "./server-access";

const fields = {
  vpsId: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
  /** Checked by publicKeyRule (never by a schema whose message could quote it). */
  publicKey: z.string(),
  label: z.string().optional(),
  /** A key already on the server to manage: its fingerprint. */
  adoptId: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, "a key fingerprint as OpenSSH prints it: SHA256: and 43 base64 characters").optional(),
  /** What the program declares about the server (set by the sdk class, see server-access.ts). */
  declaredServer: z.looseObject({}).optional(),
};
/** The key's own values: any change replaces it. */
const KEY_INPUTS = ["vpsId", "publicKey", "label"];
const OUTPUT_INPUTS = ["vpsId", "publicKey", "label", "adoptId"];

function publicKeyRule(inputs: Props): CheckFailure[] {
  const text = inputs.publicKey;
  if (typeof text !== "string" || isUnknown(text)) return [];
  const parsed = parseSshPublicKey(text);
  if (!("problem" in parsed)) {
    if (inputs.adoptId !== undefined && !isUnknown(inputs.adoptId) && inputs.adoptId !== parsed.fingerprint) {
      return [{ property: "adoptId", reason: `the fingerprint of publicKey is ${parsed.fingerprint}: adoptId must be that key's fingerprint` }];
    }
    return [];
  }
  return [{ property: "publicKey", reason: `${parsed.problem}; e.g. "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… you@laptop" (the contents of ~/.ssh/id_ed25519.pub)` }];
}

/** The fingerprint of the inputs' key (checked: a valid key). */
function fingerprintOf(inputs: Props): string {
  const parsed = parseSshPublicKey(inputs.publicKey as string);
  if ("problem" in parsed) throw new Error(`publicKey: ${parsed.problem}`);
  return parsed.fingerprint;
}

/** The key as the program's inputs (pulumi-svc's own kept). */
function liveInputs(key: SshKey, inputs: Props): Props {
  return { ...pick(inputs, ["vpsId", "adoptId"]), publicKey: key.publicKey, ...(key.label !== null ? { label: key.label } : {}) };
}

function outputs(inputs: Props, key: SshKey): Props {
  return { ...pick(inputs, OUTPUT_INPUTS), fingerprint: key.fingerprint, type: key.type };
}

function hintFor(err: unknown, vpsId: string): string | undefined {
  if (isApiError(err, "SSH_KEY_LIMIT")) return `Server ${vpsId} already holds ${SSH_KEY_LIMIT} keys: remove one (from the program or the server) first`;
  return serverAccessHint(err, vpsId, "SSH keys");
}

export const vpsSshKey: ResourceImpl = {
  async check(olds, news, ctx) {
    // A private key never reaches a schema, a message or the checked inputs.
    if (typeof news.publicKey === "string" && holdsPrivateKey(news.publicKey)) {
      const { publicKey: _dropped, ...rest } = news;
      return {
        inputs: rest,
        failures: [sensitiveFailure("publicKey", "this is a private key (-----BEGIN … PRIVATE KEY-----). Give the public key instead: the contents of the .pub file, e.g. ~/.ssh/id_ed25519.pub. The text given is not shown, stored or sent")],
      };
    }
    const result = checkInputs(news, fields, publicKeyRule);
    if (typeof result.inputs.publicKey === "string" && !isUnknown(result.inputs.publicKey)) result.inputs.publicKey = result.inputs.publicKey.trim();
    if (result.failures.length === 0) result.failures.push(...(await serverAccessRules(ctx, result.inputs, "SSH keys", createsObject(olds, result.inputs, KEY_INPUTS))));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    const changed = (name: string) => isUnknown(news[name]) || JSON.stringify(olds[name] ?? null) !== JSON.stringify(news[name] ?? null);
    const replaces = KEY_INPUTS.filter(changed);
    // The same key on the same server cannot be added beside itself: the old one goes first.
    const sameKey = !changed("vpsId") && !isUnknown(news.publicKey) && olds.fingerprint === fingerprintOf(news);
    return { changes: replaces.length > 0, replaces, ...(replaces.length && sameKey ? { deleteBeforeReplace: true } : {}) };
  },

  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId as string;
    const fingerprint = fingerprintOf(inputs);
    const keys = () => ctx.api.sshKeysOf(vpsId).fresh();
    try {
      const { object, adopted } = await createOnce<SshKey>(inputs, {
        noun: "SSH key",
        idOf: (k) => k.fingerprint,
        describe: (k) => `${k.fingerprint} on server ${vpsId}`,
        adopt: async (adoptId) => {
          const found = (await keys()).find((k) => k.fingerprint === adoptId);
          if (!found) throw new Error(`create failed: adoptId "${adoptId}": server ${vpsId} has no SSH key with this fingerprint; remove adoptId to add it`);
          return found;
        },
        // The fingerprint is the key: the same key on this stack's server is this resource's.
        find: async () => ({ objects: (await keys()).filter((k) => k.fingerprint === fingerprint), provablyMine: true }),
        send: () =>
          retryWhileBusy(ctx, vpsId, () =>
            api.call("vps.sshKeys.add", { params: { id: vpsId }, body: { publicKey: inputs.publicKey as string, ...(inputs.label !== undefined ? { label: inputs.label as string } : {}) } }),
          ),
        refusedAsDuplicate: (err) => isApiError(err, "SSH_KEY_EXISTS"),
        otherwise: "remove the key from the server",
      });
      // A key found on the server is taken as it is: a different label shows as a replace in the next preview.
      return { id: object.fingerprint, outs: outputs(adopted ? liveInputs(object, inputs) : inputs, object) };
    } catch (err) {
      throw operationError("create", err, hintFor(err, vpsId));
    }
  },

  async update(_id, _olds, news) {
    // Unreachable in practice (every input replaces); answer complete outputs all the same.
    return { outs: news };
  },

  async read(id, props, ctx) {
    const vpsId = props.vpsId as string;
    let keys: SshKey[];
    try {
      keys = await ctx.api.sshKeysOf(vpsId).snapshot();
    } catch (err) {
      if (isNotFound(err)) return { id: "", props: {} };
      throw operationError("read", err);
    }
    const key = keys.find((k) => k.fingerprint === id);
    if (!key) return { id: "", props: {} };
    const inputs = liveInputs(key, props);
    return { id, props: outputs(inputs, key), inputs };
  },

  async delete(id, props, ctx) {
    const vpsId = props.vpsId as string;
    try {
      await ctx.api.platform.call("vps.sshKeys.delete", { params: { id: vpsId, fingerprint: id } });
    } catch (err) {
      // SSH_KEY_NOT_FOUND or INSTANCE_NOT_FOUND: already gone (a terminated server keeps no keys).
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
