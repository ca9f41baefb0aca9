/**
 * Waiting, in one place: the two schedules, and the loop that tries an action again while the API
 * refuses it with a "not yet" code.
 *
 * - POLL: how often to look at something that is changing (a server settling, a job, a domain being
 *   verified, a backup setup), and how long to pause before asking again after a "not yet":
 *   0.5 s, ×1.5 per step, at most 5 s, ±20 % jitter so that many waiters do not ask in step.
 * - RETRY: how long before a failed request is sent again (http.ts): full jitter over
 *   0.5 s × 2^(n-1), at most 10 s; a server's Retry-After wins.
 */

import type { Deadline } from "./deadline";

export interface Schedule {
  firstMs: number;
  factor: number;
  maxMs: number;
}

export const POLL: Schedule = { firstMs: 500, factor: 1.5, maxMs: 5_000 };
export const RETRY: Schedule = { firstMs: 500, factor: 2, maxMs: 10_000 };

/** A schedule's steps, ±20 % jitter: `next()` answers the pause to take now and grows the next one. */
export class Backoff {
  private stepMs: number;

  constructor(
    private readonly schedule: Schedule = POLL,
    private readonly random: () => number = Math.random,
  ) {
    this.stepMs = schedule.firstMs;
  }

  next(): number {
    const pause = this.stepMs * (0.8 + 0.4 * this.random());
    this.stepMs = Math.min(this.stepMs * this.schedule.factor, this.schedule.maxMs);
    return pause;
  }

  /** Back to the first step (something changed: look again soon). */
  reset(): void {
    this.stepMs = this.schedule.firstMs;
  }

}

/** RETRY's pause before sending a failed request again (`failures` ≥ 1): full jitter; Retry-After wins. */
export function retryDelayMs(failures: number, retryAfterSeconds: number | undefined, random: () => number, schedule: Schedule = RETRY): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  return random() * Math.min(schedule.maxMs, schedule.firstMs * schedule.factor ** (failures - 1));
}

/**
 * Runs `action` until it succeeds. While it fails with an error `refused` accepts ("not yet": the
 * server is busy, the node not ready) and the deadline has not passed, waits and tries again: with
 * `waitOut` when the caller knows what to wait for (it gets the POLL pause to use otherwise), else
 * the POLL pause, never past the deadline. Any other error, or a refusal past the deadline, is thrown.
 */
export async function retryWhileRefused<T>(
  action: () => Promise<T>,
  options: {
    refused: (err: unknown) => boolean;
    deadline: Deadline;
    waitOut?: (err: unknown, pause: () => Promise<void>) => Promise<void>;
  },
): Promise<T> {
  const { deadline } = options;
  const backoff = new Backoff(POLL);
  const pause = () => deadline.sleep(backoff.next());
  for (;;) {
    try {
      return await action();
    } catch (err) {
      if (!options.refused(err) || deadline.passed()) throw err;
      await (options.waitOut ? options.waitOut(err, pause) : pause());
    }
  }
}
