// Written by `npm run docs` from the schema in provider/domains/registrant.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/DomainRegistrant");
import { SvcResource, type ClassSpec } from "../common";
import { domainRegistrantOutputs, type DomainRegistrantArgs, type DomainRegistrantOutputs } from "../generated/DomainRegistrant";

export type { DomainRegistrantArgs };

const SPEC: ClassSpec = { type: "DomainRegistrant", outputs: domainRegistrantOutputs };

/**
 * The account's domain owner (registrant) details: the person or organization domains are registered to. One per account; a registration (`Domain`) is refused until they are complete. Changes update in place. Destroying the resource leaves the details with the account: the platform cannot clear them. Needs a whole-account API key.
 *
 * @example
 * ```typescript
 * import * as pulumi from "@pulumi/pulumi";
 * import * as svc from "pulumi-svc";
 *
 * const config = new pulumi.Config();
 *
 * // The account's owner details: written before the Domain registers (it takes `registrant: owner.id`).
 * const owner = new svc.DomainRegistrant("owner", {
 *   name: "Budi Santoso",
 *   organization: "Toko Budi",
 *   email: "budi@example.com",
 *   phone: config.requireSecret("ownerPhone"), // for example +62.8123456789
 *   address: "Jl. Merdeka 1",
 *   city: "Jakarta",
 *   province: "DKI Jakarta",
 *   postalCode: "10110",
 *   country: "ID",
 * });
 *
 * const shop = new svc.Domain("shop", { name: "toko-budi.com", registrant: owner.id });
 *
 * export const complete = owner.complete;
 * export const expiresAt = shop.expiresAt;
 * ```
 *
 * Reference: docs/DomainRegistrant.md (inputs, outputs, waits, adoption, errors).
 */
export class DomainRegistrant extends SvcResource {
  constructor(name: string, args: DomainRegistrantArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/DomainRegistrant.ts).
export interface DomainRegistrant extends DomainRegistrantOutputs {}
