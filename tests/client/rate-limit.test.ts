/**
 * Per-key rate limit against a real HTTP server: the spec allows 10 requests per second per key
 * with a burst of 10, refilled continuously, shared by every client of the key; a 429 holds the key
 * for Retry-After seconds.
 */
import { performance } from "node:perf_hooks";
import { ApiClient } from "../../provider/client";
import { CLIENT_BURST, RateLimits } from "../../provider/client/rate-limit";
import { freshKey, reply, startServer, type TestServer } from "../support/http-server";

/**
 * Tolerance of the bucket check, in ms of refill. The client's bucket runs on Date.now() (1 ms steps) while
 * the server stamps arrivals with performance.now(), and each request then crosses a loopback socket
 * whose latency varies by a few ms (a fresh connection vs a kept-alive one). A request sent exactly on
 * time can therefore arrive a few ms later than its predecessor ten places earlier did, relative to
 * when they were sent. 25 ms is 2.5 % of the window: any real excess (one extra request per second)
 * would show as a 100 ms gap, far outside it.
 */
const EPSILON_MS = 25;

let server: TestServer;
const clients: ApiClient[] = [];
/** The per-key buckets of the test's process, as the provider's contexts share them (context.ts, ApiContexts). */
let rateLimits: RateLimits;

function client(apiKey: string): ApiClient {
  const c = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey, retry: { baseMs: 10 }, rateLimits });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  rateLimits = new RateLimits();
  server = await startServer(() => reply.ok([]));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

/** Most arrivals in any window [t_i - 1000 + epsilon, t_i] over sorted arrival times, counting only
 * windows that start after `after` (the burst's last arrival). */
function maxInWindowAfter(times: number[], after: number, epsilon: number): number {
  let worst = 0;
  for (let i = 0; i < times.length; i++) {
    const start = times[i] - 1000 + epsilon;
    if (start <= after) continue;
    worst = Math.max(worst, times.filter((t) => t >= start && t <= times[i]).length);
  }
  return worst;
}

/** Date.now() steps by whole ms: the bucket may release a token up to 1 ms early in real time. */
const CLOCK_STEP_MS = 2;

test("60 concurrent GETs through three clients of one key: a burst, then 10 per second, never more than the server's bucket allows", async () => {
  const key = freshKey("shared");
  const three = [client(key), client(key), client(key)];

  const sentFrom = performance.now();
  const results = await Promise.all(
    Array.from({ length: 60 }, (_, i) => three[i % 3].call("vps.list")),
  );

  expect(results).toHaveLength(60);
  expect(results.every((r) => Array.isArray(r) && r.length === 0)).toBe(true);
  expect(server.requests).toHaveLength(60);
  expect(server.requests.every((r) => r.method === "GET" && r.path === "/vps")).toBe(true);

  const times = server.requests.map((r) => r.at).sort((a, b) => a - b);
  const rel = times.map((t) => t - sentFrom);

  // The client's bucket, measured from the moment the calls were made: 9 at once (one short of the
  // server's 10, see CLIENT_BURST), then the k-th further request no earlier than k x 100 ms.
  // Latency only delays arrivals, so this holds with no tolerance beyond the clock's 1 ms step.
  for (let i = CLIENT_BURST; i < 60; i++) expect(rel[i]).toBeGreaterThanOrEqual((i - CLIENT_BURST + 1) * 100 - CLOCK_STEP_MS);

  // What the server checks: the spec's bucket (10, refilled continuously at 10 per second, full at
  // the first arrival) never runs dry at an arrival. A request delayed on its way (a busy event loop,
  // loopback jitter) only leaves tokens unspent, so unlike a sliding window this does not flake under
  // load; EPSILON_MS of refill absorbs the clock step between the two sides.
  let tokens = 10;
  let lowest = Infinity;
  for (let i = 0; i < times.length; i++) {
    if (i > 0) tokens = Math.min(10, tokens + ((times[i] - times[i - 1]) / 1000) * 10);
    tokens -= 1;
    lowest = Math.min(lowest, tokens);
  }
  expect(lowest).toBeGreaterThanOrEqual(-EPSILON_MS / 100);
  const worst = maxInWindowAfter(times, times[CLIENT_BURST - 1], EPSILON_MS);
  let minSpan11 = Infinity;
  for (let j = CLIENT_BURST; j + 10 < times.length; j++) minSpan11 = Math.min(minSpan11, times[j + 10] - times[j]);
  // Not slower than needed: 10 at once plus 50 at 10/s ends at 5 s.
  expect(rel[59]).toBeLessThan(5600);

  console.log(
    `rate limit, 60 GETs on one key: burst of ${CLIENT_BURST} arrived ${rel[0].toFixed(1)}-${rel[CLIENT_BURST - 1].toFixed(1)} ms, the next at ${rel[CLIENT_BURST].toFixed(1)} ms, ` +
      `max in any post-burst window [t-1000+${EPSILON_MS}, t]=${worst}, with no tolerance [t-1000, t]=${maxInWindowAfter(times, times[CLIENT_BURST - 1], 0)}, ` +
      `min span of 11 consecutive post-burst arrivals=${minSpan11.toFixed(1)} ms, lowest bucket level at an arrival=${lowest.toFixed(2)}, last arrival at ${rel[59].toFixed(0)} ms`,
  );
});

