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
import { goneIfNotFound, isUnknown, operationFailed, pick, sensitiveFailure, UUID, type DiffResult, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema } from "../schema";
import { retryWhileBusy } from "./server-waits";
import { busyServerWait, createsObject, declaredServerInput, serverAccessHint, serverAccessRules, SSH_KEY_LIMIT, VPS_BUSY_ADVICE } from "./server-access";

/** The parsed key of the inputs, or undefined while it is unknown or not a string. */
const parsedKey = (inputs: Props) => (typeof inputs.publicKey === "string" && !isUnknown(inputs.publicKey) ? parseSshPublicKey(inputs.publicKey) : undefined);

const KEY_REPLACED = "replaces the key (the API has no key update); when the key itself stays (a new label or comment), the old one is removed first";

export const vpsSshKeySchema = defineSchema({
  type: "VpsSshKey",
  sdk: { idOutputs: ["fingerprint"], declaredServer: { kind: "sshKey", perServer: SSH_KEY_LIMIT } },
  service: "platform",
  summary:
    "An SSH public key on a server. The resource's id is the key's fingerprint (OpenSSH's `SHA256:…`). Any change replaces it (the old key is removed first when the key itself stays). At most 10 per server: an 11th declared in the program is refused at preview.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// Keys need a plan whose servers share a public address (getVpsPlans: sharedAddress).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const admin = new svc.VpsSshKey("admin-key", {
  vpsId: server.id,
  publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIARAYXRkBYQqpgWOjkFqlBr7mojh5fWsUmU5Fe87Qdjp admin@laptop",
  label: "admin",
});

export const adminFingerprint = admin.fingerprint; // "SHA256:oXYUQ3xFW2EM3o8Rme/MlTZmOd92e6JJNWXqYr4wNPg", as \`ssh-keygen -lf\` prints it
`,
  inputs: {
    vpsId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
      description: "The server the key is installed on: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running.",
      change: "replace",
    },
    publicKey: {
      // Checked by the cross rule below (never by a schema whose message could quote it).
      schema: z.string(),
      description:
        "A single-line OpenSSH public key: the contents of `~/.ssh/id_ed25519.pub`. A private key given by mistake is refused at preview, its text never shown, stored or sent.",
      change: "replace",
      changeText: KEY_REPLACED,
    },
    label: { schema: z.string().optional(), description: "A label shown beside the key.", change: "replace", changeText: KEY_REPLACED },
    adoptId: {
      ...adoptIdInput("the fingerprint (`SHA256:…`) of a key already on the server"),
      schema: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, "a key fingerprint as OpenSSH prints it: SHA256: and 43 base64 characters").optional(),
    },
    declaredServer: declaredServerInput,
  },
  outputs: {
    fingerprint: { schema: z.string(), description: "`SHA256:<unpadded base64>`, as `ssh-keygen -lf` prints it: the resource's id and its `adoptId`." },
    type: { schema: z.string(), description: "The key type: `ssh-ed25519`, `ecdsa-sha2-nistp256`/`384`/`521` or `ssh-rsa`." },
  },
  rules: [
    {
      text: "`publicKey` is a single-line OpenSSH public key: `ssh-ed25519`, `ecdsa-sha2-nistp256/384/521`, or `ssh-rsa` of at least 2048 bits",
      check: (inputs) => {
        const parsed = parsedKey(inputs);
        if (!parsed || !("problem" in parsed)) return [];
        return [{ property: "publicKey", reason: `${parsed.problem}; e.g. "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… you@laptop" (the contents of ~/.ssh/id_ed25519.pub)` }];
      },
    },
    {
      text: "`adoptId`, when given, is the fingerprint of `publicKey`",
      check: (inputs) => {
        const parsed = parsedKey(inputs);
        if (!parsed || "problem" in parsed || inputs.adoptId === undefined || isUnknown(inputs.adoptId) || inputs.adoptId === parsed.fingerprint) return [];
        return [{ property: "adoptId", reason: `the fingerprint of publicKey is ${parsed.fingerprint}: adoptId must be that key's fingerprint` }];
      },
    },
  ],
  waits: [busyServerWait("create")],
  adoption:
    "`adoptId` is the key's fingerprint, and must be the fingerprint of `publicKey`. The create finds the key on the server (nothing is added) and takes it as it is: a different label shows as a replace in the next preview.",
  interrupted:
    "The fingerprint tells the key, and the server is this stack's: the same key already on it (an interrupted create added it) is this resource's, and the next `up` adopts it. The API's `SSH_KEY_EXISTS` is that refusal, so nothing is read first.",
  errors: {
    INVALID_SSH_KEY: "Not a single-line OpenSSH public key of a supported type: the check refuses these at preview; the message says what is wrong.",
    PRIVATE_KEY_REJECTED: "A private key was sent (refused at preview before it could be): give the public key, the `.pub` file.",
    SSH_KEY_LIMIT: "The server already holds 10 keys: remove one (from the program or the server) first.",
    FEATURE_NOT_AVAILABLE: "The server has a public address of its own: keys need a server on a plan that shares one (see `getVpsPlans`, `sharedAddress`).",
    INSTANCE_NOT_RUNNING: "Keys are installed on the running server: set the Vps's `powerState` to `running`, then run `pulumi up` again.",
    INSTANCE_NOT_FOUND: "No server `vpsId` in reach of this key (on delete: the key counts as deleted).",
    VPS_BUSY: VPS_BUSY_ADVICE,
  },
  notes: `Refused at preview, before any call:

- a \`publicKey\` that is not such a public key (naming \`publicKey\`);
- **a private key** (\`-----BEGIN … PRIVATE KEY-----\`): the failure names no property, so the CLI does not print the value; its reason starts with \`publicKey:\`, and the text is not kept, stored or sent;
- an 11th key the program declares for one server (at most 10, \`SSH_KEY_LIMIT\`);
- a server whose plan gives it an address of its own (\`FEATURE_NOT_AVAILABLE\`: keys and forwards need a plan with \`sharedAddress\`, see \`getVpsPlans\`);
- a server the program declares with \`powerState: "stopped"\` (\`INSTANCE_NOT_RUNNING\`: keys are installed on the running server).

The server's facts are known at preview when \`vpsId\` is the \`id\` output of a \`Vps\` in the same program (the class passes that server's \`planId\` and \`powerState\` along as \`declaredServer\`) or a plain id (the server is read once); an id derived otherwise (\`server.id.apply(...)\`) meets the API's refusal at \`up\`, with the same advice. Only a key a create would add is checked against its server: a key already made is not refused on every preview because its server was stopped since.

The same key on the same server (a new label or comment) is removed before it is added again, since a server holds a key once (\`SSH_KEY_EXISTS\`). Delete removes the key by fingerprint; a key already gone (or whose server is terminated) counts as deleted.`,
});
/** The key's own values: any change replaces it. */
const KEY_INPUTS = changesOf(vpsSshKeySchema).replace;
const OUTPUT_INPUTS = ["vpsId", "publicKey", "label", "adoptId"];

