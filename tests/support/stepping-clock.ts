import type { Clock } from "../../provider/client";

/** A clock whose sleeps move time forward at once: each pause is exact and takes no real time. */
export class SteppingClock implements Clock {
  t = 0;
  readonly sleeps: number[] = [];
  now(): number {
    return this.t;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.t += ms;
  }
}
