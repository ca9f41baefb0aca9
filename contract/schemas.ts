/**
 * Shapes of the records the platform answers with, shared by the client (which validates every
 * response against them) and the emulator (which serializes its answers through them, so it cannot
 * drift from the contract). Objects are loose: a field the API adds later passes through; a field
 * we rely on that is missing or of another type is a clear error at the call that received it.
 */
import { z } from "zod";

const timestamp = z.string();
const nullableTimestamp = z.string().nullable();

// ---------- email service ----------

export const emailJobStatus = z.enum(["queued", "running", "completed", "failed"]);
export const emailJob = z.looseObject({
  jobId: z.string(),
  type: z.string(),
  status: emailJobStatus,
  result: z.record(z.string(), z.unknown()),
  errorMessage: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: timestamp,
  startedAt: nullableTimestamp.optional(),
  completedAt: nullableTimestamp.optional(),
});

export const dnsRecord = z.looseObject({
  type: z.string(),
  name: z.string(),
  value: z.string(),
  priority: z.number().int().optional(),
});
export const emailDomainStatus = z.enum(["pending", "verifying", "verified", "failed"]);
export const emailDomain = z.looseObject({
  id: z.string(),
  domain: z.string(),
  status: emailDomainStatus,
  dnsRecords: z.array(dnsRecord),
  createdAt: timestamp,
  verifiedAt: nullableTimestamp.optional(),
});

export const emailTemplate = z.looseObject({
  id: z.string(),
  name: z.string(),
  subject: z.string().nullable(),
  htmlBody: z.string().nullable(),
  textBody: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const webhookEventNames = [
  "email.sent",
  "email.delivered",
  "email.bounced",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.rejected",
  "email.failed",
  "email.received",
] as const;
export type WebhookEvent = (typeof webhookEventNames)[number];
export const webhook = z.looseObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  failCount: z.number().int(),
  lastTriggeredAt: nullableTimestamp,
  createdAt: timestamp,
  /** Only in the answer that creates the webhook. */
  secret: z.string().optional(),
});

export const emailPlan = z.looseObject({
  name: z.string(),
  emailsPerDay: z.number().int().nullable(),
  emailsPerMonth: z.number().int(),
  domains: z.number().int(),
  templates: z.number().int(),
  webhooks: z.number().int(),
});
export const emailStatus = z.looseObject({
  projectId: z.string(),
  plan: emailPlan.nullable(),
  platformPaused: z.boolean(),
  sendingEnabled: z.boolean(),
});
export const emailAnalytics = z.looseObject({
  sent: z.number().int(),
  delivered: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  bounceRate: z.number(),
  complaintRate: z.number(),
  limits: z.looseObject({ bounceRate: z.number(), complaintRate: z.number() }),
});

// ---------- email sending ----------

