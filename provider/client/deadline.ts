/**
 * When the waits of one operation give up, carried down to each of them as hcloud's calls carry a Go
 * `context`: the moment (`at`, on the clock the waits read) and a signal that aborts then — on the
 * system clock, by an unref'd timer, so it keeps no process alive — or sooner, when the work is
 * stopped (the reason of the signal it was made under).
 *
 * An operation's deadline is its customTimeouts entry, counted from the operation's start
 * (common-inputs.ts): every wait of that create, update or delete shares what is left of it. An
 * operation without one has no deadline of its own (`Deadline.none`); each wait then applies its
 * own default from the moment it starts (`orAfter`: a server wait 20 minutes, an email job 2).
 */
import { systemClock, type Clock } from "./clock";

/** The reason a deadline's signal aborts with when its time is up. */
export class DeadlineExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`the deadline of ${Math.round(limitMs / 1000)} s has passed`);
    this.name = "DeadlineExceeded";
  }
}

const NEVER = new AbortController().signal;

export class Deadline {
  /** No limit: the waits under it apply their own default (`orAfter`). */
  static readonly none = new Deadline(Infinity, Infinity, systemClock);

  /**
   * `ms` from now on `clock`. `stoppedBy`: a signal whose stop (any reason but its own deadline's)
   * ends this one sooner: the deadline it narrows, or a caller that stops the work.
   */
  static after(ms: number, clock: Clock = systemClock, stoppedBy?: AbortSignal): Deadline {
    const controller = new AbortController();
    if (stoppedBy) stopWith(stoppedBy, controller);
    return new Deadline(clock.now() + ms, ms, clock, controller);
  }

  /** Whether `signal` has been asked for: its timer is set then, not before. */
  private timed = false;

  private constructor(
    /** When the time is up (ms on `clock`; Infinity: never). */
    readonly at: number,
    /** How long it gave from its start: what a timeout message names. */
    readonly limitMs: number,
    readonly clock: Clock,
    /** Aborted when the work is stopped, and (once `signal` is asked for) when the time is up; none for `Deadline.none`. */
    private readonly controller?: AbortController,
  ) {}

  /**
   * Aborts with DeadlineExceeded when the time is up, or with the stop's reason when the work is
   * stopped sooner. Its timer is set on the first ask: the waits themselves read `at` and need only
   * the stops, so a wait that never hands the signal on costs no timer.
   */
  get signal(): AbortSignal {
    if (!this.controller) return NEVER;
    if (!this.timed) {
      this.timed = true;
      // A test's clock has no timers: there `at` alone tells when the time is up.
      const ms = this.leftMs();
      if (this.clock === systemClock && ms <= MAX_TIMER_MS) setTimeout(() => this.controller!.abort(new DeadlineExceeded(this.limitMs)), ms).unref();
    }
    return this.controller.signal;
  }

  /** What the work's stops abort (without the time's timer). */
  private get stops(): AbortSignal {
    return this.controller?.signal ?? NEVER;
  }

  /** Whether it sets a limit at all. */
  get limited(): boolean {
    return Number.isFinite(this.at);
  }

  leftMs(): number {
    return Math.max(0, this.at - this.clock.now());
  }

  passed(): boolean {
    return this.clock.now() >= this.at;
  }

  /** This deadline, or when it sets no limit, `ms` from now (a wait's own default). */
  orAfter(ms: number): Deadline {
    return this.limited ? this : this.fromNow(ms);
  }

  /** The sooner of this deadline and `ms` from now (a wait with a limit of its own, inside the operation's). */
  within(ms: number): Deadline {
    return ms < this.leftMs() ? this.fromNow(ms) : this;
  }

  /** This deadline, or `ms` from now if less is left (a last wait that must get a moment). */
  atLeast(ms: number): Deadline {
    return this.leftMs() >= ms ? this : this.fromNow(ms);
  }

  /** `ms` from now on this deadline's clock, stopped sooner by whatever stops this one. */
  private fromNow(ms: number): Deadline {
    return Deadline.after(ms, this.clock, this.controller?.signal);
  }

  /**
   * Calls `stop` with the reason when a caller stops the work before the deadline (the signal aborts
   * with another reason than DeadlineExceeded: a wait checks `at` on its own clock). Answers the
   * function that removes the listener, for a wait that has ended.
   */
  onStop(stop: (reason: unknown) => void): () => void {
    const stops = this.stops;
    if (stops === NEVER) return () => undefined;
    if (stops.aborted) {
      if (!(stops.reason instanceof DeadlineExceeded)) stop(stops.reason);
      return () => undefined;
    }
    const listener = () => {
      if (!(stops.reason instanceof DeadlineExceeded)) stop(stops.reason);
    };
    stops.addEventListener("abort", listener, { once: true });
    return () => stops.removeEventListener("abort", listener);
  }

  /**
   * Pauses `ms`, ending at the deadline if that comes first; rejects with the signal's reason when a
   * caller stops the work (DeadlineExceeded is the pause's end, not a failure).
   */
  async sleep(ms: number): Promise<void> {
    try {
      await this.clock.sleep(Math.min(ms, this.leftMs()), this.stops);
    } catch (err) {
      if (!(err instanceof DeadlineExceeded)) throw err;
    }
  }
}

/** Node's longest timer (a longer one would fire at once): a deadline further away needs none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Aborts `controller` when `signal` is stopped (not when its own deadline passes). */
function stopWith(signal: AbortSignal, controller: AbortController): void {
  const forward = () => {
    if (!(signal.reason instanceof DeadlineExceeded)) controller.abort(signal.reason);
  };
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
}
