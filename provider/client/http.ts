/**
 * The one request path of the project. Every API call goes through `ApiClient.request`: route table
 * lookup, per-key rate limit, timeouts, the transport; what an answer means (each service's body,
 * typed errors) and whether to send it again (`shouldRetry`: only where a repeat cannot act twice)
 * are decode.ts's.
 */
import { randomUUID } from "node:crypto";
import { Agent, request as undiciRequest } from "undici";
import { ApiError, ClientCodes, OutcomeUnknownError, redact } from "./errors";
import { decodeAnswer, shouldRetry, type ApiResult, type Outcome } from "./decode";
import { retryDelayMs, RETRY, systemClock, type Clock, type Schedule } from "./backoff";
import { bucketForKey, type TokenBucket } from "./rate-limit";
import { debugLog } from "../log";
import { fillPath, routes, type Method, type RouteBody, type RouteDef, type RouteId, type RouteQuery, type RouteResponse, type Service } from "../../contract/routes";

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  requestMs: number;
}
export const defaultTimeouts: Timeouts = { connectMs: 10_000, headersMs: 30_000, requestMs: 60_000 };

export interface RetryPolicy {
  /** Attempts in all for network errors, timeouts and 5xx on idempotent routes. */
  attempts: number;
  baseMs: number;
  capMs: number;
  /** Attempts in all while the API answers 429 (always safe: refused before acting). */
  rateLimitedAttempts: number;
}
export const defaultRetry: RetryPolicy = { attempts: 5, baseMs: RETRY.firstMs, capMs: RETRY.maxMs, rateLimitedAttempts: 10 };

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

export interface ClientOptions {
  service: Service;
  baseUrl: string;
  apiKey: string;
  /** Sent as `X-Svc-Project`: the project a whole-account platform key acts on (email service). */
  project?: string;
  /** Where the key was set, in words (`stack config svc:apiKey`): a refused key's error names it. */
  keySource?: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  clock?: Clock;
  random?: () => number;
  onRequest?: (event: RequestEvent) => void;
}

export type CallOptions<K extends RouteId> = {
  params?: Record<string, string | number>;
  signal?: AbortSignal;
  /** Overrides the generated Idempotency-Key on routes that read one. */
  idempotencyKey?: string;
  /** A read whose answer many waiters share and which is only good fresh (client/poller.ts, Listing's
   * `ahead`): it goes ahead of the other requests queued for the key (rate-limit.ts, `take`). */
  shared?: boolean;
} & (RouteBody<K> extends undefined ? { body?: undefined } : { body: RouteBody<K> }) &
  (RouteQuery<K> extends undefined ? { query?: undefined } : { query?: RouteQuery<K> });

