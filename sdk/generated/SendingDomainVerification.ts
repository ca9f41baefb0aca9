// Written by `npm run docs` from the schema in provider/email/sending-domain-verification.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "../common";

/** The arguments of {@link SendingDomainVerification}. Reference: docs/SendingDomainVerification.md. */
export interface SendingDomainVerificationArgs extends CommonArgs {
  /**
   * The sending domain to wait for: `SendingDomain.domainId`. It is this resource's id too.
   * - Rule: must not be empty.
   * - A change: replaces the object.
   */
  domainId: pulumi.Input<string>;
  /**
   * The limit of the wait, in seconds; the shorter of it and `customTimeouts` applies.
   * - Rule: a whole number; at least 1; at most 86400.
   * - Default: `600`.
   * - A change: updates in place (a setting of how the provider waits: the state keeps it only when set, and a default written out diffs as one left out); a domain not verified yet is waited for again.
   */
  timeoutSeconds?: pulumi.Input<number>;
}

/** The outputs of {@link SendingDomainVerification}: every argument as applied, and what the API makes. */
export interface SendingDomainVerificationOutputs {
  /** The sending domain to wait for: `SendingDomain.domainId`. It is this resource's id too. */
  readonly domainId: pulumi.Output<string>;
  /** The limit of the wait, in seconds; the shorter of it and `customTimeouts` applies. */
  readonly timeoutSeconds: pulumi.Output<number>;
  /** The sending domain's name. */
  readonly domain: pulumi.Output<string>;
  /** The verification status: `verified` once the wait succeeded. */
  readonly status: pulumi.Output<"pending" | "verifying" | "verified" | "failed">;
  /** When the domain was verified (ISO 8601). */
  readonly verifiedAt: pulumi.Output<string | undefined>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const sendingDomainVerificationOutputs = {
  computed: { domainId: undefined, timeoutSeconds: undefined, domain: undefined, status: undefined, verifiedAt: undefined },
  secret: [] as string[],
};
