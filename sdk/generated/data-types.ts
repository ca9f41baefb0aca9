// Written by `npm run docs` from the schemas in contract/schemas.ts: edit them there, then run it.

/** A server plan on sale (`getVpsPlans`). */
export type VpsPlan = { id: string; name: string; family: string; region: string; cpu: number; memoryMb: number; diskGb: number; prices: Record<string, number>; osTemplates: { osType: string; osVersion: string }[]; sharedAddress?: boolean; snapshotLimit?: number };

/** A backup add-on plan (`getBackupPlans`). */
export type BackupPlan = { code: string; name: string; quotaGb: number; price: number };

/** What renewing a server for one billing period costs (`getVpsRenewalOptions`). */
export type RenewalOption = { billingPeriod: "monthly" | "3month" | "6month" | "yearly"; price: number; currency: string };

/** The email service's state for the project (`getEmailStatus`). */
export type EmailStatus = { projectId: string; plan: { name: string; emailsPerDay: number | null; emailsPerMonth: number; domains: number; templates: number; webhooks: number } | null; platformPaused: boolean; sendingEnabled: boolean };

/** The project's sending analytics (`getEmailAnalytics`). */
export type EmailAnalytics = { sent: number; delivered: number; bounced: number; complained: number; bounceRate: number; complaintRate: number; limits: { bounceRate: number; complaintRate: number } };

/** An account notification (`getNotifications`). */
export type Notification = { id: string; type: string; title: string; message: string; link: string | null; isRead: boolean; readAt: string | null; createdAt: string; projectId: string | null; environmentId: string | null };

/** One entry of a project's activity log (`getProjectActivity`). */
export type ActivityEntry = { id: string; action: string; entityType: string; entityId: string; entityName: string; actor: "user" | "system"; byKeyOwner: boolean; environmentId: string; createdAt: string };

/** A model of the AI gateway (`getAiModels`). */
export type AiModel = { id: string; object: "model"; created: number; owned_by: string };

/** The project's inbox usage and plan limits (`getInboundStats`). */
export type InboundStats = { plan: { receiving: boolean; forwarding: boolean; mailboxes: number; aliases: number }; usage: { receivingHosts: number; mailboxes: number; aliases: number; messages: number; storageBytes: number } };

/** A received message (`getInboundMessages`). */
export type InboundMessageSummary = { id: string; recipient: string; deliveredTo: string[]; mailbox: string; from: string; fromName: string; to: string[]; cc: string[]; subject: string; snippet: string; textBody: string; hasAttachments: boolean; attachments: { index: number; filename: string; contentType: string; size: number }[]; folder: string; spamVerdict: string; virusVerdict: string; receivedAt: string };

/** An SSH key on a server (`getVpsSshKeys`). */
export type VpsSshKeyInfo = { fingerprint: string; type: string; label: string | null; publicKey: string; createdAt: string };

/** A snapshot of a server (`getVpsSnapshots`). */
export type VpsSnapshotInfo = { id: string; name: string; status: "creating" | "ready" | "error"; sizeGb: number; createdAt: string; error?: string | null };

/** An email plan on sale (`getEmailPlans`). */
export type EmailPlanOffer = { code: string; name: string; monthlyPrice: number; limits: { emailsPerDay: number | null; emailsPerMonth: number; domains: number; templates: number; contacts: number; segments: number; topics: number; webhooks: number; mailboxes: number; aliases: number }; broadcasts: boolean; receiving: boolean; forwarding: boolean };

/** The project's email plan subscription (`getEmailPlan`). */
export type EmailSubscription = { planCode: string | null; status: "active" | "ended" | "none"; startedAt: string | null; expiresAt: string | null; autoRenew: boolean; paygEnabled: boolean; addons: { code: string; quantity: number }[]; scheduledPlanCode: string | null };

/** An address on the project's suppression list (`getEmailSuppressions`). */
export type EmailSuppressionRow = { email: string; reason: "bounce" | "complaint" | "manual"; createdAt: string };

/** A server's billing period: of the purchase, and of the renewals. */
export type BillingPeriod = "monthly" | "3month" | "6month" | "yearly";

/** A webhook event name. */
export type WebhookEvent = "email.sent" | "email.delivered" | "email.bounced" | "email.complained" | "email.opened" | "email.clicked" | "email.rejected" | "email.failed" | "email.received";
