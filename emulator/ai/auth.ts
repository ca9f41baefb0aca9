/**
 * Who may call the gateway.
 *
 * Keys the gateway accepts (the spec does not say which keys exist for AI): platform keys whose
 * products include "ai" (whole-account or project-limited alike; usage is billed to the account's AI
 * balance). The gateway's spec has no code for a key without the AI product (its only 403 is
 * `key_spend_limit_reached`; SCOPE_NOT_ALLOWED is the platform APIs'): such a key is not a key of
 * the gateway, so it answers like an unknown one, 401 `invalid_api_key` ("Unknown or revoked key:
 * use a valid key"), the message saying why. Email keys (`svcm_…`) are unknown to it the same way.
 * The key comes from `Authorization: Bearer <key>` (a bare `Authorization: <key>` is accepted too)
 * or, when there is no Authorization header, from `x-api-key`.
 */
import type { Emu } from "../core/emu";
import type { KeyRecord } from "../core/world";
import { AiError } from "./errors";

export function keyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();
  const auth = first(headers.authorization);
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    const key = (m ? m[1] : auth).trim();
    if (key) return key;
  }
  const x = first(headers["x-api-key"]);
  return x ? x : undefined;
}

export function authenticateAi(emu: Emu, headers: Record<string, string | string[] | undefined>): KeyRecord {
  const value = keyFromHeaders(headers);
  if (!value) throw new AiError(401, "missing_api_key", "No API key: send Authorization: Bearer <key> or x-api-key: <key>");
  const key = emu.world.keys.find((k) => k.key === value);
  if (!key || key.revoked || key.kind !== "platform") throw new AiError(401, "invalid_api_key", "Invalid API key");
  if (key.expiresAt && Date.parse(key.expiresAt) <= emu.nowMs()) throw new AiError(401, "expired_api_key", "API key expired: create a new key");
  if (!key.products.includes("ai")) throw new AiError(401, "invalid_api_key", "Invalid API key for the AI gateway: this key is not enabled for the AI product; use a key with AI enabled");
  return key;
}
