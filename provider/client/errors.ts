/**
 * Typed errors of the API client and of the provider's operations. Callers branch on the class and
 * on `code` (the API's stable code from the catalogue in contract/error-codes.ts, or one of the
 * client's own below), never on message text (tests/client/no-text-branching.test.ts checks).
 */
import type { Method, Service } from "../../contract/services";
import type { AiErrorCode, AiErrorType, ApiErrorCode } from "../../contract/error-codes";

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
  /** A wait for an object's state ran out of time (WaitTimeoutError). */
  WAIT_TIMEOUT: "WAIT_TIMEOUT",
  /** A create found objects that answer to the resource but may not be this stack's (create-once). */
  ALREADY_EXISTS: "ALREADY_EXISTS",
} as const;

export type ClientCode = (typeof ClientCodes)[keyof typeof ClientCodes];
/** Every code of the catalogue and the client's own: what `isApiError` and `apiErrorOf` match. */
export type ErrorCode = ApiErrorCode | AiErrorCode | AiErrorType | ClientCode;

declare const answered: unique symbol;
/**
 * A code as an API answer carried it (`answeredCode`, in decode.ts): one of the catalogue, or one
 * the catalogue lacks (an API newer than it), kept as it came for messages and logs. Branded, so
 * that only an answer makes one: a code the program writes is an `ErrorCode`, and a misspelled one
 * does not compile.
 */
export type AnsweredCode = string & { readonly [answered]: true };
/** The code of a failed answer that carries none: its status (`HTTP_502`, a proxy's page). */
export type StatusCode = `HTTP_${number}`;
/**
 * What an ApiError's `code` holds: a code of the catalogue or the client's, an answer's own code,
 * or its status. A comparison with a string literal still compiles whatever it says (TypeScript
 * lets a literal be compared with any type made of strings): branch with `isApiError(err, code)`,
 * which takes only an `ErrorCode`.
 */
export type ApiErrorCodeOf = ErrorCode | AnsweredCode | StatusCode;

/** `code` as an API answer carried it (see AnsweredCode). */
export const answeredCode = (code: string): AnsweredCode => code as AnsweredCode;
/** The code of a failed answer without one (see StatusCode). */
export const statusCode = (status: number): StatusCode => `HTTP_${status}`;

