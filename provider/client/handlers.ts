/**
 * The request path as a chain of small handlers (hetznercloud/hcloud-go's client_handler.go): each
 * concern is one function that wraps the next. ApiClient (http.ts) assembles them, innermost first:
 *
 *   transport → decode → log → rate limit → retry → write mark
 *
 * - transport: one HTTP exchange, within the request timeout; a failure without an answer, with
 *   whether the request never left;
 * - decode: the answer's meaning (decode.ts): the route's validated data or a typed error;
 * - log: each attempt reported (`onRequest`) and written to the debug log, with its timing;
 * - rate limit: a token of the key's bucket before each attempt (at the head of the line for an
 *   attempt that follows a 429); a 429 pauses the bucket;
 * - retry: each attempt built as its own value (hcloud-go's retry handler clones the request per
 *   attempt), whether to send again (decode.ts `shouldRetry`), how long to wait, the client's retry
 *   budget (retry-budget.ts); what the caller gets when it gives up (ApiError, OutcomeUnknownError);
 * - write mark: writes counted for Listing's recent answers (poller.ts).
 *
 * Nothing a handler is given is changed by any handler: a request is one frozen value for all its
 * attempts, and each attempt one frozen value of its own; what an attempt tells the next (a 429,
 * a failure to retry) goes back as its outcome, and the retry handler builds the next attempt from it.
 */
import type { Agent } from "undici";
import { request as undiciRequest } from "undici";
import { ApiError, ClientCodes, OutcomeUnknownError, redact } from "./errors";
import { decodeAnswer, shouldRetry, type ApiResult, type Failure, type Outcome } from "./decode";
import { retryDelayMs, type Schedule } from "./backoff";
import type { Clock } from "./clock";
import type { TokenBucket } from "./rate-limit";
import type { RetryBudget } from "./retry-budget";
import type { Method, RouteDef, RouteId, Service } from "../../contract/routes";

/** One request, the same for all its attempts (ApiClient.request builds it, `requestOf` freezes it). */
export interface ApiRequest {
  readonly id: RouteId;
  readonly route: RouteDef;
  readonly path: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /** A read whose answer many waiters share (CallOptions.shared): ahead of the key's queue. */
  readonly shared: boolean;
}

/** One attempt of a request: built by the retry handler for each attempt (`attemptOf`), never changed. */
export interface Attempt {
  readonly request: ApiRequest;
  /** From 1. */
  readonly number: number;
  /** The attempt before this one was refused with 429: it was served once already, so this one
   * takes its token at the head of the key's line (rate-limit.ts `take`'s `refused`). */
  readonly followsRefusal: boolean;
}

/** A request as one frozen value, its headers too. */
export function requestOf(init: ApiRequest): ApiRequest {
  return Object.freeze({ ...init, headers: Object.freeze({ ...init.headers }) });
}

/** An attempt as one frozen value. */
export function attemptOf(request: ApiRequest, number: number, followsRefusal: boolean): Attempt {
  return Object.freeze({ request, number, followsRefusal });
}

