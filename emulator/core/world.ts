/**
 * The emulator's world: one JSON-serializable object holding everything (so `--state FILE` and
 * `GET /_emulator/state` are one `JSON.stringify`). Records keep internal fields (owner project,
 * webhook secret, …); handlers answer through explicit views, never the record itself.
 */
import type { BillingPeriod } from "../../provider/client/schemas";
import type { AiWorld } from "../ai/state";

export type Product = "vps" | "domain" | "email" | "container" | "database" | "ai";
export const allProducts: Product[] = ["vps", "domain", "email", "container", "database", "ai"];

export interface KeyRecord {
  key: string;
  kind: "platform" | "email";
  label: string;
  /** The one project a project-limited platform key, or an email key, acts on; null = whole account. */
  projectId: string | null;
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
}

export interface Project {
  id: string;
  name: string;
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
  snapshots: boolean;
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

export interface World {
  seed: number;
  rngState: number;
  clockOffsetMs: number;
  account: {
    id: string;
    wallet: number;
    currency: "IDR";
    serverLimit: number;
    registrant: Record<string, string | null>;
  };
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
  /** Service state; each service module owns its part and its record types. */
  email: Record<string, unknown>;
  vps: Record<string, unknown>;
  domains: Record<string, unknown>;
  /** The AI gateway: model catalogue, AI balance, limits, spend (emulator/ai/state.ts). */
  ai: AiWorld;
  notifications: NotificationRec[];
  activity: ActivityRec[];
  transitions: PendingTransition[];
  jobFailures: JobFailureRule[];
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
