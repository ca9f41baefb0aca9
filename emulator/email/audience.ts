/**
 * Audience (assumed-routes.md "Audience"): topics, segments and contacts, each within the plan's
 * limit (TOPIC_LIMIT_REACHED, SEGMENT_LIMIT_REACHED, CONTACT_LIMIT_REACHED). Where the spec is
 * silent: a name is 1–100 characters and a description at most 500 (422 VALIDATION); names need
 * not be unique (the spec has no code that would refuse a second one).
 */
import { segmentOperators } from "../../contract/schemas";
import type { Ctx, Handlers } from "../core/module";
import { EmuError } from "../core/errors";
import { pageOf } from "./messages";
import { planLimit } from "./plans";
import { callerPlan, callerProject, domainOfAddress, emailState, isUnder, ownRow, recordUserActivity, suppressedAddresses, undeliverableAddresses } from "./state";

const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;
const MAX_RULES = 20;
const MAX_CONTACTS_PER_CALL = 1000;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface TopicRec { id: string; projectId: string; name: string; description: string | null; createdAt: string }
interface SegmentRule { field: string; operator: string; value?: string }
interface SegmentRec { id: string; projectId: string; name: string; rules: SegmentRule[]; createdAt: string; updatedAt: string }
interface ContactRec { id: string; projectId: string; seq: number; email: string; topicIds: string[]; createdAt: string }
interface AudienceState { topics: TopicRec[]; segments: SegmentRec[]; contacts: ContactRec[]; contactSeq: number }

function audience(ctx: Ctx): AudienceState {
  const state = emailState(ctx.world) as ReturnType<typeof emailState> & { audience?: AudienceState };
  state.audience ??= { topics: [], segments: [], contacts: [], contactSeq: 0 };
  return state.audience;
}

const validation = (message: string) => new EmuError(422, "VALIDATION", message);

function checkName(name: string | undefined): void {
  if (name === undefined) return;
  if (name.trim() === "" || name.length > MAX_NAME) throw validation(`name: 1 to ${MAX_NAME} characters`);
}

function checkRules(rules: SegmentRule[] | undefined): void {
  if (rules === undefined) return;
  if (rules.length < 1 || rules.length > MAX_RULES) throw validation(`rules: 1 to ${MAX_RULES} rules (got ${rules.length})`);
  rules.forEach((r, i) => {
    if (!r.field) throw validation(`rules.${i}.field: required`);
    if (!(segmentOperators as readonly string[]).includes(r.operator)) throw validation(`rules.${i}.operator: one of ${segmentOperators.join(", ")}`);
    if (r.operator !== "exists" && (r.value === undefined || r.value === "")) throw validation(`rules.${i}.value: required for ${r.operator}`);
  });
}

const topicView = (t: TopicRec) => ({ id: t.id, name: t.name, description: t.description, createdAt: t.createdAt });
const segmentView = (s: SegmentRec) => ({ id: s.id, name: s.name, rules: s.rules.map((r) => ({ ...r })), createdAt: s.createdAt, updatedAt: s.updatedAt });
const contactView = (c: ContactRec) => ({ id: c.id, email: c.email, topicIds: [...c.topicIds], createdAt: c.createdAt });

const own = <T extends { projectId: string }>(ctx: Ctx, rows: T[]) => rows.filter((r) => r.projectId === callerProject(ctx).id);

const topicOf = (ctx: Ctx): TopicRec => ownRow(ctx, audience(ctx).topics, ctx.params.topicId, "TOPIC_NOT_FOUND", "Topic not found");
const segmentOf = (ctx: Ctx): SegmentRec => ownRow(ctx, audience(ctx).segments, ctx.params.segmentId, "SEGMENT_NOT_FOUND", "Segment not found");

/**
 * Disposable inbox providers (DISPOSABLE_EMAIL, "Disposable inbox provider"): a few well-known ones,
 * their subdomains too. The spec names no list.
 */
