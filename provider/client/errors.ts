/**
 * Typed errors of the API client. Callers branch on `code` (the API's stable code, or one of the
 * client's own below), never on message text.
 */
import type { Method, Service } from "../../contract/routes";

/** Codes the client itself assigns when there is no API answer to take a code from. */
export const ClientCodes = {
  /** No answer: connection refused, reset or dropped. */
  NETWORK_ERROR: "NETWORK_ERROR",
  /** No complete answer within the time allowed. */
  TIMEOUT: "TIMEOUT",
  /** The body was not the JSON envelope (an HTML error page, truncated JSON). */
  BAD_RESPONSE: "BAD_RESPONSE",
  /** The envelope's data did not have the shape the route promises. */
  UNEXPECTED_RESPONSE: "UNEXPECTED_RESPONSE",
} as const;

export interface ApiErrorInit {
  service: Service;
  method: Method;
  path: string;
  status?: number;
  code: string;
  apiMessage: string;
  retryAfterSeconds?: number;
  retryable: boolean;
  /** Extra fields of the failure envelope (for example `missing` on REGISTRANT_INCOMPLETE). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly service: Service;
  readonly method: Method;
  readonly path: string;
  /** HTTP status; undefined when no answer arrived. */
  readonly status?: number;
  readonly code: string;
  readonly apiMessage: string;
  readonly retryAfterSeconds?: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(init: ApiErrorInit, message?: string) {
    super(message ?? ApiError.describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.service = init.service;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.code = init.code;
    this.apiMessage = init.apiMessage;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.retryable = init.retryable;
    this.details = init.details ?? {};
  }

  /** `POST /vps failed: 402 INSUFFICIENT_BALANCE — <API message>` */
  static describe(e: Pick<ApiErrorInit, "method" | "path" | "status" | "code" | "apiMessage">): string {
    const status = e.status === undefined ? "" : `${e.status} `;
    return `${e.method} ${e.path} failed: ${status}${e.code} — ${e.apiMessage}`;
  }
}

/**
 * A non-idempotent or paid request may have reached the server and its outcome is not known (no
 * answer, a timeout, or a 5xx). It was not sent again: the caller reads the current state first.
 */
export class OutcomeUnknownError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(
      { ...init, retryable: false },
      `${ApiError.describe(init)}. The outcome is unknown: the request may have been carried out, so it was not sent again; read the current state before trying again`,
    );
    this.name = "OutcomeUnknownError";
  }
}

export function isApiError(err: unknown, code?: string): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}

/** Replaces every secret that appears in a text by `[redacted]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/** `redact` applied to every string inside a JSON value (the extra fields of a failure envelope). */
export function redactValue(value: unknown, secrets: readonly (string | undefined)[], depth = 0): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k, secrets)] = redactValue(v, secrets, depth + 1);
  return out;
}