export interface ApiErrorInit {
  service: Service;
  method: Method;
  path: string;
  status?: number;
  code: ApiErrorCodeOf;
  apiMessage: string;
  retryAfterSeconds?: number;
  retryable: boolean;
  /** Extra fields of the failure envelope (for example `missing` on REGISTRANT_INCOMPLETE). */
  details?: Record<string, unknown>;
  /** The API's id of the request (`x-request-id`), when the answer has one: what its support asks for. */
  requestId?: string;
  /** On a 401: where the refused key was set, in words, with how to set it (config.ts `keySourceOf`). */
  keySource?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly service: Service;
  readonly method: Method;
  readonly path: string;
  /** HTTP status; undefined when no answer arrived. */
  readonly status?: number;
  readonly code: ApiErrorCodeOf;
  readonly apiMessage: string;
  readonly retryAfterSeconds?: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly requestId?: string;
  readonly keySource?: string;

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
    this.requestId = init.requestId;
    this.keySource = init.keySource;
  }

  /** `POST /vps failed: 402 INSUFFICIENT_BALANCE — <API message>`, then `(request id …)` when there is one. */
  static describe(e: Pick<ApiErrorInit, "method" | "path" | "status" | "code" | "apiMessage" | "requestId">): string {
    return `${e.method} ${e.path} failed: ${ApiError.answer(e)}`;
  }

  /** `402 INSUFFICIENT_BALANCE — <API message> (request id req_…)`: what the API answered. */
  static answer(e: Pick<ApiErrorInit, "status" | "code" | "apiMessage" | "requestId">): string {
    const status = e.status === undefined ? "" : `${e.status} `;
    const request = e.requestId ? ` (request id ${e.requestId})` : "";
    return `${status}${e.code} — ${e.apiMessage}${request}`;
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

/**
 * The first ApiError in the chain of `err` and its causes (an OperationError, a wrapped error), and
 * with `codes` the first of one of those codes (hcloud-go's `IsError(err, codes...)` through
 * wrapping); only catalogued codes compile.
 */
export function apiErrorOf(err: unknown, ...codes: ErrorCode[]): ApiError | undefined {
  for (const at of causes(err)) {
    if (at instanceof ApiError && (codes.length === 0 || codes.some((code) => code === at.code))) return at;
  }
  return undefined;
}

/** True when `err` or one of its causes is an ApiError, and with `codes` one of those codes (apiErrorOf). */
export function isApiError(err: unknown, ...codes: ErrorCode[]): boolean {
  return apiErrorOf(err, ...codes) !== undefined;
}

/**
 * The error a user sees for a failed operation of a resource (or a data function): `create failed:
 * POST /vps 402 INSUFFICIENT_BALANCE — <API message>. <what to do>`; the engine adds the resource's
 * type and name in front. It keeps the API error (`apiError`, the `cause`) and copies what callers
 * branch on: `code` (the API's, or the client's own: WAIT_TIMEOUT, ALREADY_EXISTS…), `status`,
 * `method`, `path`, `requestId`.
 */
export class OperationError extends Error {
  /** "create", "update", "read", "delete", "check", a data function's name. */
  readonly operation: string;
  /** The API error the operation failed on, when it failed on one. */
  readonly apiError?: ApiError;
  /** What to do, as the message ends. */
  readonly hint?: string;
  readonly code?: ApiErrorCodeOf;
  readonly service?: Service;
  readonly method?: Method;
  readonly path?: string;
  readonly status?: number;
  readonly requestId?: string;

  /**
   * `cause`: what failed (an ApiError, a WaitTimeoutError, any error). `detail`: the failure in
   * words when it is not the cause's message (a conflict create-once found); `code`: the code when
   * the cause has none.
   */
  constructor(operation: string, cause: unknown, options: { hint?: string; detail?: string; code?: ErrorCode } = {}) {
    super(OperationError.describe(operation, cause, options), cause === undefined ? undefined : { cause });
    this.name = "OperationError";
    this.operation = operation;
    this.hint = keyRefusedHint(cause) ?? options.hint ?? answerHint(cause);
    this.code = options.code ?? codeOf(cause);
    if (cause instanceof ApiError) {
      this.apiError = cause;
      this.service = cause.service;
      this.method = cause.method;
      this.path = cause.path;
      this.status = cause.status;
      this.requestId = cause.requestId;
    }
  }

  private static describe(operation: string, cause: unknown, options: { hint?: string; detail?: string }): string {
    const hint = keyRefusedHint(cause) ?? options.hint ?? answerHint(cause);
    const tail = hint ? `. ${hint}` : "";
    if (options.detail !== undefined) return `${operation} failed: ${options.detail}${tail}`;
    if (cause instanceof ApiError) {
      const unknown = cause instanceof OutcomeUnknownError ? " (outcome unknown: the request may have been carried out)" : "";
      return `${operation} failed: ${cause.method} ${cause.path} ${ApiError.answer(cause)}${unknown}${tail}`;
    }
    return `${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}${tail}`;
  }
}

/** The code an error of ours carries (the API's, the client's own), which an OperationError wrapping it copies. */
function codeOf(cause: unknown): ApiErrorCodeOf | undefined {
  return cause instanceof ApiError || cause instanceof OperationError || cause instanceof WaitTimeoutError ? cause.code : undefined;
}

/**
 * A refused key (401) is the answer to any call of that key: what to do is to fix the key where it
 * was set, whatever the operation's own hint says ("try again" would not help).
 */
function keyRefusedHint(cause: unknown): string | undefined {
  if (!(cause instanceof ApiError) || cause.status !== 401 || !cause.keySource) return undefined;
  return `The API key was refused (wrong, expired or revoked): it comes from ${cause.keySource}`;
}

/** What to do about an answer any operation may get, when the operation has no word of its own. */
function answerHint(cause: unknown): string | undefined {
  if (isApiError(cause, "NO_PLAN")) {
    return 'The project has no active email plan: declare one in the program (`const plan = new svc.EmailPlan("plan", { planCode: "free" })`; getEmailPlans lists the plans) and give the email resources `{ dependsOn: [plan] }`';
  }
  return undefined;
}

/**
 * `err` and its causes, outermost first, while they are Errors; ten at most, so a cycle of causes
 * ends.
 */
function* causes(err: unknown): Generator<Error> {
  for (let at = err, depth = 0; at instanceof Error && depth < 10; at = at.cause, depth++) yield at;
}

/** The first error of `type` in the chain of `err` and its causes, or undefined. */
export function causeOfType<T extends Error>(err: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (const at of causes(err)) if (at instanceof type) return at;
  return undefined;
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

/** A wait ran out of time: `what` it waited for, the last state seen, how long; `code` WAIT_TIMEOUT. */
export class WaitTimeoutError<T = unknown> extends Error {
  readonly code = ClientCodes.WAIT_TIMEOUT;
  constructor(
    readonly what: string,
    readonly lastState: T,
    readonly waitedMs: number,
    describe: (state: T) => string,
  ) {
    super(`timed out after ${Math.round(waitedMs / 1000)} s waiting for ${what}; last state seen: ${describe(lastState)}`);
    this.name = "WaitTimeoutError";
  }
}
