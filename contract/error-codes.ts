/**
 * The catalogue of the APIs' stable error codes, one group per table of the spec documents
 * (shared/spec/platform-api.md, email-service.md, assumed-routes.md; the AI gateway's apart: its
 * codes are lower-case and its body is not the envelope). Client and emulator follow it:
 * `isApiError(err, code)` takes only a member (a misspelled code does not compile), and the
 * emulator answers only members.
 *
 * A code that appears in several tables (INSUFFICIENT_BALANCE, NOT_FOUND…) is listed in each: a
 * group reads as its table does. A new table is a new group, appended to its list below.
 */

// platform-api.md, "VPS API codes"
export const vpsErrorCodes = [
  "NO_API_KEY", "INVALID_API_KEY", "API_KEY_EXPIRED", "SCOPE_NOT_ALLOWED", "RATE_LIMITED", "VALIDATION", "PARSE",
  "INSTANCE_NOT_FOUND", "PROJECT_NOT_FOUND", "PROJECT_REQUIRED", "SNAPSHOT_NOT_FOUND", "FIREWALL_RULE_NOT_FOUND", "VPS_BUSY",
  "INVALID_BILLING_PERIOD", "INSUFFICIENT_BALANCE", "INVALID_FIREWALL_RULE", "INVALID_SNAPSHOT_NAME", "REQUEST_ERROR",
  "FEATURE_NOT_AVAILABLE", "INSTANCE_NOT_RUNNING", "INVALID_PORT", "PORT_TAKEN", "PORT_NOT_FOUND", "INVALID_SSH_KEY",
  "PRIVATE_KEY_REJECTED", "SSH_KEY_LIMIT", "SSH_KEY_EXISTS", "SSH_KEY_NOT_FOUND", "INTERNAL_ERROR",
] as const;

// platform-api.md, "Backup codes"
export const backupErrorCodes = [
  "INSTANCE_NOT_FOUND", "NOT_FOUND", "NOT_ELIGIBLE", "VPS_NOT_RUNNING", "AGENT_OFFLINE", "NODE_NOT_READY", "PLAN_NOT_FOUND",
  "ALREADY_SUBSCRIBED", "BONUS_IN_USE", "INSUFFICIENT_BALANCE", "NOT_SUBSCRIBED", "OVER_NEW_QUOTA", "NOT_RUNNABLE", "BUSY",
  "LIMIT", "NO_BLUEPRINT", "BACKUP_NOT_CONFIGURED", "BACKUP_ERROR",
] as const;

// platform-api.md, "Shared idempotency code"
export const idempotencyErrorCodes = ["REQUEST_IN_PROGRESS"] as const;

// platform-api.md, "Domain API codes"
export const domainErrorCodes = [
  "NO_API_KEY", "INVALID_API_KEY", "API_KEY_EXPIRED", "SCOPE_NOT_ALLOWED", "ACCOUNT_KEY_REQUIRED", "TLD_NOT_SUPPORTED",
  "PERIOD_NOT_SUPPORTED", "PRICE_UNAVAILABLE", "PREMIUM_NOT_SUPPORTED", "REGISTRANT_INCOMPLETE", "INVALID_REGISTRANT",
  "DOMAIN_NOT_LINKED", "INSUFFICIENT_BALANCE", "DOMAIN_NOT_FOUND", "NOT_FOUND", "DOMAIN_UNAVAILABLE", "DOMAIN_ALREADY_IN_ACCOUNT",
  "DOMAIN_PENDING_PROFILE", "RENEW_IN_PROGRESS", "WHOIS_PROTECTION_ACTIVE", "VALIDATION_ERROR", "REGISTRAR_REJECTED",
  "RATE_LIMITED", "INTERNAL_ERROR", "REGISTRAR_ERROR", "REQUEST_ERROR",
] as const;

// platform-api.md, "Endpoints" (codes its endpoint table names)
export const platformEndpointErrorCodes = ["NOTIFICATION_NOT_FOUND"] as const;

// email-service.md, "Authentication and request"
export const emailRequestErrorCodes = [
  "NO_API_KEY", "UNAUTHORIZED", "INVALID_API_KEY", "API_KEY_EXPIRED", "NO_PLAN", "KEY_NOT_ALLOWED", "SCOPE_NOT_ALLOWED",
  "PROJECT_REQUIRED", "IDEMPOTENCY_KEY_REQUIRED", "NO_CONFIG", "EMAIL_NOT_SETUP", "PROJECT_NOT_FOUND", "VALIDATION",
  "RATE_LIMITED", "NOT_FOUND", "INTERNAL_ERROR",
] as const;

