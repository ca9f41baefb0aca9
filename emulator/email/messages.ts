/**
 * Accepted messages: GET /emails (newest first, cursor-paginated) and GET /emails/{id}, and their
 * lifecycle through background transitions, each emitting its webhook event:
 *   queued ──(≈1 s)──▶ sent [email.sent] ──(≈2 s)──▶ delivered [email.delivered]
 *                                                 ├─▶ bounced [email.bounced]     (simulator bounce recipients)
 *                                                 ├─▶ rejected [email.rejected]   (simulator reject recipients)
 *                                                 └─▶ failed [email.failed]       (simulator fail recipients)
 *   delivered ──(≈5 s)──▶ complained [email.complained]                           (simulator complaint recipients)
 *   delivered ──(≈3 s)──▶ [email.opened], then [email.clicked]                    (simulator open / click recipients)
 * A message with several recipients gets one event per outcome, naming the recipients concerned;
 * its status is the worst outcome (failed, then rejected, then bounced). Bounced and complaining
 * recipients join the project's suppression list. Opens and clicks are events, not statuses.
 *
 * Each accepted message has its `send_email` job (GET /jobs/{jobId}; the send answers its `jobId`):
 * `queued` when accepted, `running` once handed over (sent), then `completed` when every recipient's
 * server answered (delivered, bounced or rejected: the sending itself is done) or `failed` when sending
 * gave up for a recipient — the `jobId` the `email.failed` event carries.
 *
 * Simulator recipients (domain `simulator.svc.dev`, public-looking, accepted by the validator):
 * `bounce@`, `complaint@`, `reject@`, `fail@`, `open@`, `click@` (each also as `<role>+<label>@`), and
 * anything else there (e.g. `delivered@`) is delivered. Labels give distinct addresses, so a test can
 * bounce repeatedly although each bounced address gets suppressed.
 */
import { randomBytes } from "node:crypto";
import type { Ctx, Handlers } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { emitEvent } from "./delivery";
import { endJob, recordJob, startJob } from "./jobs";
import { callerProject, emailState, listSuppression, ownRow, type EmailRec, type JobRec, type SuppressionRec } from "./state";

export const SIMULATOR_DOMAIN = "simulator.svc.dev";
const SEND = "email.message.send";
const DELIVER = "email.message.deliver";
const COMPLAIN = "email.message.complain";
const ENGAGE = "email.message.engage";
/** Realistic seconds of each step (`time` mode). */
const SEND_SECONDS = 1;
const DELIVER_SECONDS = 2;
const COMPLAIN_SECONDS = 5;
const ENGAGE_SECONDS = 3;
/** What an `email.clicked` event names as the clicked link (the emulator keeps no message body). */
export const SIMULATOR_CLICK_LINK = "https://simulator.svc.dev/clicked";
const SIMULATOR_USER_AGENT = "svc-simulator/1.0 (emulated recipient)";
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

const SIMULATOR_ROLES = ["bounce", "complaint", "reject", "fail", "open", "click"] as const;
type SimulatorRole = (typeof SIMULATOR_ROLES)[number];

function simulatorRole(address: string): SimulatorRole | null {
  const at = address.lastIndexOf("@");
  if (address.slice(at + 1) !== SIMULATOR_DOMAIN) return null;
  const local = address.slice(0, at).split("+")[0];
  return (SIMULATOR_ROLES as readonly string[]).includes(local) ? (local as SimulatorRole) : null;
}

export function emailView(e: EmailRec) {
  return {
    id: e.id,
    from: e.from,
    to: [...e.to],
    cc: [...e.cc],
    bcc: [...e.bcc],
    replyTo: e.replyTo,
    subject: e.subject,
    templateId: e.templateId,
    status: e.status,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    sentAt: e.sentAt,
    deliveredAt: e.deliveredAt,
  };
}

/** Queues a new accepted message's lifecycle. */
export function startLifecycle(emu: Emu, e: EmailRec): void {
  emu.schedule(SEND, { emailId: e.id }, SEND_SECONDS, { wake: true });
}

function mailSummary(e: EmailRec) {
  return { messageId: e.id, timestamp: e.createdAt, source: e.from, subject: e.subject, destination: [...e.recipients] };
}

function suppress(emu: Emu, e: EmailRec, addresses: string[], reason: SuppressionRec["reason"]): void {
  for (const email of addresses) listSuppression(emu, e.projectId, email, reason);
}

/**
 * The message's `send_email` job. A message accepted before sends had jobs (a world saved then) gets
 * one now, dated from the message, so the id an answer or an event names is always a job that exists.
 */
export function sendJobOf(emu: Emu, e: EmailRec): JobRec {
  const job = e.jobId === undefined ? undefined : emailState(emu.world).jobs.find((j) => j.jobId === e.jobId);
  if (job) return job;
  const made = recordJob(emu, e.projectId, "send_email", e.id, e.createdAt);
  e.jobId = made.jobId;
  return made;
}

