// The example of docs/Domain.md. Written by `npm run docs` from the schema in provider/domains/domain.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// Registered once, paid from the wallet; preview shows a refusal (price, balance, availability) before any charge.
const shop = new svc.Domain("shop", {
  name: "my-shop.com",
  whoisProtection: true,
});

export const domainId = shop.domainId;
export const expiresAt = shop.expiresAt;
