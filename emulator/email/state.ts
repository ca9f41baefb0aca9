/**
 * The email service's part of the world (`world.email`): jobs, sending domains, templates and
 * webhooks of every project. Records carry internal fields (owner project, webhook secret, DNS
 * publication time); handlers answer through the view functions of each resource's file.
 */
import type { z } from "zod";
import type { emailMessageStatus } from "../../contract/schemas";
import type { ApiErrorCode } from "../../contract/error-codes";
import { EmuError } from "../core/errors";
import type { Ctx } from "../core/module";
import type { EmailPlanLimits, Project, World } from "../core/world";

/** `send_email`: the job that sends one accepted message (moved by the message's lifecycle, messages.ts); the others run on workers (jobs.ts). */
export type JobType = "add_domain" | "verify_domain" | "create_template" | "send_email";
/** The job types a worker runs. */
export type WorkerJobType = Exclude<JobType, "send_email">;
export type JobStatus = "queued" | "running" | "completed" | "failed";

export interface JobRec {
  jobId: string;
  projectId: string;
  type: JobType;
  status: JobStatus;
  result: Record<string, unknown>;
  errorMessage: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** Internal: id of the domain or template the job works on. */
  targetId: string;
}

export interface DnsRecordRec {
  type: "TXT" | "MX" | "CNAME";
  name: string;
  value: string;
  priority?: number;
}

export type DomainStatus = "pending" | "verifying" | "verified" | "failed";

export interface DomainRec {
  id: string;
  projectId: string;
  domain: string;
  status: DomainStatus;
  dnsRecords: DnsRecordRec[];
  createdAt: string;
  verifiedAt: string | null;
  /** Internal: when the records count as published in DNS; null = not yet (dns "manual" mode). */
  dnsPublishAt: string | null;
}

