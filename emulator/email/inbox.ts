/**
 * Receiving mail (assumed-routes.md "Receiving mail", the spec's Inbox codes): receiving enabled on a
 * verified sending domain (for the domain itself or a subdomain: the receiving host), addresses on it
 * (mailboxes, and aliases that deliver to a mailbox), inbox usage and plan values, and the messages
 * that arrived. Messages arrive through the control route `POST /_emulator/email/inbound`
 * (`deliverInbound`): one record per receiving address reached, forwarded to the mailbox's
 * `forwardTo` addresses, and a signed `email.received` event to the subscribed webhooks.
 *
 * The plan says whether it includes receiving and forwarding and how many mailboxes (per project)
 * and aliases (per mailbox) it allows; a plan record without these values has the free plan's
 * (the free plan's in plans.ts: the spec shows no numbers, so these are the emulator's choice).
 */
import type { Ctx, Handlers } from "../core/module";
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import type { EmailPlanLimits } from "../core/world";
import { emitEvent } from "./delivery";
import { pageOf } from "./messages";
import { FREE_PLAN, planHasReceiving, planLimit } from "./plans";
import { isPublicFqdn } from "../../contract/hosts";
import { addressOf } from "./send";
import { callerPlan, callerProject, emailState, ownDomain, ownRow, recordUserActivity, type AddressRec, type EmailState, type InboundMessageRec, type ReceivingRec } from "./state";

const ENTITY = "email_inbound_address";
/** Where the MX records of every receiving host point. */
export const INBOUND_MX_HOST = "inbound-smtp.mail.svc-platform.net";
export const MAX_FORWARD_ADDRESSES = 5;
/** The spec cuts `textBody` of the `email.received` payload at 64 KB. */
const TEXT_BODY_BYTES = 64 * 1024;
const SNIPPET_CHARS = 200;
export const INBOX_FOLDERS = ["inbox", "trash", "drafts"] as const;
/** One local part: letters, digits and `. _ + -`, no dot first, last or twice in a row; 1 to 64 characters. */
const LOCAL_PART = /^(?!\.)(?!.*\.\.)[a-z0-9._+-]{1,64}(?<!\.)$/;

export interface InboxPlan {
  receiving: boolean;
  forwarding: boolean;
  /** Mailboxes per project. */
  mailboxes: number;
  /** Aliases per mailbox. */
  aliases: number;
}

/** A plan's inbox values; a plan record without them (seeded before they existed) has the free plan's (plans.ts). */
export function inboxPlanOf(plan: EmailPlanLimits): InboxPlan {
  return {
    receiving: planHasReceiving(plan),
    forwarding: plan.forwarding ?? FREE_PLAN.forwarding,
    mailboxes: planLimit(plan, "mailboxes"),
    aliases: planLimit(plan, "aliases"),
  };
}

// ---- views ----

function mxRecordsOf(r: ReceivingRec) {
  return [{ type: "MX", name: r.host, value: INBOUND_MX_HOST, priority: 10 }];
}

function receivingView(r: ReceivingRec | undefined) {
  return r ? { enabled: true, host: r.host, mxRecords: mxRecordsOf(r) } : { enabled: false };
}

function addressText(state: EmailState, a: AddressRec): string {
  const host = state.receiving.find((r) => r.domainId === a.domainId)?.host ?? "";
  return `${a.localPart}@${host}`;
}

function addressView(state: EmailState, a: AddressRec) {
  return {
    id: a.id,
    address: addressText(state, a),
    type: a.type,
    domainId: a.domainId,
    mailboxId: a.mailboxId,
    name: a.name,
    forwardTo: [...a.forwardTo],
    notifications: a.notifications,
    createdAt: a.createdAt,
  };
}

function snippetOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
}

