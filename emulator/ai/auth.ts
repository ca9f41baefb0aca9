/**
 * Who may call the gateway.
 *
 * Keys the gateway accepts (the spec does not say which keys exist for AI): platform keys whose
 * products include "ai" (whole-account or project-limited alike; usage is billed to the account's AI
 * balance). A platform key without the AI product is a key the platform knows, refused for the
 * product: platform-api.md, Authentication: "A key is enabled per product (for example VPS, Domain,
 * Email, Container, Database, AI). A key lacking the product answers 403 `SCOPE_NOT_ALLOWED`." The
 * gateway answers it in its own shape (its lower-case code `scope_not_allowed`, type
 * `permission_error` by its type-by-status table). Email keys (`svcm_…`) are unknown to it: 401
 * `invalid_api_key`.
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
  if (!key.products.includes("ai")) throw new AiError(403, "scope_not_allowed", "This API key is not enabled for the AI product: enable AI on the key, or use a key that has it");
  return key;
}