/** Emails: `queued` at accept, then `sent`, then `delivered`, `bounced`, `rejected` or `failed`; `complained` after delivery. */
export const emailMessageStatus = z.enum(["queued", "sent", "delivered", "bounced", "rejected", "complained", "failed"]);
export const emailMessage = z.looseObject({
  id: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string().nullable(),
  templateId: z.string().nullable(),
  status: emailMessageStatus,
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** A send's answer (202): the email id and the job that sends it (email-service.md: sending runs as a background job, "202 with a `jobId`"). */
export const emailSent = z.looseObject({ id: z.string(), jobId: z.string() });
/**
 * One message of a batch: its id and send job when accepted, its code and message when refused, and
 * the status a send of it alone would have answered (202, or the refusal's). email-service.md shows
 * no result's fields; these are the emulator's (docs/decisions.md, "A send answers `{ id, jobId }`").
 */
export const batchResult = z.looseObject({
  index: z.number().int(),
  id: z.string().nullable(),
  jobId: z.string().nullable(),
  code: z.string().nullable(),
  error: z.string().nullable(),
  status: z.number().int(),
});
export type BatchResult = z.infer<typeof batchResult>;
export const page = <T extends z.ZodType>(row: T) => z.looseObject({ data: z.array(row), nextCursor: z.string().nullable() });

// ---------- AI gateway (no envelope: OpenAI and Anthropic shapes) ----------

export const aiModel = z.looseObject({ id: z.string(), object: z.literal("model"), created: z.number().int(), owned_by: z.string() });
export const aiModelList = z.looseObject({ object: z.literal("list"), data: z.array(aiModel) });

// ---------- virtual servers ----------

export const billingPeriods = ["monthly", "3month", "6month", "yearly"] as const;
export const billingPeriod = z.enum(billingPeriods);
export type BillingPeriod = (typeof billingPeriods)[number];
export const vpsStatus = z.enum([
  "provisioning",
  "starting",
  "stopping",
  "restarting",
  "reinstalling",
  "upgrading",
  "restoring",
  "running",
  "stopped",
  "error",
  "terminating",
  "terminated",
]);
export const vps = z.looseObject({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  planId: z.string(),
  osType: z.string(),
  osVersion: z.string(),
  billingPeriod,
  autoRenew: z.boolean(),
  status: vpsStatus,
  publicIp: z.string().nullable(),
  expiresAt: timestamp,
  lastJobStatus: z.string().nullable(),
  lastJobError: z.string().nullable(),
  createdAt: timestamp,
  /** The server shares its plan's public address (port forwards and SSH keys need one): assumed-routes.md "Server access". */
  sharedAddress: z.boolean().optional(),
});
/** Paid server calls answer the server plus the amount taken from the wallet. */
export const vpsCharged = vps.extend({ charged: z.number() });

export const osTemplate = z.looseObject({ osType: z.string(), osVersion: z.string() });
export const vpsPlan = z.looseObject({
  id: z.string(),
  name: z.string(),
  family: z.string(),
  region: z.string(),
  cpu: z.number().int(),
  memoryMb: z.number().int(),
  diskGb: z.number().int(),
  prices: z.record(billingPeriod, z.number()),
  osTemplates: z.array(osTemplate),
  /** Servers of the plan share one public address (assumed-routes.md "Server access"). */
  sharedAddress: z.boolean().optional(),
  /** Snapshots a server of the plan may hold; 0: snapshots unavailable on the plan. */
  snapshotLimit: z.number().int().optional(),
});
export const vpsCredentials = z.looseObject({ address: z.string().nullable(), user: z.string(), password: z.string() });
export const renewalOption = z.looseObject({ billingPeriod, price: z.number(), currency: z.string() });

export const firewallProtocol = z.enum(["tcp", "udp", "icmp"]);
export const firewallAction = z.enum(["allow", "deny"]);
export type FirewallProtocol = z.infer<typeof firewallProtocol>;
export type FirewallAction = z.infer<typeof firewallAction>;
export const firewallRule = z.looseObject({
  id: z.string(),
  protocol: firewallProtocol,
  action: firewallAction,
  port: z.string().optional(),
  source: z.string(),
});

// ---- server access (assumed-routes.md "Server access"): SSH keys, port forwards, snapshots ----

export const sshKeyTypes = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa"] as const;
export const sshKey = z.looseObject({
  fingerprint: z.string(),
  type: z.string(),
  label: z.string().nullable(),
  publicKey: z.string(),
  createdAt: timestamp,
});
export const portForwardProtocols = ["tcp", "udp", "http", "https"] as const;
export const portForwardProtocol = z.enum(portForwardProtocols);
export const portForward = z.looseObject({
  id: z.string(),
  protocol: portForwardProtocol,
  privatePort: z.number().int(),
  publicPort: z.number().int(),
  domain: z.string().nullable(),
  createdAt: timestamp,
});
export const snapshotStatus = z.enum(["creating", "ready", "error"]);
export const snapshot = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: snapshotStatus,
  sizeGb: z.number(),
  createdAt: timestamp,
  /** Why a snapshot ended in `error` (the server's lastJobError of the snapshot job). */
  error: z.string().nullable().optional(),
});

export const backupPlan = z.looseObject({
  code: z.string(),
  name: z.string(),
  quotaGb: z.number().int(),
  price: z.number(),
});
export const backupAddon = z.looseObject({
  planCode: z.string(),
  status: z.string(),
  quotaGb: z.number().int(),
  usedGb: z.number(),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export const backupCharged = backupAddon.extend({ charged: z.number() });

// ---------- account ----------

export const notification = z.looseObject({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  isRead: z.boolean(),
  readAt: nullableTimestamp,
  createdAt: timestamp,
  projectId: z.string().nullable(),
  environmentId: z.string().nullable(),
});
export const activityEntry = z.looseObject({
  id: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  entityName: z.string(),
  actor: z.enum(["user", "system"]),
  byKeyOwner: z.boolean(),
  environmentId: z.string(),
  createdAt: timestamp,
});
export const wallet = z.looseObject({ balance: z.number(), currency: z.string() });

// ---------- domain registration ----------

export const domainBilling = z.looseObject({
  registration: z.number(),
  whoisProtection: z.number(),
  total: z.number(),
  depositCharged: z.number(),
});
export const registeredDomain = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  status: z.number().int(),
  status_label: z.string(),
  expiresAt: nullableTimestamp,
  whoisProtection: z.boolean(),
  autoRenew: z.boolean(),
});
/** A paid domain call's answer: the record (whole, or only name and status while the registry
 * record is not saved yet, see DOMAIN_SAVE_PENDING) and what it cost. */