/** An answer as it arrived, before it is decoded. */
export interface Arrival {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Transport = (attempt: Attempt) => Promise<Arrival | Failure>;
export type Handler = (attempt: Attempt) => Promise<Outcome>;
/** The outer handlers, given the request (the retry handler makes its attempts): a success, or the error the caller gets thrown. */
export type Send = (request: ApiRequest) => Promise<ApiResult<unknown>>;

/** What a handler writes to the debug log (http.ts adds the service and keeps the key out). */
export type Log = (text: string) => void;

/** Connection-stage failures: the request never left, so even a paid call may be sent again. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

/** One HTTP exchange within `requestMs`. The caller's signal ends it with the signal's reason. */
export function transport(agent: Agent, requestMs: number, service: Service, secrets: string[]): Transport {
  return async ({ request: { route, path, url, headers, body, signal } }) => {
    const timeout = AbortSignal.timeout(requestMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const res = await undiciRequest(url, { dispatcher: agent, method: route.method, headers, body, signal: combined });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const code = errorCode(err);
      const timedOut = timeout.aborted || /TIMEOUT/.test(code ?? "");
      return {
        notSent: code !== undefined && NOT_SENT_CODES.has(code),
        error: {
          service, method: route.method, path,
          code: timedOut ? ClientCodes.TIMEOUT : ClientCodes.NETWORK_ERROR,
          apiMessage: timedOut ? `no complete answer within the time allowed (${code ?? "request timeout"})` : `no answer (${code ?? redact(String(err), secrets)})`,
          retryable: true,
        },
      };
    }
  };
}

/** An arrival decoded (decode.ts); a refused key's error says where the key was set. */
export function wrapDecode(next: Transport, options: { service: Service; secrets: string[]; keySource?: string; clock: Clock }): Handler {
  return async (attempt) => {
    const arrival = await next(attempt);
    if ("error" in arrival) return arrival;
    const { route, path } = attempt.request;
    const outcome = decodeAnswer({
      service: options.service, route, method: route.method, path, status: arrival.status, text: arrival.text,
      contentType: arrival.headers["content-type"] === undefined ? undefined : String(arrival.headers["content-type"]),
      retryAfterSeconds: parseRetryAfter(arrival.headers["retry-after"], options.clock.now()),
      requestId: requestIdOf(arrival.headers),
      secrets: options.secrets,
    });
    if ("error" in outcome && outcome.error.status === 401 && options.keySource) outcome.error.keySource = options.keySource;
    return outcome;
  };
}

/** What the client reports of each attempt (never a key or a body): for tests and benchmarks. */
export interface RequestEvent {
  service: Service;
  method: Method;
  path: string;
  route: RouteId;
  attempt: number;
  status?: number;
  code?: string;
  /** The answer's `x-request-id`, when it has one. */
  requestId?: string;
  ms: number;
}

/** Each attempt reported to `onRequest` and the debug log: method, path, status, code, timing. */
export function wrapLog(next: Handler, options: { service: Service; clock: Clock; log: Log; onRequest?: (event: RequestEvent) => void }): Handler {
  return async (attempt) => {
    const started = options.clock.now();
    const outcome = await next(attempt);
    const { status, code, requestId } = "error" in outcome ? outcome.error : outcome;
    const { route, path, id } = attempt.request;
    const ms = options.clock.now() - started;
    options.onRequest?.({ service: options.service, method: route.method, path, route: id, attempt: attempt.number, status, code, requestId, ms });
    options.log(`${route.method} ${path}${attempt.number > 1 ? ` (attempt ${attempt.number})` : ""} → ${status ?? "no answer"}${code ? ` ${code}` : ""} in ${Math.round(ms)} ms${requestId ? ` (request id ${requestId})` : ""}`);
    return outcome;
  };
}

/**
 * A token of the key's bucket before each attempt; a 429 pauses the bucket until its Retry-After
 * and is this handler's outcome: the retry handler makes the next attempt from it (`followsRefusal`).
 */
export function wrapRateLimit(next: Handler, bucket: TokenBucket): Handler {
  return async (attempt) => {
    const { signal, shared } = attempt.request;
    await bucket.take({ signal, refused: attempt.followsRefusal, shared });
    const outcome = await next(attempt);
    if ("error" in outcome && outcome.error.status === 429) bucket.pause(rateLimitPauseMs(outcome.error.retryAfterSeconds));
    return outcome;
  };
}

/** How long a 429 holds the key: its Retry-After, else a second. */
const rateLimitPauseMs = (retryAfterSeconds: number | undefined) => (retryAfterSeconds ?? 1) * 1000;

export interface RetryPolicy {
  /** Attempts in all for network errors, timeouts and 5xx on idempotent routes. */
  attempts: number;
  baseMs: number;
  capMs: number;
  /** Attempts in all while the API answers 429 (always safe: refused before acting). */
  rateLimitedAttempts: number;
}

/**
 * Sends again what `shouldRetry` allows (decode.ts), after RETRY's pause, while the policy's attempts
 * and the client's retry budget last; else throws what the caller gets: OutcomeUnknownError for a
 * call that may have acted, ApiError otherwise.
 */
export function wrapRetry(
  next: Handler,
  options: { policy: RetryPolicy; schedule: Schedule; budget: RetryBudget; clock: Clock; random: () => number; log: Log },
): Send {
  const { policy, budget, log } = options;
  return async (request) => {
    const { route, path, signal } = request;
    const what = `${route.method} ${path}`;
    let failures = 0;
    let rateLimited = 0;
    let lastDrawn: number | undefined;
    for (let attempt = attemptOf(request, 1, false); ; ) {
      const outcome = await next(attempt);
      if (!("error" in outcome)) {
        budget.succeeded(lastDrawn);
        return outcome;
      }
      const { error } = outcome;
      switch (shouldRetry(outcome, route)) {
        case "rate-limited": {
          if (++rateLimited < policy.rateLimitedAttempts) {
            log(`${what}: rate limited (${error.status} ${error.code}): waiting ${rateLimitPauseMs(error.retryAfterSeconds)} ms (Retry-After ${error.retryAfterSeconds ?? "absent: 1"} s), then retry ${rateLimited + 1} of ${policy.rateLimitedAttempts}`);
            attempt = attemptOf(request, attempt.number + 1, true);
            continue;
          }
          log(`${what}: rate limited ${rateLimited} times: giving up`);
          throw new ApiError(error);
        }
        case "outcome-unknown":
          log(`${what}: ${error.status ?? "no answer"} ${error.code} on a ${route.safety} call: not sent again, the outcome is unknown`);
          throw new OutcomeUnknownError(error);
        case "fail":
          throw new ApiError(error);
        case "retry": {
          if (++failures >= policy.attempts) {
            log(`${what}: ${error.code} after ${failures} attempts: giving up`);
            throw new ApiError(error);
          }
          const drawn = budget.draw(error.code === ClientCodes.TIMEOUT);
          if (drawn === undefined) {
            log(`${what}: ${error.code} after ${failures} attempts: the client's retry budget is spent (its other requests failed too): giving up`);
            throw new ApiError(error);
          }
          lastDrawn = drawn;
          const delayMs = retryDelayMs(failures, error.retryAfterSeconds, options.random, options.schedule);
          log(`${what}: retry ${failures + 1} of ${policy.attempts} in ${Math.round(delayMs)} ms after ${error.status ?? "no answer"} ${error.code}`);
          await options.clock.sleep(delayMs, signal);
          attempt = attemptOf(request, attempt.number + 1, false);
        }
      }
    }
  };
}

/**
 * Writes (not GET) counted at their start and at their end, and those under way: a mark taken when
 * a list is asked for tells later whether the list still shows everything this client wrote
 * (poller.ts, Listing).
 */
export class WriteLog {
  private count = 0;
  private underWay = 0;
  /** Deletes (DELETE routes) started: a list asked for before one may show what it removed. */
  private removals = 0;

