/**
 * Coalesced polling: when several resources in one provider process wait for the same kind of
 * object (servers settling, email jobs finishing, sending domains being verified), one list call
 * per tick serves them all; an individual GET only when a waiter is alone or its object is missing
 * from the list. The tick adapts: 0.5 s, growing ×1.5 (with jitter) to 5 s, back to 0.5 s when a
 * new waiter arrives or a tick finds some waiters done. Every call goes through the client, so
 * through the key's rate-limit bucket.
 *
 * A waiter that knows how long its transition usually takes (`expectedMs`: a server create, a
 * termination) is not polled through it (issue 16): the answer that started it already said it is
 * under way, so its first read comes 0.5 s later (a fast transition is seen there), its second
 * at the usual end, and only then does it follow the tick.
 */
import { isApiError } from "./errors";
import type { ApiClient } from "./http";
import type { RouteId } from "../../contract/routes";
import { Backoff, POLL } from "./backoff";
import { WaitTimeoutError } from "./wait";

export interface PollKind<T> {
  /** Route answering the whole list (`vps.list`, `email.jobs.list`, …). */
  list: RouteId;
  /** Route answering one object, and the name of its id parameter. */
  get: RouteId;
  param: string;
  idOf(item: T): string;
}

interface Waiter<T> {
  id: string;
  isDone(item: T | undefined): boolean;
  resolve(item: T | undefined): void;
  reject(err: unknown): void;
  started: number;
  /** Read at least once: a waiter that arrived during a tick is read at once after it. */
  seen: boolean;
  timeoutMs: number;
  what: string;
  describe(item: T | undefined): string;
  last?: T;
  expectedMs?: number;
  /** Not read before this time (epoch ms; 0: whenever the tick comes). */
  dueAt: number;
}

const FIRST_MS = POLL.firstMs;

export class Poller<T> {
  private waiters: Waiter<T>[] = [];
  private timer?: NodeJS.Timeout;
  private nextAt = Infinity;
  /** The tick's POLL steps: back to the first when a waiter arrives or some are done. */
  private readonly interval = new Backoff(POLL);
  private ticking = false;

  constructor(
    private readonly api: ApiClient,
    private readonly kind: PollKind<T>,
    /** false: every waiter reads its own object (to measure what coalescing saves). */
    private readonly coalesce = process.env.SVC_POLL_COALESCING !== "off",
  ) {}

  /**
   * Resolves with the object (undefined once it is gone, 404) when `isDone` says so; rejects with
   * WaitTimeoutError naming what it waited for, the last state and how long.
   */
  waitFor(
    id: string,
    isDone: (item: T | undefined) => boolean,
    options: { what: string; timeoutMs: number; describe?: (item: T | undefined) => string; expectedMs?: number },
  ): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const dueAt = options.expectedMs ? started + FIRST_MS : 0;
      this.waiters.push({
        id,
        isDone,
        resolve,
        reject,
        started,
        seen: false,
        expectedMs: options.expectedMs,
        dueAt,
        timeoutMs: options.timeoutMs,
        what: options.what,
        describe: options.describe ?? ((item) => JSON.stringify(item ?? "gone")),
      });
      // A new waiter is read at once (within this macrotask, together with its siblings), or when due.
      this.interval.reset();
      this.schedule(Math.max(0, dueAt - started));
    });
  }

  private schedule(delayMs: number): void {
    const at = Date.now() + delayMs;
    if (this.ticking || at >= this.nextAt) return;
    clearTimeout(this.timer);
    this.nextAt = at;
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async readOne(id: string): Promise<T | undefined> {
    try {
      return (await this.api.call(this.kind.get, { params: { [this.kind.param]: id } } as never)) as T;
    } catch (err) {
      if (isApiError(err) && err.status === 404) return undefined;
      throw err;
    }
  }

  /** One list call for several ids (coalescing on), then each id the list did not answer. */
  private async read(ids: string[]): Promise<Map<string, T | undefined>> {
    const items = new Map<string, T | undefined>();
    if (this.coalesce && ids.length > 1) {
      const listed = (await this.api.call(this.kind.list, {} as never)) as T[];
      for (const item of listed) items.set(this.kind.idOf(item), item);
    }
    for (const id of ids) if (!items.has(id)) items.set(id, await this.readOne(id));
    return items;
  }

  private async tick(): Promise<void> {
    this.nextAt = Infinity;
    this.ticking = true;
    // Waiters not due yet are not a reason to tick, but a list read now answers them too.
    const round = [...this.waiters];
    let arrived = 0;
    try {
      const ids = [...new Set(round.map((w) => w.id))];
      const items = await this.read(ids);
      for (const w of round) {
        const item = items.get(w.id);
        w.last = item;
        // Under way at its first read: the next read when its transition usually has ended.
        if (!w.seen && w.expectedMs) w.dueAt = w.started + Math.min(w.expectedMs, w.timeoutMs);
        w.seen = true;
        if (w.isDone(item)) {
          arrived++;
          this.settle(w, () => w.resolve(item));
        }
        else if (Date.now() - w.started >= w.timeoutMs) {
          this.settle(w, () => w.reject(new WaitTimeoutError(w.what, w.last, Date.now() - w.started, w.describe)));
        }
      }
    } catch (err) {
      // A failed read fails this round's waiters, as a failed read fails a lone wait.
      for (const w of round) this.settle(w, () => w.reject(err));
    } finally {
      this.ticking = false;
    }
    const now = Date.now();
    const unseen = this.waiters.filter((w) => !w.seen);
    if (unseen.length) this.schedule(Math.max(0, Math.min(...unseen.map((w) => w.dueAt)) - now));
    else if (this.waiters.length > 0) {
      // Some waited-for objects just got there: the others, started about when they did, are
      // likely close behind. Back to the short tick (one call serves them all) rather than leaving
      // them up to 5 s late.
      if (arrived > 0) this.interval.reset();
      const jittered = this.interval.next();
      // Every waiter still inside its usual transition time: nothing to read until the first is due.
      const earliestDue = Math.min(...this.waiters.map((w) => w.dueAt));
      if (earliestDue - now > jittered) this.interval.reset();
      this.schedule(Math.max(jittered, earliestDue - now));
    }
  }

  private settle(w: Waiter<T>, done: () => void): void {
    this.waiters = this.waiters.filter((x) => x !== w);
    done();
  }
}
