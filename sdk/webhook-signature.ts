/**
 * Verifies a webhook delivery's `Svc-Signature: t=<unix seconds>,v1=<hex>` header: HMAC-SHA256 of
 * `<t>.<raw body>` keyed with the webhook secret, compared in constant time, timestamp within the
 * tolerance. Compute over the raw body bytes, before any JSON parsing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export interface VerifyOptions {
  /** Oldest (and furthest in the future) accepted timestamp, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in ms (default Date.now()). */
  now?: number;
}

export type VerifyResult = { valid: true; timestamp: number } | { valid: false; reason: string };

export function verifyWebhookSignature(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  secret: string,
  { toleranceSeconds = 300, now = Date.now() }: VerifyOptions = {},
): VerifyResult {
  if (!signatureHeader) return { valid: false, reason: "no Svc-Signature header" };
  const parts = new Map<string, string[]>();
  for (const item of signatureHeader.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    parts.set(key, [...(parts.get(key) ?? []), item.slice(eq + 1).trim()]);
  }
  const t = parts.get("t")?.[0];
  const signatures = parts.get("v1") ?? [];
  if (!t || !/^\d+$/.test(t)) return { valid: false, reason: "the header has no valid t=<unix seconds> timestamp" };
  if (signatures.length === 0) return { valid: false, reason: "the header has no v1=<hex> signature" };
  const timestamp = Number(t);
  const age = now / 1000 - timestamp;
  if (Math.abs(age) > toleranceSeconds) {
    return { valid: false, reason: `timestamp is ${Math.round(Math.abs(age))} s ${age > 0 ? "old" : "in the future"}, beyond the ${toleranceSeconds} s tolerance` };
  }
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  const matches = signatures.some((sig) => {
    if (!/^[0-9a-f]+$/i.test(sig) || sig.length !== expected.length * 2) return false;
    return timingSafeEqual(Buffer.from(sig, "hex"), expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: "signature does not match the body and secret" };
}