  /** A mark of the deletes started so far (`removedNothingSince`). */
  removalMark(): number {
    return this.removals;
  }

  removedNothingSince(mark: number): boolean {
    return this.removals === mark;
  }

  /** A mark of the writes now; NaN while one is under way (no list answer can be known to show it). */
  mark(): number {
    return this.underWay > 0 ? NaN : this.count;
  }

  /** True while no write has started or ended since `mark` (and none was under way at it). */
  unchangedSince(mark: number): boolean {
    return this.underWay === 0 && this.count === mark;
  }

  async during<T>(write: () => Promise<T>, removes = false): Promise<T> {
    if (removes) this.removals++;
    this.count++;
    this.underWay++;
    try {
      return await write();
    } finally {
      this.underWay--;
      this.count++;
    }
  }
}

/** Writes counted in `writes` from their first attempt to their outcome. */
export function wrapWriteMark(next: Send, writes: WriteLog): Send {
  return (request) => (request.route.method === "GET" ? next(request) : writes.during(() => next(request), request.route.method === "DELETE"));
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === "string") return e.code;
  if (typeof e?.cause?.code === "string") return e.cause.code;
  if ((err as Error)?.name === "TimeoutError") return "TIMEOUT";
  return undefined;
}

/** The API's id of the request: `x-request-id` (ai-gateway.md, Headers), or `request-id`. */
function requestIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers["x-request-id"] ?? headers["request-id"];
  const id = Array.isArray(value) ? value[0] : value;
  return id ? id.slice(0, 200) : undefined;
}

export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
