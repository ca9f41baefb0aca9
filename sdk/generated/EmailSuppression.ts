// Written by `npm run docs` from the schema in provider/email/suppression.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link EmailSuppression}. Reference: docs/EmailSuppression.md. */
export interface EmailSuppressionArgs extends AdoptableArgs {
  /**
   * The address to suppress, `user@example.org`. Trimmed and lower-cased: the list matches addresses case-insensitively.
   * - Rule: at most 320 characters; must be an email address (user@example.org).
   * - A change: replaces the object: the new address is listed, then the old one is taken off the list.
   */
  email: pulumi.Input<string>;
}

/** The outputs of {@link EmailSuppression}: every argument as applied, and what the API makes. */
export interface EmailSuppressionOutputs {
  /** The address to suppress, `user@example.org`. Trimmed and lower-cased: the list matches addresses case-insensitively. */
  readonly email: pulumi.Output<string>;
  /** Why the address is listed: `manual` (added through the API, as this resource does), or `bounce` / `complaint` (added by the platform, for an adopted address). */
  readonly reason: pulumi.Output<"bounce" | "complaint" | "manual">;
  /** When the address was put on the list (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const emailSuppressionOutputs = {
  computed: { email: undefined, reason: undefined, createdAt: undefined },
  secret: [] as string[],
};
