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
import type * as s from "../contract/schemas";
import { missingProfile, resolveSettings, type ConfigSource } from "../provider/config";
import { ApiContext } from "../provider/context";
import { operationError } from "../provider/resource";

export type VpsPlan = s.VpsPlan;
export type BackupPlan = RouteResponse<"backup.plans.list">[number];
export type RenewalOption = RouteResponse<"vps.renewalOptions">[number];
export type EmailStatus = RouteResponse<"email.status">;
export type EmailAnalytics = RouteResponse<"email.analytics">;
export type Notification = s.Notification;
export type ActivityEntry = s.ActivityEntry;
export type AiModel = s.AiModel;
export type InboundStats = s.InboundStats;
export type InboundMessageSummary = s.InboundMessageSummary;
export type VpsSshKeyInfo = s.SshKey;
export type VpsSnapshotInfo = s.Snapshot;

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
/** One ApiContext per settings for the program's life (the program's config and environment may
 * change between calls in tests): all calls with the same settings share its clients. */
const contexts = new Map<string, ApiContext>();

function client(api: Api, profile?: string): ApiClient {
  const missing = profile === undefined ? undefined : missingProfile(profile, programConfig);
  if (missing) throw new Error(missing);
  const settings = resolveSettings(programConfig, process.env, profile);
  const key = JSON.stringify(settings);
  let context = contexts.get(key);
  if (!context) {
    context = new ApiContext(settings);
    contexts.set(key, context);
  }
  return context[api];
}

/** One call: settings problems and API errors both name the function, like a resource operation's. */
async function lookup<K extends RouteId>(name: string, api: Api, id: K, options?: CallOptions<K>, profile?: string): Promise<RouteResponse<K>> {
  try {
    return await client(api, profile).call(id, options);
  } catch (err) {
    throw operationError(name, err);
  }
}

/** Server plans (id, name, family, region, size, prices per billing period, OS templates). */
export function getVpsPlans(opts: ProfileOption = {}): Promise<VpsPlan[]> {
  return lookup("getVpsPlans", "platform", "vps.plans.list", undefined, opts.profile);
}

/** Backup add-on plans; `retired` plans cannot be chosen for a new add-on. */
export function getBackupPlans(opts: ProfileOption = {}): Promise<BackupPlan[]> {
  return lookup("getBackupPlans", "platform", "backup.plans.list", undefined, opts.profile);
}

/** What renewing a server costs for each billing period. */
export function getVpsRenewalOptions(vpsId: string, opts: ProfileOption = {}): Promise<RenewalOption[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsRenewalOptions: vpsId is required"));
  return lookup("getVpsRenewalOptions", "platform", "vps.renewalOptions", { params: { id: vpsId } }, opts.profile);
}

/** The email plan and its limits, and `platformPaused` (sending paused for every project). Works without a plan. */
export function getEmailStatus(opts: ProfileOption = {}): Promise<EmailStatus> {
  return lookup("getEmailStatus", "email", "email.status", undefined, opts.profile);
}

/** Sending analytics of the project, with `limits`: the bounce and complaint rates that suspend sending. */
export function getEmailAnalytics(opts: ProfileOption = {}): Promise<EmailAnalytics> {
  return lookup("getEmailAnalytics", "email", "email.analytics", undefined, opts.profile);
}

/** Account notifications, newest first. */
export function getNotifications(args: GetNotificationsArgs = {}): Promise<Notification[]> {
  const query = args.unreadOnly === undefined ? undefined : { unreadOnly: args.unreadOnly ? ("true" as const) : ("false" as const) };
  return lookup("getNotifications", "platform", "account.notifications.list", { query }, args.profile);
}

/**
 * The activity feed of a project, newest first. Without `projectId`, the configured project
 * (`svc:projectId` / `SVC_PROJECT_ID`).
 */
export function getProjectActivity(projectId?: string, opts: ProfileOption = {}): Promise<ActivityEntry[]> {
  const id = projectId || resolveSettings(programConfig, process.env, opts.profile).projectId;
  if (!id) return Promise.reject(new Error("getProjectActivity: no projectId given and svc:projectId / SVC_PROJECT_ID is not set"));
  return lookup("getProjectActivity", "platform", "account.activity", { params: { projectId: id } }, opts.profile);
}

/** The AI models the key may use (`GET /v1/models` of the AI gateway). */
export async function getAiModels(opts: ProfileOption = {}): Promise<AiModel[]> {
  return (await lookup("getAiModels", "ai", "ai.models", undefined, opts.profile)).data;
}

/** Inbox usage (receiving hosts, mailboxes, aliases, messages, storage) and the plan's inbox values (receiving, forwarding, mailboxes, aliases). */
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

