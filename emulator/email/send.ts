/**
 * POST /send and POST /send/batch: every rule of the spec's send message fields and Sending errors.
 *
 * Check order (the first failing check answers):
 *   core       authentication (NO_API_KEY on these routes, …), NO_PLAN, body schema (422 VALIDATION),
 *              rate limit (a batch is one request)
 *   batch      NO_MESSAGES, TOO_MANY_MESSAGES, TOO_MANY_RECIPIENTS (over all messages, each message's
 *              addresses counted once), then the project gates below, then each message on its own
 *   message    1. idempotencyKey length (422), then a repeat of an accepted key answers the first answer
 *              2. ATTACHMENTS_NOT_SUPPORTED
 *              3. field lengths (422 VALIDATION naming the field: from, replyTo, subject, html, text,
 *                 each recipient: 320 / 500 / 500,000 characters)
 *              4. INVALID_HEADER (line break in subject, from or replyTo; invalid custom header)
 *              5. from missing (422) / INVALID_FROM; replyTo not an address (422)
 *              6. INVALID_COMBINATION (templateId with custom headers)
 *              7. NO_RECIPIENTS, TOO_MANY_RECIPIENTS (a list over 50, or over 50 after de-duplication),
 *                 INVALID_RECIPIENT (each listed with its reason)
 *              8. EMPTY_BODY, SUBJECT_REQUIRED (no template)
 *   gates      PLAN_NOT_FOUND, PLATFORM_REPUTATION, TENANT_PAUSED, SENDING_DISABLED, REPUTATION_SUSPENDED
 *              (single send: after the message checks above; batch: once, before any message)
 *   state      TEMPLATE_NOT_FOUND, SUBJECT_REQUIRED (template without subject), VARIABLES_REQUIRED,
 *              MISSING_VARIABLES, DOMAIN_NOT_FOUND, DOMAIN_NOT_VERIFIED, RECIPIENT_DOMAIN_UNDELIVERABLE,
 *              RECIPIENT_SUPPRESSED
 *   quota      DAILY_QUOTA_EXCEEDED, MONTHLY_QUOTA_EXCEEDED, PAYG_DISABLED, WALLET_NOT_FOUND,
 *              INSUFFICIENT_BALANCE (quota.ts); then the wallet is charged and the message accepted
 *   batch only UNKNOWN for a message the control switch `failNextBatchMessages` picks (nothing reserved)
 *
 * A single send answers 202 `{ id, jobId }`: the email id and its `send_email` job (messages.ts).
 * A batch answers 202 with one result per message (`index`, `id`, `jobId`, `code`, `error`, `status`); when
 * every message failed it answers 400 BATCH_FAILED with those results in `data`.
 */
import type { Ctx, Handlers, RequestBody } from "../core/module";
import { EmuError, Reply } from "../core/errors";
import type { ApiErrorCode } from "../../contract/error-codes";
import type { BatchResult } from "../../contract/schemas";
import { accountOfProject, type EmailPlanLimits, type Project } from "../core/world";
import { sendJobOf, startLifecycle } from "./messages";
import { isPublicFqdn } from "../../contract/hosts";
import { quotaCharge } from "./quota";
import { reputationOf } from "./reputation";
import { callerProject, domainOfAddress, emailState, isUnder, suppressedAddresses, undeliverableAddresses, type EmailRec, type TemplateRec } from "./state";

const MAX_ADDRESS_CHARS = 320;
const MAX_SUBJECT_CHARS = 500;
const MAX_BODY_CHARS = 500_000;
const MAX_IDEMPOTENCY_KEY_CHARS = 128;
const MAX_RECIPIENTS = 50;
const MAX_MESSAGES = 50;
/** A repeated idempotencyKey answers the first answer for this long (emulator clock). */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** Second-level domains reserved for documentation (RFC 2606); names under reserved TLDs are refused too. */
export const RESERVED_RECIPIENT_DOMAINS = ["example.com", "example.net", "example.org"];
/** Header names the service writes itself: a custom header cannot set them. */
const RESERVED_HEADERS = new Set([
  "from", "to", "cc", "bcc", "subject", "reply-to", "sender", "date", "message-id", "mime-version",
  "content-type", "content-transfer-encoding", "return-path", "dkim-signature",
]);
const HEADER_NAME = /^[!-9;-~]{1,100}$/;
const MAX_HEADER_VALUE_CHARS = 998;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_SYNTAX = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;
const LINE_BREAK = /[\r\n]/;

