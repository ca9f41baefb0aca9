import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Domain");
import { commonInputs, type CommonArgs } from "../common";

/** What a registration cost, in the wallet's currency (Rupiah). */
export interface DomainBilling {
  registration: number;
  whoisProtection: number;
  total: number;
  depositCharged: number;
}

export interface DomainArgs extends CommonArgs {
  /** The registrable domain, e.g. `example.com` (not a subdomain). Lower-cased; changing it registers
   * the new name (paid) and leaves the old one registered. */
  name: pulumi.Input<string>;
  /** Years to register for: only 1 is accepted; `autoRenew` renews yearly. */
  period?: pulumi.Input<number>;
  /** Buy WHOIS protection (default false). Paid; once on it cannot be turned off. */
  whoisProtection?: pulumi.Input<boolean>;
  /** Renew from the wallet before expiry (default true). */
  autoRenew?: pulumi.Input<boolean>;
  /** Manage an existing object instead of creating one: the domain name, already registered in this account. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/**
 * A domain registered to the account, paid from the wallet. Preview prices the name with a dry run
 * and refuses what cannot be registered or paid; `up` registers it once. The id is the domain name,
 * so an existing registration is imported with the resource option `import: "<name>"`. Needs a
 * whole-account API key.
 *
 * Destroying (or renaming) the resource does NOT delete the registration: it cannot be undone, so the
 * domain stays in the account and only leaves the stack. Turn `autoRenew` off first to let it lapse.
 */
export class Domain extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly period: pulumi.Output<number>;
  declare readonly whoisProtection: pulumi.Output<boolean>;
  declare readonly autoRenew: pulumi.Output<boolean>;
  /** The API's numeric id; undefined while `savePending`. */
  declare readonly domainId: pulumi.Output<number | undefined>;
  /** The API's numeric status, and its label (for example `active`, `pending`). */
  declare readonly status: pulumi.Output<number>;
  declare readonly statusLabel: pulumi.Output<string>;
  declare readonly expiresAt: pulumi.Output<string | undefined>;
  /** What the registration cost (undefined when the resource was imported). */
  declare readonly billing: pulumi.Output<DomainBilling | undefined>;
  /** True while the registry has registered the name but the platform has not saved its record
   * (DOMAIN_SAVE_PENDING): `domainId` is filled by the next refresh or update. */
  declare readonly savePending: pulumi.Output<boolean>;

  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { domainId: undefined, status: undefined, statusLabel: undefined, expiresAt: undefined, billing: undefined, savePending: undefined, ...args, ...commonInputs(opts) },
      opts,
      "svc",
      "Domain",
    );
  }
}
