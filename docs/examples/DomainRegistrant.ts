// The example of docs/DomainRegistrant.md. Written by `npm run docs` from the schema in provider/domains/registrant.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// The account's owner details: written before the Domain registers (it takes `registrant: owner.id`).
const owner = new svc.DomainRegistrant("owner", {
  name: "Budi Santoso",
  organization: "Toko Budi",
  email: "budi@example.com",
  phone: config.requireSecret("ownerPhone"), // for example +62.8123456789
  address: "Jl. Merdeka 1",
  city: "Jakarta",
  province: "DKI Jakarta",
  postalCode: "10110",
  country: "ID",
});

const shop = new svc.Domain("shop", { name: "toko-budi.com", registrant: owner.id });

export const complete = owner.complete;
export const expiresAt = shop.expiresAt;
