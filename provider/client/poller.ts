/**
 * The one polling engine: waiters of one kind of object (servers settling, email jobs finishing,
 * sending domains being verified, a backup add-on being set up) share its reads. On the POLL
 * schedule (backoff.ts): a new waiter is read at once, together with the waiters that arrived in
 * the same moment; then each tick reads every waiter, 0.5 s growing ×1.5 (with jitter) to 5 s, back
 * to 0.5 s when a new waiter arrives or a tick finds some waiters done. A waiter's last read comes
 * at its time limit, not after it.
 *
 * Where it reads is the caller's: for the platform's objects `listOrGet` (one list call per tick
 * serves them all; a GET only when a waiter is alone or its object is missing from the list), for a
 * state only a function of the caller's can tell `waitFor` (a Poller of one waiter). Every read is an
 * API call, so it goes through the key's rate-limit bucket like any other.
 *
 * A waiter that knows how long its transition usually takes (`expectedMs`: a server create, a
 * termination) is not polled through it (issue 16): the answer that started it already said it is
 * under way, so its first read comes one step later (a fast transition is seen there), its second
 * at the usual end, and only then does it follow the tick, from its first step.
 */
import { ClientCodes, isApiError } from "./errors";
import { debugLog } from "../log";
import type { ApiClient } from "./http";
import type { RouteId } from "../../contract/routes";
import { Backoff, POLL, systemClock, type Clock, type Schedule } from "./backoff";

/** Reads the objects of `ids` (undefined: gone). */
export type ReadObjects<T> = (ids: string[]) => Promise<Map<string, T | undefined>>;

export interface WaitOptions<T> {
  /** What is awaited, for the timeout message: `server 3f2… to be running`. */
  what: string;
  timeoutMs: number;
  /** How the last state reads in the timeout message (default: JSON). */
  describe?: (state: T | undefined) => string;
  /** How long the awaited transition usually takes, from the wait's start (see above). */
  expectedMs?: number;
  /** The caller has just seen the state (in a call's answer): the first read waits this long
   * (default: at once, or one step with `expectedMs`). */
  firstReadInMs?: number;
  /** Stops the wait: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A wait ran out of time: `what` it waited for, the last state seen, how long; `code` WAIT_TIMEOUT. */
export class WaitTimeoutError<T = unknown> extends Error {
  readonly code = ClientCodes.WAIT_TIMEOUT;
  constructor(
    readonly what: string,
    readonly lastState: T,
    readonly waitedMs: number,
    describe: (state: T) => string,
  ) {
    super(`timed out after ${Math.round(waitedMs / 1000)} s waiting for ${what}; last state seen: ${describe(lastState)}`);
    this.name = "WaitTimeoutError";
  }
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
  /** Not read before this time (0: whenever the tick comes). */
  dueAt: number;
}

export interface PollerOptions {
  schedule?: Schedule;
  clock?: Clock;
  random?: () => number;
}

export class Poller<T> {
  private waiters: Waiter<T>[] = [];
  private readonly clock: Clock;
  private readonly schedule: Schedule;
  /** The tick's steps: back to the first when a waiter arrives or some are done. */
  private readonly interval: Backoff;
  private nextReadAt = Infinity;
  /** Ends the loop's sleep early: a waiter arrived that is due sooner, or one stopped. */
  private wake?: AbortController;
  private looping = false;

  constructor(
    private readonly readObjects: ReadObjects<T>,
    options: PollerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.schedule = options.schedule ?? POLL;
    this.interval = new Backoff(this.schedule, options.random);
  }