/** The `email.received` payload. */
export function inboundSummary(m: InboundMessageRec) {
  const text = Buffer.from(m.textBody, "utf8");
  return {
    id: m.id,
    recipient: m.recipient,
    deliveredTo: [...m.deliveredTo],
    mailbox: m.mailbox,
    from: m.from,
    fromName: m.fromName,
    to: [...m.to],
    cc: [...m.cc],
    subject: m.subject,
    snippet: snippetOf(m.textBody),
    textBody: text.length > TEXT_BODY_BYTES ? text.subarray(0, TEXT_BODY_BYTES).toString("utf8") : m.textBody,
    hasAttachments: m.attachments.length > 0,
    attachments: m.attachments.map((a) => ({ ...a })),
    folder: m.folder,
    spamVerdict: m.spamVerdict,
    virusVerdict: m.virusVerdict,
    receivedAt: m.receivedAt,
  };
}

function inboundView(m: InboundMessageRec) {
  return { ...inboundSummary(m), textBody: m.textBody, htmlBody: m.htmlBody, forwardedTo: [...m.forwardedTo] };
}

// ---- lookups and rules ----


function ownAddresses(ctx: Ctx): AddressRec[] {
  const projectId = callerProject(ctx).id;
  return emailState(ctx.world).addresses.filter((a) => a.projectId === projectId);
}

function ownAddress(ctx: Ctx): AddressRec {
  const address = ownAddresses(ctx).find((a) => a.id === ctx.params.addressId);
  if (!address) throw new EmuError(404, "ADDRESS_NOT_FOUND", "Address not found");
  return address;
}

/** The forwarding list as stored (lower-cased, each once), or INVALID_ADDRESS / VALIDATION. */
function forwardingList(value: unknown, own: string | undefined): string[] {
  const list = value as string[];
  if (list.length > MAX_FORWARD_ADDRESSES) throw new EmuError(422, "VALIDATION", `forwardTo: at most ${MAX_FORWARD_ADDRESSES} addresses (got ${list.length})`);
  const out: string[] = [];
  for (const text of list) {
    const address = addressOf(text);
    if (!address || address.toLowerCase() !== text.trim().toLowerCase()) throw new EmuError(400, "INVALID_ADDRESS", `forwardTo: "${text}" is not a valid address`);
    const lower = address.toLowerCase();
    if (lower === own) throw new EmuError(400, "INVALID_ADDRESS", `forwardTo: ${lower} is the mailbox itself`);
    if (!out.includes(lower)) out.push(lower);
  }
  return out;
}

/** Mailbox-only settings given for an alias (name, forwardTo, notifications, password). */
function aliasSettings(body: Record<string, unknown>): string[] {
  return ["name", "forwardTo", "notifications", "password"].filter((k) => body[k] !== undefined);
}

function refuseAliasSettings(body: Record<string, unknown>): void {
  const given = aliasSettings(body);
  if (given.length) throw new EmuError(400, "ALIAS_SETTINGS", `${given.join(", ")}: mailbox-only settings cannot be set on an alias; set them on its mailbox`);
}

function refusePassword(body: Record<string, unknown>): void {
  if (body.password !== undefined) throw new EmuError(403, "KEY_NOT_ALLOWED", "Webmail passwords are set in the dashboard only, not with an API key");
}

/** Removes receiving from a domain and its addresses (receiving turned off, or the domain deleted). */
export function dropReceiving(state: EmailState, domainId: string): void {
  state.receiving = state.receiving.filter((r) => r.domainId !== domainId);
  state.addresses = state.addresses.filter((a) => a.domainId !== domainId);
}

// ---- handlers ----

type InboxRoute =
  | "email.receiving.get"
  | "email.receiving.enable"
  | "email.receiving.disable"
  | "email.addresses.list"
  | "email.addresses.create"
  | "email.addresses.get"
  | "email.addresses.update"
  | "email.addresses.delete"
  | "email.inbound.stats"
  | "email.inbound.messages.list"
  | "email.inbound.messages.get";

