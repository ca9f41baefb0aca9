// Written by `npm run docs` from the schema in provider/domains/domain.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

// Registered once, paid from the wallet; preview shows a refusal (price, balance, availability) before any charge.
const shop = new svc.Domain("shop", {
  name: "my-shop.com",
  whoisProtection: true,
});

export const domainId = shop.domainId;
export const expiresAt = shop.expiresAt;
