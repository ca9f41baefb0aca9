/**
 * What an answer means, apart from how it travelled (http.ts): each service's body decoded into the
 * route's validated data or a typed error, and whether a failed attempt may be sent again. Pure
 * functions of the answer and the route: no I/O, no clock.
 */
import { z } from "zod";
import { answeredCode, ClientCodes, redact, redactValue, statusCode, type ApiErrorInit } from "./errors";
import type { Method, RouteDef, Service } from "../../contract/routes";

/** A success answer: the validated `data`, plus the envelope's `code` when a success carries one
 * (`DOMAIN_SAVE_PENDING`) and its other top-level fields (`billing`, `message`). */
export interface ApiResult<T> {
  data: T;
  status: number;
  /** The answer's `x-request-id`, when it has one. */
  requestId?: string;
  code?: string;
  envelope: Record<string, unknown>;
}

/** A failed attempt, and whether the request never left (then even a paid call may be sent again). */
export interface Failure {
  error: ApiErrorInit;
  notSent: boolean;
}

export type Outcome = ApiResult<unknown> | Failure;

/** An answer as it arrived. */
export interface Answer {
  service: Service;
  route: RouteDef;
  method: Method;
  path: string;
  status: number;
  text: string;
  contentType: string | undefined;
  retryAfterSeconds: number | undefined;
  /** The answer's `x-request-id`, when it has one. */
  requestId?: string;
  /** Never to appear in an error (the caller's API key). */
  secrets: string[];
}

const failureEnvelope = z.looseObject({ success: z.literal(false), error: z.string().optional(), code: z.string().optional() });
const aiFailure = z.looseObject({
  error: z.looseObject({ message: z.string().optional(), type: z.string().optional(), code: z.string().nullable().optional() }),
});
const successEnvelope = z.looseObject({ success: z.literal(true), data: z.unknown(), code: z.string().optional() });
export const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

const retryableStatus = (status: number) => RETRYABLE_STATUS.has(status) || status === 429;

export function decodeAnswer(answer: Answer): Outcome {
  const { status, text } = answer;
  const clean = (s: string) => redact(s, answer.secrets);
  const base = { service: answer.service, method: answer.method, path: answer.path, status, requestId: answer.requestId } as const;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failed({
      ...base, retryAfterSeconds: answer.retryAfterSeconds,
      code: ClientCodes.BAD_RESPONSE,
      apiMessage: `the answer is not JSON (${answer.contentType ?? "no content type"}): ${JSON.stringify(clean(text).slice(0, 120))}`,
      retryable: retryableStatus(status),
    });
  }
  return answer.service === "ai" ? decodeAi(answer, json, clean) : decodeEnvelope(answer, json, clean);
}

const failed = (error: ApiErrorInit): Failure => ({ error, notSent: false });

/** The platform and email APIs: `{success, data, code?}` or `{success: false, error, code}`. */
function decodeEnvelope(answer: Answer, json: unknown, clean: (s: string) => string): Outcome {
  const { status } = answer;
  const base = { service: answer.service, method: answer.method, path: answer.path, status, requestId: answer.requestId } as const;
  const failure = failureEnvelope.safeParse(json);
  if (failure.success || status >= 400) {
    const envelope = failure.success ? failure.data : undefined;
    const { success: _s, error: _e, code: _c, ...extra } = (envelope ?? {}) as Record<string, unknown>;
    // The extra fields reach the caller as `details`: they are server text like the message.
    const details = redactValue(extra, answer.secrets) as Record<string, unknown>;
    return failed({
      ...base, retryAfterSeconds: answer.retryAfterSeconds, details,
      code: envelope?.code ? answeredCode(clean(envelope.code)) : statusCode(status),
      apiMessage: clean(envelope?.error ?? "no error message"),
      retryable: retryableStatus(status),
    });
  }
  const success = successEnvelope.safeParse(json);
  if (!success.success) {
    return failed({ ...base, code: ClientCodes.BAD_RESPONSE, apiMessage: "the answer is not the {success, data} envelope", retryable: false });
  }
  const data = answer.route.response.safeParse(success.data.data);
  if (!data.success) {
    const issue = data.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "data";
    return failed({
      ...base,
      code: ClientCodes.UNEXPECTED_RESPONSE,
      apiMessage: clean(`the answer's data does not have the expected shape at ${where}: ${issue?.message ?? "invalid"}`),
      retryable: false,
    });
  }
  return { data: data.data, status, requestId: answer.requestId, code: success.data.code, envelope: success.data as Record<string, unknown> };
}

/**
 * The AI gateway answers without the envelope: the body itself on success, and on failure the
 * OpenAI shape `{ error: { message, type, code } }` or the Anthropic shape `{ type: "error",
 * error: { type, message } }` (no code: its `type` stands in).
 */
function decodeAi(answer: Answer, json: unknown, clean: (s: string) => string): Outcome {
  const { status } = answer;
  const base = { service: answer.service, method: answer.method, path: answer.path, status, requestId: answer.requestId } as const;
  if (status >= 400) {
    const body = aiFailure.safeParse(json);
    const error = body.success ? body.data.error : undefined;
    const code = error?.code ?? error?.type;
    return failed({
      ...base, retryAfterSeconds: answer.retryAfterSeconds,
      code: code !== undefined ? answeredCode(clean(code)) : statusCode(status),
      apiMessage: clean(error?.message ?? "no error message"),
      retryable: retryableStatus(status),
    });
  }
  const data = answer.route.response.safeParse(json);
  if (!data.success) {
    const issue = data.error.issues[0];
    return failed({
      ...base, code: ClientCodes.UNEXPECTED_RESPONSE, retryable: false,
      apiMessage: clean(`the answer does not have the expected shape at ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`),
    });
  }
  return { data: data.data, status, requestId: answer.requestId, envelope: {} };
}

/**
 * What to do after a failed attempt:
 * - `rate-limited`: a 429, refused before acting, so always safe to send again (after the pause);
 * - `outcome-unknown`: no answer, a 5xx, or an unreadable 2xx on a route that must not act twice
 *   (paid, non-idempotent): the call may have been carried out, so it is never sent again blindly;
 * - `retry`: the request never left, or the route is a read or idempotent and the failure passing,
 *   or the API is still working on the same Idempotency-Key;
 * - `fail`: anything else.
 */
export function shouldRetry(failure: Failure, route: RouteDef): "rate-limited" | "outcome-unknown" | "retry" | "fail" {
  const { error, notSent } = failure;
  if (error.status === 429) return "rate-limited";
  const mayRepeat = route.safety === "read" || route.safety === "idempotent";
  const unknownOutcome = !notSent && (error.status === undefined || RETRYABLE_STATUS.has(error.status) || error.status < 300);
  if (!mayRepeat && unknownOutcome) return "outcome-unknown";
  const repeatable = notSent || (mayRepeat && error.retryable) || (route.idempotencyKey && error.code === "REQUEST_IN_PROGRESS");
  return repeatable ? "retry" : "fail";
}