  /**
   * Resolves with the object (undefined once it is gone) when `isDone` says so; rejects with
   * WaitTimeoutError naming what it waited for, the last state and how long.
   */
  waitFor(id: string, isDone: (item: T | undefined) => boolean, options: WaitOptions<T>): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(options.signal.reason);
      const started = this.clock.now();
      const firstReadInMs = options.firstReadInMs ?? (options.expectedMs ? this.schedule.firstMs : 0);
      const waiter: Waiter<T> = {
        id,
        isDone,
        resolve,
        reject,
        started,
        seen: false,
        expectedMs: options.expectedMs,
        dueAt: started + Math.min(firstReadInMs, options.timeoutMs),
        timeoutMs: options.timeoutMs,
        what: options.what,
        describe: options.describe ?? ((item) => JSON.stringify(item ?? "gone")),
      };
      this.waiters.push(waiter);
      debugLog(`wait for ${waiter.what}: up to ${Math.round(waiter.timeoutMs / 1000)} s${options.expectedMs ? `, usually ${Math.round(options.expectedMs / 1000)} s` : ""}`);
      options.signal?.addEventListener("abort", () => this.settle(waiter, () => reject(options.signal!.reason)), { once: true });
      this.interval.reset();
      this.readBy(waiter.dueAt);
    });
  }

  /** The next read comes no later than `at`. */
  private readBy(at: number): void {
    if (at >= this.nextReadAt) return;
    this.nextReadAt = at;
    this.wake?.abort();
    if (!this.looping) void this.loop();
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      while (this.waiters.length > 0) {
        const delay = this.nextReadAt - this.clock.now();
        this.wake = new AbortController();
        try {
          // At once still lets the waiters arriving in this same moment join the read.
          if (delay > 0) await this.clock.sleep(delay, this.wake.signal);
          else await new Promise((resolve) => setTimeout(resolve, 0));
        } catch {
          continue; // woken: the next read moved
        }
        if (this.wake.signal.aborted) continue;
        this.nextReadAt = Infinity;
        await this.tick();
      }
    } finally {
      this.looping = false;
      this.nextReadAt = Infinity;
    }
  }

  private async tick(): Promise<void> {
    // Waiters not due yet are not a reason to tick, but a read now answers them too.
    const round = [...this.waiters];
    let arrived = 0;
    try {
      const items = await this.readObjects([...new Set(round.map((w) => w.id))]);
      const now = this.clock.now();
      for (const w of round.filter((x) => this.waiters.includes(x))) {
        const item = items.get(w.id);
        w.last = item;
        // Under way at its first read: the next read when its transition usually has ended.
        if (!w.seen && w.expectedMs) w.dueAt = w.started + Math.min(w.expectedMs, w.timeoutMs);
        w.seen = true;
        if (w.isDone(item)) {
          arrived++;
          debugLog(`wait for ${w.what}: done after ${seconds(now - w.started)} s`);
          this.settle(w, () => w.resolve(item));
        } else if (now - w.started >= w.timeoutMs) {
          debugLog(`wait for ${w.what}: timed out after ${seconds(now - w.started)} s`);
          this.settle(w, () => w.reject(new WaitTimeoutError(w.what, w.last, now - w.started, w.describe)));
        }
      }
    } catch (err) {
      // A failed read fails this round's waiters, as a failed read fails a lone wait.
      for (const w of round) {
        if (this.waiters.includes(w)) debugLog(`wait for ${w.what}: ended by a failed read (${(err as { code?: string }).code ?? "error"})`);
        this.settle(w, () => w.reject(err));
      }
    }
    this.planNextRead(arrived > 0);
  }

  private planNextRead(someArrived: boolean): void {
    if (this.waiters.length === 0) return;
    const now = this.clock.now();
    const unseen = this.waiters.filter((w) => !w.seen);
    if (unseen.length) return this.readBy(Math.max(now, Math.min(...unseen.map((w) => w.dueAt))));
    // Some waited-for objects just got there: the others, started about when they did, are likely
    // close behind. Back to the short tick (one read serves them all) rather than leaving them up
    // to 5 s late.
    if (someArrived) this.interval.reset();
    const jittered = this.interval.next();
    // Every waiter still inside its usual transition time: nothing to read until the first is due.
    const earliestDue = Math.min(...this.waiters.map((w) => w.dueAt));
    if (earliestDue - now > jittered) this.interval.reset();
    const deadline = Math.min(...this.waiters.map((w) => w.started + w.timeoutMs));
    this.readBy(Math.min(now + Math.max(jittered, earliestDue - now), Math.max(now, deadline)));
  }

  private settle(w: Waiter<T>, done: () => void): void {
    if (!this.waiters.includes(w)) return;
    this.waiters = this.waiters.filter((x) => x !== w);
    done();
    if (this.waiters.length === 0) this.wake?.abort();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** A platform route pair, for `listOrGet`. */
export interface ListAndGet<T> {
  /** Route answering the whole list (`vps.list`, `email.jobs.list`, …). */
  list: RouteId;
  /** Route answering one object, and the name of its id parameter. */
  get: RouteId;
  param: string;
  idOf(item: T): string;
}

/**
 * Reads through a list route and a get route: one list call for several ids (coalescing on), then
 * each id the list did not answer by GET (404: gone). `coalesce` false: every waiter reads its own
 * object (to measure what coalescing saves).
 */
export function listOrGet<T>(api: ApiClient, kind: ListAndGet<T>, coalesce = process.env.SVC_POLL_COALESCING !== "off"): ReadObjects<T> {
  const readOne = async (id: string): Promise<T | undefined> => {
    try {
      return (await api.call(kind.get, { params: { [kind.param]: id } } as never)) as T;
    } catch (err) {
      if (isApiError(err) && err.status === 404) return undefined;
      throw err;
    }
  };
  return async (ids) => {
    const items = new Map<string, T | undefined>();
    if (coalesce && ids.length > 1) {
      const listed = (await api.call(kind.list, {} as never)) as T[];
      for (const item of listed) items.set(kind.idOf(item), item);
    }
    for (const id of ids) if (!items.has(id)) items.set(id, await readOne(id));
    return items;
  };
}

/**
 * Waits for one state only the caller's `read` can tell: a Poller of one waiter, on POLL (or the
 * steps given).
 */
export async function waitFor<T>(
  read: (signal?: AbortSignal) => Promise<T>,
  isDone: (state: T) => boolean,
  options: Omit<WaitOptions<T>, "describe"> & PollerOptions & { describe?: (state: T) => string; firstDelayMs?: number; maxDelayMs?: number },
): Promise<T> {
  const schedule = { ...POLL, firstMs: options.firstDelayMs ?? POLL.firstMs, maxMs: options.maxDelayMs ?? POLL.maxMs };
  const poller = new Poller<T>(async () => new Map([["", await read(options.signal)]]), { ...options, schedule });
  const describe = options.describe as WaitOptions<T>["describe"];
  return (await poller.waitFor("", (state) => isDone(state as T), { ...options, describe })) as T;
}
