/**
 * The one request path of the project. Every API call goes through `ApiClient.request`: the route
 * table lookup, then the chain of handlers (handlers.ts: transport, decode, log, rate limit, retry,
 * write mark), assembled here once per client. What an answer means is decode.ts's; whether to send
 * it again is `shouldRetry`'s (only where a repeat cannot act twice).
 */
import { randomUUID } from "node:crypto";
import { Agent } from "undici";
import { type ApiResult } from "./decode";
import { RETRY } from "./backoff";
import { systemClock, type Clock } from "./clock";
import { RateLimits } from "./rate-limit";
import { RetryBudget } from "./retry-budget";
import { requestOf, transport, wrapDecode, wrapLog, wrapRateLimit, wrapRetry, wrapWriteMark, WriteLog, type Handler, type RequestEvent, type RetryPolicy, type Send } from "./handlers";
import { debugLogger, type DebugLog } from "../log";
import { fillPath, routes, type RouteBody, type RouteDef, type RouteId, type RouteQuery, type RouteResponse, type Service } from "../../contract/routes";

export { parseRetryAfter, type RequestEvent, type RetryPolicy } from "./handlers";

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  requestMs: number;
}
export const defaultTimeouts: Timeouts = { connectMs: 10_000, headersMs: 30_000, requestMs: 60_000 };

export const defaultRetry: RetryPolicy = { attempts: 5, baseMs: RETRY.firstMs, capMs: RETRY.maxMs, rateLimitedAttempts: 10 };

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
  /** The per-key buckets this client shares with the other clients of its process (context.ts
   * `ApiContexts`); without it the client limits itself alone. */
  rateLimits?: RateLimits;
  /** The store its retries draw from (retry-budget.ts); default one of its own. */
  retryBudget?: RetryBudget;
  clock?: Clock;
  random?: () => number;
  onRequest?: (event: RequestEvent) => void;
  /** The debug log its requests and retries are written to (context.ts hands the process's); without
   * it, `SVC_LOG` decides (log.ts). */
  log?: DebugLog;
}

export type CallOptions<K extends RouteId> = {
  params?: Record<string, string | number>;
  signal?: AbortSignal;
  /** Overrides the generated Idempotency-Key on routes that read one. */
  idempotencyKey?: string;
  /** A read whose one answer many waiters share and which is only good fresh (a `Listing` or a
   * `getOrGone` made with `shared`: the email jobs): it goes ahead of the other requests queued for
   * the key (rate-limit.ts, `take`). */
  shared?: boolean;
} & (RouteBody<K> extends undefined ? { body?: undefined } : { body: RouteBody<K> }) &
  (RouteQuery<K> extends undefined ? { query?: undefined } : { query?: RouteQuery<K> });

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
/** 127.0.0.0/8 as the URL parser writes it. */
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export class ApiClient {
  readonly service: Service;
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly project?: string;
  private readonly agent: Agent;
  private readonly writes = new WriteLog();
  /** The handler chain (handlers.ts), outermost. */
  private readonly send: Send;

  constructor(options: ClientOptions) {
    this.service = options.service;
    this.baseUrl = checkBaseUrl(options.baseUrl, options.service);
    if (!options.apiKey) throw new Error(`no API key given for the ${options.service} API`);
    this.apiKey = options.apiKey;
    this.project = options.project;
    const timeouts = { ...defaultTimeouts, ...options.timeouts };
    const policy = { ...defaultRetry, ...options.retry };
    const clock = options.clock ?? systemClock;
    const bucket = (options.rateLimits ?? new RateLimits()).forKey(options.apiKey, options.clock);
    this.agent = new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.requestMs,
      keepAliveTimeout: 4_000,
    });
    const secrets = [this.apiKey];
    const debugLog = options.log ?? debugLogger(undefined);
    const log = (text: string) => debugLog(`${this.service} ${text}`, secrets);

    let h: Handler = wrapDecode(transport(this.agent, timeouts.requestMs, this.service, secrets), { service: this.service, secrets, keySource: options.keySource, clock });
    h = wrapLog(h, { service: this.service, clock, log, onRequest: options.onRequest });
    h = wrapRateLimit(h, bucket);
    this.send = wrapWriteMark(
      wrapRetry(h, {
        policy,
        // RETRY with this client's base and cap (tests shorten them).
        schedule: { ...RETRY, firstMs: policy.baseMs, maxMs: policy.capMs },
        budget: options.retryBudget ?? new RetryBudget(),
        clock,
        random: options.random ?? Math.random,
        log,
      }),
      this.writes,
    );
  }

  /** Calls a route and answers its validated `data`. */
  async call<K extends RouteId>(id: K, options: CallOptions<K> = {} as CallOptions<K>): Promise<RouteResponse<K>> {
    return (await this.request(id, options)).data;
  }

  /**
   * A mark of this client's writes now: `unchangedSince(mark)` is true while none has started or
   * ended since (and none was under way). A list answer asked for at a mark still unchanged shows
   * everything this client wrote (client/poller.ts, Listing).
   */
  writeMark(): number {
    return this.writes.mark();
  }

  unchangedSince(mark: number): boolean {
    return this.writes.unchangedSince(mark);
  }

  /** A mark of this client's deletes now: `removedNothingSince(mark)` is true while none has started since. */
  removalMark(): number {
    return this.writes.removalMark();
  }

  removedNothingSince(mark: number): boolean {
    return this.writes.removedNothingSince(mark);
  }

  /** Calls a route and answers the whole success envelope. */
  async request<K extends RouteId>(id: K, options: CallOptions<K> = {} as CallOptions<K>): Promise<ApiResult<RouteResponse<K>>> {
    const route: RouteDef = routes[id];
    if (route.service !== this.service) throw new Error(`route ${id} belongs to the ${route.service} API, not ${this.service}`);
    const path = fillPath(route.path, options.params);
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
    const result = await this.send(
      requestOf({
        id, route, path, headers, body,
        url: this.baseUrl + path + queryString(options.query as Record<string, unknown> | undefined),
        signal: options.signal,
        shared: options.shared === true && route.method === "GET",
      }),
    );
    return result as ApiResult<RouteResponse<K>>;
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
