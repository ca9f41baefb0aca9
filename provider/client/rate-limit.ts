/**
 * Token bucket per API key (the server's is 10, refilled 10/s continuously; ours holds 9, see
 * CLIENT_BURST), shared through one `RateLimits` by every client object that uses the key: the
 * platform's limit is per key across all APIs, whatever profile names the key. Waiters are served
 * first come, first served (a request refused with 429 keeps its place at the head), except shared
 * reads (`take`'s `shared`), which go ahead of the other requests queued; a 429 pauses the whole
 * bucket until Retry-After.
 */
import { createHash } from "node:crypto";
import { systemClock, type Clock } from "./clock";

export interface TakeOptions {
  /** Stops the wait for a token: `take` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The server refused this request with 429: it keeps its place at the head of the line. */
  refused?: boolean;
  /** A read whose one answer serves many waiters (CallOptions.shared): it goes ahead of the queue. */
  shared?: boolean;
}

interface Waiter {
  shared: boolean;
  resolve(): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class TokenBucket {
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private readonly waiters: Waiter[] = [];
  private pumping = false;

  constructor(
    readonly capacity = 10,
    readonly perSecond = 10,
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = capacity;
    this.refilledAt = clock.now();
  }

  /**
   * Resolves when the caller may send one request. `refused`: a request the server refused with 429
   * goes to the head of the line, as it was served once already, instead of waiting behind every
   * request queued since. `shared`: a read whose one answer serves many waiters and is only good
   * fresh (the email jobs' `GET /jobs`, a `Listing` made with `shared`) goes ahead of the other
   * requests queued (behind earlier shared ones). Behind a queue of hundreds of creates its answer
   * would come tens of seconds late, when the jobs it waits for are no longer among the 50 newest it
   * holds (each then read by id); its poller has one such read under way at most, so it cannot hold
   * the queued requests back by more than a token at a time.
   */
  take(options: TakeOptions = {}): Promise<void> {
    const { signal, refused = false, shared = false } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { shared, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      if (refused) this.waiters.unshift(waiter);
      else if (shared) {
        const firstUnshared = this.waiters.findIndex((w) => !w.shared);
        this.waiters.splice(firstUnshared < 0 ? this.waiters.length : firstUnshared, 0, waiter);
      } else this.waiters.push(waiter);
      void this.pump();
    });
  }

  /** The server refused a request (429): nobody sends with this key for `ms`. */
  pause(ms: number): void {
    const until = this.clock.now() + ms;
    if (until > this.pausedUntil) this.pausedUntil = until;
    this.tokens = 0;
    this.refilledAt = this.pausedUntil;
  }

  private refill(now: number): void {
    if (now <= this.refilledAt) return;
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiters.length > 0) {
        const now = this.clock.now();
        if (now < this.pausedUntil) {
          await this.clock.sleep(this.pausedUntil - now);
          continue;
        }
        this.refill(now);
        if (this.tokens >= 1) {
          this.tokens -= 1;
          const waiter = this.waiters.shift()!;
          if (waiter.onAbort) waiter.signal!.removeEventListener("abort", waiter.onAbort);
          waiter.resolve();
          continue;
        }
        await this.clock.sleep(((1 - this.tokens) / this.perSecond) * 1000);
      }
    } finally {
      this.pumping = false;
    }
  }
}

/**
 * The client's burst: one short of the server's 10. Requests that leave together reach the server
 * spread by connection setup (a new connection's handshake vs a kept-alive one), so with a full
 * 10 the request sent 100 ms later on a warm connection could arrive only ~50 ms after the burst
 * did and find the server's bucket empty (a 429 and a second's pause). One token of margin absorbs up
 * to 100 ms of such skew; the steady rate stays the server's 10 per second.
 */
export const CLIENT_BURST = 9;

/**
 * The buckets of every key the clients given this object use: one per key, made on its first use.
 * Whoever makes the clients of a process makes one of these and hands it to all of them
 * (context.ts, `ApiContexts`), so that clients of one key share its bucket; a client made without
 * one limits itself alone. Keyed by a hash, so it never holds a key.
 */
export class RateLimits {
  private readonly buckets = new Map<string, TokenBucket>();

  /** The key's bucket; `clock` is used when this call makes it. */
  forKey(apiKey: string, clock?: Clock): TokenBucket {
    const id = createHash("sha256").update(apiKey).digest("hex");
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = new TokenBucket(CLIENT_BURST, 10, clock);
      this.buckets.set(id, bucket);
    }
    return bucket;
  }
}