// email-service.md, "Sending"
export const emailSendingErrorCodes = [
  "NO_RECIPIENTS", "INVALID_RECIPIENT", "RECIPIENT_DOMAIN_UNDELIVERABLE", "TOO_MANY_RECIPIENTS", "EMPTY_BODY", "SUBJECT_REQUIRED",
  "INVALID_HEADER", "INVALID_FROM", "ATTACHMENTS_NOT_SUPPORTED", "INVALID_COMBINATION", "MISSING_VARIABLES", "VARIABLES_REQUIRED",
  "NO_MESSAGES", "TOO_MANY_MESSAGES", "BATCH_FAILED", "TEMPLATE_NOT_FOUND", "DOMAIN_NOT_FOUND", "DOMAIN_NOT_VERIFIED",
  "RECIPIENT_SUPPRESSED", "REPUTATION_SUSPENDED", "PLATFORM_REPUTATION", "TENANT_PAUSED", "SENDING_DISABLED",
  "DAILY_QUOTA_EXCEEDED", "MONTHLY_QUOTA_EXCEEDED", "PAYG_DISABLED", "INSUFFICIENT_BALANCE", "WALLET_NOT_FOUND",
  "PLAN_NOT_FOUND", "UNKNOWN",
] as const;

// email-service.md, "Domains"
export const emailDomainErrorCodes = ["INVALID_DOMAIN", "DOMAIN_EXISTS", "DOMAIN_LIMIT_REACHED", "DOMAIN_NOT_FOUND"] as const;

// email-service.md, "Templates"
export const emailTemplateErrorCodes = ["INVALID_TEMPLATE_NAME", "EMPTY_TEMPLATE", "TEMPLATE_LIMIT_REACHED", "TEMPLATE_NOT_FOUND"] as const;

// email-service.md, "Contacts, segments, topics"
export const emailAudienceErrorCodes = [
  "CONSENT_REQUIRED", "INVALID_EMAIL", "DISPOSABLE_EMAIL", "EMPTY_REQUEST", "TOO_MANY", "EMPTY_CSV", "CSV_MISSING_EMAIL",
  "NO_VALID_CONTACTS", "INVALID_CURSOR", "CONTACT_LIMIT_REACHED", "SEGMENT_LIMIT_REACHED", "TOPIC_LIMIT_REACHED",
  "CONTACT_NOT_FOUND", "SEGMENT_NOT_FOUND", "TOPIC_NOT_FOUND",
] as const;

// email-service.md, "Broadcasts"
export const emailBroadcastErrorCodes = [
  "INVALID_SCHEDULE", "BROADCASTS_NOT_ALLOWED", "BROADCAST_NOT_FOUND", "BROADCAST_LOCKED", "BROADCAST_SENDING", "SEND_UNAVAILABLE",
] as const;

// email-service.md, "Logs, suppressions, jobs"
export const emailLogErrorCodes = ["EMAIL_NOT_FOUND", "SUPPRESSION_NOT_FOUND", "JOB_NOT_FOUND"] as const;

// email-service.md, "Inbox"
export const emailInboxErrorCodes = [
  "PLAN_REQUIRED", "INVALID_HOST", "DOMAIN_NOT_VERIFIED", "INBOUND_HOST_TAKEN", "DOMAIN_NOT_RECEIVING", "INVALID_ADDRESS",
  "ADDRESS_EXISTS", "ADDRESS_NOT_FOUND", "MAILBOX_NOT_FOUND", "MAILBOX_LIMIT", "ALIAS_LIMIT", "FORWARDING_NOT_ALLOWED",
  "ALIAS_SETTINGS", "WEAK_PASSWORD", "MESSAGE_NOT_FOUND", "ATTACHMENT_NOT_FOUND", "RAW_NOT_AVAILABLE", "INVALID_FOLDER",
  "NOTHING_TO_UPDATE", "TOO_MANY_IDS", "BODY_REQUIRED",
] as const;

// email-service.md, "Webhooks"
export const emailWebhookErrorCodes = ["INVALID_URL", "NO_EVENTS", "WEBHOOK_LIMIT_REACHED", "WEBHOOK_NOT_FOUND"] as const;