/** Messages received at the project's addresses, newest first, one page at a time; each is the `email.received` payload. */
export async function getInboundMessages(args: GetInboundMessagesArgs = {}): Promise<InboundMessagesPage> {
  const query = {
    ...(args.folder !== undefined ? { folder: args.folder } : {}),
    ...(args.limit !== undefined ? { limit: String(args.limit) } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
  };
  const page = await lookup("getInboundMessages", "email", "email.inbound.messages.list", { query }, args.profile);
  return { messages: page.data, nextCursor: page.nextCursor };
}

/** The SSH keys on a server (fingerprint, type, label, public key). */
export function getVpsSshKeys(vpsId: string, opts: ProfileOption = {}): Promise<VpsSshKeyInfo[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsSshKeys: vpsId is required"));
  return lookup("getVpsSshKeys", "platform", "vps.sshKeys.list", { params: { id: vpsId } }, opts.profile);
}

/** The snapshots of a server (id, name, status, size). */
export function getVpsSnapshots(vpsId: string, opts: ProfileOption = {}): Promise<VpsSnapshotInfo[]> {
  if (!vpsId) return Promise.reject(new Error("getVpsSnapshots: vpsId is required"));
  return lookup("getVpsSnapshots", "platform", "vps.snapshots.list", { params: { id: vpsId } }, opts.profile);
}

// ---- Output forms: take Pulumi inputs, answer an Output (unknown during preview while an input is) ----

/** `pulumi.output` of plain API data: the value is already plain, so its type stays as it is. */
function plain<T>(value: Promise<T>): pulumi.Output<T> {
  return pulumi.output(value) as unknown as pulumi.Output<T>;
}

export function getVpsPlansOutput(opts: ProfileOption = {}): pulumi.Output<VpsPlan[]> {
  return plain(getVpsPlans(opts));
}
export function getBackupPlansOutput(opts: ProfileOption = {}): pulumi.Output<BackupPlan[]> {
  return plain(getBackupPlans(opts));
}
export function getVpsRenewalOptionsOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<RenewalOption[]> {
  return pulumi.output(vpsId).apply((id) => plain(getVpsRenewalOptions(id, opts)));
}
export function getEmailStatusOutput(opts: ProfileOption = {}): pulumi.Output<EmailStatus> {
  return plain(getEmailStatus(opts));
}
export function getEmailAnalyticsOutput(opts: ProfileOption = {}): pulumi.Output<EmailAnalytics> {
  return plain(getEmailAnalytics(opts));
}
export function getNotificationsOutput(args: pulumi.Input<{ unreadOnly?: pulumi.Input<boolean>; profile?: string }> = {}): pulumi.Output<Notification[]> {
  return pulumi.output(args).apply((a) => plain(getNotifications(a)));
}
export function getProjectActivityOutput(projectId?: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<ActivityEntry[]> {
  return pulumi.output(projectId).apply((id) => plain(getProjectActivity(id, opts)));
}
export function getVpsSshKeysOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<VpsSshKeyInfo[]> {
  return pulumi.output(vpsId).apply((id) => plain(getVpsSshKeys(id, opts)));
}
export function getVpsSnapshotsOutput(vpsId: pulumi.Input<string>, opts: ProfileOption = {}): pulumi.Output<VpsSnapshotInfo[]> {
  return pulumi.output(vpsId).apply((id) => plain(getVpsSnapshots(id, opts)));
}
export function getAiModelsOutput(opts: ProfileOption = {}): pulumi.Output<AiModel[]> {
  return plain(getAiModels(opts));
}
export function getInboundStatsOutput(opts: ProfileOption = {}): pulumi.Output<InboundStats> {
  return plain(getInboundStats(opts));
}
export function getInboundMessagesOutput(args: pulumi.Input<{ folder?: pulumi.Input<string>; limit?: pulumi.Input<number>; cursor?: pulumi.Input<string>; profile?: string }> = {}): pulumi.Output<InboundMessagesPage> {
  return pulumi.output(args).apply((a) => plain(getInboundMessages(a)));
}

// ---- email plan ----

export type EmailPlanOffer = s.EmailPlanOffer;
export type EmailSubscription = s.EmailSubscription;

/** The email plans on sale: code, name, monthly price (IDR), limits, and whether each has broadcasts, receiving and forwarding. Works without a plan. */
export function getEmailPlans(opts: ProfileOption = {}): Promise<EmailPlanOffer[]> {
  return lookup("getEmailPlans", "email", "email.plans.list", undefined, opts.profile);
}

/** The project's plan: code, status (`active`, `ended` or `none`), expiry, auto-renew, add-ons and any scheduled smaller plan. Works without a plan. */
export function getEmailPlan(opts: ProfileOption = {}): Promise<EmailSubscription> {
  return lookup("getEmailPlan", "email", "email.plan.get", undefined, opts.profile);
}

export function getEmailPlansOutput(opts: ProfileOption = {}): pulumi.Output<EmailPlanOffer[]> {
  return plain(getEmailPlans(opts));
}
export function getEmailPlanOutput(opts: ProfileOption = {}): pulumi.Output<EmailSubscription> {
  return plain(getEmailPlan(opts));
}