/** The fingerprint of the inputs' key (checked: a valid key). */
function fingerprintOf(publicKey: string | undefined): string {
  const parsed = parseSshPublicKey(publicKey ?? "");
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

export const vpsSshKey = defineResource(vpsSshKeySchema, {
  async check(olds, news, ctx) {
    // A private key never reaches a schema, a message or the checked inputs.
    if (typeof news.publicKey === "string" && holdsPrivateKey(news.publicKey)) {
      const { publicKey: _dropped, ...rest } = news;
      return {
        inputs: rest,
        failures: [sensitiveFailure("publicKey", "this is a private key (-----BEGIN … PRIVATE KEY-----). Give the public key instead: the contents of the .pub file, e.g. ~/.ssh/id_ed25519.pub. The text given is not shown, stored or sent")],
      };
    }
    const result = checkSchema(vpsSshKeySchema, news);
    if (typeof result.inputs.publicKey === "string" && !isUnknown(result.inputs.publicKey)) result.inputs.publicKey = result.inputs.publicKey.trim();
    if (result.failures.length === 0) result.failures.push(...(await serverAccessRules(ctx, result.inputs, "SSH keys", createsObject(olds, result.inputs, KEY_INPUTS))));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    const changed = (name: string) => isUnknown(news[name]) || JSON.stringify(olds[name] ?? null) !== JSON.stringify(news[name] ?? null);
    const replaces = KEY_INPUTS.filter(changed);
    // The same key on the same server cannot be added beside itself: the old one goes first.
    const sameKey = !changed("vpsId") && !isUnknown(news.publicKey) && olds.fingerprint === fingerprintOf(news.publicKey);
    return { changes: replaces.length > 0, replaces, ...(replaces.length && sameKey ? { deleteBeforeReplace: true } : {}) };
  },

  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId;
    const fingerprint = fingerprintOf(inputs.publicKey);
    const keys = () => ctx.api.sshKeysOf(vpsId).fresh();
    const { object, adopted } = await createOnce<SshKey>(ctx, inputs, {
      noun: "SSH key",
      idOf: (k) => k.fingerprint,
      describe: (k) => `${k.fingerprint} on server ${vpsId}`,
      adopt: async (adoptId) => {
        const found = (await keys()).find((k) => k.fingerprint === adoptId);
        if (!found) throw operationFailed("create", `adoptId "${adoptId}": server ${vpsId} has no SSH key with this fingerprint; remove adoptId to add it`);
        return found;
      },
      // The fingerprint is the key: the same key on this stack's server is this resource's.
      find: async () => ({ objects: (await keys()).filter((k) => k.fingerprint === fingerprint), provablyMine: true }),
      send: () =>
        retryWhileBusy(ctx, vpsId, () =>
          api.call("vps.sshKeys.add", { params: { id: vpsId }, body: { publicKey: inputs.publicKey, ...(inputs.label !== undefined ? { label: inputs.label } : {}) } }),
        ),
      refusedAsDuplicate: (err) => isApiError(err, "SSH_KEY_EXISTS"),
      otherwise: "remove the key from the server",
    });
    // A key found on the server is taken as it is: a different label shows as a replace in the next preview.
    return { id: object.fingerprint, outs: outputs(adopted ? liveInputs(object, inputs) : inputs, object) };
  },
  hintFor: (err, inputs) => hintFor(err, inputs.vpsId),

  // An import has no state to name the server: nothing found.
  find: async (id, { vpsId }, ctx) => (vpsId === undefined ? undefined : (await ctx.api.sshKeysOf(vpsId).snapshot().catch(goneIfNotFound)).find((k) => k.fingerprint === id)),
  properties(key, props) {
    const inputs = liveInputs(key, props);
    return { inputs, outputs: outputs(inputs, key) };
  },
  // SSH_KEY_NOT_FOUND or INSTANCE_NOT_FOUND: already gone (a terminated server keeps no keys).
  remove: async (id, { vpsId }, ctx) => {
    // An import has no state to name the server: nothing to delete.
    if (vpsId !== undefined) await ctx.api.platform.call("vps.sshKeys.delete", { params: { id: vpsId, fingerprint: id } });
  },
});