function findEmail(emu: Emu, payload: Record<string, unknown>): EmailRec | undefined {
  return emailState(emu.world).emails.find((e) => e.id === payload.emailId);
}

export const messageTransitions: Record<string, TransitionFn> = {
  [SEND]: (emu, payload) => {
    const e = findEmail(emu, payload);
    if (!e || e.status !== "queued") return;
    e.status = "sent";
    e.sentAt = e.updatedAt = emu.nowIso();
    startJob(emu, sendJobOf(emu, e));
    emitEvent(emu, e.projectId, "email.sent", { messageId: e.id, recipients: [...e.recipients], notification: { type: "Send", mail: mailSummary(e) } });
    emu.schedule(DELIVER, { emailId: e.id }, DELIVER_SECONDS, { wake: true });
  },

  [DELIVER]: (emu, payload) => {
    const e = findEmail(emu, payload);
    if (!e || e.status !== "sent") return;
    const now = emu.nowIso();
    const withRole = (role: SimulatorRole) => e.recipients.filter((r) => simulatorRole(r) === role);
    const bounced = withRole("bounce");
    const rejected = withRole("reject");
    const failed = withRole("fail");
    const delivered = e.recipients.filter((r) => !bounced.includes(r) && !rejected.includes(r) && !failed.includes(r));
    e.bounced = bounced;
    e.status = failed.length > 0 ? "failed" : rejected.length > 0 ? "rejected" : bounced.length > 0 ? "bounced" : "delivered";
    e.updatedAt = now;
    if (delivered.length > 0) {
      e.deliveredAt = now;
      emitEvent(emu, e.projectId, "email.delivered", {
        messageId: e.id,
        recipients: delivered,
        notification: {
          type: "Delivery",
          mail: mailSummary(e),
          delivery: { timestamp: now, processingTimeMillis: Math.max(0, Date.parse(now) - Date.parse(e.createdAt)), recipients: delivered },
        },
      });
    }
    if (bounced.length > 0) {
      suppress(emu, e, bounced, "bounce");
      emitEvent(emu, e.projectId, "email.bounced", {
        messageId: e.id,
        recipients: bounced,
        notification: {
          type: "Bounce",
          mail: mailSummary(e),
          bounce: {
            bounceType: "Permanent",
            bounceSubType: "General",
            timestamp: now,
            recipients: bounced.map((emailAddress) => ({
              emailAddress,
              status: "5.1.1",
              action: "failed",
              diagnosticCode: `smtp; 550 5.1.1 <${emailAddress}>: Recipient address rejected: User unknown`,
            })),
          },
        },
      });
    }
    if (rejected.length > 0) {
      emitEvent(emu, e.projectId, "email.rejected", {
        messageId: e.id,
        recipients: rejected,
        notification: { type: "Reject", mail: mailSummary(e), reject: { reason: "Content rejected at delivery time (simulator reject recipient)" } },
      });
    }
    const job = sendJobOf(emu, e);
    if (failed.length > 0) {
      const error = "Sending gave up after retries: the recipient's server did not answer (simulator fail recipient)";
      endJob(emu, job, { error: `${error}: ${failed.join(", ")}` });
      // A single send's `email.failed` carries `{ error, jobId }` (the spec's shape): the message's send job.
      emitEvent(emu, e.projectId, "email.failed", { messageId: e.id, recipients: failed, notification: { error, jobId: job.jobId } });
    } else {
      endJob(emu, job, { result: { emailId: e.id, status: e.status } });
    }
    if (delivered.some((r) => simulatorRole(r) === "complaint")) emu.schedule(COMPLAIN, { emailId: e.id }, COMPLAIN_SECONDS, { wake: true });
    if (delivered.some((r) => simulatorRole(r) === "open" || simulatorRole(r) === "click")) emu.schedule(ENGAGE, { emailId: e.id }, ENGAGE_SECONDS, { wake: true });
  },

  [ENGAGE]: (emu, payload) => {
    const e = findEmail(emu, payload);
    if (!e || e.deliveredAt === null) return;
    const now = emu.nowIso();
    const clicked = e.recipients.filter((r) => simulatorRole(r) === "click");
    // A click implies an open: both roles open first.
    const opened = e.recipients.filter((r) => simulatorRole(r) === "open" || clicked.includes(r));
    emitEvent(emu, e.projectId, "email.opened", {
      messageId: e.id,
      recipients: opened,
      notification: { type: "Open", mail: mailSummary(e), open: { timestamp: now, userAgent: SIMULATOR_USER_AGENT } },
    });
    if (clicked.length > 0) {
      emitEvent(emu, e.projectId, "email.clicked", {
        messageId: e.id,
        recipients: clicked,
        notification: { type: "Click", mail: mailSummary(e), click: { timestamp: now, userAgent: SIMULATOR_USER_AGENT, link: SIMULATOR_CLICK_LINK } },
      });
    }
  },

  [COMPLAIN]: (emu, payload) => {
    const e = findEmail(emu, payload);
    if (!e || e.deliveredAt === null) return;
    const complained = e.recipients.filter((r) => simulatorRole(r) === "complaint");
    e.complained = complained;
    e.status = "complained";
    e.updatedAt = emu.nowIso();
    suppress(emu, e, complained, "complaint");
    emitEvent(emu, e.projectId, "email.complained", {
      messageId: e.id,
      recipients: complained,
      notification: {
        type: "Complaint",
        mail: mailSummary(e),
        complaint: { complaintFeedbackType: "abuse", timestamp: e.updatedAt, recipients: complained.map((emailAddress) => ({ emailAddress })) },
      },
    });
  },
};

