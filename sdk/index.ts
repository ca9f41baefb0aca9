/**
 * pulumi-svc: the resource classes users import, and helpers for their programs.
 */
export * from "./generated/resources";
export {
  getEmailPlans, getEmailPlansOutput, getEmailPlan, getEmailPlanOutput, type EmailPlanOffer, type EmailSubscription,
} from "./data";
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
export { API_ERROR_CODES, AI_ERROR_CODES, apiErrorCodeGroups, aiErrorCodeGroups, type ApiErrorCode, type AiErrorCode } from "./generated/error-codes";
export {
  getInboundStats, getInboundStatsOutput, getInboundMessages, getInboundMessagesOutput,
  type InboundStats, type InboundMessageSummary, type InboundMessagesPage, type GetInboundMessagesArgs,
  getEmailSuppressions, getEmailSuppressionsOutput, type EmailSuppressionRow, type EmailSuppressionsPage, type GetEmailSuppressionsArgs,
} from "./data";