export const domainPaid = z.looseObject({
  name: z.string(),
  status: z.number().int(),
  status_label: z.string(),
  id: z.number().int().optional(),
  billing: domainBilling.optional(),
});
export const domainDryRun = z.looseObject({
  dryRun: z.literal(true),
  currency: z.string(),
  billing: domainBilling,
  balanceAfter: z.number(),
  enoughBalance: z.boolean(),
  note: z.string(),
});
/** The account's owner details (assumed-routes.md "Domain owner (registrant) details"): each a string or null. */
export const registrantFields = ["name", "organization", "email", "phone", "address", "city", "province", "postalCode", "country"] as const;
export type RegistrantField = (typeof registrantFields)[number];
export const registrant = z.looseObject(
  Object.fromEntries(registrantFields.map((f) => [f, z.string().nullable()])) as Record<RegistrantField, z.ZodNullable<z.ZodString>>,
);
export type Registrant = z.infer<typeof registrant>;

// ---------- email plan and audience (assumed-routes.md "Email plan", "Audience") ----------

export const emailPlanLimitsView = z.looseObject({
  emailsPerDay: z.number().int().nullable(),
  emailsPerMonth: z.number().int(),
  domains: z.number().int(),
  templates: z.number().int(),
  contacts: z.number().int(),
  segments: z.number().int(),
  topics: z.number().int(),
  webhooks: z.number().int(),
  mailboxes: z.number().int(),
  aliases: z.number().int(),
});
/** One plan of `GET /plans`; `monthlyPrice` in IDR. */
export const emailPlanOffer = z.looseObject({
  code: z.string(),
  name: z.string(),
  monthlyPrice: z.number(),
  limits: emailPlanLimitsView,
  broadcasts: z.boolean(),
  receiving: z.boolean(),
  forwarding: z.boolean(),
});
export const emailPlanAddon = z.looseObject({ code: z.string(), quantity: z.number().int() });
/** The project's subscription (`GET /plan`); `planCode` null when status is `none`. */
export const emailSubscription = z.looseObject({
  planCode: z.string().nullable(),
  status: z.enum(["active", "ended", "none"]),
  startedAt: nullableTimestamp,
  expiresAt: nullableTimestamp,
  autoRenew: z.boolean(),
  paygEnabled: z.boolean(),
  addons: z.array(emailPlanAddon),
  scheduledPlanCode: z.string().nullable(),
});
export const emailPlanBilling = z.looseObject({ total: z.number(), depositCharged: z.number() });
export const emailPlanCharged = z.looseObject({ plan: emailSubscription, billing: emailPlanBilling });
export const emailPlanDryRun = z.looseObject({
  dryRun: z.literal(true),
  currency: z.string(),
  total: z.number(),
  balanceAfter: z.number(),
  enoughBalance: z.boolean(),
  note: z.string(),
});
export const emailTopic = z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullable(), createdAt: timestamp });
export const segmentOperators = ["equals", "not_equals", "contains", "exists"] as const;
export const segmentRule = z.looseObject({ field: z.string(), operator: z.string(), value: z.string().optional() });
export const emailSegment = z.looseObject({ id: z.string(), name: z.string(), rules: z.array(segmentRule), createdAt: timestamp, updatedAt: timestamp });
export const emailContact = z.looseObject({ id: z.string(), email: z.string(), topicIds: z.array(z.string()), createdAt: timestamp });
/** A row of the suppression list (assumed-routes.md "Suppressions"). */
export const suppressionReasons = ["bounce", "complaint", "manual"] as const;
export const emailSuppression = z.looseObject({ email: z.string(), reason: z.enum(suppressionReasons), createdAt: timestamp });

