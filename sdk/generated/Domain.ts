// Written by `npm run docs` from the schema in provider/domains/domain.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link Domain}. Reference: docs/Domain.md. */
export interface DomainArgs extends AdoptableArgs {
  /**
   * The registrable domain, for example `example.com`, not a subdomain: labels of 1 to 63 letters, digits or inner hyphens (an international name in its `xn--` form), at most 253 characters, ending in a domain extension. Trimmed and lower-cased. Whether the extension is sold, the name free and not premium is judged by the preview's dry run.
   * - A change: replaces the object: registers (and pays for) the new name; the old one stays registered in the account.
   */
  name: pulumi.Input<string>;
  /**
   * Years to register for. The API registers for one year only; `autoRenew` renews it yearly.
   * - Rule: only 1 is accepted: the API registers a domain for one year (PERIOD_NOT_SUPPORTED otherwise); autoRenew renews it yearly.
   * - Default: `1`.
   * - A change: none possible (only 1 is accepted).
   */
  period?: pulumi.Input<1>;
  /**
   * Buy WHOIS protection, which hides the owner's details in the public WHOIS. Paid; once bought it cannot be removed.
   * - Default: `false`.
   * - A change: `false → true` buys it in place (paid); `true → false` is refused at preview (the API cannot remove it).
   */
  whoisProtection?: pulumi.Input<boolean>;
  /**
   * Renew the registration from the wallet when it expires, a year at a time at the renewal price; when the wallet cannot pay, the domain expires. Turn it off to let the domain lapse.
   * - Default: `true`.
   * - A change: toggles in place.
   */
  autoRenew?: pulumi.Input<boolean>;
  /**
   * The account's `DomainRegistrant` of the same program (`owner.id`): the registration waits until the owner details are written, and a preview before they are does not fail for them being incomplete.
   * - Rule: must not be empty.
   * - A change: recorded in the state only (no call).
   */
  registrant?: pulumi.Input<string>;
}

/** The outputs of {@link Domain}: every argument as applied, and what the API makes. */
export interface DomainOutputs {
  /** The registrable domain, for example `example.com`, not a subdomain: labels of 1 to 63 letters, digits or inner hyphens (an international name in its `xn--` form), at most 253 characters, ending in a domain extension. Trimmed and lower-cased. Whether the extension is sold, the name free and not premium is judged by the preview's dry run. */
  readonly name: pulumi.Output<string>;
  /** Years to register for. The API registers for one year only; `autoRenew` renews it yearly. */
  readonly period: pulumi.Output<1>;
  /** Buy WHOIS protection, which hides the owner's details in the public WHOIS. Paid; once bought it cannot be removed. */
  readonly whoisProtection: pulumi.Output<boolean>;
  /** Renew the registration from the wallet when it expires, a year at a time at the renewal price; when the wallet cannot pay, the domain expires. Turn it off to let the domain lapse. */
  readonly autoRenew: pulumi.Output<boolean>;
  /** The account's `DomainRegistrant` of the same program (`owner.id`): the registration waits until the owner details are written, and a preview before they are does not fail for them being incomplete. */
  readonly registrant: pulumi.Output<string | undefined>;
  /** The API's numeric id of the registration; undefined while `savePending` (the next refresh or `up` fills it). The Pulumi id is the name. */
  readonly domainId: pulumi.Output<number | undefined>;
  /** The registration's status as the API's number; `statusLabel` says it in words. */
  readonly status: pulumi.Output<number>;
  /** The registration's status in words: `active`, `pending` (not yet active at the registry) or `expired`. */
  readonly statusLabel: pulumi.Output<string>;
  /** When the registration expires (ISO 8601), a year later after each renewal, automatic ones included (a refresh reads it); undefined until the record is saved. */
  readonly expiresAt: pulumi.Output<string | undefined>;
  /** What the registration cost, in the wallet's currency (Rupiah): `registration`, `whoisProtection`, their `total` and the part paid from the deposit (`depositCharged`). Undefined when the resource adopted an existing registration or the registration's answer was lost. */
  readonly billing: pulumi.Output<{ registration: number; whoisProtection: number; total: number; depositCharged: number } | undefined>;
  /** True while the registry has registered the name but the platform has not saved its record (`DOMAIN_SAVE_PENDING`): `domainId` is filled by the next refresh or update, and a refresh keeps the resource meanwhile. */
  readonly savePending: pulumi.Output<boolean>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const domainOutputs = {
  computed: { name: undefined, period: undefined, whoisProtection: undefined, autoRenew: undefined, registrant: undefined, domainId: undefined, status: undefined, statusLabel: undefined, expiresAt: undefined, billing: undefined, savePending: undefined },
  secret: [] as string[],
};
