/**
 * What the server resources share: waiting for a server to rest (settle) or be terminated, the busy
 * work of this process, and retrying an action the API refused with VPS_BUSY once the server has
 * settled (the spec's retry guidance).
 */
import { ApiError, isApiError } from "../client/errors";
import type { Vps } from "../../contract/schemas";
import { retryWhileRefused } from "../client/backoff";
import type { Deadline } from "../client/deadline";
import { Kept, type CallContext } from "../context";

/** Statuses a server rests in; every other status is a transition in progress. */
export const SETTLED_STATUSES = new Set(["running", "stopped", "error", "terminated"]);

export const SERVER_TIMEOUT_MS = 20 * 60_000;

/** A server wait's deadline: the operation's (its customTimeouts), else 20 minutes from the wait's start. */
export const serverDeadline = (ctx: CallContext): Deadline => ctx.deadline.orAfter(SERVER_TIMEOUT_MS);

/**
 * How long the platform's transitions usually take: a server create about 8 s, a termination 5 s,
 * a backup setup 10 s (the emulator's time mode models them; the API documents no figure). They
 * only pace the polling (client/poller.ts, expectedMs): a faster transition is seen by the read
 * 0.5 s after the call's answer, a slower one polled as before. Decision of issue 16.
 */
export const USUAL_MS = { create: 8_000, terminate: 5_000, backupSetup: 10_000 } as const;

/** Waits until the server rests; all servers waiting in this process share one list call per tick.
 * `expectedMs`: the transition just started and usually takes this long (USUAL_MS). */
export async function waitSettled(ctx: CallContext, vpsId: string, deadline = serverDeadline(ctx), expectedMs?: number): Promise<Vps> {
  const server = await ctx.api.servers.waitFor(vpsId, (s) => s === undefined || SETTLED_STATUSES.has(s.status), {
    what: `server ${vpsId} to settle`,
    deadline,
    expectedMs,
    describe: (s) => (s ? `status ${s.status}` : "gone"),
  });
  if (!server) throw serverGone(vpsId);
  return server;
}

/** Waits until the server is terminated (or gone altogether). */
export async function waitTerminated(ctx: CallContext, vpsId: string, deadline = serverDeadline(ctx)): Promise<void> {
  await ctx.api.servers.waitFor(vpsId, (s) => s === undefined || s.status === "terminated", {
    what: `server ${vpsId} to be terminated`,
    deadline,
    // Called right after the terminate was accepted.
    expectedMs: USUAL_MS.terminate,
    describe: (s) => (s ? `status ${s.status}` : "gone"),
  });
}

/** The API's answer for a server that is not (or no longer) in reach. */
function serverGone(vpsId: string): ApiError {
  return new ApiError({ service: "platform", method: "GET", path: `/vps/${vpsId}`, status: 404, code: "INSTANCE_NOT_FOUND", apiMessage: "the server is gone", retryable: false });
}

/**
 * Work this process started that keeps a server busy without a status to watch (a backup setup),
 * by server id: actions on that server wait for it here instead of collecting VPS_BUSY refusals
 * (a fleet's firewall rules would otherwise retry through each server's backup setup). One per
 * profile's context (ApiContext.keep): a server belongs to one account.
 */
class BusyWork {
  private readonly byServer = new Map<string, Promise<void>>();

  /** Marks the server busy until `work` ends, however it ends (and until the work already marked ends). */
  mark(vpsId: string, work: Promise<unknown>): void {
    const ignore = () => undefined;
    // A snapshot and a backup setup of one server in one `up`: waiting for one must not forget the other.
    const ended = Promise.all([this.byServer.get(vpsId), work.then(ignore, ignore)]).then(ignore);
    this.byServer.set(vpsId, ended);
    void ended.then(() => {
      if (this.byServer.get(vpsId) === ended) this.byServer.delete(vpsId);
    });
  }

  /** The end of the work marked on the server, if any is under way. */
  of(vpsId: string): Promise<void> | undefined {
    return this.byServer.get(vpsId);
  }
}

const BUSY_WORK = new Kept(() => new BusyWork());
const busyWork = (ctx: CallContext): BusyWork => BUSY_WORK.of(ctx.api);

/** Marks the server busy until `work` ends, however it ends (and until the work already marked ends); answers `work`. */
export function busyUntil<T>(ctx: CallContext, vpsId: string, work: Promise<T>): Promise<T> {
  busyWork(ctx).mark(vpsId, work);
  return work;
}

/**
 * Runs an action; while the API answers 409 VPS_BUSY (a transition, or backup setup running on the
 * server), waits for the server to settle and tries again, until `deadline`. Work of this
 * process that keeps the server busy (see busyUntil) is waited for first, without a call — except by
 * that work's own calls (`waitForBusyWork` false).
 */
export async function retryWhileBusy<T>(
  ctx: CallContext,
  vpsId: string,
  action: () => Promise<T>,
  deadline = serverDeadline(ctx),
  waitForBusyWork = true,
): Promise<T> {
  const busy = busyWork(ctx);
  const attempt = async () => {
    if (waitForBusyWork) await busy.of(vpsId);
    return action();
  };
  return retryWhileRefused(attempt, {
    refused: (err) => isApiError(err, "VPS_BUSY"),
    deadline,
    waitOut: async (_err, pause) => {
      // Our own work began while this action was on its way: the next attempt waits for it.
      if (waitForBusyWork && busy.of(vpsId)) return;
      const now = await ctx.api.platform.call("vps.get", { params: { id: vpsId } });
      // In a transition: ask again as soon as it settles. Settled yet busy: a backup job runs on
      // it, with no status to watch: back off.
      // A second at least: the refusal may have come just before the deadline.
      if (!SETTLED_STATUSES.has(now.status)) await waitSettled(ctx, vpsId, deadline.atLeast(1_000));
      else await pause();
    },
  });
}
