/**
 * pulumi-svc example: a domain registered to the account, with WHOIS protection.
 *
 * Registering is paid from the wallet and cannot be undone: `pulumi destroy` only removes the domain
 * from the stack, it stays registered (turn `autoRenew` off first to let it lapse).
 *
 * Config (`pulumi config set ...`):
 *   svc:apiUrl, svc:apiKey (secret; a whole-account key with the Domain product)
 *   svc-domain:name       the domain to register, e.g. my-shop.com
 *   svc-domain:autoRenew  renew it yearly from the wallet (default true)
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

const domain = new svc.Domain("site", {
  name: config.require("name"),
  whoisProtection: true,
  autoRenew: config.getBoolean("autoRenew") ?? true,
});

export const domainId = domain.domainId;
export const expiresAt = domain.expiresAt;
export const totalCharged = domain.billing.apply((b) => b?.total);
