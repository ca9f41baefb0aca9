/**
 * The domain service's part of the world (`world.domains`), its record types and the views that
 * answer them. Domains belong to the account, not to a project; ids are numbers (spec: Ids).
 */
import type { Emu } from "../core/emu";
import { accountById, projectsOfAccount, type Account, type World } from "../core/world";

/** `active`: live at the registry. `pending`: registered, waiting for the registry to activate it.
 * `expired`: past its expiry, with auto-renew off or an auto-renewal that failed (still the
 * account's, until renewed: records.ts, settleRenewals). */
export type DomainStatus = "active" | "pending" | "expired";

/** The numeric `status` and its `status_label`: the spec names the pair, not the values. */
export const STATUS_CODES: Record<DomainStatus, { status: number; status_label: string }> = {
  active: { status: 1, status_label: "active" },
  pending: { status: 2, status_label: "pending" },
  expired: { status: 3, status_label: "expired" },
};

export interface DomainRec {
  id: number;
  name: string;
  status: DomainStatus;
  expiresAt: string;
  whoisProtection: boolean;
  autoRenew: boolean;
  createdAt: string;
  /** A renewal is being confirmed by the registry (transition `domains.renewal-confirm`): RENEW_IN_PROGRESS. */
  renewing: boolean;
  /** The account that owns it; absent: the first account (worlds saved before there were two). */
  accountId?: string;
}

/** A registration the registry completed but the platform has not saved yet (DOMAIN_SAVE_PENDING). */
export interface PendingSave {
  name: string;
  accountId?: string;
  whoisProtection: boolean;
  expiresAt: string;
}

export interface DomainsState {
  nextId: number;
  records: DomainRec[];
  pendingSaves: PendingSave[];
}

const FIRST_ID = 1001;

export function domainsState(world: World): DomainsState {
  const s = world.domains as Partial<DomainsState>;
  s.nextId ??= FIRST_ID;
  s.records ??= [];
  s.pendingSaves ??= [];
  return s as DomainsState;
}

/** The API's domain record: only the documented fields, never the internal ones. */
export function domainView(d: DomainRec) {
  return {
    id: d.id,
    name: d.name,
    ...STATUS_CODES[d.status],
    expiresAt: d.expiresAt,
    whoisProtection: d.whoisProtection,
    autoRenew: d.autoRenew,
  };
}

/** What a DOMAIN_SAVE_PENDING answer carries in `data` (spec: `{name, status, status_label}`). */
export function nameAndStatus(name: string, status: DomainStatus) {
  return { name, ...STATUS_CODES[status] };
}

export function addYears(iso: string, years: number): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString();
}

/** The account that owns a domain record or a pending save. */
export function ownerOf(world: World, d: { accountId?: string }): Account {
  return accountById(world, d.accountId);
}

/** The domains of one account: another account's domains are unknown to its keys (404, not listed). */
export function domainsOfAccount(world: World, account: Account): DomainRec[] {
  return domainsState(world).records.filter((d) => ownerOf(world, d) === account);
}

/**
 * The UUID that stands for a domain in the activity feed (the spec: an entry's `entityId` is a UUID;
 * domain ids are numbers). Derived from the number, so it is the same for every entry of a domain,
 * needs no field in the record and draws nothing from the world's generator.
 */
export function domainEntityId(id: number): string {
  return `d0a1a000-0000-4000-8000-${id.toString(16).padStart(12, "0")}`;
}

/**
 * Domains are account-level but an activity entry needs a project: their entries go to the
 * owning account's first project, where the dashboard shows account-wide work.
 */
export function recordDomainActivity(emu: Emu, action: string, domain: { id: number; name: string; accountId?: string }, actor: "user" | "system" = "user"): void {
  const project = projectsOfAccount(emu.world, ownerOf(emu.world, domain))[0];
  if (!project) return;
  emu.recordActivity({
    projectId: project.id,
    action,
    entityType: "domain",
    entityId: domainEntityId(domain.id),
    entityName: domain.name,
    actor,
    // platform-api.md, Activity entry: `system` is "the platform itself, for example a nightly renewal".
    byKeyOwner: actor === "user",
  });
}