export const DISPOSABLE_DOMAINS = ["mailinator.com", "guerrillamail.com", "10minutemail.com", "yopmail.com", "temp-mail.org", "trashmail.com"];
/** How many refused addresses a message names before it counts the rest. */
const NAMED_ADDRESSES = 10;

function named(addresses: string[]): string {
  const shown = addresses.slice(0, NAMED_ADDRESSES).join(", ");
  return addresses.length > NAMED_ADDRESSES ? `${shown} and ${addresses.length - NAMED_ADDRESSES} more` : shown;
}

/**
 * The checks of POST /contacts that look past the address's syntax, in this order (email-service.md):
 * DISPOSABLE_EMAIL (400, "Disposable inbox provider"), RECIPIENT_DOMAIN_UNDELIVERABLE (400,
 * "Recipient domain missing or cannot receive mail (also for contacts)"), RECIPIENT_SUPPRESSED (403,
 * "also a contact address on the suppression list").
 */
function refuseUnsendable(ctx: Ctx, addresses: string[]): void {
  const disposable = addresses.filter((a) => isUnder(domainOfAddress(a), DISPOSABLE_DOMAINS));
  if (disposable.length) throw new EmuError(400, "DISPOSABLE_EMAIL", `Disposable inbox provider: ${named(disposable)}; leave these out, nothing was added`);
  const undeliverable = undeliverableAddresses(ctx.world, addresses);
  if (undeliverable.length) {
    throw new EmuError(400, "RECIPIENT_DOMAIN_UNDELIVERABLE", `Contact domain cannot receive mail (no MX record): ${named(undeliverable)}; leave these out, nothing was added`);
  }
  const suppressed = suppressedAddresses(ctx.world, callerProject(ctx).id, addresses);
  if (suppressed.length) {
    throw new EmuError(
      403,
      "RECIPIENT_SUPPRESSED",
      `On the project's suppression list (an earlier bounce or complaint, or added to it): ${named(suppressed)}; leave these out, or remove them from the list first (DELETE /suppressions/{email}). Nothing was added`,
    );
  }
}

type AudienceRoute =
  | "email.topics.list" | "email.topics.create" | "email.topics.get" | "email.topics.update" | "email.topics.delete"
  | "email.segments.list" | "email.segments.create" | "email.segments.get" | "email.segments.update" | "email.segments.delete"
  | "email.contacts.list" | "email.contacts.add";

