/**
 * The emulator's world: one JSON-serializable object holding everything (so `--state FILE` and
 * `GET /_emulator/state` are one `JSON.stringify`). Records keep internal fields (owner project,
 * webhook secret, …); handlers answer through explicit views, never the record itself.
 */
import type { SuccessStatus } from "../../contract/routes";
import type { BillingPeriod } from "../../contract/schemas";

export type Product = "vps" | "domain" | "email" | "container" | "database" | "ai";
export const allProducts: Product[] = ["vps", "domain", "email", "container", "database", "ai"];

export interface KeyRecord {
  key: string;
  kind: "platform" | "email";
  label: string;
  /** The one project a project-limited platform key, or an email key, acts on; null = whole account. */
  projectId: string | null;
  /** The account the key belongs to; absent: the first account (worlds saved before there were two). */
  accountId?: string;
  products: Product[];
  expiresAt: string | null;
  revoked: boolean;
}

export interface EmailPlanLimits {
  name: string;
  emailsPerDay: number | null;
  emailsPerMonth: number;
  domains: number;
  templates: number;
  webhooks: number;
  /** IDR per recipient past the monthly limit; null or absent: the plan has no pay-as-you-go rate. */
  paygRate?: number | null;
  /** The catalogue code of the plan (emulator/email/plans.ts); absent: the free plan. */
  code?: string;
  /** Inbox values; absent: the free plan's (emulator/email/plans.ts). */
  receiving?: boolean;
  forwarding?: boolean;
  mailboxes?: number;
  aliases?: number;
  topics?: number;
  segments?: number;
  contacts?: number;
}

export interface Project {
  id: string;
  name: string;
  /** The account the project belongs to; absent: the first account (worlds saved before there were two). */
  accountId?: string;
  environmentId: string;
  /** Email set up for the project; `plan` null = no active plan (402 NO_PLAN). */
  email: {
    enabled: boolean;
    plan: EmailPlanLimits | null;
    sendingEnabled: boolean;
    /** Start of the plan subscription: the monthly quota window starts on its day of the month. */
    subscribedAt?: string;
    /** Dashboard switch: keep sending past the monthly limit, charged from the wallet. */
    paygEnabled?: boolean;
    /** Paused by the delivery network (TENANT_PAUSED). */
    tenantPaused?: boolean;
  };
}

export interface VpsPlanRec {
  id: string;
  name: string;
  family: string;
  region: string;
  cpu: number;
  memoryMb: number;
  diskGb: number;
  prices: Record<BillingPeriod, number>;
  osTemplates: { osType: string; osVersion: string }[];
  /** Snapshots a server of the plan may hold (0: unavailable); absent in worlds saved before: 0. */
  snapshotLimit?: number;
  /** Servers of the plan share the region's public address (port forwards, SSH keys); absent: false. */
  sharedAddress?: boolean;
}

export interface BackupPlanRec {
  code: string;
  name: string;
  quotaGb: number;
  price: number;
  retired: boolean;
}

export interface TldRec {
  registration: number;
  whoisProtection: number;
  renewal: number;
  /** false: TLD_NOT_SUPPORTED; "unavailable": PRICE_UNAVAILABLE. */
  supported: boolean | "unavailable";
}

export interface PendingTransition {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  /** Emulator-clock ms when it settles; null = only on `POST /_emulator/transitions/settle`. */
  dueAt: number | null;
  /** A timer settles it when due, without waiting for a request (Emu.schedule's `wake`). */
  wake?: boolean;
}

/** Makes the next background job(s) of a kind fail, to reach the spec's failure paths. */
export interface JobFailureRule {
  kind: string;
  times: number;
  reason: string;
}

/** An account: what its keys reach is its projects; its wallet pays for everything in them. */
export interface Account {
  id: string;
  wallet: number;
  currency: "IDR";
  serverLimit: number;
  registrant: Record<string, string | null>;
}

export interface World {
  seed: number;
  rngState: number;
  clockOffsetMs: number;
  /** The first account: the one the printed default keys belong to. */
  account: Account;
  /** Further accounts (the seeded second account), each with its own wallet, projects and keys. */
  otherAccounts?: Account[];
  projects: Project[];
  keys: KeyRecord[];
  catalog: {
    vpsPlans: VpsPlanRec[];
    backupPlans: BackupPlanRec[];
    tlds: Record<string, TldRec>;
    /** Names registered by another account: DOMAIN_UNAVAILABLE. */
    takenDomains: string[];
    premiumDomains: string[];
  };
  /** Service state; each service module owns its part and its record types (the AI gateway's: emulator/ai/state.ts). */
  email: Record<string, unknown>;
  vps: Record<string, unknown>;
  domains: Record<string, unknown>;
  ai: Record<string, unknown>;
  notifications: NotificationRec[];
  activity: ActivityRec[];
  transitions: PendingTransition[];
  /** First answers of requests made with an Idempotency-Key (core/idempotency.ts); absent: none yet. */
  idempotency?: IdempotencyRec[];
  jobFailures: JobFailureRule[];
}

/** The first successful answer to a request with an Idempotency-Key, replayed to a repeat for 24 hours. */
export interface IdempotencyRec {
  /** Account, project and key: a key means nothing outside the caller that sent it. */
  scope: string;
  /** Emulator-clock ms of the first answer. */
  at: number;
  status: SuccessStatus;
  data: unknown;
  extra: Record<string, unknown>;
}

export interface NotificationRec {
  id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
  projectId: string | null;
  environmentId: string | null;
  /** The account an account-wide notification (projectId null) is for; absent: the first account. */
  accountId?: string;
}

export interface ActivityRec {
  id: string;
  projectId: string;
  action: string;
  entityType: string;
  entityId: string;
  entityName: string;
  actor: "user" | "system";
  byKeyOwner: boolean;
  environmentId: string;
  createdAt: string;
}

export function accountsOf(world: World): Account[] {
  return [world.account, ...(world.otherAccounts ?? [])];
}

/** The account with that id; an absent id is the first account (records saved before there were two). */
export function accountById(world: World, id: string | undefined): Account {
  if (id === undefined) return world.account;
  const account = accountsOf(world).find((a) => a.id === id);
  if (!account) throw new Error(`no account ${id} in the world`);
  return account;
}

export function accountOfProject(world: World, projectId: string): Account {
  const project = world.projects.find((p) => p.id === projectId);
  if (!project) throw new Error(`no project ${projectId} in the world`);
  return accountById(world, project.accountId);
}

export function projectsOfAccount(world: World, account: Account): Project[] {
  return world.projects.filter((p) => accountById(world, p.accountId) === account);
}
