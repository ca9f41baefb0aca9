/**
 * The one route table of the project: every route the client calls and the emulator serves, from
 * the spec documents plus shared/spec/assumed-routes.md. The client reaches the API only through it;
 * the emulator registers its handlers from it. When the real API documents a path, one edit here
 * fixes both.
 *
 * `safety` decides retries (see provider/client/http.ts):
 * - `read` / `idempotent`: safe to send again after a network error, timeout or 5xx.
 * - `non-idempotent`: a repeat would act twice (add a second rule, wipe a disk again).
 * - `paid`: charges the wallet; never sent again once it may have reached the server.
 */
import { z } from "zod";
import * as s from "./schemas";
import type { Method, Service } from "./services";

export type { Method, Service };
export type Safety = "read" | "idempotent" | "non-idempotent" | "paid";
/** The statuses of a success answer. */
export type SuccessStatus = 200 | 201 | 202;

export interface RouteDef {
  readonly service: Service;
  readonly method: Method;
  /** Path template relative to the service's base URL, `{name}` for parameters. */
  readonly path: string;
  readonly safety: Safety;
  /** Status of a success answer. */
  readonly status: SuccessStatus;
  /** Schema of the envelope's `data`. */
  readonly response: z.ZodType;
  /** Request body schema: types only; business rules answer their own codes. */
  readonly body?: z.ZodType;
  /** Query string schema. */
  readonly query?: z.ZodType;
  /** The API reads an `Idempotency-Key` header on this route (the client sends a stable one);
   * `"required"`: a real (not `?dryRun=true`) call without one answers 400 IDEMPOTENCY_KEY_REQUIRED. */
  readonly idempotencyKey?: boolean | "required";
  /** An email route that answers without an active plan (the spec's NO_PLAN exceptions). */
  readonly withoutPlan?: boolean;
  /** An email send endpoint: a missing key answers `NO_API_KEY` instead of `UNAUTHORIZED`. */
  readonly sendEndpoint?: boolean;
  /** The route takes `?dryRun=true` (its query is `dryRunQuery`): nothing is created, changed or charged. */
  readonly dryRun?: true;
}

/**
 * AI gateway routes (`service: "ai"`) have no envelope: `response` validates the whole body, and
 * errors come in the OpenAI shape (`/v1/chat/completions`, `/v1/models`) or the Anthropic shape
 * (`/v1/messages*`). The emulator serves them from its own module (emulator/ai), not the envelope
 * machinery of app.ts.
 */
export type AiStyle = "openai" | "anthropic";
export function aiStyleOf(path: string): AiStyle {
  return path.startsWith("/v1/messages") ? "anthropic" : "openai";
}

const def = <T extends RouteDef>(r: T): T => r;
const list = <T extends z.ZodType>(item: T) => z.array(item);

/** Send message fields: types only (the spec's rules answer their own codes, e.g. INVALID_FROM). */
const sendMessage = z.looseObject({
  from: z.string().optional(),
  to: z.array(z.string()).optional(),
  cc: z.array(z.string()).optional(),
  bcc: z.array(z.string()).optional(),
  replyTo: z.string().optional(),
  subject: z.string().optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  templateId: z.string().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  templateData: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  idempotencyKey: z.string().optional(),
  attachments: z.unknown().optional(),
});
const pageQuery = z.object({ limit: z.string().regex(/^\d+$/).optional(), cursor: z.string().optional() });
const openObject = z.looseObject({});

/**
 * The query of a route that takes `?dryRun=true` (platform-api.md, Limits: "nothing is created,
 * changed or charged"). The flag is `true` or `false`, once; anything else meant as the flag is
 * refused (422) before the call does anything: a flag the API did not read would make the dry run a
 * real, paid call. So `dryRun=TRUE`, `dryRun=1`, `dryRun=` and a repeated `dryRun` are refused, and
 * so is a parameter spelled as the flag in another way (`dryRun[]=true`, `dryrun=true`, `dry_run=true`).
 */