/** One message of a send or a batch, as the route table types it. */
export type SendMessage = RequestBody<"email.send">;

interface Checked {
  from: string;
  fromDomain: string;
  to: string[];
  cc: string[];
  bcc: string[];
  /** Every address once, lower-cased. */
  recipients: string[];
}

/** `addr@domain` or `Display Name <addr@domain>`: the address, or null when malformed. */
export function addressOf(text: string): string | null {
  const t = text.trim();
  const named = /^(?:"[^"]*"|[^<>"]*)\s*<([^<>\s]+)>$/.exec(t);
  const address = named ? named[1] : t;
  if (address.length > MAX_ADDRESS_CHARS) return null;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at > 64) return null;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  if (!LOCAL_PART.test(local) || domain.length > 253 || !DOMAIN_SYNTAX.test(domain)) return null;
  return `${local}@${domain}`;
}

/** Why a recipient is refused (INVALID_RECIPIENT), or null. */
function recipientProblem(text: string): string | null {
  const address = addressOf(text);
  if (!address) return "malformed address";
  const domain = domainOfAddress(address);
  if (!isPublicFqdn(domain) || isUnder(domain, RESERVED_RECIPIENT_DOMAINS)) return "reserved domain";
  return null;
}

const bad = (status: number, code: ApiErrorCode, message: string) => new EmuError(status, code, message);
const validation = (field: string, message: string) => new EmuError(422, "VALIDATION", `${field}: ${message}`);
const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== "";

