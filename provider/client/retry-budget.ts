/**
 * The retry budget of one client (smithy's StandardRetryStrategy and its retry quota): every retry of
 * a failed request draws from one store shared by all the client's requests, and successes refill it.
 * A request alone keeps its 5 attempts; a fleet whose requests fail together (the API down, the
 * network gone) spends the store and then fails at once, instead of each request retrying on its own
 * and multiplying the load on an API that is already failing.
 *
 * The figures are smithy's: 500 in store, a retry costs 5 (10 after a timeout, which held a
 * connection for long), a success gives back what its last retry cost, or 1 when it needed none. So
 * 25 requests failing together can each spend their 4 retries (12 when every failure is a timeout)
 * before the store is empty, and no single request ever finds it empty on its own. A 429 draws
 * nothing: it was refused before acting, and the key's bucket, paused until Retry-After, already
 * spaces the repeats of every client of the key.
 */
export interface RetryCosts {
  capacity: number;
  /** What a retry after a network error or a 5xx draws. */
  retryCost: number;
  /** What a retry after a timeout draws. */
  timeoutCost: number;
  /** What a success that needed no retry gives back. */
  successRefill: number;
}

export const RETRY_COSTS: RetryCosts = { capacity: 500, retryCost: 5, timeoutCost: 10, successRefill: 1 };

export class RetryBudget {
  private available: number;

  constructor(private readonly costs: RetryCosts = RETRY_COSTS) {
    this.available = costs.capacity;
  }

  /** What the store holds now. */
  get remaining(): number {
    return this.available;
  }

  /** Draws the cost of one retry: answers what it drew, or undefined when the store cannot pay it. */
  draw(afterTimeout: boolean): number | undefined {
    const cost = afterTimeout ? this.costs.timeoutCost : this.costs.retryCost;
    if (cost > this.available) return undefined;
    this.available -= cost;
    return cost;
  }

  /** A request succeeded: `lastDrawn` is what its last retry drew (undefined: it needed none). */
  succeeded(lastDrawn: number | undefined): void {
    this.available = Math.min(this.costs.capacity, this.available + (lastDrawn ?? this.costs.successRefill));
  }
}