export const audienceHandlers: Handlers<AudienceRoute> = {
  "email.topics.list": (ctx) => own(ctx, audience(ctx).topics).map(topicView),
  "email.topics.create": (ctx) => {
    const { name, description } = ctx.body;
    checkName(name);
    if (description !== undefined && description.length > MAX_DESCRIPTION) throw validation(`description: at most ${MAX_DESCRIPTION} characters`);
    const limit = planLimit(callerPlan(ctx), "topics");
    if (own(ctx, audience(ctx).topics).length >= limit) throw new EmuError(402, "TOPIC_LIMIT_REACHED", `Your plan allows ${limit} topics`);
    const topic: TopicRec = { id: ctx.emu.uuid(), projectId: callerProject(ctx).id, name, description: description ?? null, createdAt: ctx.emu.nowIso() };
    audience(ctx).topics.push(topic);
    recordUserActivity(ctx, "email.topic.created", "email_topic", topic.id, topic.name);
    return topicView(topic);
  },
  "email.topics.get": (ctx) => topicView(topicOf(ctx)),
  "email.topics.update": (ctx) => {
    const topic = topicOf(ctx);
    const { name, description } = ctx.body;
    checkName(name);
    if (description && description.length > MAX_DESCRIPTION) throw validation(`description: at most ${MAX_DESCRIPTION} characters`);
    if (name !== undefined) topic.name = name;
    if (description !== undefined) topic.description = description;
    return topicView(topic);
  },
  "email.topics.delete": (ctx) => {
    const topic = topicOf(ctx);
    const state = audience(ctx);
    state.topics = state.topics.filter((t) => t !== topic);
    for (const c of state.contacts) c.topicIds = c.topicIds.filter((id) => id !== topic.id);
    recordUserActivity(ctx, "email.topic.deleted", "email_topic", topic.id, topic.name);
    return { deleted: true as const };
  },

  "email.segments.list": (ctx) => own(ctx, audience(ctx).segments).map(segmentView),
  "email.segments.create": (ctx) => {
    const { name, rules } = ctx.body;
    checkName(name);
    checkRules(rules);
    const limit = planLimit(callerPlan(ctx), "segments");
    if (own(ctx, audience(ctx).segments).length >= limit) throw new EmuError(402, "SEGMENT_LIMIT_REACHED", `Your plan allows ${limit} segments`);
    const now = ctx.emu.nowIso();
    const segment: SegmentRec = { id: ctx.emu.uuid(), projectId: callerProject(ctx).id, name, rules: rules.map((r) => ({ ...r })), createdAt: now, updatedAt: now };
    audience(ctx).segments.push(segment);
    recordUserActivity(ctx, "email.segment.created", "email_segment", segment.id, segment.name);
    return segmentView(segment);
  },
  "email.segments.get": (ctx) => segmentView(segmentOf(ctx)),
  "email.segments.update": (ctx) => {
    const segment = segmentOf(ctx);
    const { name, rules } = ctx.body;
    checkName(name);
    checkRules(rules);
    if (name !== undefined) segment.name = name;
    if (rules !== undefined) segment.rules = rules.map((r) => ({ ...r }));
    segment.updatedAt = ctx.emu.nowIso();
    return segmentView(segment);
  },
  "email.segments.delete": (ctx) => {
    const segment = segmentOf(ctx);
    const state = audience(ctx);
    state.segments = state.segments.filter((s) => s !== segment);
    recordUserActivity(ctx, "email.segment.deleted", "email_segment", segment.id, segment.name);
    return { deleted: true as const };
  },

  "email.contacts.list": (ctx) => pageOf(ctx, callerProject(ctx).id, own(ctx, audience(ctx).contacts), contactView),
  /**
   * Adds new addresses (an address already a contact is kept as it is). All or nothing: the first
   * failing check answers, naming the addresses it refuses, and adds none: consent, empty, too many,
   * INVALID_EMAIL, then refuseUnsendable's, then the plan's contact limit.
   */
  "email.contacts.add": (ctx) => {
    const { contacts, consentConfirmed } = ctx.body;
    if (consentConfirmed !== true) throw new EmuError(400, "CONSENT_REQUIRED", "Adding contacts needs consentConfirmed: true");
    if (!contacts || contacts.length === 0) throw new EmuError(400, "EMPTY_REQUEST", "No contacts in the request");
    if (contacts.length > MAX_CONTACTS_PER_CALL) throw new EmuError(400, "TOO_MANY", `At most ${MAX_CONTACTS_PER_CALL} contacts per request`);
    const invalid = contacts.map((c) => c.email).filter((e) => !EMAIL.test(e));
    if (invalid.length) throw new EmuError(400, "INVALID_EMAIL", `Invalid contact address: ${named(invalid)}`);
    const addresses = contacts.map((c) => c.email.toLowerCase());
    refuseUnsendable(ctx, addresses);
    const state = audience(ctx);
    const existing = own(ctx, state.contacts);
    const known = new Set(existing.map((c) => c.email));
    const fresh = [...new Set(addresses)].filter((e) => !known.has(e));
    const limit = planLimit(callerPlan(ctx), "contacts");
    if (existing.length + fresh.length > limit) throw new EmuError(402, "CONTACT_LIMIT_REACHED", `Your plan allows ${limit} contacts (${existing.length} now, ${fresh.length} new)`);
    const added = fresh.map((email) => ({ id: ctx.emu.uuid(), projectId: callerProject(ctx).id, seq: ++state.contactSeq, email, topicIds: [], createdAt: ctx.emu.nowIso() }));
    state.contacts.push(...added);
    return { added: added.length, contacts: added.map(contactView) };
  },
};
