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
 * Reads that only want the object as it is now (`read`: refresh, adoption, a create's look for an
 * earlier attempt's object) join the same ticks, so a refresh's concurrent reads of one kind cost one
 * list call. They may also be answered by a list this client asked for a moment ago (`Listing`,
 * RECENT_MS) when it has written nothing since: under the CLI a refresh's reads arrive a few at a
 * time (its worker pool is 4 × CPUs), not all at once, and one list still answers them all. Waits never
 * take such an answer: they read the state after they started.
 *
 * A waiter that knows how long its transition usually takes (`expectedMs`: a server create, a
 * termination) is not polled through it (issue 16): the answer that started it already said it is
 * under way, so its first read comes one step later (a fast transition is seen there), its second
 * at the usual end, and only then does it follow the tick, from its first step.
 */
import { apiErrorOf, WaitTimeoutError } from "./errors";
import { debugLogger, type DebugLog } from "../log";
import type { ApiClient } from "./http";
import type { RouteId } from "../../contract/routes";
import { Backoff, POLL, type Schedule } from "./backoff";
import { systemClock, type Clock } from "./clock";
import { Deadline } from "./deadline";

/** Reads the objects of `ids` (undefined: gone). `snapshot`: every waiter of the round only wants the
 * object as it is now, so a recent list answer will do (see above). */
export type ReadObjects<T> = (ids: string[], snapshot: boolean) => Promise<Map<string, T | undefined>>;

export interface WaitOptions<T> {
  /** What is awaited, for the timeout message: `server 3f2… to be running`. */
  what: string;
  /** When the wait gives up (WaitTimeoutError), on the poller's clock; its signal stops it sooner. */
  deadline: Deadline;
  /** How the last state reads in the timeout message (default: JSON). */
  describe?: (state: T | undefined) => string;
  /** How long the awaited transition usually takes, from the wait's start (see above). */
  expectedMs?: number;
  /** The caller has just seen the state (in a call's answer): the first read waits this long
   * (default: at once, or one step with `expectedMs`). */
  firstReadInMs?: number;
}

export { WaitTimeoutError };

interface Waiter<T> {
  id: string;
  isDone(item: T | undefined): boolean;
  resolve(item: T | undefined): void;
  reject(err: unknown): void;
  started: number;
  /** Read at least once: a waiter that arrived during a tick is read at once after it. */
  seen: boolean;
  deadline: Deadline;
  /** Removes its listener on the deadline's signal. */
  unlisten(): void;
  what: string;
  describe(item: T | undefined): string;
  last?: T;
  expectedMs?: number;
  /** Not read before this time (0: whenever the tick comes). */
  dueAt: number;
  /** A read of the object as it is now (`read`), not a wait. */
  snapshot: boolean;
}

export interface PollerOptions {
  schedule?: Schedule;
  clock?: Clock;
  random?: () => number;
  /** The debug log its waits are written to (context.ts hands the process's); without it, `SVC_LOG`
   * decides (log.ts). */
  log?: DebugLog;
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
  private readonly log: DebugLog;

  constructor(
    private readonly readObjects: ReadObjects<T>,
    options: PollerOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.schedule = options.schedule ?? POLL;
    this.interval = new Backoff(this.schedule, options.random);
    this.log = options.log ?? debugLogger(undefined);
  }

  /**
   * Resolves with the object (undefined once it is gone) when `isDone` says so; rejects with
   * WaitTimeoutError naming what it waited for, the last state and how long.
   */
  waitFor(id: string, isDone: (item: T | undefined) => boolean, options: WaitOptions<T>): Promise<T | undefined> {
    return this.add(id, isDone, options, false);
  }

  /** The object as it is now (undefined: gone), read with the other reads and waits of this moment. */
  read(id: string): Promise<T | undefined> {
    return this.add(id, () => true, { what: `object ${id}`, deadline: Deadline.none }, true);
  }

  private add(id: string, isDone: (item: T | undefined) => boolean, options: WaitOptions<T>, snapshot: boolean): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      const { deadline } = options;
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
        dueAt: Math.min(started + firstReadInMs, deadline.at),
        snapshot,
        deadline,
        unlisten: () => undefined,
        what: options.what,
        describe: options.describe ?? ((item) => JSON.stringify(item ?? "gone")),
      };
      this.waiters.push(waiter);
      this.log(`wait for ${waiter.what}: up to ${Math.round(deadline.leftMs() / 1000)} s${options.expectedMs ? `, usually ${Math.round(options.expectedMs / 1000)} s` : ""}`);
      waiter.unlisten = deadline.onStop((reason) => this.settle(waiter, () => reject(reason)));
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
      const items = await this.readObjects(
        [...new Set(round.map((w) => w.id))],
        round.every((w) => w.snapshot),
      );
      const now = this.clock.now();
      for (const w of round.filter((x) => this.waiters.includes(x))) {
        const item = items.get(w.id);
        w.last = item;
        // Under way at its first read: the next read when its transition usually has ended.
        if (!w.seen && w.expectedMs) w.dueAt = Math.min(w.started + w.expectedMs, w.deadline.at);
        w.seen = true;
        if (w.isDone(item)) {
          arrived++;
          this.log(`wait for ${w.what}: done after ${seconds(now - w.started)} s`);
          this.settle(w, () => w.resolve(item));
        } else if (now >= w.deadline.at) {
          this.log(`wait for ${w.what}: timed out after ${seconds(now - w.started)} s`);
          this.settle(w, () => w.reject(new WaitTimeoutError(w.what, w.last, now - w.started, w.describe)));
        }
      }
    } catch (err) {
      // A failed read fails this round's waiters, as a failed read fails a lone wait.
      for (const w of round) {
        if (this.waiters.includes(w)) this.log(`wait for ${w.what}: ended by a failed read (${(err as { code?: string }).code ?? "error"})`);
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
    const deadline = Math.min(...this.waiters.map((w) => w.deadline.at));
    this.readBy(Math.min(now + Math.max(jittered, earliestDue - now), Math.max(now, deadline)));
  }

  private settle(w: Waiter<T>, done: () => void): void {
    if (!this.waiters.includes(w)) return;
    this.waiters = this.waiters.filter((x) => x !== w);
    w.unlisten();
    done();
    if (this.waiters.length === 0) this.wake?.abort();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * How long a list answer may serve later snapshot reads, when the client has sent no write since it
 * was asked for (see above): long enough for a refresh's reads arriving through a bounded worker
 * pool, short because what another process changes meanwhile is seen only after it. The CLI starts a
 * provider process per operation, so no answer outlives the operation. `SVC_READ_REUSE_MS` sets it
 * (0: never), for a process that outlives an operation while the world is changed around it (the
 * tests' long-lived provider host).
 */
export const RECENT_MS = 5_000;

function reuseMs(): number {
  const set = Number(process.env.SVC_READ_REUSE_MS);
  return process.env.SVC_READ_REUSE_MS !== undefined && Number.isFinite(set) && set >= 0 ? set : RECENT_MS;
}

interface ListAnswer<T> {
  /** When it was asked for, and the client's write and delete marks then (ApiClient.writeMark, removalMark). */
  at: number;
  mark: number;
  removals: number;
  items: T[];
}

export interface ListingOptions {
  /** The list route's path parameters (a server's firewall rules: `{ id }`). */
  params?: Record<string, string>;
  clock?: Clock;
  /** How long an answer may serve later snapshot reads (default RECENT_MS, or SVC_READ_REUSE_MS). */
  reuseForMs?: number;
  /** Its calls are shared reads (CallOptions.shared): they go ahead of the requests queued for the
   * key, for a list whose late answer costs calls (`GET /jobs` holds only the 50 newest jobs: a
   * waiter's job no longer among them is read by id). */
  shared?: boolean;
}

/**
 * One list route (with its path parameters: a server's firewall rules): concurrent snapshot reads
 * share one call, and a recent answer serves them while this client has written nothing since.
 */
export class Listing<T> {
  private recent?: ListAnswer<T>;
  /** The call under way that a snapshot read may join (none was written when it was sent), with its mark. */
  private inFlight?: { mark: number; answer: Promise<ListAnswer<T>> };
  /** The last call under way, whatever was written meanwhile, with the delete mark it was asked at. */
  private lookupInFlight?: { removals: number; answer: Promise<ListAnswer<T>> };

  private readonly params?: Record<string, string>;
  private readonly clock: Clock;
  private readonly reuseForMs: number;
  private readonly shared: boolean;

  constructor(
    private readonly api: ApiClient,
    private readonly route: RouteId,
    options: ListingOptions = {},
  ) {
    this.params = options.params;
    this.clock = options.clock ?? systemClock;
    this.reuseForMs = options.reuseForMs ?? reuseMs();
    this.shared = options.shared ?? false;
  }

  /** The list as it is now: a recent answer, or the call under way, or a new call. */
  async snapshot(): Promise<T[]> {
    return this.recentItems() ?? (await this.joinOrAsk()).items;
  }

  /**
   * The list for a create's look for what an earlier attempt (an earlier process) made; any answer
   * this process got in the last moment, or the call under way, will do — even with writes of its own
   * since, which made other objects than the one looked for (createOnce, `joinInFlight`). Not after a
   * delete of its own: the object deleted (a replacement's old one, deleted first) would still show.
   */
  async lookup(): Promise<T[]> {
    const r = this.recent;
    if (r && this.clock.now() - r.at < this.reuseForMs && this.api.removedNothingSince(r.removals)) return r.items;
    const inFlight = this.lookupInFlight;
    return (await (inFlight && this.api.removedNothingSince(inFlight.removals) ? inFlight.answer : this.ask())).items;
  }

  /** A recent answer still good for a snapshot read, if any. */
  recentItems(): T[] | undefined {
    const r = this.recent;
    return r && this.clock.now() - r.at < this.reuseForMs && this.api.unchangedSince(r.mark) ? r.items : undefined;
  }

  /** The list from a call sent now: what a wait, or a look after a write, needs. */
  async fresh(): Promise<T[]> {
    return (await this.ask()).items;
  }

  /** The call under way if it still sees every write of this client (none since it was sent), else a new one. */
  private joinOrAsk(): Promise<ListAnswer<T>> {
    return this.inFlight && this.api.unchangedSince(this.inFlight.mark) ? this.inFlight.answer : this.ask();
  }

  private ask(): Promise<ListAnswer<T>> {
    const at = this.clock.now();
    const mark = this.api.writeMark();
    const removals = this.api.removalMark();
    const answer = this.api.call(this.route, { params: this.params, shared: this.shared }).then((data) => {
      const items = data as T[];
      if (!this.recent || this.recent.at <= at) this.recent = { at, mark, removals, items };
      return { at, mark, removals, items };
    });
    // Only a call that sees every write made so far may be joined by a snapshot read.
    if (!Number.isNaN(mark)) this.inFlight = { mark, answer };
    this.lookupInFlight = { removals, answer };
    const clear = () => {
      if (this.inFlight?.answer === answer) this.inFlight = undefined;
      if (this.lookupInFlight?.answer === answer) this.lookupInFlight = undefined;
    };
    answer.then(clear, clear);
    return answer;
  }
}

/** A platform route pair, for `listOrGet`. */
export interface ListAndGet<T> {
  /** The whole list (`vps.list`, `email.jobs.list`, …), shared with the resource's lookups. */
  list: Listing<T>;
  /** Route answering one object, and the name of its id parameter. */
  get: RouteId;
  param: string;
  idOf(item: T): string;
  /** Its gets are shared reads, as the list's are (ListingOptions.shared). */
  shared?: boolean;
}

/** Reads one object by its get route; 404 (whatever the code): gone. `shared`: see CallOptions.shared. */
export function getOrGone<T>(api: ApiClient, route: RouteId, param: string, options: { shared?: boolean } = {}): (id: string) => Promise<T | undefined> {
  return async (id) => {
    try {
      return (await api.call(route, { params: { [param]: id }, shared: options.shared })) as T;
    } catch (err) {
      if (apiErrorOf(err)?.status === 404) return undefined;
      throw err;
    }
  };
}

/**
 * Reads through a list route and a get route: one list call for several ids (coalescing on), then
 * each id the list did not answer by GET (404: gone). A snapshot round reads the list even for one id:
 * its answer serves the reads of that kind that follow (a refresh's arrive a few at a time), where a
 * GET would serve only the one. `coalesce` false: every waiter reads its own object (to measure what
 * coalescing saves).
 */
export function listOrGet<T>(api: ApiClient, kind: ListAndGet<T>, coalesce = process.env.SVC_POLL_COALESCING !== "off"): ReadObjects<T> {
  const readOne = getOrGone<T>(api, kind.get, kind.param, { shared: kind.shared });
  return async (ids, snapshot) => {
    const items = new Map<string, T | undefined>();
    const take = (listed: T[]) => {
      for (const item of listed) if (ids.includes(kind.idOf(item))) items.set(kind.idOf(item), item);
    };
    if (coalesce && snapshot) {
      const recent = kind.list.recentItems();
      if (recent) take(recent);
      if (ids.some((id) => !items.has(id)) && !recent) take(await kind.list.snapshot());
    } else if (coalesce && ids.length > 1) {
      take(await kind.list.fresh());
    }
    // Not in the list: made since, or gone (404).
    await Promise.all(ids.filter((id) => !items.has(id)).map(async (id) => items.set(id, await readOne(id))));
    return items;
  };
}

/** Reads objects that have no list: each id once per round (concurrent reads of one object share it). */
export function eachOnce<T>(readOne: (id: string) => Promise<T | undefined>): ReadObjects<T> {
  return async (ids) => new Map(await Promise.all(ids.map(async (id) => [id, await readOne(id)] as const)));
}

/**
 * Waits for one state only the caller's `read` can tell: a Poller of one waiter, on POLL (or the
 * steps given).
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  isDone: (state: T) => boolean,
  options: Omit<WaitOptions<T>, "describe"> & PollerOptions & { describe?: (state: T) => string; firstDelayMs?: number; maxDelayMs?: number },
): Promise<T> {
  const schedule = { ...POLL, firstMs: options.firstDelayMs ?? POLL.firstMs, maxMs: options.maxDelayMs ?? POLL.maxMs };
  const poller = new Poller<T>(async () => new Map([["", await read()]]), { ...options, schedule });
  const describe = options.describe as WaitOptions<T>["describe"];
  return (await poller.waitFor("", (state) => isDone(state as T), { ...options, describe })) as T;
}
