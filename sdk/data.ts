/**
 * Data functions: read-only lookups a program makes while it runs (`pulumi preview` included), each
 * as a plain async function and as an `...Output` form that takes Pulumi inputs and answers an
 * Output. They use the same settings (stack config `svc:*`, then `SVC_*` environment variables),
 * the same API client (rate limit, retries, timeouts) and the same errors as the resources:
 * `getVpsPlans failed: GET /vps/plans 401 INVALID_API_KEY — …`, with the API's `code` on the error.
 *
 * They run in the program's process, not in the provider: nothing here is serialized into state.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ApiClient, CallOptions } from "../provider/client/http";
import type { RouteId, RouteResponse } from "../contract/routes";
import type { ConfigSource, Settings } from "../provider/config";
import type { ApiContexts } from "../provider/context";
import { operationError } from "../provider/resource";
// Plain types written from the schemas (npm run docs): the answers below are returned as these, so
// the compiler checks they match; the public declarations reach no zod type.
import type {
  VpsPlan, BackupPlan, RenewalOption, EmailStatus, EmailAnalytics, Notification, ActivityEntry, AiModel, InboundStats,
  InboundMessageSummary, VpsSshKeyInfo, VpsSnapshotInfo, EmailPlanOffer, EmailSubscription, EmailSuppressionRow,
} from "./generated/data-types";

export type {
  VpsPlan, BackupPlan, RenewalOption, EmailStatus, EmailAnalytics, Notification, ActivityEntry, AiModel, InboundStats,
  InboundMessageSummary, VpsSshKeyInfo, VpsSnapshotInfo, EmailPlanOffer, EmailSubscription, EmailSuppressionRow,
};

/** Every data function takes the profile whose account it reads (issue 17): a key of stack config
 * `svc:profiles`; default the top-level settings. */
export interface ProfileOption {
  profile?: string;
}

export interface GetNotificationsArgs extends ProfileOption {
  /** Only the notifications not yet read. */
  unreadOnly?: boolean;
}

/** The program's stack config (`svc:apiKey`, …), secrets included, as the provider reads it. */
const programConfig: ConfigSource = { get: (key) => pulumi.runtime.getConfig(key) };

type Api = "platform" | "email" | "ai";
/**
 * The settings and the client (undici, zod, the route table's schemas) load at a program's first
 * data function: a program that declares resources only starts without them (issue 43, the
 * program's start). One ApiContext per settings for the program's life (the program's config and
 * environment may change between calls in tests): all calls with the same settings share its clients.
 */
let clientCode: { config: typeof import("../provider/config"); contexts: ApiContexts } | undefined;
function loadClientCode(): NonNullable<typeof clientCode> {
  if (!clientCode) {
    const context = require("../provider/context") as typeof import("../provider/context");
    clientCode = { config: require("../provider/config") as typeof import("../provider/config"), contexts: new context.ApiContexts() };
  }
  return clientCode;
}

function programSettings(profile: string | undefined): Settings {
  return loadClientCode().config.resolveSettings(programConfig, process.env, profile);
}

function client(api: Api, profile?: string): ApiClient {
  const { config, contexts } = loadClientCode();
  const missing = profile === undefined ? undefined : config.missingProfile(profile, programConfig);
  if (missing) throw new Error(`profile: ${missing}`);
  const settings = programSettings(profile);
  return contexts.of(JSON.stringify(settings), () => settings)[api];
}

/** One call: settings problems and API errors both name the function, like a resource operation's. */
async function lookup<K extends RouteId>(name: string, api: Api, id: K, options?: CallOptions<K>, profile?: string): Promise<RouteResponse<K>> {
  try {
    return await client(api, profile).call(id, options);
  } catch (err) {
    throw shownOnce(operationError(name, err));
  }
}