/** Steps 2–8 of the check order: the message on its own, without the project's state. */
function checkMessage(m: SendMessage, field: (name: string) => string): Checked {
  if (m.attachments !== undefined) throw bad(400, "ATTACHMENTS_NOT_SUPPORTED", `${field("attachments")}: attachments are not supported`);

  for (const [name, max] of [["from", MAX_ADDRESS_CHARS], ["replyTo", MAX_ADDRESS_CHARS], ["subject", MAX_SUBJECT_CHARS], ["html", MAX_BODY_CHARS], ["text", MAX_BODY_CHARS]] as const) {
    const value = m[name];
    if (value !== undefined && value.length > max) throw validation(field(name), `at most ${max.toLocaleString("en-US")} characters (got ${value.length.toLocaleString("en-US")})`);
  }
  for (const list of ["to", "cc", "bcc"] as const) {
    (m[list] ?? []).forEach((r, i) => {
      if (r.length > MAX_ADDRESS_CHARS) throw validation(`${field(list)}[${i}]`, `at most ${MAX_ADDRESS_CHARS} characters (got ${r.length})`);
    });
  }

  for (const name of ["subject", "from", "replyTo"] as const) {
    if (m[name] !== undefined && LINE_BREAK.test(m[name]!)) throw bad(400, "INVALID_HEADER", `${field(name)}: must not contain a line break`);
  }
  const headers = Object.entries(m.headers ?? {});
  for (const [name, value] of headers) {
    let problem: string | null = null;
    if (!HEADER_NAME.test(name)) problem = "name must be 1 to 100 printable ASCII characters without ':' or spaces";
    else if (RESERVED_HEADERS.has(name.toLowerCase())) problem = "is set by the service and cannot be a custom header";
    else if (LINE_BREAK.test(value)) problem = "value must not contain a line break";
    else if (value.length > MAX_HEADER_VALUE_CHARS) problem = `value is longer than ${MAX_HEADER_VALUE_CHARS} characters`;
    if (problem) throw bad(400, "INVALID_HEADER", `${field("headers")}: header "${name}" ${problem}`);
  }

  if (!present(m.from)) throw validation(field("from"), "required");
  const from = addressOf(m.from);
  if (!from) throw bad(400, "INVALID_FROM", `${field("from")}: "${m.from}" is not a valid address`);
  if (m.replyTo !== undefined && !addressOf(m.replyTo)) throw validation(field("replyTo"), `"${m.replyTo}" is not a valid address`);

  if (m.templateId !== undefined && headers.length > 0) throw bad(400, "INVALID_COMBINATION", `${field("templateId")}: a template cannot be combined with custom headers`);

  const to = m.to ?? [];
  const cc = m.cc ?? [];
  const bcc = m.bcc ?? [];
  if (to.length === 0) throw bad(400, "NO_RECIPIENTS", `${field("to")}: at least one recipient is required`);
  for (const [name, list] of [["to", to], ["cc", cc], ["bcc", bcc]] as const) {
    if (list.length > MAX_RECIPIENTS) throw bad(400, "TOO_MANY_RECIPIENTS", `${field(name)}: at most ${MAX_RECIPIENTS} entries (got ${list.length})`);
  }
  const problems: string[] = [];
  for (const [name, list] of [["to", to], ["cc", cc], ["bcc", bcc]] as const) {
    list.forEach((r, i) => {
      const problem = recipientProblem(r);
      if (problem) problems.push(`${field(name)}[${i}] "${r}": ${problem}`);
    });
  }
  const recipients = [...new Set([...to, ...cc, ...bcc].map((r) => addressOf(r)?.toLowerCase() ?? r))];
  if (problems.length === 0 && recipients.length > MAX_RECIPIENTS) {
    throw bad(400, "TOO_MANY_RECIPIENTS", `${field("to")}: at most ${MAX_RECIPIENTS} recipients over to, cc and bcc after removing duplicates (got ${recipients.length})`);
  }
  if (problems.length > 0) throw bad(400, "INVALID_RECIPIENT", `Invalid recipients: ${problems.join("; ")}`);

  if (!present(m.html) && !present(m.text) && m.templateId === undefined) throw bad(400, "EMPTY_BODY", `${field("html")}: one of html, text or templateId is required`);
  if (m.templateId === undefined && !present(m.subject)) throw bad(400, "SUBJECT_REQUIRED", `${field("subject")}: required when no template is used`);

  return { from: m.from.trim(), fromDomain: domainOfAddress(from), to, cc, bcc, recipients };
}

/** The project gates: state of the plan, the platform and the project. */
function checkGates(ctx: Ctx, project: Project): EmailPlanLimits {
  const state = emailState(ctx.world);
  const plan = project.email.plan;
  if (!plan || state.switches.planMissing.includes(project.id)) throw bad(404, "PLAN_NOT_FOUND", "The active plan could not be loaded; retry later or contact support");
  if (state.switches.platformPaused) {
    throw bad(403, "PLATFORM_REPUTATION", `Sending is paused for all projects: ${state.switches.platformPausedReason ?? "the platform's sending reputation is at risk"} (see platformPaused in GET /status)`);
  }
  if (project.email.tenantPaused) throw bad(403, "TENANT_PAUSED", "Sending for this project is paused by the delivery network; contact support");
  if (!project.email.sendingEnabled) throw bad(403, "SENDING_DISABLED", "Sending is turned off for this project");
  const rep = reputationOf(ctx.emu, project.id);
  if (rep.suspended) {
    const pct = (r: number) => `${(r * 100).toFixed(2)} %`;
    throw bad(403, "REPUTATION_SUSPENDED", `Sending is suspended for this project: bounce rate ${pct(rep.bounceRate)} (limit 2 %), complaint rate ${pct(rep.complaintRate)} (limit 0.08 %)`);
  }
  return plan;
}

function tokensOf(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const t of texts) for (const match of (t ?? "").matchAll(TOKEN)) names.add(match[1]);
  return [...names];
}

function render(text: string | null, values: Record<string, unknown>): string | null {
  return text === null ? null : text.replace(TOKEN, (whole, name: string) => (values[name] === undefined || values[name] === null ? whole : String(values[name])));
}

