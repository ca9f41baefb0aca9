// Written by `npm run docs` from the schema in provider/email/mail-alias.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link MailAlias}. Reference: docs/MailAlias.md. */
export interface MailAliasArgs extends AdoptableArgs {
  /**
   * The mailbox: `Mailbox.id` (or `Mailbox.mailboxId`). The alias is on the mailbox's domain (create reads the mailbox for it: one `GET`).
   * - Rule: a mailbox id (UUID): the Mailbox's id.
   * - A change: replaces the object.
   */
  mailboxId: pulumi.Input<string>;
  /**
   * The part before the `@`, on the mailbox's domain; stored lower-case.
   * - Rule: 1 to 64 letters, digits, dots, _, + or -, not starting or ending with a dot, no two dots in a row (the part before the @).
   * - A change: replaces the object.
   */
  localPart: pulumi.Input<string>;
}

/** The outputs of {@link MailAlias}: every argument as applied, and what the API makes. */
export interface MailAliasOutputs {
  /** The mailbox: `Mailbox.id` (or `Mailbox.mailboxId`). The alias is on the mailbox's domain (create reads the mailbox for it: one `GET`). */
  readonly mailboxId: pulumi.Output<string>;
  /** The part before the `@`, on the mailbox's domain; stored lower-case. */
  readonly localPart: pulumi.Output<string>;
  /** The alias's whole address: `localPart@` the mailbox's host. */
  readonly address: pulumi.Output<string>;
  /** The mailbox's domain, which the alias is on. */
  readonly domainId: pulumi.Output<string>;
  /** The alias's id at the API (the resource's id too). */
  readonly aliasId: pulumi.Output<string>;
  /** When the API made the alias (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const mailAliasOutputs = {
  computed: { mailboxId: undefined, localPart: undefined, address: undefined, domainId: undefined, aliasId: undefined, createdAt: undefined },
  secret: [] as string[],
};
