/**
 * The emulator's runtime: the world plus its clock, id generator, background transitions, wallet,
 * activity feed and notifications. Service handlers receive it as `ctx.emu`.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, openSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { EmuError } from "./errors";
import { Rng } from "./rng";
import { seedSecondAccount, seedSharedAddressPlans, seedWorld } from "./seed";
import type { Account, ActivityRec, NotificationRec, PendingTransition, World } from "./world";

export type TransitionMode = "immediate" | "time" | "manual";

/**
 * The state file's promise for changes no answer acknowledges (background transitions, webhook
 * deliveries, the AI gateway's charges; an answered write waits for its own write, `committed`):
 * they are in the file within this time. Such changes only mark the world changed; the world is
 * written once per burst (a read costs the same with a 19 MB world as with a fresh one), early
 * enough that the write ends within this time: the wait is this minus what the last writes took
 * (serializing and writing grow with the world, and a busy process's timer fires late). Control
 * operations and close write at once.
 */
export const STATE_WRITE_DELAY_MS = 1_000;
/** Room kept for the write's timer firing late on a busy event loop. */
const STATE_TIMER_SLACK_MS = 100;
export type DnsMode = "auto" | "manual";

/**
 * `world.json.<pid>.<32 hex>.tmp`: the temp file a save writes before renaming it over the state
 * file, in the state file's own directory (a rename stays on one file system). The random part makes
 * the name unpredictable; the pid tells a dead emulator's leftovers from a live one's.
 */
const tempFileOf = (stateFile: string, pid: number, token: string) => `${stateFile}.${pid}.${token}.tmp`;
/** The names temp files had before they carried a random part (`world.json.<pid>.tmp`), and have now. */
const TEMP_SUFFIX = /^(\d+)(?:\.[0-9a-f]{32})?\.tmp$/;
/** Names tried before a save gives up: each is new and random, so a second collision is already a planted file. */
const TEMP_ATTEMPTS = 8;

/**
 * Creates the temp file for a save and answers it, open for writing. Created exclusively, never
 * through a link (`O_CREAT | O_EXCL | O_NOFOLLOW`), mode 0600 (it holds every key in clear): a file
 * or symlink already at the name, planted or left over, is never opened or written; another random
 * name is tried instead. `token` draws the random part (tests give their own).
 */
export function createStateTemp(stateFile: string, token: () => string = () => randomBytes(16).toString("hex")): { path: string; fd: number } {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  for (let attempt = 1; ; attempt++) {
    const path = tempFileOf(stateFile, process.pid, token());
    try {
      return { path, fd: openSync(path, flags, 0o600) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= TEMP_ATTEMPTS) throw err;
    }
  }
}

/**
 * Removes the temp files a killed emulator left beside `stateFile` (they hold every key in clear).
 * A temp file of a process still alive (another emulator on the same file) is left to it.
 */
export function removeStaleStateTemps(stateFile: string): string[] {
  const dir = dirname(stateFile);
  const prefix = `${basename(stateFile)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = TEMP_SUFFIX.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      /* gone already */
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Settles one background transition: `emu.world` is changed in place. */
export type TransitionFn = (emu: Emu, payload: Record<string, unknown>) => void;

export interface EmuOptions {
  seed: number;
  transitions: TransitionMode;
  /** In `time` mode: every transition takes this many seconds instead of its own realistic delay. */
  transitionSeconds?: number;
  dns: DnsMode;
  stateFile?: string;
  /**
   * Email webhooks may point at loopback addresses (`http://127.0.0.1:…`, `https://localhost/…`):
   * for local receivers during development and tests. Private and other internal addresses stay refused.
   */
  allowLocalWebhooks?: boolean;
}

export class Emu {
  world: World;
  readonly transitionFns = new Map<string, TransitionFn>();
  /** Per-key rate-limit buckets on the emulator clock (not part of the world: not persisted). */
  readonly rateBuckets = new Map<string, { tokens: number; at: number }>();
  private rng: Rng;
  private lastSaved = "";
  /** The pending write of the state file (write-behind), if any, and when it was due. */
  private saveTimer: NodeJS.Timeout | undefined;
  private saveDueAt = 0;
  /** What a write costs, ms from its due time to the rename (its timer's lateness included): recent writes, the worst weighing most. */
  private saveCostMs = 0;
  private warnedSlowSave = false;
  /** Answers waiting for the next write (`committed`). */
  private readonly commitWaiters: (() => void)[] = [];

  private readonly startOptions: EmuOptions;
  /** Wake-up timers of scheduled transitions (real time, unref'd) and work to stop on close. */
  private readonly wakeTimers = new Set<NodeJS.Timeout>();
  private readonly closers: (() => void)[] = [];
  private closed = false;

  constructor(
    readonly options: EmuOptions,
    world?: World,
  ) {
    this.startOptions = { ...options };
    this.world = world ?? seedWorld(options.seed);
    this.rng = new Rng(this.world.rngState);
  }

  // ---- time ----

