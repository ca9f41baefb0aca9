/**
 * pulumi-svc example: the rest of the account as code — the domain owner (registrant) details, a
 * domain registered once they are written, and an address on the email suppression list.
 *
 * On a fresh account the owner details are empty and every registration is refused
 * (REGISTRANT_INCOMPLETE): the Domain takes `registrant: owner.id`, so `up` writes the details first.
 * Destroy leaves both the details (the platform cannot clear them) and the registration (it cannot
 * be undone) in the account; it takes the address off the suppression list.
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:apiKey (secret; a whole-account key with the Domain and Email products), svc:emailUrl
 *   svc-account:domain       the domain to register, e.g. toko-budi.com
 *   svc-account:ownerName    the owner's full name
 *   svc-account:ownerEmail   the owner's contact address
 *   svc-account:ownerPhone   (secret) the owner's phone, +<country code>.<number>, e.g. +62.8123456789
 *   svc-account:ownerCity    the owner's city (default Jakarta)
 *   svc-account:suppress     an address the project must never mail
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

const owner = new svc.DomainRegistrant("owner", {
  name: config.require("ownerName"),
  email: config.require("ownerEmail"),
  phone: config.requireSecret("ownerPhone"),
  address: "Jl. Merdeka 1",
  city: config.get("ownerCity") ?? "Jakarta",
  province: "DKI Jakarta",
  postalCode: "10110",
  country: "ID",
});

// Waits for the owner details: the registration is refused while they are incomplete.
const site = new svc.Domain("site", { name: config.require("domain"), registrant: owner.id });

const doNotMail = new svc.EmailSuppression("do-not-mail", { email: config.require("suppress") });

export const ownerComplete = owner.complete;
export const domainId = site.domainId;
export const suppressedBecause = doNotMail.reason;
