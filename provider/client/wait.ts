/**
 * Waiting for one object through a read function of the caller's: first read at once, then on the
 * POLL schedule (backoff.ts). Each read is an API call, so it goes through the key's rate-limit bucket
 * like any other. Several objects of one kind waiting at once go through the Poller (poller.ts), which
 * follows the same schedule with one list call per tick.
 */
import { Backoff, POLL, systemClock, type Clock } from "./backoff";

export interface WaitOptions<T> {
  /** What is awaited, for the timeout message: `server 3f2… to be running`. */
  what: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How the last state reads in the timeout message. */
  describe?: (state: T) => string;
  clock?: Clock;
  random?: () => number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** The caller has just seen the state (in a call's answer): the first read waits this long. */
  initialDelayMs?: number;
  /** How long the awaited transition usually takes, from the wait's start: when the first read
   * shows it not done, the next one waits until about then instead of polling through it (the
   * schedule above resumes from there). A faster transition is still seen by the first read. */
  expectedMs?: number;
}

export class WaitTimeoutError<T = unknown> extends Error {
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

export async function waitFor<T>(
  read: (signal?: AbortSignal) => Promise<T>,
  isDone: (state: T) => boolean,
  options: WaitOptions<T>,
): Promise<T> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const describe = options.describe ?? ((state: T) => JSON.stringify(state));
  const started = clock.now();
  const backoff = new Backoff({ ...POLL, maxMs: options.maxDelayMs ?? POLL.maxMs }, random, options.firstDelayMs);
  if (options.initialDelayMs) await clock.sleep(Math.min(options.initialDelayMs, options.timeoutMs), options.signal);
  let reads = 0;
  for (;;) {
    const state = await read(options.signal);
    if (isDone(state)) return state;
    const waited = clock.now() - started;
    if (waited >= options.timeoutMs) throw new WaitTimeoutError(options.what, state, waited, describe);
    let jittered = backoff.next();
    // Not done at the first read: the next one comes when the transition usually has ended (the wait
    // starts at the answer, a moment after the transition began).
    if (++reads === 1 && options.expectedMs) jittered = Math.max(jittered, options.expectedMs - waited);
    await clock.sleep(Math.min(jittered, options.timeoutMs - waited), options.signal);
  }
}
