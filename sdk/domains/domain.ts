// Written by `npm run docs` from the schema in provider/domains/domain.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Domain");
import { SvcResource, type ClassSpec } from "../common";
import { domainOutputs, type DomainArgs, type DomainOutputs } from "../generated/Domain";

export type { DomainArgs };

/** What a registration cost (a {@link Domain}'s output `billing`). */
export type DomainBilling = DomainOutputs["billing"] extends pulumi.Output<infer T> ? NonNullable<T> : never;

const SPEC: ClassSpec = { type: "Domain", outputs: domainOutputs };

/**
 * A domain name registered to the account, paid from the wallet. Preview prices the name with a free dry run and refuses what cannot be registered or paid; `up` registers it once, never charging twice. Needs a whole-account API key. Destroying (or renaming) the resource does NOT delete the registration: it cannot be undone, so the domain stays in the account and only leaves the stack.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // Registered once, paid from the wallet; preview shows a refusal (price, balance, availability) before any charge.
 * const shop = new svc.Domain("shop", {
 *   name: "my-shop.com",
 *   whoisProtection: true,
 * });
 *
 * export const domainId = shop.domainId;
 * export const expiresAt = shop.expiresAt;
 * ```
 *
 * Reference: docs/Domain.md (inputs, outputs, waits, adoption, errors).
 */
export class Domain extends SvcResource {
  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Domain.ts).
export interface Domain extends DomainOutputs {}
