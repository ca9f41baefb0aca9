import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/VpsSshKey");
import { commonInputs, type CommonArgs } from "../common";
import { declaredServer } from "./server-links";

/** Keys one server holds (platform-api.md "Other limits"). */
const KEYS_PER_SERVER = 10;

export interface VpsSshKeyArgs extends CommonArgs {
  /** The server (`Vps.id`); it must be on a plan that shares a public address, and running. */
  vpsId: pulumi.Input<string>;
  /** A single-line OpenSSH public key: ssh-ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of at least
   * 2048 bits (the contents of `~/.ssh/id_ed25519.pub`). A private key is refused at preview, its text
   * never shown. Changing it replaces the key. */
  publicKey: pulumi.Input<string>;
  /** A label shown beside the key. Changing it replaces the key (the API has no key update). */
  label?: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the fingerprint (`SHA256:…`) of a key already on the server. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/**
 * An SSH public key on a server. The id is the key's fingerprint (OpenSSH's `SHA256:…`). Any change
 * replaces it (the old key is removed first when the key itself stays). At most 10 per server: an
 * 11th declared in the program is refused at preview.
 */
export class VpsSshKey extends pulumi.dynamic.Resource {
  declare readonly vpsId: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string | undefined>;
  /** `SHA256:<unpadded base64>`, as `ssh-keygen -lf` prints it (also the resource's id). */
  declare readonly fingerprint: pulumi.Output<string>;
  /** The key type: ssh-ed25519, ecdsa-sha2-nistp256, …, ssh-rsa. */
  declare readonly type: pulumi.Output<string>;

  constructor(name: string, args: VpsSshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { fingerprint: undefined, type: undefined, ...args, ...commonInputs(opts), declaredServer: declaredServer(args.vpsId, "sshKey", KEYS_PER_SERVER) },
      opts,
      "svc",
      "VpsSshKey",
    );
  }
}
