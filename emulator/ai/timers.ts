/**
 * The timers of one answer, all cleared when its response closes: a client that goes away stops
 * the model's delay, the pauses between chunks and the keep-alive comments.
 */
import type { RawResponse } from "./call";

export type ResponseTimers = ReturnType<typeof responseTimers>;

export function responseTimers(res: RawResponse) {
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<(done: boolean) => void>();
  let closed = false;
  const socket = res.socket;
  res.once("close", () => {
    closed = true;
    // The client went away mid-answer: drop the half-closed connection (it would hold the server's close()).
    if (!res.writableEnded) socket?.destroy();
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const w of waiters) w(false);
    waiters.clear();
  });
  return {
    get closed() {
      return closed || res.destroyed;
    },
    /** Resolves true after `ms`, false if the response closed first. */
    wait(ms: number): Promise<boolean> {
      if (closed) return Promise.resolve(false);
      if (ms <= 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          waiters.delete(resolve);
          resolve(true);
        }, ms);
        timers.add(t);
        waiters.add(resolve);
      });
    },
    timer(ms: number, fn: () => void): NodeJS.Timeout | undefined {
      if (closed) return undefined;
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
      return t;
    },
    clear(t: NodeJS.Timeout | undefined) {
      if (!t) return;
      clearTimeout(t);
      timers.delete(t);
    },
  };
}