/** State checks; answers the subject the message goes out with. */
function checkState(ctx: Ctx, project: Project, m: SendMessage, c: Checked, field: (name: string) => string): string | null {
  const state = emailState(ctx.world);
  let template: TemplateRec | undefined;
  if (m.templateId !== undefined) {
    template = state.templates.find((t) => t.id === m.templateId && t.projectId === project.id);
    if (!template) throw bad(404, "TEMPLATE_NOT_FOUND", `${field("templateId")}: template ${m.templateId} not found`);
  }
  const subject = present(m.subject) ? m.subject : (template?.subject ?? null);
  if (subject === null) throw bad(400, "SUBJECT_REQUIRED", `${field("subject")}: required (the template has no subject)`);

  const tokens = template ? tokensOf(subject, template.htmlBody, template.textBody, m.html, m.text) : tokensOf(subject, m.html, m.text);
  const values = m.variables === undefined && m.templateData === undefined ? undefined : { ...(m.templateData ?? {}), ...(m.variables ?? {}) };
  if (tokens.length > 0 && values === undefined) {
    throw bad(400, "VARIABLES_REQUIRED", `${field("variables")}: the content has placeholders (${tokens.map((t) => `{{${t}}}`).join(", ")}) but no variables were sent`);
  }
  const missing = tokens.filter((t) => values![t] === undefined || values![t] === null);
  if (missing.length > 0) throw bad(400, "MISSING_VARIABLES", `${field("variables")}: no value for ${missing.map((t) => `{{${t}}}`).join(", ")}`);

  const domain = state.domains.find((d) => d.projectId === project.id && d.domain === c.fromDomain);
  if (!domain) throw bad(403, "DOMAIN_NOT_FOUND", `${field("from")}: domain ${c.fromDomain} is not added to this project`);
  if (domain.status !== "verified") throw bad(403, "DOMAIN_NOT_VERIFIED", `${field("from")}: domain ${c.fromDomain} is not verified (status ${domain.status})`);

  const undeliverable = undeliverableAddresses(ctx.world, c.recipients);
  if (undeliverable.length > 0) {
    throw bad(400, "RECIPIENT_DOMAIN_UNDELIVERABLE", `Recipient domain cannot receive mail (no MX record): ${undeliverable.join(", ")}`);
  }
  const suppressed = suppressedAddresses(ctx.world, project.id, c.recipients);
  if (suppressed.length > 0) throw bad(403, "RECIPIENT_SUPPRESSED", `Recipient is suppressed (earlier bounce or complaint, or on the suppression list): ${suppressed.join(", ")}`);
  return values ? render(subject, values) : subject;
}

/** The accepted message of the project with this key, if still within the idempotency window. */
function repeatOf(ctx: Ctx, project: Project, key: string | undefined): EmailRec | undefined {
  if (key === undefined) return undefined;
  const since = ctx.emu.nowMs() - IDEMPOTENCY_WINDOW_HOURS * 3_600_000;
  return emailState(ctx.world).emails.find((e) => e.projectId === project.id && e.idempotencyKey === key && Date.parse(e.createdAt) >= since);
}

function checkKey(m: SendMessage, field: (name: string) => string): void {
  if (m.idempotencyKey !== undefined && m.idempotencyKey.length > MAX_IDEMPOTENCY_KEY_CHARS) {
    throw validation(field("idempotencyKey"), `at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters (got ${m.idempotencyKey.length})`);
  }
}