export interface TemplateRec {
  id: string;
  projectId: string;
  name: string;
  subject: string | null;
  htmlBody: string | null;
  textBody: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookRec {
  id: string;
  projectId: string;
  url: string;
  events: string[];
  enabled: boolean;
  failCount: number;
  lastTriggeredAt: string | null;
  createdAt: string;
  /** Internal: answered only by the call that creates the webhook. */
  secret: string;
}

export type EmailStatus = z.infer<typeof emailMessageStatus>;

/** One accepted message (GET /emails). Quota, analytics and reputation are computed from these. */
export interface EmailRec {
  id: string;
  projectId: string;
  /** Internal: order of acceptance in the world (newest first in lists; cursors point at it). */
  seq: number;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  /** Subject after `{{token}}` substitution (the template's when the message has none). */
  subject: string | null;
  templateId: string | null;
  status: EmailStatus;
  createdAt: string;
  updatedAt: string;
  /** Internal: every recipient address once (lower-cased), the unit of quota and reputation. */
  recipients: string[];
  /** Internal: recipient outcomes once known. */
  bounced: string[];
  complained: string[];
  /** Internal: IDR charged from the wallet (pay-as-you-go past the monthly limit). */
  charged: number;
  idempotencyKey: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  /** The `send_email` job of the message; absent in worlds saved before sends had jobs (messages.ts, sendJobOf). */
  jobId?: string;
}

/** An address the project may not send to (earlier bounce or complaint, or added by hand). */
export interface SuppressionRec {
  projectId: string;
  /** Lower-cased: the list matches addresses case-insensitively. */
  email: string;
  reason: "bounce" | "complaint" | "manual";
  createdAt: string;
  /** Order of listing in the world (newest first in `GET /suppressions`; cursors point at it). */
  seq: number;
}

/** State switches that reach the spec's state-based sending codes (`/_emulator/email/switches`). */
export interface EmailSwitches {
  /** Sending paused for every project (PLATFORM_REPUTATION); `platformPausedReason` tells why. */
  platformPaused: boolean;
  platformPausedReason: string | null;
  /** Projects whose active plan cannot be loaded (PLAN_NOT_FOUND). */
  planMissing: string[];
  /** The account has no wallet (WALLET_NOT_FOUND on pay-as-you-go). */
  walletMissing: boolean;
  /** The next N messages of batches fail with UNKNOWN. */
  failNextBatchMessages: number;
}

/** Receiving enabled on a sending domain: mail for `host` arrives at the project's addresses. */
export interface ReceivingRec {
  domainId: string;
  projectId: string;
  /** The domain itself or a subdomain of it, lower-case. */
  host: string;
  enabledAt: string;
}

/** A receiving address: a mailbox, or an alias that delivers to its mailbox. */
export interface AddressRec {
  id: string;
  projectId: string;
  domainId: string;
  type: "mailbox" | "alias";
  /** Lower-case. The address is `<localPart>@<host of the domain's receiving>`. */
  localPart: string;
  /** The alias's mailbox; null for a mailbox. */
  mailboxId: string | null;
  /** Mailbox settings (an alias has none: ALIAS_SETTINGS). */
  name: string | null;
  forwardTo: string[];
  notifications: boolean;
  createdAt: string;
}

/** A message that arrived at a receiving address (one record per receiving address it reached). */
export interface InboundMessageRec {
  id: string;
  projectId: string;
  /** Internal: order of arrival in the world (newest first in lists; cursors point at it). */
  seq: number;
  addressId: string;
  recipient: string;
  deliveredTo: string[];
  mailbox: string;
  from: string;
  fromName: string;
  to: string[];
  cc: string[];
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attachments: { index: number; filename: string; contentType: string; size: number }[];
  folder: string;
  spamVerdict: string;
  virusVerdict: string;
  receivedAt: string;
  /** Copies sent on to the mailbox's forwarding addresses at arrival. */
  forwardedTo: string[];
}

export interface EmailState {
  jobs: JobRec[];
  domains: DomainRec[];
  templates: TemplateRec[];
  webhooks: WebhookRec[];
  emails: EmailRec[];
  /** Last `seq` handed out. */
  emailSeq: number;
  suppressions: SuppressionRec[];
  /** Last `seq` handed out to a suppression. */
  suppressionSeq: number;
  /** Recipient domains without MX: RECIPIENT_DOMAIN_UNDELIVERABLE. */
  undeliverableDomains: string[];
  switches: EmailSwitches;
  /** Per project: reputation counts only messages accepted after this time (a lifted suspension). */
  reputationResetAt: Record<string, string>;
  receiving: ReceivingRec[];
  addresses: AddressRec[];
  inbound: InboundMessageRec[];
  /** Last `seq` handed out to an inbound message. */
  inboundSeq: number;
}

/** Recipient domains seeded without MX records (RECIPIENT_DOMAIN_UNDELIVERABLE). */
export const SEEDED_UNDELIVERABLE_DOMAINS = ["no-mx.svc.dev", "parked.svc.dev"];

export function emailState(world: World): EmailState {
  const state = world.email as Partial<EmailState>;
  state.jobs ??= [];
  state.domains ??= [];
  state.templates ??= [];
  state.webhooks ??= [];
  state.emails ??= [];
  state.emailSeq ??= 0;
  state.suppressions ??= [];
  // A world saved before suppressions had an order: numbered in list order.
  state.suppressionSeq ??= 0;
  for (const entry of state.suppressions) entry.seq ??= ++state.suppressionSeq;
  state.undeliverableDomains ??= [...SEEDED_UNDELIVERABLE_DOMAINS];
  state.switches ??= { platformPaused: false, platformPausedReason: null, planMissing: [], walletMissing: false, failNextBatchMessages: 0 };
  state.reputationResetAt ??= {};
  state.receiving ??= [];
  state.addresses ??= [];
  state.inbound ??= [];
  state.inboundSeq ??= 0;
  return state as EmailState;
}

/**
 * Puts an address on a project's suppression list (a bounce, a complaint, the API or the control
 * API): the existing row when it is listed already, whatever its reason.
 */
export function listSuppression(emu: { world: World; nowIso(): string }, projectId: string, email: string, reason: SuppressionRec["reason"]): { entry: SuppressionRec; added: boolean } {
  const state = emailState(emu.world);
  const address = email.toLowerCase();
  const existing = state.suppressions.find((s) => s.projectId === projectId && s.email === address);
  if (existing) return { entry: existing, added: false };
  const entry: SuppressionRec = { projectId, email: address, reason, createdAt: emu.nowIso(), seq: ++state.suppressionSeq };
  state.suppressions.push(entry);
  return { entry, added: true };
}

/** Whether `domain` is `parent` or under it. */
export function isUnder(domain: string, parents: readonly string[]): boolean {
  return parents.some((p) => domain === p || domain.endsWith(`.${p}`));
}

/** The domain part of an address, lower-cased. */
export function domainOfAddress(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * The addresses whose domain cannot receive mail (no MX: RECIPIENT_DOMAIN_UNDELIVERABLE, for a
 * send's recipients and for contacts alike).
 */
export function undeliverableAddresses(world: World, addresses: readonly string[]): string[] {
  const domains = emailState(world).undeliverableDomains;
  return addresses.filter((a) => isUnder(domainOfAddress(a), domains));
}

/**
 * The addresses on the project's suppression list, matched case-insensitively (RECIPIENT_SUPPRESSED:
 * a send's recipients, and "a contact address on the suppression list").
 */
export function suppressedAddresses(world: World, projectId: string, addresses: readonly string[]): string[] {
  const listed = new Set(emailState(world).suppressions.filter((s) => s.projectId === projectId).map((s) => s.email));
  return addresses.filter((a) => listed.has(a.toLowerCase()));
}

/** The one project an email call acts on (authentication always decides one). */
export function callerProject(ctx: Ctx): Project {
  const project = ctx.world.projects.find((p) => p.id === ctx.caller.projectId);
  if (!project) throw new Error(`email call without a project (caller project ${ctx.caller.projectId})`);
  return project;
}

/**
 * The caller's project's row of `rows` with that id; otherwise 404 with the route's not-found code
 * (an id of another project is not found either).
 */
export function ownRow<T extends { id: string; projectId: string }>(ctx: Ctx, rows: T[], id: string, code: ApiErrorCode, message: string): T {
  const projectId = callerProject(ctx).id;
  const row = rows.find((r) => r.id === id && r.projectId === projectId);
  if (!row) throw new EmuError(404, code, message);
  return row;
}

/** The caller's project's sending domain of that id (DOMAIN_NOT_FOUND otherwise). */
export function ownDomain(ctx: Ctx, domainId: string): DomainRec {
  return ownRow(ctx, emailState(ctx.world).domains, domainId, "DOMAIN_NOT_FOUND", "Domain not found");
}

/** The caller's plan limits; past authentication every route but `GET /status` has a plan. */
export function callerPlan(ctx: Ctx): EmailPlanLimits {
  const plan = callerProject(ctx).email.plan;
  if (!plan) throw new Error("email route reached without a plan");
  return plan;
}

/** Activity entry for something the caller did through the API. */
export function recordUserActivity(ctx: Ctx, action: string, entityType: string, entityId: string, entityName: string): void {
  ctx.emu.recordActivity({ projectId: callerProject(ctx).id, action, entityType, entityId, entityName, actor: "user", byKeyOwner: true });
}
