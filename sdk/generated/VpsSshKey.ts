// Written by `npm run docs` from the schema in provider/vps/ssh-key.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link VpsSshKey}. Reference: docs/VpsSshKey.md. */
export interface VpsSshKeyArgs extends AdoptableArgs {
  /**
   * The server the key is installed on: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running.
   * - Rule: must not be empty; a server id (UUID): the Vps's id.
   * - A change: replaces the object.
   */
  vpsId: pulumi.Input<string>;
  /**
   * A single-line OpenSSH public key: the contents of `~/.ssh/id_ed25519.pub`. A private key given by mistake is refused at preview, its text never shown, stored or sent.
   * - A change: replaces the key (the API has no key update); when the key itself stays (a new label or comment), the old one is removed first.
   */
  publicKey: pulumi.Input<string>;
  /**
   * A label shown beside the key.
   * - A change: replaces the key (the API has no key update); when the key itself stays (a new label or comment), the old one is removed first.
   */
  label?: pulumi.Input<string>;
}

/** The outputs of {@link VpsSshKey}: every argument as applied, and what the API makes. */
export interface VpsSshKeyOutputs {
  /** The server the key is installed on: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running. */
  readonly vpsId: pulumi.Output<string>;
  /** A single-line OpenSSH public key: the contents of `~/.ssh/id_ed25519.pub`. A private key given by mistake is refused at preview, its text never shown, stored or sent. */
  readonly publicKey: pulumi.Output<string>;
  /** A label shown beside the key. */
  readonly label: pulumi.Output<string | undefined>;
  /** `SHA256:<unpadded base64>`, as `ssh-keygen -lf` prints it: the resource's id and its `adoptId`. */
  readonly fingerprint: pulumi.Output<string>;
  /** The key type: `ssh-ed25519`, `ecdsa-sha2-nistp256`/`384`/`521` or `ssh-rsa`. */
  readonly type: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const vpsSshKeyOutputs = {
  computed: { vpsId: undefined, publicKey: undefined, label: undefined, fingerprint: undefined, type: undefined },
  secret: [] as string[],
};