/** State checks, quota, charge, record: the message is accepted. */
function accept(ctx: Ctx, project: Project, plan: EmailPlanLimits, m: SendMessage, c: Checked, field: (name: string) => string, beforeAccept?: () => void): EmailRec {
  const subject = checkState(ctx, project, m, c, field);
  const amount = quotaCharge(ctx.emu, project, plan, c.recipients.length);
  beforeAccept?.();
  if (amount > 0) ctx.emu.charge(accountOfProject(ctx.world, project.id), amount, `pay-as-you-go email (${c.recipients.length} recipients)`);
  const state = emailState(ctx.world);
  const now = ctx.emu.nowIso();
  const rec: EmailRec = {
    id: ctx.emu.uuid(),
    projectId: project.id,
    seq: ++state.emailSeq,
    from: c.from,
    to: c.to,
    cc: c.cc,
    bcc: c.bcc,
    replyTo: m.replyTo ?? null,
    subject,
    templateId: m.templateId ?? null,
    status: "queued",
    createdAt: now,
    updatedAt: now,
    recipients: c.recipients,
    bounced: [],
    complained: [],
    charged: amount,
    idempotencyKey: m.idempotencyKey ?? null,
    sentAt: null,
    deliveredAt: null,
  };
  state.emails.push(rec);
  sendJobOf(ctx.emu, rec);
  startLifecycle(ctx.emu, rec);
  return rec;
}

/** A send's answer (202): the email id, and the job that sends it (email-service.md: "202 with a `jobId`"). */
function sentView(ctx: Ctx, e: EmailRec): { id: string; jobId: string } {
  return { id: e.id, jobId: sendJobOf(ctx.emu, e).jobId };
}

/** Thrown instead of accepting: the batch switch picked this message. */
class InjectedUnknown extends Error {}

export const sendHandlers: Handlers<"email.send" | "email.sendBatch"> = {
  "email.send": (ctx) => {
    const m = ctx.body;
    const project = callerProject(ctx);
    const field = (name: string) => name;
    checkKey(m, field);
    const repeat = repeatOf(ctx, project, m.idempotencyKey);
    if (repeat) return new Reply(sentView(ctx, repeat));
    const checked = checkMessage(m, field);
    const plan = checkGates(ctx, project);
    return sentView(ctx, accept(ctx, project, plan, m, checked, field));
  },

  "email.sendBatch": (ctx) => {
    const messages = ctx.body.messages ?? [];
    if (messages.length === 0) throw bad(400, "NO_MESSAGES", "messages: a batch needs at least one message");
    if (messages.length > MAX_MESSAGES) throw bad(400, "TOO_MANY_MESSAGES", `messages: at most ${MAX_MESSAGES} messages in a batch (got ${messages.length})`);
    const total = messages.reduce((n, m) => n + new Set([...(m.to ?? []), ...(m.cc ?? []), ...(m.bcc ?? [])].map((r) => addressOf(r)?.toLowerCase() ?? r)).size, 0);
    if (total > MAX_RECIPIENTS) throw bad(400, "TOO_MANY_RECIPIENTS", `messages: at most ${MAX_RECIPIENTS} recipients in a batch (got ${total})`);
    const project = callerProject(ctx);
    const plan = checkGates(ctx, project);
    const switches = emailState(ctx.world).switches;

    const results: BatchResult[] = messages.map((m, index) => {
      const field = (name: string) => `messages[${index}].${name}`;
      try {
        checkKey(m, field);
        const repeat = repeatOf(ctx, project, m.idempotencyKey);
        if (repeat) return { index, ...sentView(ctx, repeat), code: null, error: null, status: 202 };
        const checked = checkMessage(m, field);
        const rec = accept(ctx, project, plan, m, checked, field, () => {
          if (switches.failNextBatchMessages > 0) {
            switches.failNextBatchMessages--;
            throw new InjectedUnknown();
          }
        });
        return { index, ...sentView(ctx, rec), code: null, error: null, status: 202 };
      } catch (err) {
        if (err instanceof EmuError) return { index, id: null, jobId: null, code: err.code, error: err.message, status: err.status };
        if (err instanceof InjectedUnknown) return { index, id: null, jobId: null, code: "UNKNOWN", error: "Unexpected error while accepting this message; send it again (with its idempotencyKey)", status: 500 };
        throw err;
      }
    });
    if (results.every((r) => r.id === null)) {
      throw new EmuError(400, "BATCH_FAILED", `Every message of the batch failed: ${results.map((r) => `[${r.index}] ${r.code}`).join(", ")}`, { data: results });
    }
    return { data: results };
  },
};
