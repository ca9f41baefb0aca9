/**
 * Each attempt of a request is its own value (hcloud-go's retry handler clones the request per
 * attempt): the retry handler builds one per attempt from the one request and the last attempt's
 * outcome, and no handler changes what it is given. A 429 is the rate-limit handler's outcome;
 * the attempt after it takes its token at the head of the key's line.
 */
import { ApiClient, routes, TokenBucket, type Clock, type ErrorCode, type Outcome, type RequestEvent } from "../../provider/client";
import { attemptOf, requestOf, wrapRateLimit, wrapRetry, type Attempt } from "../../provider/client/handlers";
import { RetryBudget } from "../../provider/client/retry-budget";
import { RETRY } from "../../provider/client/backoff";
import { freshKey, reply, startServer } from "../support/http-server";

/** A clock that moves only when `advance` says, waking the sleeps that are due. */
function manualClock() {
  let t = 0;
  const sleepers: { until: number; wake: () => void }[] = [];
  const clock: Clock = { now: () => t, sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: t + ms, wake })) };
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    clock,
    async advance(ms: number) {
      t += ms;
      for (const s of sleepers.splice(0)) s.until <= t ? s.wake() : sleepers.push(s);
      await settle();
    },
    settle,
  };
}

const failure = (status: number, code: ErrorCode, retryAfterSeconds?: number): Outcome => ({
  error: { service: "platform", method: "GET", path: "/vps/a", status, code, apiMessage: code, retryable: true, retryAfterSeconds },
  notSent: false,
});

test("a 429, a 503, then a success: three attempts, each a frozen value of its own over the one frozen request; only the one after the 429 follows a refusal", async () => {
  const { clock, advance } = manualClock();
  const answers: Outcome[] = [failure(429, "RATE_LIMITED", 0), failure(503, "INTERNAL_ERROR"), { data: { id: "a" }, status: 200, envelope: {} }];
  const seen: Attempt[] = [];
  const send = wrapRetry(
    wrapRateLimit(async (attempt) => {
      seen.push(attempt);
      return answers[seen.length - 1];
    }, new TokenBucket(10, 10, clock)),
    { policy: { attempts: 5, baseMs: 10, capMs: 10, rateLimitedAttempts: 10 }, schedule: { ...RETRY, firstMs: 10, maxMs: 10 }, budget: new RetryBudget(), clock, random: () => 0.5, log: () => {} },
  );
  const request = requestOf({ id: "vps.get", route: routes["vps.get"], path: "/vps/a", url: "http://127.0.0.1/api/vps/a", headers: { accept: "application/json" }, shared: false });

  const result = send(request);
  for (let i = 0; i < 5; i++) await advance(1000);

  expect(await result).toMatchObject({ data: { id: "a" }, status: 200 });
  expect(seen.map((a) => [a.number, a.followsRefusal])).toEqual([
    [1, false],
    [2, true],
    [3, false],
  ]);
  expect(new Set(seen).size).toBe(3);
  expect(seen.every((a) => Object.isFrozen(a) && a.request === request)).toBe(true);
  expect(Object.isFrozen(request) && Object.isFrozen(request.headers)).toBe(true);
  expect(attemptOf(request, 2, true)).toEqual(seen[1]);
});

test("through ApiClient: the request refused with 429 is sent again before the requests queued behind it", async () => {
  const { clock, advance, settle } = manualClock();
  const server = await startServer((r) => (r.path === "/vps/first" && r.n === 0 ? reply.fail(429, "RATE_LIMITED", "Too many requests", {}, { "retry-after": "1" }) : reply.ok({ id: r.path })));
  const events: RequestEvent[] = [];
  // The clock stands still: the bucket's 9 tokens go at once and the rest wait until it moves.
  const client = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey: freshKey("attempts"), clock, onRequest: (e) => events.push(e) });
  try {
    const ids = ["first", ...Array.from({ length: 11 }, (_, i) => `q${i + 1}`)];
    const calls = Promise.all(ids.map((id) => client.call("vps.get", { params: { id } }).catch((e: unknown) => e)));
    // The first 9 answered (the first with its 429) and 3 queued; the retry of the first waits behind the pause.
    while (events.length < 9) await settle();
    await advance(1000);
    // Then a token each 100 ms: each request is let reach the server before the next token, so the
    // order the server sees is the order the bucket served them.
    for (let seen = 10; seen <= 13; seen++) {
      await advance(100);
      while (server.requests.length < seen) await settle();
    }
    await calls;

    const paths = server.requests.map((r) => r.path);
    expect(paths.slice(0, 9)).toEqual(ids.slice(0, 9).map((id) => `/vps/${id}`));
    expect(paths.slice(9)).toEqual(["/vps/first", "/vps/q9", "/vps/q10", "/vps/q11"]);
    expect(events.filter((e) => e.path === "/vps/first").map((e) => [e.attempt, e.status])).toEqual([
      [1, 429],
      [2, 200],
    ]);
  } finally {
    await client.close();
    await server.close();
  }
});
