/**
 * Request bodies as JSON, with a bound on nesting: every API of the emulator refuses a body nested
 * deeper than MAX_JSON_DEPTH as a bad request (the spec's 4xx for a body it cannot take), before
 * any recursive walk (validation, token counting, serialization) could exhaust the stack on it.
 */

/** Arrays and objects inside one another; far above anything the APIs' payloads need. */
export const MAX_JSON_DEPTH = 100;

/** Deepest nesting of arrays and objects in JSON text (brackets inside strings do not count); linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** Why JSON text cannot be taken as a body (not JSON, or nested too deep), or its value. */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; reason: "invalid" | "too-deep"; message: string } {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return { ok: false, reason: "too-deep", message: `body: nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "invalid", message: "Body is not valid JSON" };
  }
}
