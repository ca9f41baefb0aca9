import * as svc from "pulumi-svc";

// Registered once, paid from the wallet; preview shows a refusal (price, balance, availability) before any charge.
const shop = new svc.Domain("shop", {
  name: "my-shop.com",
  whoisProtection: true,
});

export const domainId = shop.domainId;
export const expiresAt = shop.expiresAt;