export const dryRunQuery = z.looseObject({ dryRun: z.enum(["true", "false"]).optional() }).superRefine((query, ctx) => {
  for (const name of Object.keys(query)) {
    if (name !== "dryRun" && name.replace(/[^A-Za-z]/g, "").toLowerCase().startsWith("dryrun")) {
      ctx.addIssue({ code: "custom", path: [name], message: "not a parameter: the dry-run flag is dryRun=true (or dryRun=false), once" });
    }
  }
});
/** A route that takes `?dryRun=true`: its query, and the mark the route table's tests read (`acceptsDryRun`). */
const dryRunnable = { query: dryRunQuery, dryRun: true } as const;
const firewallRuleInput = z.looseObject({
  protocol: z.string(),
  action: z.string(),
  port: z.string().optional(),
  source: z.string(),
});

export const routes = {
  // ---- email service ({email_base_url}) ----
  "email.jobs.list": def({ service: "email", method: "GET", path: "/jobs", safety: "read", status: 200, response: list(s.emailJob) }),
  "email.jobs.get": def({ service: "email", method: "GET", path: "/jobs/{jobId}", safety: "read", status: 200, response: s.emailJob }),
  "email.domains.list": def({ service: "email", method: "GET", path: "/domains", safety: "read", status: 200, response: list(s.emailDomain) }),
  "email.domains.create": def({
    service: "email", method: "POST", path: "/domains", safety: "non-idempotent", status: 202,
    response: z.looseObject({ jobId: z.string(), domainId: z.string() }),
    body: z.object({ domain: z.string() }),
  }),
  "email.domains.get": def({ service: "email", method: "GET", path: "/domains/{domainId}", safety: "read", status: 200, response: s.emailDomain }),
  "email.domains.verify": def({ service: "email", method: "POST", path: "/domains/{domainId}/verify", safety: "idempotent", status: 202, response: s.jobAccepted }),
  "email.domains.delete": def({ service: "email", method: "DELETE", path: "/domains/{domainId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.templates.list": def({ service: "email", method: "GET", path: "/templates", safety: "read", status: 200, response: list(s.emailTemplate) }),
  "email.templates.create": def({
    service: "email", method: "POST", path: "/templates", safety: "non-idempotent", status: 202,
    response: z.looseObject({ jobId: z.string(), templateId: z.string() }),
    body: z.object({ name: z.string(), subject: z.string().optional(), htmlBody: z.string().optional(), textBody: z.string().optional() }),
  }),
  "email.templates.get": def({ service: "email", method: "GET", path: "/templates/{templateId}", safety: "read", status: 200, response: s.emailTemplate }),
  "email.templates.update": def({
    service: "email", method: "PATCH", path: "/templates/{templateId}", safety: "idempotent", status: 200, response: s.emailTemplate,
    body: z.object({ subject: z.string().nullable().optional(), htmlBody: z.string().nullable().optional(), textBody: z.string().nullable().optional() }),
  }),
  "email.templates.delete": def({ service: "email", method: "DELETE", path: "/templates/{templateId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.webhooks.list": def({ service: "email", method: "GET", path: "/webhooks", safety: "read", status: 200, response: list(s.webhook) }),
  "email.webhooks.create": def({
    service: "email", method: "POST", path: "/webhooks", safety: "non-idempotent", status: 201, response: s.webhook,
    body: z.object({ url: z.string(), events: z.array(z.string()) }),
  }),
  "email.webhooks.delete": def({ service: "email", method: "DELETE", path: "/webhooks/{webhookId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.status": def({ service: "email", method: "GET", path: "/status", safety: "read", status: 200, response: s.emailStatus, withoutPlan: true }),
  "email.analytics": def({ service: "email", method: "GET", path: "/analytics", safety: "read", status: 200, response: s.emailAnalytics }),
  // A send is safe to repeat only with the same idempotencyKey in its body; without one it is not.
  "email.send": def({
    service: "email", method: "POST", path: "/send", safety: "non-idempotent", status: 202, response: s.emailSent,
    body: sendMessage, sendEndpoint: true,
  }),
  "email.sendBatch": def({
    service: "email", method: "POST", path: "/send/batch", safety: "non-idempotent", status: 202,
    response: z.looseObject({ data: z.array(s.batchResult) }),
    body: z.object({ messages: z.array(sendMessage).optional() }), sendEndpoint: true,
  }),
  "email.emails.list": def({ service: "email", method: "GET", path: "/emails", safety: "read", status: 200, response: s.page(s.emailMessage), query: pageQuery }),
  "email.emails.get": def({ service: "email", method: "GET", path: "/emails/{id}", safety: "read", status: 200, response: s.emailMessage }),

  // ---- receiving mail ({email_base_url}; assumed-routes.md "Receiving mail") ----
  "email.receiving.get": def({ service: "email", method: "GET", path: "/domains/{domainId}/receiving", safety: "read", status: 200, response: s.receivingStatus }),
  "email.receiving.enable": def({
    service: "email", method: "PUT", path: "/domains/{domainId}/receiving", safety: "idempotent", status: 200, response: s.receivingStatus,
    body: z.object({ host: z.string().optional() }),
  }),
  "email.receiving.disable": def({ service: "email", method: "DELETE", path: "/domains/{domainId}/receiving", safety: "idempotent", status: 200, response: s.receivingStatus }),
  "email.addresses.list": def({ service: "email", method: "GET", path: "/inbound/addresses", safety: "read", status: 200, response: list(s.inboundAddress) }),
  "email.addresses.create": def({
    service: "email", method: "POST", path: "/inbound/addresses", safety: "non-idempotent", status: 201, response: s.inboundAddress,
    body: z.object({
      domainId: z.string(), localPart: z.string(), type: z.string(), mailboxId: z.string().optional(), name: z.string().optional(),
      forwardTo: z.array(z.string()).optional(), notifications: z.boolean().optional(), password: z.string().optional(),
    }),
  }),
  "email.addresses.get": def({ service: "email", method: "GET", path: "/inbound/addresses/{addressId}", safety: "read", status: 200, response: s.inboundAddress }),
  "email.addresses.update": def({
    service: "email", method: "PATCH", path: "/inbound/addresses/{addressId}", safety: "idempotent", status: 200, response: s.inboundAddress,
    body: z.object({ name: z.string().nullable().optional(), forwardTo: z.array(z.string()).optional(), notifications: z.boolean().optional(), password: z.string().optional() }),
  }),
  "email.addresses.delete": def({ service: "email", method: "DELETE", path: "/inbound/addresses/{addressId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.inbound.stats": def({ service: "email", method: "GET", path: "/inbound/stats", safety: "read", status: 200, response: s.inboundStats }),
  "email.inbound.messages.list": def({
    service: "email", method: "GET", path: "/inbound/messages", safety: "read", status: 200, response: s.page(s.inboundMessageSummary),
    query: pageQuery.extend({ folder: z.string().optional() }),
  }),
  "email.inbound.messages.get": def({ service: "email", method: "GET", path: "/inbound/messages/{messageId}", safety: "read", status: 200, response: s.inboundMessage }),
  // ---- email plan (assumed-routes.md "Email plan"): answered without a plan; purchases need an Idempotency-Key ----
  // "idempotent" safety: the same Idempotency-Key makes a repeat replay the first answer, so the
  // client may send it again after a lost answer or a 5xx (http.ts keeps one key for all attempts).
  "email.plans.list": def({ service: "email", method: "GET", path: "/plans", safety: "read", status: 200, response: list(s.emailPlanOffer), withoutPlan: true }),
  "email.plan.get": def({ service: "email", method: "GET", path: "/plan", safety: "read", status: 200, response: s.emailSubscription, withoutPlan: true }),
  "email.plan.buy": def({
    service: "email", method: "POST", path: "/plan", safety: "idempotent", status: 200,
    response: z.union([s.emailPlanDryRun, s.emailPlanCharged]),
    body: z.object({ planCode: z.string(), months: z.number() }), ...dryRunnable, idempotencyKey: "required", withoutPlan: true,
  }),
  "email.plan.renew": def({
    service: "email", method: "POST", path: "/plan/renew", safety: "idempotent", status: 200,
    response: z.union([s.emailPlanDryRun, s.emailPlanCharged]),
    body: z.object({ months: z.number() }), ...dryRunnable, idempotencyKey: "required", withoutPlan: true,
  }),
  "email.plan.setAddon": def({
    service: "email", method: "PUT", path: "/plan/addons/{code}", safety: "idempotent", status: 200,
    response: z.union([s.emailPlanDryRun, s.emailPlanCharged]),
    body: z.object({ quantity: z.number() }), ...dryRunnable, idempotencyKey: "required", withoutPlan: true,
  }),
  "email.plan.cancel": def({ service: "email", method: "DELETE", path: "/plan", safety: "idempotent", status: 200, response: s.emailSubscription, withoutPlan: true }),

  // ---- email audience (assumed-routes.md "Audience") ----
  "email.topics.list": def({ service: "email", method: "GET", path: "/topics", safety: "read", status: 200, response: list(s.emailTopic) }),
  "email.topics.create": def({
    service: "email", method: "POST", path: "/topics", safety: "non-idempotent", status: 201, response: s.emailTopic,
    body: z.object({ name: z.string(), description: z.string().optional() }),
  }),
  "email.topics.get": def({ service: "email", method: "GET", path: "/topics/{topicId}", safety: "read", status: 200, response: s.emailTopic }),
  "email.topics.update": def({
    service: "email", method: "PATCH", path: "/topics/{topicId}", safety: "idempotent", status: 200, response: s.emailTopic,
    body: z.object({ name: z.string().optional(), description: z.string().nullable().optional() }),
  }),
  "email.topics.delete": def({ service: "email", method: "DELETE", path: "/topics/{topicId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.segments.list": def({ service: "email", method: "GET", path: "/segments", safety: "read", status: 200, response: list(s.emailSegment) }),
  "email.segments.create": def({
    service: "email", method: "POST", path: "/segments", safety: "non-idempotent", status: 201, response: s.emailSegment,
    body: z.object({ name: z.string(), rules: z.array(s.segmentRule) }),
  }),
  "email.segments.get": def({ service: "email", method: "GET", path: "/segments/{segmentId}", safety: "read", status: 200, response: s.emailSegment }),
  "email.segments.update": def({
    service: "email", method: "PATCH", path: "/segments/{segmentId}", safety: "idempotent", status: 200, response: s.emailSegment,
    body: z.object({ name: z.string().optional(), rules: z.array(s.segmentRule).optional() }),
  }),
  "email.segments.delete": def({ service: "email", method: "DELETE", path: "/segments/{segmentId}", safety: "idempotent", status: 200, response: s.deleted }),
  "email.contacts.list": def({ service: "email", method: "GET", path: "/contacts", safety: "read", status: 200, response: s.page(s.emailContact), query: pageQuery }),
  "email.contacts.add": def({
    service: "email", method: "POST", path: "/contacts", safety: "non-idempotent", status: 201,
    response: z.looseObject({ added: z.number().int(), contacts: z.array(s.emailContact) }),
    body: z.object({ contacts: z.array(z.looseObject({ email: z.string() })).optional(), consentConfirmed: z.boolean().optional() }),
  }),

  // ---- suppressions ({email_base_url}; assumed-routes.md "Suppressions"): the address is matched case-insensitively ----
  "email.suppressions.list": def({
    service: "email", method: "GET", path: "/suppressions", safety: "read", status: 200, response: s.page(s.emailSuppression), query: pageQuery,
  }),
  "email.suppressions.get": def({ service: "email", method: "GET", path: "/suppressions/{email}", safety: "read", status: 200, response: s.emailSuppression }),
  // 201 when added, 200 with the existing row when the address is listed already: a repeat is safe.
  "email.suppressions.add": def({
    service: "email", method: "POST", path: "/suppressions", safety: "idempotent", status: 201, response: s.emailSuppression,
    body: z.object({ email: z.string(), reason: z.string().optional() }),
  }),
  "email.suppressions.delete": def({ service: "email", method: "DELETE", path: "/suppressions/{email}", safety: "idempotent", status: 200, response: s.deleted }),

  // ---- virtual servers ({api_base_url}) ----
  "vps.plans.list": def({ service: "platform", method: "GET", path: "/vps/plans", safety: "read", status: 200, response: list(s.vpsPlan) }),
  "vps.list": def({ service: "platform", method: "GET", path: "/vps", safety: "read", status: 200, response: list(s.vps) }),
  "vps.create": def({
    service: "platform", method: "POST", path: "/vps", safety: "paid", status: 201, response: s.vpsCharged,
    body: z.object({
      planId: z.string(), projectId: z.string(), name: z.string(), osType: z.string(), osVersion: z.string(),
      rootPassword: z.string(), billingPeriod: z.string(),
    }),
  }),
  "vps.get": def({ service: "platform", method: "GET", path: "/vps/{id}", safety: "read", status: 200, response: s.vps }),
  "vps.terminate": def({ service: "platform", method: "DELETE", path: "/vps/{id}", safety: "idempotent", status: 200, response: s.vps }),
  "vps.credentials": def({ service: "platform", method: "GET", path: "/vps/{id}/credentials", safety: "read", status: 200, response: s.vpsCredentials }),
  "vps.renew": def({
    service: "platform", method: "POST", path: "/vps/{id}/renew", safety: "paid", status: 200, response: s.vpsCharged,
    body: z.object({ billingPeriod: z.string() }),
  }),
  "vps.renewalOptions": def({ service: "platform", method: "GET", path: "/vps/{id}/renewal-options", safety: "read", status: 200, response: list(s.renewalOption) }),
  "vps.upgrade": def({
    service: "platform", method: "POST", path: "/vps/{id}/upgrade", safety: "paid", status: 200, response: s.vpsCharged,
    body: z.object({ planId: z.string() }),
  }),
  "vps.start": def({ service: "platform", method: "POST", path: "/vps/{id}/start", safety: "idempotent", status: 200, response: s.vps }),
  "vps.stop": def({ service: "platform", method: "POST", path: "/vps/{id}/stop", safety: "idempotent", status: 200, response: s.vps }),
  "vps.restart": def({ service: "platform", method: "POST", path: "/vps/{id}/restart", safety: "idempotent", status: 200, response: s.vps }),
  "vps.reinstall": def({
    service: "platform", method: "POST", path: "/vps/{id}/reinstall", safety: "non-idempotent", status: 200, response: s.vps,
    body: z.object({ osType: z.string(), osVersion: z.string(), rootPassword: z.string() }),
  }),
  "vps.resetPassword": def({
    service: "platform", method: "POST", path: "/vps/{id}/reset-password", safety: "idempotent", status: 200, response: s.vps,
    body: z.object({ rootPassword: z.string() }),
  }),
  // assumed-routes.md "A server's renewal period": either or both; `billingPeriod` is the next automatic renewal's, charged nothing now.
  "vps.autoRenew": def({
    service: "platform", method: "PATCH", path: "/vps/{id}/auto-renew", safety: "idempotent", status: 200, response: s.vps,
    body: z.object({ enabled: z.boolean().optional(), billingPeriod: z.string().optional() }),
  }),
  "vps.firewall.list": def({ service: "platform", method: "GET", path: "/vps/{id}/firewall", safety: "read", status: 200, response: list(s.firewallRule) }),
  "vps.firewall.add": def({
    service: "platform", method: "POST", path: "/vps/{id}/firewall", safety: "non-idempotent", status: 201, response: list(s.firewallRule),
    body: z.object({ rules: z.array(firewallRuleInput) }),
  }),
  "vps.firewall.remove": def({
    service: "platform", method: "DELETE", path: "/vps/{id}/firewall", safety: "idempotent", status: 200,
    response: z.looseObject({ removed: z.number().int() }),
    body: z.object({ ids: z.array(z.string()).optional(), rules: z.array(firewallRuleInput).optional() }),
  }),
  "vps.backup.get": def({ service: "platform", method: "GET", path: "/vps/{id}/backup", safety: "read", status: 200, response: s.backupAddon }),
  "vps.backup.activate": def({
    service: "platform", method: "POST", path: "/vps/{id}/backup", safety: "paid", status: 201, response: s.backupCharged,
    body: z.object({ planCode: z.string() }),
  }),
  "vps.backup.changePlan": def({
    service: "platform", method: "PATCH", path: "/vps/{id}/backup", safety: "paid", status: 200, response: s.backupCharged,
    body: z.object({ planCode: z.string() }),
  }),
  "vps.backup.cancel": def({
    service: "platform", method: "DELETE", path: "/vps/{id}/backup", safety: "idempotent", status: 200,
    response: z.looseObject({ cancelled: z.literal(true) }),
  }),
  // Server access (assumed-routes.md "Server access"): a POST adds a second key, forward or snapshot.
  "vps.sshKeys.list": def({ service: "platform", method: "GET", path: "/vps/{id}/ssh-keys", safety: "read", status: 200, response: list(s.sshKey) }),
  "vps.sshKeys.add": def({
    service: "platform", method: "POST", path: "/vps/{id}/ssh-keys", safety: "non-idempotent", status: 201, response: s.sshKey,
    body: z.object({ publicKey: z.string(), label: z.string().optional() }),
  }),
  "vps.sshKeys.delete": def({ service: "platform", method: "DELETE", path: "/vps/{id}/ssh-keys/{fingerprint}", safety: "idempotent", status: 200, response: s.deleted }),
  "vps.portForwards.list": def({ service: "platform", method: "GET", path: "/vps/{id}/port-forwards", safety: "read", status: 200, response: list(s.portForward) }),
  "vps.portForwards.add": def({
    service: "platform", method: "POST", path: "/vps/{id}/port-forwards", safety: "non-idempotent", status: 201, response: s.portForward,
    body: z.object({ protocol: z.string(), privatePort: z.number(), publicPort: z.number().optional(), domain: z.string().optional() }),
  }),
  "vps.portForwards.delete": def({ service: "platform", method: "DELETE", path: "/vps/{id}/port-forwards/{portId}", safety: "idempotent", status: 200, response: s.deleted }),
  "vps.snapshots.list": def({ service: "platform", method: "GET", path: "/vps/{id}/snapshots", safety: "read", status: 200, response: list(s.snapshot) }),
  "vps.snapshots.create": def({
    service: "platform", method: "POST", path: "/vps/{id}/snapshots", safety: "non-idempotent", status: 202, response: s.snapshot,
    body: z.object({ name: z.string() }),
  }),
  "vps.snapshots.delete": def({ service: "platform", method: "DELETE", path: "/vps/{id}/snapshots/{snapshotId}", safety: "idempotent", status: 200, response: s.deleted }),
  "vps.snapshots.rollback": def({ service: "platform", method: "POST", path: "/vps/{id}/snapshots/{snapshotId}/rollback", safety: "non-idempotent", status: 200, response: s.vps }),
  "backup.plans.list": def({ service: "platform", method: "GET", path: "/backup/plans", safety: "read", status: 200, response: list(s.backupPlan) }),

  // ---- account ({api_base_url}) ----
  "account.wallet": def({ service: "platform", method: "GET", path: "/account/wallet", safety: "read", status: 200, response: s.wallet }),
  "account.notifications.list": def({
    service: "platform", method: "GET", path: "/account/notifications", safety: "read", status: 200, response: list(s.notification),
    query: z.object({ unreadOnly: z.enum(["true", "false"]).optional() }),
  }),
  "account.notifications.unreadCount": def({
    service: "platform", method: "GET", path: "/account/notifications/unread-count", safety: "read", status: 200,
    response: z.looseObject({ count: z.number().int() }),
  }),
  "account.notifications.markRead": def({
    service: "platform", method: "POST", path: "/account/notifications/{notificationId}/read", safety: "idempotent", status: 200,
    response: z.looseObject({ id: z.string(), isRead: z.literal(true) }),
  }),
  "account.notifications.readAll": def({
    service: "platform", method: "POST", path: "/account/notifications/read-all", safety: "idempotent", status: 200,
    response: z.looseObject({ marked: z.number().int() }),
  }),
  "account.activity": def({
    service: "platform", method: "GET", path: "/account/projects/{projectId}/activity", safety: "read", status: 200, response: list(s.activityEntry),
  }),

  // ---- domain registration ({api_base_url}) ----
  "domains.list": def({ service: "platform", method: "GET", path: "/domains", safety: "read", status: 200, response: list(s.registeredDomain) }),
  "domains.registrant.get": def({ service: "platform", method: "GET", path: "/domains/registrant", safety: "read", status: 200, response: s.registrant }),
  "domains.registrant.update": def({
    service: "platform", method: "PATCH", path: "/domains/registrant", safety: "idempotent", status: 200, response: s.registrant,
    body: z.record(z.string(), z.unknown()),
  }),
  "domains.get": def({ service: "platform", method: "GET", path: "/domains/{domainId}", safety: "read", status: 200, response: s.registeredDomain }),
  "domains.register": def({
    service: "platform", method: "POST", path: "/domains", safety: "paid", status: 201,
    response: z.union([s.domainDryRun, s.domainPaid]),
    body: z.object({ name: z.string(), period: z.number(), whoisProtection: z.boolean().optional() }),
    ...dryRunnable,
  }),
  "domains.renew": def({
    service: "platform", method: "POST", path: "/domains/{domainId}/renew", safety: "paid", status: 200,
    response: z.union([s.domainDryRun, s.domainPaid]),
    body: z.object({ period: z.number() }), ...dryRunnable,
  }),
  "domains.whoisProtection": def({
    service: "platform", method: "POST", path: "/domains/{domainId}/whois-protection", safety: "paid", status: 200,
    response: z.union([s.domainDryRun, s.domainPaid]), ...dryRunnable,
  }),
  "domains.autoRenew": def({
    service: "platform", method: "PATCH", path: "/domains/{domainId}/auto-renew", safety: "idempotent", status: 200, response: s.registeredDomain,
    body: z.object({ enabled: z.boolean() }),
  }),

  // ---- AI gateway ({ai_base_url}; no envelope, see aiStyleOf) ----
  "ai.models": def({ service: "ai", method: "GET", path: "/v1/models", safety: "read", status: 200, response: s.aiModelList }),
  "ai.chatCompletions": def({ service: "ai", method: "POST", path: "/v1/chat/completions", safety: "non-idempotent", status: 200, response: openObject, body: openObject }),
  "ai.messages": def({ service: "ai", method: "POST", path: "/v1/messages", safety: "non-idempotent", status: 200, response: openObject, body: openObject }),
  "ai.countTokens": def({ service: "ai", method: "POST", path: "/v1/messages/count_tokens", safety: "read", status: 200, response: openObject, body: openObject }),
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteId = keyof Routes;
export type RouteResponse<K extends RouteId> = z.infer<Routes[K]["response"]>;
export type RouteBody<K extends RouteId> = Routes[K] extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;
export type RouteQuery<K extends RouteId> = Routes[K] extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined;

/** Names of the `{param}` parts of a route's path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/** Fills a path template; every value is URI-encoded so an id can never change the path. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new Error(`path parameter "${name}" missing for ${path}`);
    return encodeURIComponent(String(value));
  });
}
