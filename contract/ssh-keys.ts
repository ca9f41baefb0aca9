/**
 * The SSH public key rule both sides follow (platform-api.md "Firewall, SSH key, snapshot rules",
 * assumed-routes.md "Server access"): a single-line OpenSSH public key of a supported type, its
 * fingerprint as OpenSSH prints it (`ssh-keygen -lf`: `SHA256:` and the unpadded base64 of the
 * SHA-256 of the key blob), and the private-key text that is refused and never repeated.
 *
 * One parser for the provider's check (at preview) and the emulator's answer, like the route table:
 * the fingerprint is the Pulumi id, so both must compute it the same way. The tests compare it with
 * fingerprints ssh-keygen printed.
 */
import { createHash } from "node:crypto";
import { sshKeyTypes } from "./schemas";

export type SshKeyType = (typeof sshKeyTypes)[number];

export const MIN_RSA_BITS = 2048;

/** `-----BEGIN … PRIVATE KEY-----` of any kind (OpenSSH, PKCS#1, PKCS#8, EC, encrypted), or PuTTY's private file. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|PuTTY-User-Key-File-|Private-Lines:/;

/** True when the text holds a private key: refused, and never stored, logged or echoed. */
export function holdsPrivateKey(text: string): boolean {
  return PRIVATE_KEY.test(text);
}

export interface ParsedSshKey {
  type: SshKeyType;
  fingerprint: string;
  /** `<type> <base64>` (the comment left out): the same key written with another comment is the same key. */
  canonical: string;
  comment: string;
}

/** Parses a public key, or answers why it is not one (the reason never quotes the text). */
export function parseSshPublicKey(text: string): ParsedSshKey | { problem: string } {
  if (holdsPrivateKey(text)) return { problem: "it is a private key: give the public key (the .pub file), never the private one" };
  const trimmed = text.trim();
  if (/[\r\n]/.test(trimmed)) return { problem: "a public key is a single line: `<type> <base64> [comment]`" };
  const [type, data, ...comment] = trimmed.split(/[ \t]+/);
  if (!(sshKeyTypes as readonly string[]).includes(type)) {
    return { problem: `not an OpenSSH public key of a supported type (${sshKeyTypes.join(", ")})` };
  }
  if (!data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return { problem: `the ${type} key has no valid base64 key data` };
  const blob = Buffer.from(data, "base64");
  const fields = sshStrings(blob);
  if (!fields || fields[0]?.toString("latin1") !== type) return { problem: `the key data is not a ${type} key` };
  const problem = keyProblem(type as SshKeyType, fields);
  if (problem) return { problem };
  return {
    type: type as SshKeyType,
    fingerprint: `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`,
    canonical: `${type} ${data}`,
    comment: comment.join(" "),
  };
}

/** The blob's length-prefixed strings (RFC 4251 `string`/`mpint`), or undefined when it is not made of them. */
function sshStrings(blob: Buffer): Buffer[] | undefined {
  const out: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    at += 4;
    if (at + length > blob.length) return undefined;
    out.push(blob.subarray(at, at + length));
    at += length;
  }
  return out;
}

const CURVE: Record<string, { name: string; pointBytes: number }> = {
  "ecdsa-sha2-nistp256": { name: "nistp256", pointBytes: 65 },
  "ecdsa-sha2-nistp384": { name: "nistp384", pointBytes: 97 },
  "ecdsa-sha2-nistp521": { name: "nistp521", pointBytes: 133 },
};

function keyProblem(type: SshKeyType, fields: Buffer[]): string | undefined {
  if (type === "ssh-ed25519") return fields.length === 2 && fields[1].length === 32 ? undefined : "the ssh-ed25519 key data is not a 32-byte key";
  if (type === "ssh-rsa") {
    if (fields.length !== 3) return "the ssh-rsa key data is not an exponent and a modulus";
    const modulus = fields[2];
    let first = 0;
    while (first < modulus.length && modulus[first] === 0) first++;
    const bits = modulus.length - first === 0 ? 0 : (modulus.length - first - 1) * 8 + (32 - Math.clz32(modulus[first]));
    return bits >= MIN_RSA_BITS ? undefined : `ssh-rsa keys need at least ${MIN_RSA_BITS} bits; this one has ${bits}`;
  }
  const curve = CURVE[type];
  if (fields.length !== 3 || fields[1].toString("latin1") !== curve.name || fields[2].length !== curve.pointBytes || fields[2][0] !== 4) {
    return `the ${type} key data is not a ${curve.name} point`;
  }
  return undefined;
}
