// Written by `npm run docs` from the schema in provider/email/sending-domain.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link SendingDomain}. Reference: docs/SendingDomain.md. */
export interface SendingDomainArgs extends AdoptableArgs {
  /**
   * The domain to send from, for example `mail.example.com`. Lower-cased.
   * - Rule: at most 253 characters; must be a fully-qualified domain name (for example mail.example.com); must end in a public top-level name (not `localhost`, `.local`, `.test`, `.example`, `.internal`…).
   * - A change: replaces the object.
   */
  domain: pulumi.Input<string>;
  /**
   * Wait in `up` until the domain is verified. Set it to false when the same program publishes the DNS records (from `dnsRecords`); then add a `SendingDomainVerification` that depends on them.
   * - Default: `true`.
   * - A change: updates in place without changing the domain (it says how the provider waits); a domain not verified yet is waited for again.
   */
  waitForVerification?: pulumi.Input<boolean>;
  /**
   * How long, in seconds, `up` waits for the domain to be verified (when `waitForVerification`). Where `customTimeouts` is shorter, it wins.
   * - Rule: a whole number; at least 1; at most 86400.
   * - Default: `600`.
   * - A change: updates in place without changing the domain (it says how the provider waits).
   */
  verificationTimeoutSeconds?: pulumi.Input<number>;
}

/** The outputs of {@link SendingDomain}: every argument as applied, and what the API makes. */
export interface SendingDomainOutputs {
  /** The domain to send from, for example `mail.example.com`. Lower-cased. */
  readonly domain: pulumi.Output<string>;
  /** Wait in `up` until the domain is verified. Set it to false when the same program publishes the DNS records (from `dnsRecords`); then add a `SendingDomainVerification` that depends on them. */
  readonly waitForVerification: pulumi.Output<boolean>;
  /** How long, in seconds, `up` waits for the domain to be verified (when `waitForVerification`). Where `customTimeouts` is shorter, it wins. */
  readonly verificationTimeoutSeconds: pulumi.Output<number>;
  /** The domain's id at the API (the resource's id too): what `SendingDomainVerification` and `ReceivingDomain` take. */
  readonly domainId: pulumi.Output<string>;
  /** The verification status, as the API last answered it. */
  readonly status: pulumi.Output<"pending" | "verifying" | "verified" | "failed">;
  /** The records to publish with your DNS provider, exactly as given (`priority` for MX records). */
  readonly dnsRecords: pulumi.Output<{ type: string; name: string; value: string; priority?: number }[]>;
  /** When the domain was verified (ISO 8601); absent until it is. */
  readonly verifiedAt: pulumi.Output<string | undefined>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const sendingDomainOutputs = {
  computed: { domain: undefined, waitForVerification: undefined, verificationTimeoutSeconds: undefined, domainId: undefined, status: undefined, dnsRecords: undefined, verifiedAt: undefined },
  secret: [] as string[],
};