/**
 * Marked as Pulumi's RunError (its `__pulumiRunError` brand, which `RunError.isInstance` reads): the
 * Node runtime prints such an error by its message alone — one line, no stack, no `<ref *1>` of its
 * cause — and once (pulumi/pulumi sdk/nodejs/cmd/run/run.ts, uncaughtHandler). It stays an
 * OperationError, with its code, for a program that catches it.
 *
 * Its message stays as written, naming the function and what to do: an `...Output` form's error
 * reaches the runtime through the resource inputs that wait on it, and the SDK's serialization
 * prefixes the same error's message at each input it passes (`error serializing property "vpsId":
 * error serializing property "planId": …`, sdk/nodejs/runtime/rpc.ts serializeFilteredProperties).
 */
function shownOnce<E extends Error>(err: E): E {
  Object.defineProperty(err, "__pulumiRunError", { value: true, enumerable: false });
  const message = err.message;
  Object.defineProperty(err, "message", { get: () => message, set: () => undefined, enumerable: false, configurable: true });
  return err;
}

/**
 * The server plans on sale. Each plan's `id` (what `Vps` takes as `planId`), `name`, `family`,
 * `region`, size (`cpu`, `memoryMb`, `diskGb`), `prices` per billing period, the `osTemplates` it
 * can install, and its `snapshotLimit`. Plan ids differ between accounts: pick a plan by name.
 *
 * @example
 * ```typescript
 * // Pick a plan by name: ids differ between accounts (examples/quickstart does this).
 * const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === "s-1vcpu-1gb")!.id);
 * ```
 */
export function getVpsPlans(opts: ProfileOption = {}): Promise<VpsPlan[]> {
  return lookup("getVpsPlans", "platform", "vps.plans.list", undefined, opts.profile);
}

/**
 * The backup add-on plans a server's backup (`VpsBackup`) may use. Each plan's `code` (what
 * `VpsBackup` takes as `planCode`), `name`, storage quota (`quotaGb`) and `price`. A retired plan
 * cannot be chosen for a new add-on: the API refuses an unknown or retired code (`PLAN_NOT_FOUND`).
 *
 * @example
 * ```typescript
 * const smallest = svc.getBackupPlansOutput().apply((plans) => [...plans].sort((a, b) => a.quotaGb - b.quotaGb)[0].code);
 * ```
 */
export function getBackupPlans(opts: ProfileOption = {}): Promise<BackupPlan[]> {
  return lookup("getBackupPlans", "platform", "backup.plans.list", undefined, opts.profile);
}

/**
 * What renewing one server costs, for each billing period it can be renewed for: `billingPeriod`
 * (`monthly`, `3month`, `6month`, `yearly`), `price` and `currency`.
 *
 * @param vpsId The server's id (a `Vps`'s `id`); required.
 * @example
 * ```typescript
 * // `web` is a `svc.Vps` of the program.
 * const yearly = svc.getVpsRenewalOptionsOutput(web.id).apply((options) => options.find((o) => o.billingPeriod === "yearly")?.price);
 * ```
 */
export function getVpsRenewalOptions(vpsId: string, opts: ProfileOption = {}): Promise<RenewalOption[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsRenewalOptions: vpsId is required"));
  return lookup("getVpsRenewalOptions", "platform", "vps.renewalOptions", { params: { id: vpsId } }, opts.profile);
}

/**
 * The email service's state for the key's project. Its `projectId` (what `EmailPlan` takes as
 * `adoptId`), the current `plan` with its limits (emails per day and month, domains, templates,
 * webhooks; null without a plan), `platformPaused` (sending paused for every project by the
 * platform) and `sendingEnabled` (whether this project may send now). Works without a plan.
 *
 * @example
 * ```typescript
 * export const canSend = svc.getEmailStatusOutput().apply((status) => status.sendingEnabled && !status.platformPaused);
 * ```
 */
export function getEmailStatus(opts: ProfileOption = {}): Promise<EmailStatus> {
  return lookup("getEmailStatus", "email", "email.status", undefined, opts.profile);
}

