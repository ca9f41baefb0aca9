/**
 * TokenBucket on an injected fake clock: time moves only when the test says so.
 */
import { TokenBucket, type Clock } from "../../provider/client";

/** Lets every pending promise continuation and immediate run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

class FakeClock implements Clock {
  private t = 0;
  private sleepers: { until: number; resolve: () => void }[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const sleeper = { until: this.t + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        "abort",
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Moves time forward by `ms`, waking each sleeper at its own instant, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await settle();
    for (;;) {
      const due = this.sleepers.filter((s) => s.until <= target).sort((a, b) => a.until - b.until)[0];
      if (!due) break;
      this.t = Math.max(this.t, due.until);
      this.sleepers = this.sleepers.filter((s) => s !== due);
      due.resolve();
      await settle();
    }
    this.t = target;
    await settle();
  }
}

/** Watches a promise: when (on the fake clock) it resolved, or why it rejected. */
function watch(p: Promise<void>, clock: FakeClock) {
  const state: { resolvedAt?: number; error?: unknown } = {};
  p.then(
    () => (state.resolvedAt = clock.now()),
    (err: unknown) => (state.error = err),
  );
  return state;
}

let clock: FakeClock;
let bucket: TokenBucket;

beforeEach(() => {
  clock = new FakeClock();
  bucket = new TokenBucket(10, 10, clock);
});

test("starts full: 10 takes go at once, the 11th waits 100 ms", async () => {
  const takes = Array.from({ length: 11 }, () => watch(bucket.take(), clock));
  await settle();

  expect(takes.slice(0, 10).map((t) => t.resolvedAt)).toEqual(Array(10).fill(0));
  expect(takes[10].resolvedAt).toBeUndefined();

  await clock.advance(99);
  expect(takes[10].resolvedAt).toBeUndefined();
  await clock.advance(1);
  expect(takes[10].resolvedAt).toBe(100);
});

test("refills continuously at 10 per second, first come first served, up to the capacity", async () => {
  for (let i = 0; i < 10; i++) await bucket.take();

  // 250 ms after the bucket ran dry: 2.5 tokens. Two go at once, the third at 300 ms.
  await clock.advance(250);
  const takes = Array.from({ length: 4 }, () => watch(bucket.take(), clock));
  await settle();
  expect(takes.map((t) => t.resolvedAt)).toEqual([250, 250, undefined, undefined]);
  await clock.advance(50);
  expect(takes.map((t) => t.resolvedAt)).toEqual([250, 250, 300, undefined]);
  await clock.advance(100);
  expect(takes[3].resolvedAt).toBe(400);

  // A long idle time refills no more than the capacity.
  await clock.advance(60_000);
  const after = Array.from({ length: 11 }, () => watch(bucket.take(), clock));
  await settle();
  expect(after.filter((t) => t.resolvedAt === 60_400)).toHaveLength(10);
  expect(after[10].resolvedAt).toBeUndefined();
  await clock.advance(100);
  expect(after[10].resolvedAt).toBe(60_500);
});

test("pause() holds every take until it ends, even with a full bucket, then restarts from empty", async () => {
  bucket.pause(2000);
  const takes = Array.from({ length: 3 }, () => watch(bucket.take(), clock));

  await clock.advance(1999);
  expect(takes.every((t) => t.resolvedAt === undefined)).toBe(true);

  // The bucket was emptied by the refusal: one token per 100 ms after the pause.
  await clock.advance(301);
  expect(takes.map((t) => t.resolvedAt)).toEqual([2100, 2200, 2300]);
});

test("a shorter pause does not cut a longer one short; a longer one extends it", async () => {
  bucket.pause(2000);
  bucket.pause(500);
  const first = watch(bucket.take(), clock);
  await clock.advance(1000);
  expect(first.resolvedAt).toBeUndefined();

  bucket.pause(3000); // now until 4000
  await clock.advance(2500);
  expect(first.resolvedAt).toBeUndefined();
  await clock.advance(600);
  expect(first.resolvedAt).toBe(4100);
});

test("an aborted take leaves the queue and rejects with the signal's reason; the others keep their order", async () => {
  for (let i = 0; i < 10; i++) await bucket.take();

  const controller = new AbortController();
  const a = watch(bucket.take({ signal: controller.signal }), clock);
  const b = watch(bucket.take(), clock);
  const c = watch(bucket.take(), clock);

  await clock.advance(50);
  const reason = new Error("cancelled by the caller");
  controller.abort(reason);
  await settle();
  expect(a.error).toBe(reason);

  // The aborted waiter consumed nothing: b gets the first token, c the second.
  await clock.advance(50);
  expect(b.resolvedAt).toBe(100);
  expect(c.resolvedAt).toBeUndefined();
  await clock.advance(100);
  expect(c.resolvedAt).toBe(200);
  expect(a.resolvedAt).toBeUndefined();
});

test("a take with an already aborted signal rejects at once and consumes nothing", async () => {
  const controller = new AbortController();
  controller.abort(new Error("too late"));

  await expect(bucket.take({ signal: controller.signal })).rejects.toThrow("too late");

  const takes = Array.from({ length: 10 }, () => watch(bucket.take(), clock));
  await settle();
  expect(takes.every((t) => t.resolvedAt === 0)).toBe(true);
});

test("a shared read goes ahead of the requests queued before it, behind earlier shared reads; a 429 retry still comes first", async () => {
  for (let i = 0; i < 10; i++) await bucket.take();
  const writes = Array.from({ length: 5 }, () => watch(bucket.take(), clock));
  const firstShared = watch(bucket.take({ shared: true }), clock);
  const secondShared = watch(bucket.take({ shared: true }), clock);
  const retried = watch(bucket.take({ refused: true }), clock);

  await clock.advance(800);
  // One token per 100 ms: the retry, then the shared reads in their order, then the queued requests in theirs.
  expect([retried, firstShared, secondShared, ...writes].map((t) => t.resolvedAt)).toEqual([100, 200, 300, 400, 500, 600, 700, 800]);
});