// ---- pagination ----
// email-service.md, Pagination: "A `cursor` that was not returned by the previous page answers 400
// `INVALID_CURSOR`." A cursor is therefore good for one request, the next page of the list and
// project that returned it: made up, altered, another list's or project's, or already used (an
// earlier page's) answers INVALID_CURSOR. A cursor is the position after the last row plus a random
// token; the emulator keeps the cursors not used yet, at most OPEN_CURSORS_PER_LIST per list and
// project (the oldest go first), in memory only (a restarted emulator knows none).

/** Unused cursors a list keeps per project: enough for several readers paging the same list at once. */
export const OPEN_CURSORS_PER_LIST = 32;
/** Per world (a reset or load starts empty): `<projectId> <list>` → unused cursor → its position. */
const openCursors = new WeakMap<object, Map<string, Map<string, number>>>();

function cursorsOf(emu: Emu, projectId: string, list: string): Map<string, number> {
  let lists = openCursors.get(emu.world);
  if (!lists) openCursors.set(emu.world, (lists = new Map()));
  const id = `${projectId} ${list}`;
  let open = lists.get(id);
  if (!open) lists.set(id, (open = new Map()));
  return open;
}

/** A new cursor of `list` in the project, pointing after `seq`; good for one request. */
export function cursorOf(emu: Emu, projectId: string, list: string, seq: number): string {
  const cursor = `${seq}.${randomBytes(12).toString("hex")}`;
  const open = cursorsOf(emu, projectId, list);
  open.set(cursor, seq);
  for (const oldest of open.keys()) {
    if (open.size <= OPEN_CURSORS_PER_LIST) break;
    open.delete(oldest);
  }
  return cursor;
}

/** The `seq` a cursor points after, using it up; INVALID_CURSOR unless the list's previous page returned it unused. */
export function cursorPosition(emu: Emu, projectId: string, list: string, cursor: string): number {
  const open = cursorsOf(emu, projectId, list);
  const seq = open.get(cursor);
  if (seq === undefined) {
    throw new EmuError(400, "INVALID_CURSOR", "cursor was not returned by the previous page of this list (each nextCursor reads one next page): start again from the first page");
  }
  open.delete(cursor);
  return seq;
}

/** The cursor-paginated lists: their query schema has the spec's `limit` and `cursor`. */
type PagedRoute = "email.emails.list" | "email.contacts.list" | "email.suppressions.list" | "email.inbound.messages.list";

/**
 * One page of a project's rows, newest (highest `seq`) first, from the query's `limit` and `cursor`:
 * the spec's pagination for every cursor-paginated list. `size`: the list's page size (Limits: 1–200,
 * default 50; suppressions 1–500, default 100). `list` names the list a cursor belongs to: the route
 * by default; a filtered view of one route (a folder) is a list of its own.
 */
export function pageOf<R extends { seq: number }, V>(
  ctx: Ctx<PagedRoute>,
  projectId: string,
  rows: R[],
  view: (row: R) => V,
  { size = { default: PAGE_DEFAULT, max: PAGE_MAX }, list = ctx.routeId }: { size?: { default: number; max: number }; list?: string } = {},
): { data: V[]; nextCursor: string | null } {
  const { limit: rawLimit, cursor } = ctx.query;
  const limit = rawLimit === undefined ? size.default : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > size.max) throw new EmuError(422, "VALIDATION", `limit: 1 to ${size.max} (got ${rawLimit})`);
  const after = cursor === undefined ? Infinity : cursorPosition(ctx.emu, projectId, list, cursor);
  const sorted = rows.filter((r) => r.seq < after).sort((a, b) => b.seq - a.seq);
  const page = sorted.slice(0, limit);
  const more = sorted.length > limit;
  return { data: page.map(view), nextCursor: more ? cursorOf(ctx.emu, projectId, list, page[page.length - 1].seq) : null };
}

export const messageHandlers: Handlers<"email.emails.list" | "email.emails.get"> = {
  "email.emails.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    return pageOf(ctx, projectId, emailState(ctx.world).emails.filter((e) => e.projectId === projectId), emailView);
  },

  "email.emails.get": (ctx) => {
    const e = ownRow(ctx, emailState(ctx.world).emails, ctx.params.id, "EMAIL_NOT_FOUND", "Email not found");
    return emailView(e);
  },
};