/**
 * The project's sending analytics and the rates that suspend sending. Counts of messages `sent`, `delivered`, `bounced` and
 * `complained`, the `bounceRate` and `complaintRate`, and `limits`: the bounce and complaint rates
 * at which the platform suspends the project's sending.
 *
 * @example
 * ```typescript
 * const analytics = await svc.getEmailAnalytics();
 * if (analytics.bounceRate > analytics.limits.bounceRate / 2) pulumi.log.warn("bounce rate is half-way to suspension");
 * ```
 */
export function getEmailAnalytics(opts: ProfileOption = {}): Promise<EmailAnalytics> {
  return lookup("getEmailAnalytics", "email", "email.analytics", undefined, opts.profile);
}

/**
 * The account's notifications (billing, renewals, suspensions…), newest first. Each one's `type`,
 * `title`, `message`, `link`, whether it was read (`isRead`, `readAt`), and the project and
 * environment it is about, if any.
 *
 * @example
 * ```typescript
 * export const unread = svc.getNotificationsOutput({ unreadOnly: true }).apply((list) => list.map((n) => n.title));
 * ```
 */
export function getNotifications(args: GetNotificationsArgs = {}): Promise<Notification[]> {
  const query = args.unreadOnly === undefined ? undefined : { unreadOnly: args.unreadOnly ? ("true" as const) : ("false" as const) };
  return lookup("getNotifications", "platform", "account.notifications.list", { query }, args.profile);
}

/**
 * The activity feed of a project, newest first. What was done (`action`) to which object
 * (`entityType`, `entityId`, `entityName`), by a user or the system (`actor`, `byKeyOwner`), and when.
 *
 * @param projectId The project; default: the configured project (`svc:projectId` / `SVC_PROJECT_ID`); neither is an error.
 * @example
 * ```typescript
 * export const lastChanges = svc.getProjectActivityOutput().apply((entries) => entries.slice(0, 5).map((e) => `${e.action} ${e.entityName}`));
 * ```
 */
export function getProjectActivity(projectId?: string, opts: ProfileOption = {}): Promise<ActivityEntry[]> {
  const id = projectId || programSettings(opts.profile).projectId;
  if (!id) return Promise.reject(new Error("getProjectActivity: no projectId given and svc:projectId / SVC_PROJECT_ID is not set"));
  return lookup("getProjectActivity", "platform", "account.activity", { params: { projectId: id } }, opts.profile);
}

/**
 * The AI models the key may use at the AI gateway. Each model's `id` (what a request names),
 * `owned_by` and `created` (Unix seconds).
 *
 * @returns The list's `data`: the models, not the list object around them.
 * @example
 * ```typescript
 * export const models = svc.getAiModelsOutput().apply((list) => list.map((m) => m.id));
 * ```
 */
export async function getAiModels(opts: ProfileOption = {}): Promise<AiModel[]> {
  return (await lookup("getAiModels", "ai", "ai.models", undefined, opts.profile)).data;
}

/**
 * The project's inbox usage and what its plan allows. `usage` counts receiving hosts, mailboxes,
 * aliases, messages and the storage they take (`storageBytes`); `plan` says whether the plan has
 * `receiving` and `forwarding`, and how many `mailboxes` and `aliases` it allows.
 *
 * @example
 * ```typescript
 * export const mailboxesLeft = svc.getInboundStatsOutput().apply((s) => s.plan.mailboxes - s.usage.mailboxes);
 * ```
 */
export function getInboundStats(opts: ProfileOption = {}): Promise<InboundStats> {
  return lookup("getInboundStats", "email", "email.inbound.stats", undefined, opts.profile);
}