  /** Emulator clock in ms: real time moved by `POST /_emulator/clock/advance`. */
  nowMs(): number {
    return Date.now() + this.world.clockOffsetMs;
  }
  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }
  advanceClock(seconds: number): void {
    this.world.clockOffsetMs += seconds * 1000;
    this.settleDue();
  }

  // ---- ids ----

  random(): number {
    const value = this.rng.next();
    this.world.rngState = this.rng.state;
    return value;
  }
  uuid(): string {
    const id = this.rng.uuid();
    this.world.rngState = this.rng.state;
    return id;
  }
  hex(length: number): string {
    const value = this.rng.hex(length);
    this.world.rngState = this.rng.state;
    return value;
  }

  // ---- background transitions ----

  registerTransition(kind: string, fn: TransitionFn): void {
    if (this.transitionFns.has(kind)) throw new Error(`transition ${kind} registered twice`);
    this.transitionFns.set(kind, fn);
  }

  /**
   * Queues background work that settles later: at once (next request) in `immediate` mode, after
   * `realisticSeconds` (or the configured seconds) in `time` mode, only on an explicit settle in
   * `manual` mode. Answers the transition id. With `wake`, a timer settles it when due even if no
   * request comes (background work a client does not poll for, such as webhook events); without it,
   * the next request settles it (the request-driven behaviour the job tests rely on).
   */
  schedule(kind: string, payload: Record<string, unknown>, realisticSeconds: number, options: { wake?: boolean } = {}): string {
    if (!this.transitionFns.has(kind)) throw new Error(`no transition named ${kind}`);
    const { transitions, transitionSeconds } = this.options;
    const dueAt =
      transitions === "manual" ? null : transitions === "immediate" ? this.nowMs() : this.nowMs() + (transitionSeconds ?? realisticSeconds) * 1000;
    const id = this.uuid();
    this.world.transitions.push({ id, kind, payload, dueAt, ...(options.wake ? { wake: true } : {}) });
    if (dueAt !== null && options.wake) this.wakeAt(dueAt);
    return id;
  }

  /**
   * Settles due transitions at `dueAt` without waiting for the next request (background work such as
   * email delivery goes on by itself). The timer is unref'd: it never keeps the process alive.
   */
  private wakeAt(dueAt: number): void {
    if (this.closed) return;
    const delay = Math.min(Math.max(0, dueAt - this.nowMs()), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      this.wakeTimers.delete(timer);
      if (this.closed) return;
      try {
        if (this.settleDue() > 0) this.save();
      } catch (err) {
        if (process.env.SVC_EMULATOR_DEBUG) console.error("emulator: background transition failed:", err);
      }
    }, delay);
    timer.unref();
    this.wakeTimers.add(timer);
  }

  /** Runs `fn` when the emulator closes (stops background work such as webhook deliveries). */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  /** Stops every wake-up timer and background work; transitions still pending settle on no timer. */
  close(): void {
    this.saveNow();
    this.closed = true;
    for (const t of this.wakeTimers) clearTimeout(t);
    this.wakeTimers.clear();
    for (const fn of this.closers.splice(0)) fn();
  }

  /** Settles every transition that is due (all of them with `all`), oldest first. */
  settleDue(all = false): number {
    let settled = 0;
    for (;;) {
      const now = this.nowMs();
      const due = this.world.transitions
        .filter((t) => all || (t.dueAt !== null && t.dueAt <= now))
        .sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity))[0] as PendingTransition | undefined;
      if (!due) return settled;
      this.world.transitions = this.world.transitions.filter((t) => t !== due);
      this.transitionFns.get(due.kind)!(this, due.payload);
      settled++;
    }
  }

  /** True when a test asked the next job of this kind to fail; consumes one use. */
  takeJobFailure(kind: string): string | undefined {
    const rule = this.world.jobFailures.find((r) => r.kind === kind && r.times > 0);
    if (!rule) return undefined;
    rule.times--;
    this.world.jobFailures = this.world.jobFailures.filter((r) => r.times > 0);
    return rule.reason;
  }

  // ---- wallet ----

  /** Takes `amount` from the account's wallet, or refuses with 402 INSUFFICIENT_BALANCE and changes nothing. */
  charge(account: Account, amount: number, what: string): void {
    const available = account.wallet;
    if (amount > available) {
      throw new EmuError(
        402,
        "INSUFFICIENT_BALANCE",
        `Saldo tidak cukup untuk ${what}: required IDR ${amount.toLocaleString("en-US")}, available IDR ${available.toLocaleString("en-US")}`,
        { required: amount, available },
      );
    }
    account.wallet = available - amount;
  }
  refund(account: Account, amount: number): void {
    account.wallet += amount;
  }

  // ---- feeds ----

  recordActivity(entry: Omit<ActivityRec, "id" | "createdAt" | "environmentId"> & { environmentId?: string }): void {
    const project = this.world.projects.find((p) => p.id === entry.projectId);
    this.world.activity.unshift({
      id: this.uuid(),
      createdAt: this.nowIso(),
      ...entry,
      environmentId: entry.environmentId ?? project?.environmentId ?? entry.projectId,
    });
  }

  notify(n: Omit<NotificationRec, "id" | "createdAt" | "isRead" | "readAt" | "environmentId"> & { environmentId?: string | null }): void {
    const project = n.projectId ? this.world.projects.find((p) => p.id === n.projectId) : undefined;
    this.world.notifications.unshift({
      id: this.uuid(),
      createdAt: this.nowIso(),
      isRead: false,
      readAt: null,
      ...n,
      environmentId: n.environmentId ?? project?.environmentId ?? null,
    });
  }

  // ---- persistence ----

  /**
   * The world may have changed: the state file is written so that the write ends within
   * STATE_WRITE_DELAY_MS (write-behind; a kill -9 loses at most that much). `unlikely`: a request
   * that answered no change (a read, a refusal) may still have settled something; its write waits
   * the whole STATE_WRITE_DELAY_MS, so reads serialize the world at most once a second. Cheap
   * whatever the world's size: called after every request.
   */
  save(unlikely = false): void {
    if (!this.options.stateFile || this.closed) return;
    const delay = unlikely ? STATE_WRITE_DELAY_MS : Math.max(0, STATE_WRITE_DELAY_MS - STATE_TIMER_SLACK_MS - this.saveCostMs);
    const dueAt = Date.now() + delay;
    if (this.saveTimer) {
      if (this.saveDueAt <= dueAt) return;
      clearTimeout(this.saveTimer);
    }
    this.saveDueAt = dueAt;
    this.saveTimer = setTimeout(() => this.saveNow(), delay);
    this.saveTimer.unref();
  }

  /**
   * Resolves once the state file holds the world as it is now: an answer that acknowledges a change
   * waits for this, so a kill -9 never loses a change already answered. Group commit: the requests
   * answered in one turn of the event loop share one write (the next turn's share the next), so
   * writes cost one serializing per turn whatever their number, and a read waits for nothing.
   */
  committed(): Promise<void> {
    if (!this.options.stateFile || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.commitWaiters.push(resolve);
      if (this.commitWaiters.length > 1) return;
      setImmediate(() => {
        const waiters = this.commitWaiters.splice(0);
        try {
          this.saveNow();
        } catch (err) {
          // The answers still leave (the change is made); the write is tried again behind.
          console.error(`svc-emulator: writing the state file failed: ${(err as Error).message}`);
          this.save();
        } finally {
          for (const done of waiters) done();
        }
      });
    });
  }

  /**
   * Writes the world to the state file now, when it changed: a new temp file (createStateTemp:
   * exclusive, unpredictable name, the user's only), then renamed over the state file (never half a
   * file; a link at the state file's name is replaced, not followed).
   */
  saveNow(): void {
    const dueAt = this.saveTimer ? this.saveDueAt : Date.now();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const stateFile = this.options.stateFile;
    if (!stateFile || this.closed) return;
    const text = JSON.stringify(this.world);
    if (text === this.lastSaved) return;
    const { path: tmp, fd } = createStateTemp(stateFile);
    try {
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, stateFile);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        /* renamed already, or gone */
      }
      throw err;
    }
    this.lastSaved = text;
    this.noteSaveCost(Date.now() - dueAt);
  }

  /** The next write starts this much earlier; a write too slow to keep the promise is said once. */
  private noteSaveCost(ms: number): void {
    this.saveCostMs = Math.max(ms, Math.round(this.saveCostMs * 0.8));
    if (ms > STATE_WRITE_DELAY_MS - STATE_TIMER_SLACK_MS && !this.warnedSlowSave) {
      this.warnedSlowSave = true;
      console.error(
        `svc-emulator: writing the state file (${(this.lastSaved.length / 1024 / 1024).toFixed(1)} MB) took ${ms} ms: a kill -9 may lose changes answered up to that long before it (a smaller world, or a less busy machine, writes faster)`,
      );
    }
  }

  /** Back to the seeded world and the options the emulator started with. */
  reset(): void {
    Object.assign(this.options, this.startOptions);
    this.rateBuckets.clear();
    this.world = seedWorld(this.options.seed);
    this.rng = new Rng(this.world.rngState);
  }

  /**
   * Replaces the world (state file load; `fileText` is the file as read). A world saved before there
   * was a second account, or shared-address plans, gains them (and is written again).
   */
  load(world: World, fileText?: string): void {
    if (!world.otherAccounts) seedSecondAccount(world, world.seed);
    if (!world.catalog.vpsPlans.some((p) => p.sharedAddress)) seedSharedAddressPlans(world, world.seed);
    this.world = world;
    this.rng = new Rng(world.rngState);
    const started = Date.now();
    this.lastSaved = JSON.stringify(world);
    // The first write after a restart already starts early: writing costs about three times the
    // serializing just measured (the write grows with the world as the serializing does).
    this.saveCostMs = Math.min(STATE_WRITE_DELAY_MS, 3 * (Date.now() - started));
    if (fileText !== undefined && fileText !== this.lastSaved) {
      this.lastSaved = "";
      this.save();
    }
    for (const t of world.transitions) if (t.dueAt !== null && t.wake) this.wakeAt(t.dueAt);
  }

  /** True once the state file holds this world (written or loaded unchanged). */
  get stateWritten(): boolean {
    return this.lastSaved !== "";
  }
}
