// Written by `npm run docs` from the schema in provider/email/mailbox.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link Mailbox}. Reference: docs/Mailbox.md. */
export interface MailboxArgs extends AdoptableArgs {
  /**
   * The domain: **`ReceivingDomain.domainId`**, so the mailbox is made after receiving is on (the API answers `DOMAIN_NOT_RECEIVING` otherwise).
   * - Rule: must not be empty.
   * - A change: replaces the object.
   */
  domainId: pulumi.Input<string>;
  /**
   * The part before the `@`; stored lower-case.
   * - Rule: 1 to 64 letters, digits, dots, _, + or -, not starting or ending with a dot, no two dots in a row (the part before the @).
   * - A change: replaces the object.
   */
  localPart: pulumi.Input<string>;
  /**
   * The display name.
   * - Rule: at most 200 characters; must not contain line breaks.
   * - A change: updates in place.
   */
  name?: pulumi.Input<string>;
  /**
   * Addresses every message is forwarded to; order and repeats do not matter. Needs a plan with forwarding: otherwise the API refuses it (`FORWARDING_NOT_ALLOWED`).
   * - Rule: at most 5 forwarding addresses per mailbox; each: at most 320 characters; must be an email address (user@example.org).
   * - Default: `[]` (no forwarding).
   * - A change: updates in place.
   */
  forwardTo?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Notify the account when mail arrives.
   * - Default: `false`.
   * - A change: updates in place.
   */
  notifications?: pulumi.Input<boolean>;
}

/** The outputs of {@link Mailbox}: every argument as applied, and what the API makes. */
export interface MailboxOutputs {
  /** The domain: **`ReceivingDomain.domainId`**, so the mailbox is made after receiving is on (the API answers `DOMAIN_NOT_RECEIVING` otherwise). */
  readonly domainId: pulumi.Output<string>;
  /** The part before the `@`; stored lower-case. */
  readonly localPart: pulumi.Output<string>;
  /** The display name. */
  readonly name: pulumi.Output<string | undefined>;
  /** Addresses every message is forwarded to; order and repeats do not matter. Needs a plan with forwarding: otherwise the API refuses it (`FORWARDING_NOT_ALLOWED`). */
  readonly forwardTo: pulumi.Output<string[]>;
  /** Notify the account when mail arrives. */
  readonly notifications: pulumi.Output<boolean>;
  /** The mailbox's whole address, `localPart@host`. */
  readonly address: pulumi.Output<string>;
  /** The mailbox's id at the API (the resource's id too): what `MailAlias` takes. */
  readonly mailboxId: pulumi.Output<string>;
  /** When the API made the mailbox (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const mailboxOutputs = {
  computed: { domainId: undefined, localPart: undefined, name: undefined, forwardTo: undefined, notifications: undefined, address: undefined, mailboxId: undefined, createdAt: undefined },
  secret: [] as string[],
};