/** Connection-stage failures: the request never left, so even a paid call may be sent again. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
/** 127.0.0.0/8 as the URL parser writes it. */
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export class ApiClient {
  readonly service: Service;
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly project?: string;
  private readonly keySource?: string;
  private readonly timeouts: Timeouts;
  private readonly retry: RetryPolicy;
  /** RETRY with this client's base and cap (tests shorten them). */
  private readonly retrySchedule: Schedule;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly bucket: TokenBucket;
  private readonly agent: Agent;
  private readonly onRequest?: (event: RequestEvent) => void;

  constructor(options: ClientOptions) {
    this.service = options.service;
    this.baseUrl = checkBaseUrl(options.baseUrl, options.service);
    if (!options.apiKey) throw new Error(`no API key given for the ${options.service} API`);
    this.apiKey = options.apiKey;
    this.project = options.project;
    this.keySource = options.keySource;
    this.timeouts = { ...defaultTimeouts, ...options.timeouts };
    this.retry = { ...defaultRetry, ...options.retry };
    this.retrySchedule = { ...RETRY, firstMs: this.retry.baseMs, maxMs: this.retry.capMs };
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.bucket = bucketForKey(options.apiKey, options.clock);
    this.onRequest = options.onRequest;
    this.agent = new Agent({
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.requestMs,
      keepAliveTimeout: 4_000,
    });
  }

  /** Calls a route and answers its validated `data`. */
  async call<K extends RouteId>(id: K, options: CallOptions<K> = {} as CallOptions<K>): Promise<RouteResponse<K>> {
    return (await this.request(id, options)).data;
  }

  /** Writes (not GET) sent by this client, counted at their start and at their end, and those under way. */
  private writes = 0;
  private writesUnderWay = 0;

  /**
   * A mark of this client's writes now: `unchangedSince(mark)` is true while none has started or
   * ended since (and none was under way). A list answer asked for at a mark still unchanged shows
   * everything this client wrote (client/poller.ts, Listing).
   */
  writeMark(): number {
    return this.writesUnderWay > 0 ? NaN : this.writes;
  }

  unchangedSince(mark: number): boolean {
    return this.writesUnderWay === 0 && this.writes === mark;
  }

  /** Calls a route and answers the whole success envelope. */
  async request<K extends RouteId>(id: K, options: CallOptions<K> = {} as CallOptions<K>): Promise<ApiResult<RouteResponse<K>>> {
    if (routes[id].method === "GET") return this.send(id, options);
    this.writes++;
    this.writesUnderWay++;
    try {
      return await this.send(id, options);
    } finally {
      this.writesUnderWay--;
      this.writes++;
    }
  }

  private async send<K extends RouteId>(id: K, options: CallOptions<K>): Promise<ApiResult<RouteResponse<K>>> {
    const route: RouteDef = routes[id];
    if (route.service !== this.service) throw new Error(`route ${id} belongs to the ${route.service} API, not ${this.service}`);
    const path = fillPath(route.path, options.params);
    const url = this.baseUrl + path + queryString(options.query as Record<string, unknown> | undefined);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: "application/json",
      "user-agent": "pulumi-svc",
    };
    if (this.project) headers["x-svc-project"] = this.project;
    if (route.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey ?? `pulumi-svc-${randomUUID()}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const base = { service: this.service, method: route.method, path } as const;

    let failures = 0;
    let rateLimited = 0;
    let refusedBy429 = false;
    for (let attempt = 1; ; attempt++) {
      await this.bucket.take(options.signal, refusedBy429, options.shared === true && route.method === "GET");
      refusedBy429 = false;
      const started = this.clock.now();
      const outcome = await this.attempt(route, path, url, headers, body, options.signal);
      const report = (status?: number, code?: string, requestId?: string) => {
        const ms = this.clock.now() - started;
        this.onRequest?.({ ...base, route: id, attempt, status, code, requestId, ms });
        this.log(`${route.method} ${path}${attempt > 1 ? ` (attempt ${attempt})` : ""} → ${status ?? "no answer"}${code ? ` ${code}` : ""} in ${Math.round(ms)} ms${requestId ? ` (request id ${requestId})` : ""}`);
      };

      if ("data" in outcome) {
        report(outcome.status, outcome.code, outcome.requestId);
        return outcome as ApiResult<RouteResponse<K>>;
      }
      const error = outcome.error;
      if (error.status === 401 && this.keySource) error.keySource = this.keySource;
      report(error.status, error.code, error.requestId);
      const what = `${route.method} ${path}`;

      switch (shouldRetry(outcome, route)) {
        case "rate-limited": {
          const pauseMs = (error.retryAfterSeconds ?? 1) * 1000;
          this.bucket.pause(pauseMs);
          refusedBy429 = true;
          if (++rateLimited < this.retry.rateLimitedAttempts) {
            this.log(`${what}: rate limited (${error.status} ${error.code}): waiting ${pauseMs} ms (Retry-After ${error.retryAfterSeconds ?? "absent: 1"} s), then retry ${rateLimited + 1} of ${this.retry.rateLimitedAttempts}`);
            continue;
          }
          this.log(`${what}: rate limited ${rateLimited} times: giving up`);
          throw new ApiError(error);
        }
        case "outcome-unknown":
          this.log(`${what}: ${error.status ?? "no answer"} ${error.code} on a ${route.safety} call: not sent again, the outcome is unknown`);
          throw new OutcomeUnknownError(error);
        case "fail":
          throw new ApiError(error);
        case "retry": {
          if (++failures >= this.retry.attempts) {
            this.log(`${what}: ${error.code} after ${failures} attempts: giving up`);
            throw new ApiError(error);
          }
          const delayMs = retryDelayMs(failures, error.retryAfterSeconds, this.random, this.retrySchedule);
          this.log(`${what}: retry ${failures + 1} of ${this.retry.attempts} in ${Math.round(delayMs)} ms after ${error.status ?? "no answer"} ${error.code}`);
          await this.clock.sleep(delayMs, options.signal);
        }
      }
    }
  }

  /** One HTTP exchange. Answers the result, or the error with whether the request never left. */
  private async attempt(
    route: RouteDef,
    path: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const base = { service: this.service, method: route.method, path } as const;
    const timeout = AbortSignal.timeout(this.timeouts.requestMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let responseHeaders: Record<string, string | string[] | undefined>;
    try {
      const res = await undiciRequest(url, { dispatcher: this.agent, method: route.method, headers, body, signal: combined });
      status = res.statusCode;
      responseHeaders = res.headers;
      text = await res.body.text();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const code = errorCode(err);
      const timedOut = timeout.aborted || /TIMEOUT/.test(code ?? "");
      return {
        notSent: code !== undefined && NOT_SENT_CODES.has(code),
        error: {
          ...base,
          code: timedOut ? ClientCodes.TIMEOUT : ClientCodes.NETWORK_ERROR,
          apiMessage: timedOut ? `no complete answer within the time allowed (${code ?? "request timeout"})` : `no answer (${code ?? this.clean(String(err))})`,
          retryable: true,
        },
      };
    }

    return decodeAnswer({
      service: this.service, route, method: route.method, path, status, text,
      contentType: responseHeaders["content-type"] === undefined ? undefined : String(responseHeaders["content-type"]),
      retryAfterSeconds: parseRetryAfter(responseHeaders["retry-after"], this.clock.now()),
      requestId: requestIdOf(responseHeaders),
      secrets: [this.apiKey],
    });
  }

  /** Any text that leaves the client passes here: the key never appears in a message. */
  private clean(text: string): string {
    return redact(text, [this.apiKey]);
  }

  /** A line of the debug log (provider/log.ts): method, path, status, code, timing; never a header or a body. */
  private log(text: string): void {
    debugLog(`${this.service} ${text}`, [this.apiKey]);
  }

  /** Closes the keep-alive connections (tests, short-lived tools). */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

function checkBaseUrl(baseUrl: string, service: Service): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`the ${service} base URL ${JSON.stringify(baseUrl)} is not a URL`);
  }
  // The URL parser has already normalized an IPv4 literal (`127.1` reads `127.0.0.1`), so a whole
  // match is needed: a host name such as `127.0.0.1.example.com` is not loopback.
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname) && !LOOPBACK_V4.test(url.hostname)) {
    throw new Error(
      `refusing the plain-http ${service} base URL ${url.origin}: API keys must not travel in clear text. Use https (plain http is accepted only for loopback addresses such as the emulator's)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`the ${service} base URL must be http(s), got ${url.protocol}`);
  return url.toString().replace(/\/+$/, "");
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
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