export interface GetInboundMessagesArgs extends ProfileOption {
  /** Only messages in this folder: inbox, trash or drafts (default: every folder). */
  folder?: string;
  /** Page size, 1 to 200 (default 50). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of received messages, newest first: `nextCursor` (null on the last page) reads the next. */
export interface InboundMessagesPage {
  messages: InboundMessageSummary[];
  nextCursor: string | null;
}

/**
 * Messages received at the project's addresses, newest first, one page at a time. Each message is
 * what an `email.received` webhook carries: sender, recipients, subject, a `snippet` and the
 * `textBody`, its attachments (names, types, sizes), its `folder` and the spam and virus verdicts.
 *
 * @returns `{ messages, nextCursor }`: one page, and the cursor of the next (null on the last page).
 * @example
 * ```typescript
 * const first = await svc.getInboundMessages({ folder: "inbox", limit: 20 });
 * const second = first.nextCursor ? await svc.getInboundMessages({ folder: "inbox", limit: 20, cursor: first.nextCursor }) : undefined;
 * ```
 */
export async function getInboundMessages(args: GetInboundMessagesArgs = {}): Promise<InboundMessagesPage> {
  const query = {
    ...(args.folder !== undefined ? { folder: args.folder } : {}),
    ...(args.limit !== undefined ? { limit: String(args.limit) } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
  };
  const page = await lookup("getInboundMessages", "email", "email.inbound.messages.list", { query }, args.profile);
  return { messages: page.data, nextCursor: page.nextCursor };
}

/**
 * The SSH keys on one server, whoever added them (a `VpsSshKey`, the dashboard). Each key's
 * `fingerprint` (what `VpsSshKey` takes as `adoptId`), `type`, `label`, `publicKey` and `createdAt`.
 *
 * @param vpsId The server's id (a `Vps`'s `id`); required.
 * @example
 * ```typescript
 * // `web` is a `svc.Vps` of the program.
 * export const fingerprints = svc.getVpsSshKeysOutput(web.id).apply((keys) => keys.map((k) => k.fingerprint));
 * ```
 */
export function getVpsSshKeys(vpsId: string, opts: ProfileOption = {}): Promise<VpsSshKeyInfo[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsSshKeys: vpsId is required"));
  return lookup("getVpsSshKeys", "platform", "vps.sshKeys.list", { params: { id: vpsId } }, opts.profile);
}

/**
 * The snapshots of one server, whoever made them (a `VpsSnapshot`, the dashboard). Each one's `id`
 * (what `VpsSnapshot` takes as `adoptId`), `name`, `status` (`creating`, `ready`, `error`, with
 * the `error`), `sizeGb` and `createdAt`.
 *
 * @param vpsId The server's id (a `Vps`'s `id`); required.
 * @example
 * ```typescript
 * // `web` is a `svc.Vps` of the program.
 * export const readySnapshots = svc.getVpsSnapshotsOutput(web.id).apply((list) => list.filter((s) => s.status === "ready").map((s) => s.name));
 * ```
 */
export function getVpsSnapshots(vpsId: string, opts: ProfileOption = {}): Promise<VpsSnapshotInfo[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsSnapshots: vpsId is required"));
  return lookup("getVpsSnapshots", "platform", "vps.snapshots.list", { params: { id: vpsId } }, opts.profile);
}

export interface GetEmailSuppressionsArgs extends ProfileOption {
  /** Page size, 1 to 500 (default 100). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of the suppression list, newest first: `nextCursor` (null on the last page) reads the next. */
export interface EmailSuppressionsPage {
  suppressions: EmailSuppressionRow[];
  nextCursor: string | null;
}

/**
 * One page of the project's suppression list, newest first: the addresses the platform sends
 * nothing to. Each row's `email` (lower-cased; what `EmailSuppression` takes as `email` and
 * `adoptId`), `reason` (`bounce` and `complaint` are added by the platform, `manual` through the
 * API) and `createdAt`. Pages hold 1 to 500 rows (default 100); `nextCursor` reads the next.
 *
 * @example
 * ```typescript
 * // Addresses that bounced: candidates to clean out of a mailing list.
 * export const bounced = svc.getEmailSuppressionsOutput({ limit: 500 }).apply((page) => page.suppressions.filter((r) => r.reason === "bounce").map((r) => r.email));
 * ```
 */
export async function getEmailSuppressions(args: GetEmailSuppressionsArgs = {}): Promise<EmailSuppressionsPage> {
  const query = {
    ...(args.limit !== undefined ? { limit: String(args.limit) } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
  };
  const page = await lookup("getEmailSuppressions", "email", "email.suppressions.list", { query }, args.profile);
  return { suppressions: page.data, nextCursor: page.nextCursor };
}

// ---- Output forms: take Pulumi inputs, answer an Output (unknown during preview while an input is) ----

/** `pulumi.output` of plain API data: the value is already plain, so its type stays as it is. */
function plain<T>(value: Promise<T>): pulumi.Output<T> {
  return pulumi.output(value) as unknown as pulumi.Output<T>;
}

const UNKNOWN_PROFILE = Symbol("profile not known yet");

/**
 * An `...Output` form of the function `name`. Settings that cannot reach its API (a key or URL not
 * configured, a profile that does not exist) fail here, at the program's line, as `config.require`
 * does: the run stops with that one error. Later, they would fail every resource whose input waits
 * on the answer, and the runtime would warn (`PromiseRejectionHandledWarning`) about each such
 * resource's outputs that the stack's exports read. `profile`: undefined for the top-level
 * settings; `unknown` when the program passes it inside an Output (checked by the call itself).
 */
function outputForm<T>(name: string, api: Api, profile: string | undefined | typeof UNKNOWN_PROFILE, answer: () => pulumi.Output<T>): pulumi.Output<T> {
  if (profile !== UNKNOWN_PROFILE) {
    try {
      client(api, profile);
    } catch (err) {
      throw shownOnce(operationError(name, err));
    }
  }
  return answer();
}

/** The `profile` of an Output form's `args`, when the program passed them as a plain object. */
function profileArg(args: unknown): string | undefined | typeof UNKNOWN_PROFILE {
  if (args === null || typeof args !== "object" || pulumi.Output.isInstance(args) || args instanceof Promise) return UNKNOWN_PROFILE;
  const profile = (args as { profile?: unknown }).profile;
  return profile === undefined || typeof profile === "string" ? profile : UNKNOWN_PROFILE;
}

export function getVpsPlansOutput(opts: ProfileOption = {}): pulumi.Output<VpsPlan[]> {
  return outputForm("getVpsPlans", "platform", opts.profile, () => plain(getVpsPlans(opts)));
}
export function getBackupPlansOutput(opts: ProfileOption = {}): pulumi.Output<BackupPlan[]> {
  return outputForm("getBackupPlans", "platform", opts.profile, () => plain(getBackupPlans(opts)));
}
export function getVpsRenewalOptionsOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<RenewalOption[]> {
  return outputForm("getVpsRenewalOptions", "platform", opts.profile, () => pulumi.output(vpsId).apply((id) => plain(getVpsRenewalOptions(id, opts))));
}
export function getEmailStatusOutput(opts: ProfileOption = {}): pulumi.Output<EmailStatus> {
  return outputForm("getEmailStatus", "email", opts.profile, () => plain(getEmailStatus(opts)));
}
export function getEmailAnalyticsOutput(opts: ProfileOption = {}): pulumi.Output<EmailAnalytics> {
  return outputForm("getEmailAnalytics", "email", opts.profile, () => plain(getEmailAnalytics(opts)));
}
export function getNotificationsOutput(args: pulumi.Input<{ unreadOnly?: pulumi.Input<boolean>; profile?: string }> = {}): pulumi.Output<Notification[]> {
  return outputForm("getNotifications", "platform", profileArg(args), () => pulumi.output(args).apply((a) => plain(getNotifications(a))));
}
export function getProjectActivityOutput(projectId?: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<ActivityEntry[]> {
  return outputForm("getProjectActivity", "platform", opts.profile, () => pulumi.output(projectId).apply((id) => plain(getProjectActivity(id, opts))));
}
export function getVpsSshKeysOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<VpsSshKeyInfo[]> {
  return outputForm("getVpsSshKeys", "platform", opts.profile, () => pulumi.output(vpsId).apply((id) => plain(getVpsSshKeys(id, opts))));
}
export function getVpsSnapshotsOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<VpsSnapshotInfo[]> {
  return outputForm("getVpsSnapshots", "platform", opts.profile, () => pulumi.output(vpsId).apply((id) => plain(getVpsSnapshots(id, opts))));
}
export function getAiModelsOutput(opts: ProfileOption = {}): pulumi.Output<AiModel[]> {
  return outputForm("getAiModels", "ai", opts.profile, () => plain(getAiModels(opts)));
}
export function getInboundStatsOutput(opts: ProfileOption = {}): pulumi.Output<InboundStats> {
  return outputForm("getInboundStats", "email", opts.profile, () => plain(getInboundStats(opts)));
}
export function getEmailSuppressionsOutput(args: pulumi.Input<{ limit?: pulumi.Input<number>; cursor?: pulumi.Input<string>; profile?: string }> = {}): pulumi.Output<EmailSuppressionsPage> {
  return outputForm("getEmailSuppressions", "email", profileArg(args), () => pulumi.output(args).apply((a) => plain(getEmailSuppressions(a))));
}
export function getInboundMessagesOutput(args: pulumi.Input<{ folder?: pulumi.Input<string>; limit?: pulumi.Input<number>; cursor?: pulumi.Input<string>; profile?: string }> = {}): pulumi.Output<InboundMessagesPage> {
  return outputForm("getInboundMessages", "email", profileArg(args), () => pulumi.output(args).apply((a) => plain(getInboundMessages(a))));
}

// ---- email plan ----


/**
 * The email plans on sale, with their prices and limits. Each plan's `code` (what `EmailPlan` takes as `planCode`), `name`,
 * `monthlyPrice` (IDR), its `limits` (emails per day and month, domains, templates, contacts,
 * segments, topics, webhooks, mailboxes, aliases) and whether it has `broadcasts`, `receiving` and
 * `forwarding`. Works without a plan.
 *
 * @example
 * ```typescript
 * // The cheapest plan that receives mail.
 * const planCode = svc.getEmailPlansOutput().apply((plans) => plans.filter((p) => p.receiving).sort((a, b) => a.monthlyPrice - b.monthlyPrice)[0].code);
 * ```
 */
export function getEmailPlans(opts: ProfileOption = {}): Promise<EmailPlanOffer[]> {
  return lookup("getEmailPlans", "email", "email.plans.list", undefined, opts.profile);
}

/**
 * The project's email plan as it is now. Its `planCode`, `status` (`active`, `ended`, or `none` before
 * any plan), `startedAt` and `expiresAt`, `autoRenew`, `paygEnabled`, its inbox `addons` with their
 * quantities, and `scheduledPlanCode`, a smaller plan that starts at the next renewal. Works without
 * a plan. To change the plan, use the `EmailPlan` resource.
 *
 * @example
 * ```typescript
 * export const planExpires = svc.getEmailPlanOutput().apply((plan) => plan.expiresAt);
 * ```
 */
export function getEmailPlan(opts: ProfileOption = {}): Promise<EmailSubscription> {
  return lookup("getEmailPlan", "email", "email.plan.get", undefined, opts.profile);
}

export function getEmailPlansOutput(opts: ProfileOption = {}): pulumi.Output<EmailPlanOffer[]> {
  return outputForm("getEmailPlans", "email", opts.profile, () => plain(getEmailPlans(opts)));
}
export function getEmailPlanOutput(opts: ProfileOption = {}): pulumi.Output<EmailSubscription> {
  return outputForm("getEmailPlan", "email", opts.profile, () => plain(getEmailPlan(opts)));
}