test("two keys do not slow each other: 20 + 20 in parallel take as long as 20 on one key", async () => {
  const keyA = freshKey("a");
  const keyB = freshKey("b");
  const a = client(keyA);
  const b = client(keyB);

  const sentFrom = performance.now();
  await Promise.all([
    ...Array.from({ length: 20 }, () => a.call("vps.list")),
    ...Array.from({ length: 20 }, () => b.call("vps.list")),
  ]);
  const elapsed = performance.now() - sentFrom;

  expect(server.requests).toHaveLength(40);
  const arrivals = (key: string) =>
    server.requests.filter((r) => r.headers.authorization === `Bearer ${key}`).map((r) => r.at - sentFrom).sort((x, y) => x - y);
  const relA = arrivals(keyA);
  const relB = arrivals(keyB);
  // Each key still obeys its own limit: a burst, then one per 100 ms, the 20th at ~1.1 s.
  for (const rel of [relA, relB]) {
    expect(rel).toHaveLength(20);
    for (let i = CLIENT_BURST; i < 20; i++) expect(rel[i]).toBeGreaterThanOrEqual((i - CLIENT_BURST + 1) * 100 - CLOCK_STEP_MS);
    expect(rel[19]).toBeLessThan(1400);
  }
  // Together: 40 requests in about 1.1 s. Through one bucket, 40 would need over 3 s.
  expect(elapsed).toBeLessThan(1600);
  // Both bursts went at once: through one bucket the last of the 2 × CLIENT_BURST first arrivals
  // would wait for CLIENT_BURST refills (900 ms); half that leaves room for a loaded machine's late
  // first connections, which can push a burst past the first refill (100 ms).
  const all = [...relA, ...relB].sort((x, y) => x - y);
  const oneBucket = CLIENT_BURST * 100;
  expect(all[2 * CLIENT_BURST - 1]).toBeLessThan(oneBucket / 2);

  console.log(
    `two keys, 20 + 20 in parallel: ${elapsed.toFixed(0)} ms in all (key A last arrival ${relA[19].toFixed(0)} ms, key B ${relB[19].toFixed(0)} ms; ` +
      `both bursts (${2 * CLIENT_BURST}) arrived within ${all[2 * CLIENT_BURST - 1].toFixed(1)} ms)`,
  );
});

test("a 429 with Retry-After: 2 holds every request of the key for 2 s, across client objects, then all succeed", async () => {
  const key = freshKey("held");
  const first = client(key);
  const second = client(key);

  // Spend the key's burst first (this also opens first's connections), so that the requests below
  // leave one per 100 ms: the refused one first, the others queued in the bucket behind it.
  await Promise.all(Array.from({ length: 10 }, () => first.call("vps.list")));
  const refusedIndex = 10;

  let refusedAnswered!: () => void;
  const refusedSent = new Promise<void>((resolve) => (refusedAnswered = resolve));
  server.handle((r) => {
    if (r.n === refusedIndex) {
      setImmediate(refusedAnswered);
      return reply.fail(429, "RATE_LIMITED", "Too many requests", {}, { "retry-after": "2" });
    }
    return reply.ok([]);
  });

  const queued = Array.from({ length: 6 }, () => first.call("vps.list"));
  // During the hold another client object of the same key asks too.
  await refusedSent;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const late = Array.from({ length: 3 }, () => second.call("vps.list"));

  const results = await Promise.all([...queued, ...late]);
  expect(results).toHaveLength(9);
  expect(results.every((r) => Array.isArray(r))).toBe(true);

  const refused = server.requests[refusedIndex];
  expect(refused.status).toBe(429);
  const answered = refused.answeredAt!;
  // 10 + 6 + 3 calls, plus the refused one sent again: 20 requests.
  expect(server.requests).toHaveLength(20);
  const after = server.requests.slice(refusedIndex + 1);
  // The 5 queued behind it, its own repeat, and the 3 late ones: none before 2 s had passed.
  expect(after).toHaveLength(9);
  const holds = after.map((r) => r.at - answered);
  expect(Math.min(...holds)).toBeGreaterThanOrEqual(2000);
  expect(after.every((r) => r.status === 200)).toBe(true);
  // After the hold the key restarts from an empty bucket, one request per 100 ms.
  expect(Math.max(...holds)).toBeLessThan(3500);

  console.log(
    `429 Retry-After 2: the first request after the refusal arrived ${Math.min(...holds).toFixed(1)} ms after it was answered, ` +
      `the last ${Math.max(...holds).toFixed(0)} ms after`,
  );
});