export const inboxHandlers: Handlers<InboxRoute> = {
  "email.receiving.get": (ctx) => {
    const domain = ownDomain(ctx, ctx.params.domainId);
    return receivingView(emailState(ctx.world).receiving.find((r) => r.domainId === domain.id));
  },

  "email.receiving.enable": (ctx) => {
    const domain = ownDomain(ctx, ctx.params.domainId);
    const state = emailState(ctx.world);
    if (!inboxPlanOf(callerPlan(ctx)).receiving) throw new EmuError(402, "PLAN_REQUIRED", "The plan has no receiving: move to a plan that includes it");
    const given = ctx.body.host;
    const host = (given ?? domain.domain).trim().toLowerCase().replace(/\.$/, "");
    if (!isPublicFqdn(host) || (host !== domain.domain && !host.endsWith(`.${domain.domain}`))) {
      throw new EmuError(400, "INVALID_HOST", `Receiving host "${given}" must be ${domain.domain} or a subdomain of it`);
    }
    if (host === `bounce.${domain.domain}`) throw new EmuError(400, "INVALID_HOST", `${host} is the envelope-sender (bounce) host of ${domain.domain}: choose another host`);
    if (domain.status !== "verified") throw new EmuError(409, "DOMAIN_NOT_VERIFIED", `Verify ${domain.domain} before enabling receiving (status ${domain.status})`);
    const taken = state.receiving.find((r) => r.host === host && r.domainId !== domain.id);
    if (taken) throw new EmuError(409, "INBOUND_HOST_TAKEN", `${host} already receives mail${taken.projectId === domain.projectId ? " for another domain of this project" : " in another project"}`);
    let rec = state.receiving.find((r) => r.domainId === domain.id);
    if (!rec) {
      rec = { domainId: domain.id, projectId: domain.projectId, host, enabledAt: ctx.emu.nowIso() };
      state.receiving.push(rec);
      recordUserActivity(ctx, "email.receiving.enabled", "email_domain", domain.id, host);
    } else if (rec.host !== host) {
      rec.host = host;
      recordUserActivity(ctx, "email.receiving.updated", "email_domain", domain.id, host);
    }
    return receivingView(rec);
  },

  "email.receiving.disable": (ctx) => {
    const domain = ownDomain(ctx, ctx.params.domainId);
    const state = emailState(ctx.world);
    const rec = state.receiving.find((r) => r.domainId === domain.id);
    if (rec) {
      dropReceiving(state, domain.id);
      recordUserActivity(ctx, "email.receiving.disabled", "email_domain", domain.id, rec.host);
    }
    return receivingView(undefined);
  },

  "email.addresses.list": (ctx) => {
    const state = emailState(ctx.world);
    return ownAddresses(ctx).map((a) => addressView(state, a));
  },

  "email.addresses.create": (ctx) => {
    const body = ctx.body;
    if (body.type !== "mailbox" && body.type !== "alias") throw new EmuError(422, "VALIDATION", `type: "mailbox" or "alias" (got "${body.type}")`);
    const domain = ownDomain(ctx, body.domainId);
    const state = emailState(ctx.world);
    if (body.type === "alias") refuseAliasSettings(body);
    else refusePassword(body);
    const receiving = state.receiving.find((r) => r.domainId === domain.id);
    if (!receiving) throw new EmuError(409, "DOMAIN_NOT_RECEIVING", `Enable receiving on ${domain.domain} before creating addresses`);
    const localPart = body.localPart.trim().toLowerCase();
    if (!LOCAL_PART.test(localPart)) throw new EmuError(400, "INVALID_ADDRESS", `localPart "${body.localPart}": 1 to 64 letters, digits, dots, _, + or -, no dot first, last or twice`);
    const address = `${localPart}@${receiving.host}`;
    const forwardTo = body.forwardTo === undefined ? [] : forwardingList(body.forwardTo, address);
    let mailbox: AddressRec | undefined;
    if (body.type === "alias") {
      if (!body.mailboxId) throw new EmuError(422, "VALIDATION", "mailboxId: required for an alias");
      mailbox = ownAddresses(ctx).find((a) => a.id === body.mailboxId && a.type === "mailbox");
      if (!mailbox) throw new EmuError(404, "MAILBOX_NOT_FOUND", `Mailbox ${body.mailboxId} of the alias not found`);
    }
    if (ownAddresses(ctx).some((a) => a.domainId === domain.id && a.localPart === localPart)) throw new EmuError(409, "ADDRESS_EXISTS", `${address} exists`);
    const plan = inboxPlanOf(callerPlan(ctx));
    if (!plan.receiving) throw new EmuError(402, "PLAN_REQUIRED", "The plan has no receiving: move to a plan that includes it");
    if (forwardTo.length && !plan.forwarding) throw new EmuError(402, "FORWARDING_NOT_ALLOWED", "The plan has no forwarding");
    if (body.type === "mailbox" && ownAddresses(ctx).filter((a) => a.type === "mailbox").length >= plan.mailboxes) {
      throw new EmuError(402, "MAILBOX_LIMIT", `The plan allows ${plan.mailboxes} mailboxes`);
    }
    if (mailbox && ownAddresses(ctx).filter((a) => a.mailboxId === mailbox.id).length >= plan.aliases) {
      throw new EmuError(402, "ALIAS_LIMIT", `Mailbox ${addressText(state, mailbox)} has the maximum of ${plan.aliases} aliases`);
    }
    const rec: AddressRec = {
      id: ctx.emu.uuid(),
      projectId: domain.projectId,
      domainId: domain.id,
      type: body.type,
      localPart,
      mailboxId: mailbox?.id ?? null,
      name: body.type === "mailbox" ? (body.name ?? null) : null,
      forwardTo,
      notifications: body.notifications ?? false,
      createdAt: ctx.emu.nowIso(),
    };
    state.addresses.push(rec);
    recordUserActivity(ctx, `email.${rec.type}.created`, ENTITY, rec.id, address);
    return addressView(state, rec);
  },

  "email.addresses.get": (ctx) => addressView(emailState(ctx.world), ownAddress(ctx)),

  "email.addresses.update": (ctx) => {
    const rec = ownAddress(ctx);
    const state = emailState(ctx.world);
    const body = ctx.body;
    if (rec.type === "alias") refuseAliasSettings(body);
    refusePassword(body);
    if (body.forwardTo !== undefined) {
      const forwardTo = forwardingList(body.forwardTo, addressText(state, rec));
      if (forwardTo.length && !inboxPlanOf(callerPlan(ctx)).forwarding) throw new EmuError(402, "FORWARDING_NOT_ALLOWED", "The plan has no forwarding");
      rec.forwardTo = forwardTo;
    }
    if (body.name !== undefined) rec.name = body.name;
    if (body.notifications !== undefined) rec.notifications = body.notifications;
    recordUserActivity(ctx, `email.${rec.type}.updated`, ENTITY, rec.id, addressText(state, rec));
    return addressView(state, rec);
  },

  "email.addresses.delete": (ctx) => {
    const rec = ownAddress(ctx);
    const state = emailState(ctx.world);
    const text = addressText(state, rec);
    // A mailbox takes its aliases with it.
    state.addresses = state.addresses.filter((a) => a !== rec && a.mailboxId !== rec.id);
    recordUserActivity(ctx, `email.${rec.type}.deleted`, ENTITY, rec.id, text);
    return { deleted: true as const };
  },

  "email.inbound.stats": (ctx) => {
    const projectId = callerProject(ctx).id;
    const state = emailState(ctx.world);
    const own = ownAddresses(ctx);
    const messages = state.inbound.filter((m) => m.projectId === projectId);
    return {
      plan: inboxPlanOf(callerPlan(ctx)),
      usage: {
        receivingHosts: state.receiving.filter((r) => r.projectId === projectId).length,
        mailboxes: own.filter((a) => a.type === "mailbox").length,
        aliases: own.filter((a) => a.type === "alias").length,
        messages: messages.length,
        storageBytes: messages.reduce((n, m) => n + Buffer.byteLength(m.textBody) + Buffer.byteLength(m.htmlBody ?? "") + m.attachments.reduce((s, a) => s + a.size, 0), 0),
      },
    };
  },

  "email.inbound.messages.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    const folder = ctx.query.folder;
    if (folder !== undefined && !(INBOX_FOLDERS as readonly string[]).includes(folder)) {
      throw new EmuError(400, "INVALID_FOLDER", `folder: one of ${INBOX_FOLDERS.join(", ")} (got "${folder}")`);
    }
    const rows = emailState(ctx.world).inbound.filter((m) => m.projectId === projectId && (folder === undefined || m.folder === folder));
    // Each folder (or all of them) is a list of its own: a cursor of the inbox does not page the trash.
    return pageOf(ctx, projectId, rows, inboundSummary, { list: `${ctx.routeId}?folder=${folder ?? ""}` });
  },

  "email.inbound.messages.get": (ctx) => {
    const m = ownRow(ctx, emailState(ctx.world).inbound, ctx.params.messageId, "MESSAGE_NOT_FOUND", "Message not found");
    return inboundView(m);
  },
};

