// Written by `npm run docs` from the schema in provider/email/receiving-domain.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link ReceivingDomain}. Reference: docs/ReceivingDomain.md. */
export interface ReceivingDomainArgs extends AdoptableArgs {
  /**
   * A verified sending domain: `SendingDomain.domainId` (it waits for verification by default) or `SendingDomainVerification.domainId`. It is this resource's id too: receiving is a setting of the domain, one per domain.
   * - Rule: must not be empty.
   * - A change: replaces the object.
   */
  domainId: pulumi.Input<string>;
  /**
   * The host that receives mail: the domain itself or a subdomain of it, not its envelope-sender (`bounce.`) host.
   * - Rule: at most 253 characters; must be a fully-qualified domain name (for example mail.example.com); must end in a public top-level name (not `localhost`, `.local`, `.test`, `.example`, `.internal`…).
   * - Default: the domain itself.
   * - A change: updates in place (the same `PUT`): the addresses stay, on the new host.
   */
  host?: pulumi.Input<string>;
}

/** The outputs of {@link ReceivingDomain}: every argument as applied, and what the API makes. */
export interface ReceivingDomainOutputs {
  /** A verified sending domain: `SendingDomain.domainId` (it waits for verification by default) or `SendingDomainVerification.domainId`. It is this resource's id too: receiving is a setting of the domain, one per domain. */
  readonly domainId: pulumi.Output<string>;
  /** The host that receives mail: the domain itself or a subdomain of it, not its envelope-sender (`bounce.`) host. */
  readonly host: pulumi.Output<string>;
  /** The sending domain's name (kept in the state so that a `host` left out diffs as "the domain itself" without another call). */
  readonly domain: pulumi.Output<string>;
  /** The MX records to publish with your DNS provider, exactly as given. */
  readonly mxRecords: pulumi.Output<{ type: string; name: string; value: string; priority?: number }[]>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const receivingDomainOutputs = {
  computed: { domainId: undefined, host: undefined, domain: undefined, mxRecords: undefined },
  secret: [] as string[],
};
