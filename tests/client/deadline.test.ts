/**
 * One deadline per operation (provider/client/deadline.ts): customTimeouts counts from the
 * operation's start and every wait of it shares what is left; without it each wait applies its own
 * default; a stop from above ends a wait at once, the time running out ends it as a timeout.
 */
import { Deadline, DeadlineExceeded, Poller, retryWhileRefused, WaitTimeoutError } from "../../provider/client";
import { methods } from "../../provider/dispatch";
import { ProviderRuntime } from "../../provider/runtime";
import type { SchemaResource } from "../../provider/schema";
import { vps } from "../../provider/vps/vps";
import type { CallContext } from "../../provider/context";
import { SteppingClock } from "../support/stepping-clock";

test("on the system clock the signal aborts when the time is up, with DeadlineExceeded", async () => {
  const deadline = Deadline.after(200);
  expect(deadline.signal.aborted).toBe(false);
  await new Promise((r) => setTimeout(r, 300));
  expect(deadline.passed()).toBe(true);
  expect(deadline.signal.reason).toBeInstanceOf(DeadlineExceeded);
});

test("none sets no limit; orAfter gives a wait its default only then; within takes the sooner", () => {
  const clock = new SteppingClock();
  expect(Deadline.none.limited).toBe(false);
  expect(Deadline.none.orAfter(20_000).leftMs()).toBeGreaterThan(19_000);

  const operation = Deadline.after(2_000, clock);
  expect(operation.orAfter(20 * 60_000)).toBe(operation);
  expect(operation.within(60_000)).toBe(operation);
  const shorter = operation.within(500);
  expect(shorter.at).toBe(500);
  expect(shorter.limitMs).toBe(500);
  clock.t = 1_900;
  expect(operation.atLeast(1_000).at).toBe(2_900);
  expect(operation.atLeast(50)).toBe(operation);
});

test("a narrower deadline is stopped by its parent's stop, not by its parent's time running out", async () => {
  const controller = new AbortController();
  const parent = Deadline.after(50, undefined, controller.signal);
  const parentSignal = parent.signal;
  const child = parent.atLeast(5_000);
  await new Promise((r) => setTimeout(r, 100));
  expect(parentSignal.reason).toBeInstanceOf(DeadlineExceeded);
  expect(child.signal.aborted).toBe(false);
  const stop = new Error("stopped");
  const other = Deadline.after(5_000, undefined, controller.signal);
  controller.abort(stop);
  expect(other.signal.reason).toBe(stop);
});

test("a deadline sets its timer only when its signal is asked for, and then for the time left", () => {
  jest.useFakeTimers();
  try {
    const deadline = Deadline.after(1_000);
    const narrower = deadline.within(500);
    void narrower.sleep(100);
    // The waits read `at` and listen for stops: none of that sets the deadline's own timer.
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(600);
    const signal = deadline.signal;
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(399);
    expect(signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(signal.reason).toBeInstanceOf(DeadlineExceeded);
    expect(narrower.signal.aborted).toBe(false);
  } finally {
    jest.useRealTimers();
  }
});

test("sleep ends at the deadline; a stop rejects it with the stop's reason", async () => {
  const clock = new SteppingClock();
  const deadline = Deadline.after(1_000, clock);
  await deadline.sleep(5_000);
  expect(clock.sleeps).toEqual([1_000]);

  const controller = new AbortController();
  const stop = new Error("stopped");
  controller.abort(stop);
  await expect(Deadline.after(1_000, clock, controller.signal).sleep(10)).rejects.toBe(stop);
});

test("retryWhileRefused pauses never past the deadline, and throws the refusal once it has passed", async () => {
  const clock = new SteppingClock();
  const refusal = new Error("not yet");
  let attempts = 0;
  const deadline = Deadline.after(3_000, clock);
  await expect(
    retryWhileRefused(
      async () => {
        attempts++;
        throw refusal;
      },
      { refused: (err) => err === refusal, deadline },
    ),
  ).rejects.toBe(refusal);
  expect(clock.t).toBe(3_000);
  expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(3_000);
  expect(attempts).toBe(clock.sleeps.length + 1);
});

/** A resource whose create runs two waits one after the other: the first ends at 600 ms, the second never. */
function twoWaits(seen: { secondWaitedMs?: number }): SchemaResource {
  const started = Date.now();
  const poller = new Poller<string>(async (ids) => new Map(ids.map((id) => [id, id === "first" && Date.now() - started >= 600 ? "done" : "pending"])));
  return {
    schema: vps.schema,
    create: async (_inputs: unknown, ctx: CallContext) => {
      await poller.waitFor("first", (s) => s === "done", { what: "the first", deadline: ctx.deadline.orAfter(60_000) });
      const secondStarted = Date.now();
      try {
        await poller.waitFor("second", (s) => s === "done", { what: "the second", deadline: ctx.deadline.orAfter(60_000) });
      } finally {
        seen.secondWaitedMs = Date.now() - secondStarted;
      }
      return { id: "x", outs: {} };
    },
  } as unknown as SchemaResource;
}

test("customTimeouts bounds the whole operation: the second wait gets only what the first left", async () => {
  const seen: { secondWaitedMs?: number } = {};
  const started = Date.now();
  const err = await methods.create(new ProviderRuntime(), "Vps", twoWaits(seen), [{ name: "web", timeouts: { create: "1500ms" } }]).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(WaitTimeoutError);
  expect(err?.message).toContain('timed out after');
  expect(err?.message).toContain('The limit was customTimeouts.create "1500ms"');
  // The create as a whole ran out at its limit, not the first wait's time plus a whole limit.
  expect(Date.now() - started).toBeLessThan(2_400);
  expect(seen.secondWaitedMs).toBeLessThan(1_300);
});