// ---- arrival (the control route) ----

export interface InboundInput {
  from: string;
  fromName?: string;
  to: string[];
  cc?: string[];
  subject?: string;
  text?: string;
  html?: string;
  attachments?: { filename: string; contentType?: string; size?: number; content?: string }[];
  spamVerdict?: string;
  virusVerdict?: string;
}

/** The receiving address (of any project) an address text names, with its host's record. */
function receivingAddress(state: EmailState, text: string): AddressRec | undefined {
  const at = text.lastIndexOf("@");
  const localPart = text.slice(0, at).toLowerCase();
  const host = text.slice(at + 1).toLowerCase();
  const receiving = state.receiving.find((r) => r.host === host);
  return receiving ? state.addresses.find((a) => a.domainId === receiving.domainId && a.localPart === localPart) : undefined;
}

/**
 * A message arrives from outside: stored once for each receiving address among `to` and `cc`
 * (an alias's lands in its mailbox), forwarded to the mailbox's `forwardTo`, announced to the
 * project's account when the mailbox has `notifications`, and sent as `email.received` to the
 * subscribed webhooks. Answers the stored messages; none reached: 404 ADDRESS_NOT_FOUND.
 */
export function deliverInbound(emu: Emu, input: InboundInput): ReturnType<typeof inboundView>[] {
  const state = emailState(emu.world);
  const recipients = [...new Set([...input.to, ...(input.cc ?? [])].map((t) => addressOf(t)?.toLowerCase()).filter((a): a is string => !!a))];
  const reached = recipients.map((r) => ({ recipient: r, address: receivingAddress(state, r) })).filter((x): x is { recipient: string; address: AddressRec } => !!x.address);
  if (reached.length === 0) throw new EmuError(404, "ADDRESS_NOT_FOUND", `No receiving address among ${recipients.join(", ") || "the recipients"}`);
  const stored: ReturnType<typeof inboundView>[] = [];
  for (const { recipient, address } of reached) {
    const mailbox = address.type === "alias" ? state.addresses.find((a) => a.id === address.mailboxId)! : address;
    const mailboxText = addressText(state, mailbox);
    const m: InboundMessageRec = {
      id: emu.uuid(),
      projectId: address.projectId,
      seq: ++state.inboundSeq,
      addressId: address.id,
      recipient,
      deliveredTo: address === mailbox ? [recipient] : [recipient, mailboxText],
      mailbox: mailboxText,
      from: addressOf(input.from)?.toLowerCase() ?? input.from,
      fromName: input.fromName ?? "",
      to: [...input.to],
      cc: [...(input.cc ?? [])],
      subject: input.subject ?? "",
      textBody: input.text ?? "",
      htmlBody: input.html ?? null,
      attachments: (input.attachments ?? []).map((a, index) => ({
        index,
        filename: a.filename,
        contentType: a.contentType ?? "application/octet-stream",
        size: a.size ?? Buffer.byteLength(a.content ?? ""),
      })),
      folder: "inbox",
      spamVerdict: input.spamVerdict ?? "PASS",
      virusVerdict: input.virusVerdict ?? "PASS",
      receivedAt: emu.nowIso(),
      forwardedTo: [...mailbox.forwardTo],
    };
    state.inbound.push(m);
    if (mailbox.notifications) {
      emu.notify({ type: "email.received", title: `New mail for ${mailboxText}`, message: `From ${m.from}: ${m.subject}`, link: null, projectId: m.projectId });
    }
    emitEvent(emu, m.projectId, "email.received", { messageId: m.id, recipients: [recipient], notification: inboundSummary(m) });
    stored.push(inboundView(m));
  }
  return stored;
}