export type EmailPlanOffer = z.infer<typeof emailPlanOffer>;
export type EmailSubscription = z.infer<typeof emailSubscription>;
export type EmailTopic = z.infer<typeof emailTopic>;
export type EmailSegment = z.infer<typeof emailSegment>;
export type EmailSuppression = z.infer<typeof emailSuppression>;
export type SegmentRule = z.infer<typeof segmentRule>;

// ---------- small answers ----------

export const jobAccepted = z.looseObject({ jobId: z.string() });
export const deleted = z.looseObject({ deleted: z.literal(true) });

export type EmailJob = z.infer<typeof emailJob>;
export type EmailDomain = z.infer<typeof emailDomain>;
export type EmailTemplate = z.infer<typeof emailTemplate>;
export type Webhook = z.infer<typeof webhook>;
export type Vps = z.infer<typeof vps>;
export type VpsPlan = z.infer<typeof vpsPlan>;
export type FirewallRule = z.infer<typeof firewallRule>;
export type BackupAddon = z.infer<typeof backupAddon>;
export type SshKey = z.infer<typeof sshKey>;
export type PortForward = z.infer<typeof portForward>;
export type PortForwardProtocol = z.infer<typeof portForwardProtocol>;
export type Snapshot = z.infer<typeof snapshot>;
export type RegisteredDomain = z.infer<typeof registeredDomain>;
export type Notification = z.infer<typeof notification>;
export type ActivityEntry = z.infer<typeof activityEntry>;
export type EmailMessage = z.infer<typeof emailMessage>;
export type AiModel = z.infer<typeof aiModel>;

// ---------- receiving mail (assumed-routes.md "Receiving mail") ----------

export const receivingStatus = z.looseObject({
  enabled: z.boolean(),
  /** Present while enabled. */
  host: z.string().optional(),
  mxRecords: z.array(dnsRecord).optional(),
});
export const inboundAddressTypes = ["mailbox", "alias"] as const;
export const inboundAddress = z.looseObject({
  id: z.string(),
  address: z.string(),
  type: z.enum(inboundAddressTypes),
  domainId: z.string(),
  mailboxId: z.string().nullable(),
  name: z.string().nullable(),
  forwardTo: z.array(z.string()),
  notifications: z.boolean(),
  createdAt: timestamp,
});
export const inboundStats = z.looseObject({
  plan: z.looseObject({ receiving: z.boolean(), forwarding: z.boolean(), mailboxes: z.number().int(), aliases: z.number().int() }),
  usage: z.looseObject({ receivingHosts: z.number().int(), mailboxes: z.number().int(), aliases: z.number().int(), messages: z.number().int(), storageBytes: z.number().int() }),
});
export const inboundAttachment = z.looseObject({ index: z.number().int(), filename: z.string(), contentType: z.string(), size: z.number().int() });
/** The `email.received` payload (the spec's Events part): what GET /inbound/messages lists. */
export const inboundMessageSummary = z.looseObject({
  id: z.string(),
  recipient: z.string(),
  deliveredTo: z.array(z.string()),
  mailbox: z.string(),
  from: z.string(),
  fromName: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  snippet: z.string(),
  textBody: z.string(),
  hasAttachments: z.boolean(),
  attachments: z.array(inboundAttachment),
  folder: z.string(),
  spamVerdict: z.string(),
  virusVerdict: z.string(),
  receivedAt: timestamp,
});
/** GET /inbound/messages/{id}: the summary, the whole text and html, and where it was forwarded. */
export const inboundMessage = inboundMessageSummary.extend({
  htmlBody: z.string().nullable(),
  forwardedTo: z.array(z.string()),
});
export type ReceivingStatus = z.infer<typeof receivingStatus>;
export type InboundAddress = z.infer<typeof inboundAddress>;
export type InboundStats = z.infer<typeof inboundStats>;
export type InboundMessageSummary = z.infer<typeof inboundMessageSummary>;
export type InboundMessage = z.infer<typeof inboundMessage>;
/**
 * A server name the API takes (platform-api.md: "at least 3 characters", and REQUEST_ERROR for an
 * "invalid name"): at least 3 characters once trimmed, none of them a control character (a line
 * break or NUL cannot be shown as a one-line name). Any other character (spaces, "web server",
 * accents) is the user's to choose. The provider's check and the emulator share this rule.
 */
export function serverNameProblem(name: string): string | undefined {
  if (name.trim().length < 3) return "at least 3 characters";
  if (/[\x00-\x1f\x7f]/.test(name)) return "no control characters (line breaks, tabs, NUL)";
  return undefined;
}
