/**
 * The gateway's two error body shapes and the spec's type-by-status table.
 * OpenAI style (`/v1/chat/completions`, `/v1/models`, unknown paths): `{ error: { message, type, code } }`.
 * Anthropic style (`/v1/messages*`): `{ type: "error", error: { type, message } }` (no code).
 */
import type { AiStyle } from "../../contract/routes";
import type { AiFaultKind } from "./state";
import type { AiErrorCode, AiErrorType } from "../../contract/error-codes";

export class AiError extends Error {
  constructor(
    readonly status: number,
    readonly code: AiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function typeOfStatus(status: number): AiErrorType {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
    case 410:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    default:
      return "api_error";
  }
}

export function errorBody(style: AiStyle, status: number, code: AiErrorCode, message: string): Record<string, unknown> {
  const type = typeOfStatus(status);
  return style === "anthropic" ? { type: "error", error: { type, message } } : { error: { message, type, code } };
}

/** The injectable upstream and gateway failures: status, message and extra headers. */
export const faultKinds: Record<AiFaultKind, { status: number; message: string; headers?: Record<string, string> }> = {
  upstream_error: { status: 502, message: "The model returned an error" },
  upstream_unreachable: { status: 502, message: "The model is unreachable or did not answer in time" },
  upstream_auth_error: { status: 502, message: "The model is temporarily unavailable" },
  upstream_unavailable: { status: 503, message: "The AI service is temporarily unavailable; retry later or try another model" },
  model_unavailable: { status: 503, message: "This model is temporarily unavailable; try another model" },
  server_busy: { status: 503, message: "The gateway is busy; retry after 1 second", headers: { "retry-after": "1" } },
  internal_error: { status: 500, message: "Unexpected gateway error" },
  pricing_unavailable: { status: 503, message: "Prices could not be loaded; retry shortly" },
  service_unavailable: { status: 503, message: "The model cannot be served now; retry later or try another model" },
  rate_limited: { status: 429, message: "The model is busy; retry with backoff" },
};

export function faultError(kind: AiFaultKind): AiError {
  const k = faultKinds[kind];
  return new AiError(k.status, kind, k.message, k.headers ?? {});
}

/** Code of an injected generic fault (`POST /_emulator/faults` on an `/ai` path) without its own code. */
export function defaultCodeOfStatus(status: number): AiErrorCode {
  if (status === 400) return "invalid_request";
  if (status === 401) return "invalid_api_key";
  if (status === 402) return "insufficient_balance";
  if (status === 403) return "key_spend_limit_reached";
  if (status === 404) return "not_found";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limited";
  if (status === 502) return "upstream_error";
  if (status === 503) return "service_unavailable";
  return "internal_error";
}
