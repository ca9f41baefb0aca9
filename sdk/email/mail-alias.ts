import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/MailAlias");
import { commonInputs, type CommonArgs } from "../common";

export interface MailAliasArgs extends CommonArgs {
  /** `Mailbox.id` (or `Mailbox.mailboxId`). Changing it replaces the alias. */
  mailboxId: pulumi.Input<string>;
  /** The part before the `@`, on the mailbox's domain. Changing it replaces the alias. */
  localPart: pulumi.Input<string>;
  /** An alias already on the mailbox (its id) to manage instead of creating one. */
  adoptId?: pulumi.Input<string>;
}

/** Another address of a mailbox: its mail lands in the mailbox and follows the mailbox's forwarding. */
export class MailAlias extends pulumi.dynamic.Resource {
  declare readonly mailboxId: pulumi.Output<string>;
  declare readonly localPart: pulumi.Output<string>;
  /** The whole address, `localPart@host`. */
  declare readonly address: pulumi.Output<string>;
  declare readonly domainId: pulumi.Output<string>;
  declare readonly aliasId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: MailAliasArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { address: undefined, domainId: undefined, aliasId: undefined, createdAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "MailAlias");
  }
}
