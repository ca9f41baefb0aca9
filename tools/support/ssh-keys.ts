/**
 * SSH keys for tests and chaos: public keys made by `ssh-keygen` with the fingerprint it printed for
 * each (`ssh-keygen -lf`), so the fingerprints pulumi-svc and the emulator compute are checked
 * against OpenSSH's own; more ed25519 keys made on the fly; and private-key text that must never
 * be stored or shown.
 */
import { generateKeyPairSync } from "node:crypto";

export const KEYS = {
  ed25519: {
    publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHlT7C7jj/P+hhLMSRSge0HL+n15UF1CTuC+Uk53uUb0 k1@example",
    fingerprint: "SHA256:GT6qvnMkgE/09Hyz7UACmCJ2cbgvTVJmSt+CwfuC3gg",
  },
  ecdsa256: {
    publicKey:
      "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKAFc//KXEXOwbniuOxenA2VxzshiSrbzz7Ei/bMBs4TqS4xr5Mwj8gC8Gqyn9i93FG4bhN0h0QzJnIaxt7oe4g= k2@example",
    fingerprint: "SHA256:2yZvpJS7D5Pi/y3ah7VF9TGE2XVGdEP+p/05krvNfS4",
  },
  ecdsa384: {
    publicKey:
      "ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBKOjO6iYk4lfGQlLFYRO7k0eXV58ICFkDX1GPVjHIlfhWKR14FWII5nc0tjJjarHb42hpLFDcO9CTRMdu1Z8jY6YFU//kagppXbfnYf9pjysStAwnYr2tM0VNjuWkMIbRA== k3@example",
    fingerprint: "SHA256:HKo8GL237HwlhOjC9SEVmCoYjiWAyqpieNB8+I+fB9k",
  },
  rsa2048: {
    publicKey:
      "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDMrBFHnOFOzNpl1K2Ufg2cDdChNrm4X58I9PMqRty6RA0UvySgcHgfe2tTnKU7JSb7kB5XBNRmiZsxs/j652f1rNSeoakU9FMj5xEL6/SiDF3Ay9dN0nrT56q+AydaXf2/kVDF42/wJMxmEt5JdPjnHSAsHTTWhzT2zNyUa2jRosU8pueppwfSSG5lQJbIrWxlgu4xt3bH/0XRWJMTMOh24M8z07FXS5MzhBZdjBVK+R+dnUe0GdHZ1ilzoCf7CycfcdzX3LJBy8rus6AeL/zYdR/Wbx61f56Ow4pqpR+5hz1vxeRDrHpgJAfmgs8hLHF7L51M6Yo4LJMssQ2ZtcYV k4@example",
    fingerprint: "SHA256:Qf/ijZTPf76q92HvW7EzhWRyPBtndRpgGAMJABItvyE",
  },
  /** Too short: ssh-rsa needs at least 2048 bits. */
  rsa1024: {
    publicKey:
      "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDKPR0InXiMgHiTgDHGVFNcNyhBirmNOTNdJNPiPDPe4WoT9gDp+YYa+P9eRXoAeZqMOskRocHOWhymI2989U+79qDKFmgLC+BLJEvyNIzaFIBFfl5Da9A7ibko8JIxdPMwMEcYgNhWgmGqpUvSwhOu4ivpmAxTEf3mn12x0LGzgw== k5@example",
    fingerprint: "SHA256:5YC1hjKSR71w0mu6Wos8ZQK1bG0D9HPtkPJ3kr8RquE",
  },
  ed25519b: {
    publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBZ9zqyeqIkEnuwWlJPVU1njdUFSjK2VVpMFc9G1x9G k6@example",
    fingerprint: "SHA256:ANja1SPZjyUM2InyDYtMKeua4Rg/DmWGRK3l966Ue24",
  },
} as const;

/** A fresh ed25519 public key in OpenSSH form (`ssh-ed25519 <base64> <comment>`). */
export function newEd25519PublicKey(comment = "generated@example"): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
  const part = (b: Buffer) => Buffer.concat([lengthOf(b), b]);
  const blob = Buffer.concat([part(Buffer.from("ssh-ed25519")), part(raw)]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}

function lengthOf(b: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(b.length, 0);
  return length;
}

/** A private key as a user might paste it by mistake (PKCS#8 PEM, several lines). */
export function privateKeyText(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  return privateKey.export({ format: "pem", type: "pkcs8" }).toString();
}

/** The lines of a private key's text that would give it away if they appeared anywhere. */
export function secretLines(text: string): string[] {
  return text.split("\n").filter((line) => line.length > 20 && !line.startsWith("-----"));
}