// assumed-routes.md: the codes its route tables answer (each also in a table of the spec above).
export const assumedRouteErrorCodes = [
  "NOT_SUBSCRIBED", "WHOIS_PROTECTION_ACTIVE", "INVALID_SSH_KEY", "PRIVATE_KEY_REJECTED", "SSH_KEY_LIMIT", "SSH_KEY_EXISTS",
  "FEATURE_NOT_AVAILABLE", "INSTANCE_NOT_RUNNING", "VPS_BUSY", "SSH_KEY_NOT_FOUND", "INVALID_PORT", "PORT_TAKEN", "PORT_NOT_FOUND",
  "INVALID_SNAPSHOT_NAME", "REQUEST_ERROR", "SNAPSHOT_NOT_FOUND", "IDEMPOTENCY_KEY_REQUIRED", "REQUEST_IN_PROGRESS",
  "KEY_NOT_ALLOWED", "VALIDATION", "INSUFFICIENT_BALANCE", "PLAN_REQUIRED", "DOMAIN_NOT_VERIFIED", "INBOUND_HOST_TAKEN",
  "INVALID_HOST", "DOMAIN_NOT_RECEIVING", "ADDRESS_EXISTS", "INVALID_ADDRESS", "ALIAS_SETTINGS", "MAILBOX_NOT_FOUND",
  "MAILBOX_LIMIT", "ALIAS_LIMIT", "FORWARDING_NOT_ALLOWED", "ADDRESS_NOT_FOUND", "MESSAGE_NOT_FOUND", "TOPIC_LIMIT_REACHED",
  "TOPIC_NOT_FOUND", "SEGMENT_LIMIT_REACHED", "SEGMENT_NOT_FOUND",
] as const;

/** The platform and email APIs' codes (the `code` of the failure envelope), by table. Append a group for a new table. */
export const apiErrorCodeGroups = {
  vps: vpsErrorCodes,
  backup: backupErrorCodes,
  idempotency: idempotencyErrorCodes,
  domain: domainErrorCodes,
  platformEndpoints: platformEndpointErrorCodes,
  emailRequest: emailRequestErrorCodes,
  emailSending: emailSendingErrorCodes,
  emailDomain: emailDomainErrorCodes,
  emailTemplate: emailTemplateErrorCodes,
  emailAudience: emailAudienceErrorCodes,
  emailBroadcast: emailBroadcastErrorCodes,
  emailLog: emailLogErrorCodes,
  emailInbox: emailInboxErrorCodes,
  emailWebhook: emailWebhookErrorCodes,
  assumedRoutes: assumedRouteErrorCodes,
} as const;

export type ApiErrorCode = (typeof apiErrorCodeGroups)[keyof typeof apiErrorCodeGroups][number];

// ai-gateway.md, "Errors" (`error.code` of the OpenAI-style body; the Anthropic style has none).
export const aiGatewayErrorCodes = [
  "invalid_request", "unsupported_format", "missing_api_key", "invalid_api_key", "expired_api_key", "insufficient_balance",
  "key_spend_limit_reached", "model_not_found", "not_found", "model_retired", "request_too_large", "rate_limited",
  "too_many_concurrent_requests", "internal_error", "upstream_error", "upstream_unreachable", "upstream_auth_error",
  "upstream_unavailable", "model_unavailable", "server_busy", "pricing_unavailable", "service_unavailable",
] as const;

/**
 * Not in the gateway's table: a platform key without the AI product. platform-api.md gives every
 * product's API 403 SCOPE_NOT_ALLOWED for it ("A key lacking the product"); the gateway words its
 * codes in lower case, so it answers `scope_not_allowed`.
 */
export const aiAssumedErrorCodes = ["scope_not_allowed"] as const;

/** The AI gateway's codes, by table. */
export const aiErrorCodeGroups = {
  gateway: aiGatewayErrorCodes,
  assumed: aiAssumedErrorCodes,
} as const;

export type AiErrorCode = (typeof aiErrorCodeGroups)[keyof typeof aiErrorCodeGroups][number];

// ai-gateway.md, "Type by status": the `error.type` of both styles, by status; the only code an
// Anthropic-style error body carries (it has no `error.code`). Not codes of the code table: the
// emulator's AiError never answers one as its code.
export const aiErrorTypes = [
  "invalid_request_error", "authentication_error", "billing_error", "permission_error", "not_found_error", "request_too_large",
  "rate_limit_error", "api_error",
] as const;

export type AiErrorType = (typeof aiErrorTypes)[number];

const flatten = (groups: Record<string, readonly string[]>) => [...new Set(Object.values(groups).flat())];

/** Every platform and email code once. */
export const API_ERROR_CODES = flatten(apiErrorCodeGroups) as readonly ApiErrorCode[];
/** Every AI gateway code once. */
export const AI_ERROR_CODES = flatten(aiErrorCodeGroups) as readonly AiErrorCode[];

export const isApiErrorCode = (code: string): code is ApiErrorCode => (API_ERROR_CODES as readonly string[]).includes(code);
export const isAiErrorCode = (code: string): code is AiErrorCode => (AI_ERROR_CODES as readonly string[]).includes(code);
