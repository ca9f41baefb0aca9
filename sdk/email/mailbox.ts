import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Mailbox");
import { commonInputs, type CommonArgs } from "../common";

export interface MailboxArgs extends CommonArgs {
  /** `ReceivingDomain.domainId`: a domain with receiving enabled. Changing it replaces the mailbox. */
  domainId: pulumi.Input<string>;
  /** The part before the `@` (1 to 64 letters, digits, `. _ + -`; stored lower-case). Changing it replaces the mailbox. */
  localPart: pulumi.Input<string>;
  /** Display name, at most 200 characters. */
  name?: pulumi.Input<string>;
  /** Up to 5 addresses every message is forwarded to (order does not matter). Needs a plan with
   * forwarding: otherwise the API refuses it (FORWARDING_NOT_ALLOWED). */
  forwardTo?: pulumi.Input<pulumi.Input<string>[]>;
  /** Notify the account when mail arrives (default false). */
  notifications?: pulumi.Input<boolean>;
  /** A mailbox already on the domain (its id, from `GET /inbound/addresses`) to manage instead of creating
   * one; taken as it is, the next `up` applies this program's settings. */
  adoptId?: pulumi.Input<string>;
}

/**
 * A mailbox on a receiving domain. Its webmail password is set in the dashboard only (the API refuses
 * it to a key), so it is no input here. Deleting a mailbox deletes its aliases too.
 */
export class Mailbox extends pulumi.dynamic.Resource {
  declare readonly domainId: pulumi.Output<string>;
  declare readonly localPart: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly forwardTo: pulumi.Output<string[]>;
  declare readonly notifications: pulumi.Output<boolean>;
  /** The whole address, `localPart@host`. */
  declare readonly address: pulumi.Output<string>;
  declare readonly mailboxId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: MailboxArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { address: undefined, mailboxId: undefined, createdAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "Mailbox");
  }
}
