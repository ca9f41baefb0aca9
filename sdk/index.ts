/**
 * pulumi-svc: the resource classes users import, and helpers for their programs.
 */
export { SendingDomain, type SendingDomainArgs, type DnsRecord } from "./email/sending-domain";
export { SendingDomainVerification, type SendingDomainVerificationArgs } from "./email/sending-domain-verification";
export { Webhook, type WebhookArgs, type WebhookEvent } from "./email/webhook";
export { Template, type TemplateArgs } from "./email/template";
export { Domain, type DomainArgs, type DomainBilling } from "./domains/domain";
export { Vps, type VpsArgs, type BillingPeriod } from "./vps/vps";
export { VpsFirewallRule, type VpsFirewallRuleArgs } from "./vps/firewall-rule";
export { VpsBackup, type VpsBackupArgs } from "./vps/backup";
export { ReceivingDomain, type ReceivingDomainArgs } from "./email/receiving-domain";
export { Mailbox, type MailboxArgs } from "./email/mailbox";
export { MailAlias, type MailAliasArgs } from "./email/mail-alias";
export {
  getEmailPlans, getEmailPlansOutput, getEmailPlan, getEmailPlanOutput, type EmailPlanOffer, type EmailSubscription,
} from "./data";
export { EmailPlan, type EmailPlanArgs, type EmailPlanBilling } from "./email/plan";
export { EmailTopic, type EmailTopicArgs } from "./email/topic";
export { EmailSegment, type EmailSegmentArgs, type EmailSegmentRule } from "./email/segment";
export { VpsSshKey, type VpsSshKeyArgs } from "./vps/ssh-key";
export { VpsPortForward, type VpsPortForwardArgs } from "./vps/port-forward";
export { VpsSnapshot, type VpsSnapshotArgs } from "./vps/snapshot";
export { DomainRegistrant, type DomainRegistrantArgs } from "./domains/registrant";
export { EmailSuppression, type EmailSuppressionArgs } from "./email/suppression";
export { getVpsSshKeys, getVpsSshKeysOutput, getVpsSnapshots, getVpsSnapshotsOutput, type VpsSshKeyInfo, type VpsSnapshotInfo } from "./data";
export { verifyWebhookSignature, type VerifyOptions, type VerifyResult } from "./webhook-signature";
export { ApiError, OutcomeUnknownError, isApiError } from "../provider/client/errors";
export { settingDefs } from "../provider/settings";
export {
  getVpsPlans, getVpsPlansOutput, getBackupPlans, getBackupPlansOutput, getVpsRenewalOptions, getVpsRenewalOptionsOutput,
  getEmailStatus, getEmailStatusOutput, getEmailAnalytics, getEmailAnalyticsOutput, getNotifications, getNotificationsOutput,
  getProjectActivity, getProjectActivityOutput, getAiModels, getAiModelsOutput,
  type VpsPlan, type BackupPlan, type RenewalOption, type EmailStatus, type EmailAnalytics, type Notification, type ActivityEntry,
  type AiModel, type GetNotificationsArgs,
} from "./data";
export { OperationError, ClientCodes, type ErrorCode, type ClientCode } from "../provider/client/errors";
export { WaitTimeoutError } from "../provider/client/errors";
export { API_ERROR_CODES, AI_ERROR_CODES, apiErrorCodeGroups, aiErrorCodeGroups, type ApiErrorCode, type AiErrorCode } from "../contract/error-codes";
export {
  getInboundStats, getInboundStatsOutput, getInboundMessages, getInboundMessagesOutput,
  type InboundStats, type InboundMessageSummary, type InboundMessagesPage, type GetInboundMessagesArgs,
  getEmailSuppressions, getEmailSuppressionsOutput, type EmailSuppressionRow, type EmailSuppressionsPage, type GetEmailSuppressionsArgs,
} from "./data";
