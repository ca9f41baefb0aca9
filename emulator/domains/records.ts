/**
 * Registered domains of the account: list, get, renew, WHOIS protection and auto-renew, and the
 * renewals and expiries the emulator clock makes due (settleRenewals).
 */
import type { Ctx, Handlers } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError, Reply } from "../core/errors";
import type { World } from "../core/world";
import { billing, dryRunReply, extensionOf, pricedTld, requireOneYear, type DomainBilling } from "./catalog";
import { savePendingMessage, sendToRegistry } from "./registry";
import { addYears, domainsOfAccount, domainsState, domainView, nameAndStatus, ownerOf, recordDomainActivity, type DomainRec } from "./state";

/** Realistic time the registry takes to confirm a renewal; another renewal meanwhile is RENEW_IN_PROGRESS. */
const RENEWAL_CONFIRM_SECONDS = 5;
/** Realistic delay before a DOMAIN_SAVE_PENDING renewal is recorded. */
const RENEWAL_SAVE_SECONDS = 30;

/** The saved domain with that id; unknown, malformed and not-yet-saved ids all answer 404. */
function findDomain(ctx: Ctx): DomainRec {
  const raw = ctx.params.domainId;
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  const rec = domainsOfAccount(ctx.world, ctx.caller.account).find((d) => d.id === id);
  if (!rec) throw new EmuError(404, "DOMAIN_NOT_FOUND", `No domain ${raw} in this account (unknown id, or not yet registered at the registry)`);
  return rec;
}

function requireLinked(rec: DomainRec, action: string): void {
  if (rec.status === "pending") throw new EmuError(400, "DOMAIN_NOT_LINKED", `${rec.name} is not yet active at the registry and cannot ${action} yet`);
}

/** What a year's renewal costs: the extension's renewal price, and WHOIS protection (a yearly add-on) when it is on. */
function renewalBill(world: World, rec: DomainRec): DomainBilling {
  const prices = pricedTld(world, extensionOf(world, rec.name) ?? "");
  return billing(prices.renewal, rec.whoisProtection ? prices.whoisProtection : 0);
}

/** A paid renewal's year is added; the registry confirms it RENEWAL_CONFIRM_SECONDS later (RENEW_IN_PROGRESS meanwhile). */
function addRenewedYear(emu: Emu, rec: DomainRec, actor: "user" | "system"): void {
  rec.expiresAt = addYears(rec.expiresAt, 1);
  if (rec.status === "expired" && Date.parse(rec.expiresAt) > emu.nowMs()) rec.status = "active";
  rec.renewing = true;
  emu.schedule("domains.renewal-confirm", { id: rec.id }, RENEWAL_CONFIRM_SECONDS);
  recordDomainActivity(emu, "domain.renewed", rec, actor);
}

function renew(ctx: Ctx<"domains.renew">) {
  const { emu, world } = ctx;
  const rec = findDomain(ctx);
  requireOneYear(ctx.body.period);
  requireLinked(rec, "be renewed");
  if (rec.renewing) throw new EmuError(409, "RENEW_IN_PROGRESS", `${rec.name} is already being renewed`);
  const bill = renewalBill(world, rec);
  if (ctx.query.dryRun === "true") return dryRunReply(ctx.caller.account, bill, `nothing was renewed or charged (${rec.name} expires ${rec.expiresAt})`);

  emu.charge(ctx.caller.account, bill.total, `renewal of ${rec.name}`);
  const outcome = sendToRegistry(emu, ctx.caller.account, "renew", rec.name, bill.total);
  if (outcome === "save-pending") {
    emu.schedule("domains.renewal-save", { id: rec.id }, RENEWAL_SAVE_SECONDS);
    return new Reply(nameAndStatus(rec.name, rec.status), {
      extra: { code: "DOMAIN_SAVE_PENDING", message: savePendingMessage("renew", rec.name), billing: bill },
    });
  }
  addRenewedYear(emu, rec, "user");
  return new Reply({ ...domainView(rec), billing: bill }, { extra: { billing: bill } });
}

function enableWhoisProtection(ctx: Ctx<"domains.whoisProtection">) {
  const { emu, world } = ctx;
  const rec = findDomain(ctx);
  requireLinked(rec, "change WHOIS protection");
  if (rec.whoisProtection) throw new EmuError(409, "WHOIS_PROTECTION_ACTIVE", `WHOIS protection is already on for ${rec.name}`);
  const prices = pricedTld(world, extensionOf(world, rec.name) ?? "");
  const bill = billing(0, prices.whoisProtection);
  if (ctx.query.dryRun === "true") return dryRunReply(ctx.caller.account, bill, `WHOIS protection of ${rec.name} was not turned on, nothing was charged`);

  emu.charge(ctx.caller.account, bill.total, `WHOIS protection of ${rec.name}`);
  sendToRegistry(emu, ctx.caller.account, "whois", rec.name, bill.total);
  rec.whoisProtection = true;
  recordDomainActivity(emu, "domain.whois_protection_enabled", rec);
  return new Reply({ ...domainView(rec), billing: bill }, { extra: { billing: bill } });
}

/**
 * Renewals and expiries the emulator clock made due, before every request (the module's
 * `beforeRequest`), as the platform's nightly run would: an active domain whose `expiresAt` has
 * passed renews for a year when auto-renew is on, charged like `POST /domains/{id}/renew` (the
 * renewal price, WHOIS protection with it); an activity entry by `system`. When the renewal cannot
 * be made (the wallet cannot pay: INSUFFICIENT_BALANCE; no price now: PRICE_UNAVAILABLE), nothing
 * is charged, the domain expires (status 3) and the account is notified with the code. With
 * auto-renew off the domain just expires. An expired domain is renewed only by a call.
 */
export function settleRenewals(emu: Emu): void {
  const now = emu.nowMs();
  for (const rec of domainsState(emu.world).records) {
    while (rec.status === "active" && Date.parse(rec.expiresAt) <= now) {
      if (!rec.autoRenew || !autoRenew(emu, rec)) rec.status = "expired";
    }
  }
}

/** One automatic renewal: true when it was paid and its year added. */
function autoRenew(emu: Emu, rec: DomainRec): boolean {
  const account = ownerOf(emu.world, rec);
  try {
    const bill = renewalBill(emu.world, rec);
    emu.charge(account, bill.total, `auto-renewal of ${rec.name}`);
  } catch (err) {
    if (!(err instanceof EmuError)) throw err;
    recordDomainActivity(emu, "domain.auto_renew_failed", rec, "system");
    emu.notify({
      type: "domain.auto_renew_failed",
      title: `Domain ${rec.name}: auto-renewal failed`,
      message: `${err.code}: ${err.message}. ${rec.name} expired on ${rec.expiresAt}: nothing was charged. Top up the wallet, then renew it (POST /domains/${rec.id}/renew).`,
      link: "/domains",
      projectId: null,
      accountId: account.id,
    });
    return false;
  }
  addRenewedYear(emu, rec, "system");
  return true;
}

function setAutoRenew(ctx: Ctx<"domains.autoRenew">) {
  const rec = findDomain(ctx);
  const enabled = ctx.body.enabled;
  if (rec.autoRenew !== enabled) {
    rec.autoRenew = enabled;
    recordDomainActivity(ctx.emu, enabled ? "domain.auto_renew_enabled" : "domain.auto_renew_disabled", rec);
  }
  return domainView(rec);
}

export const recordHandlers: Handlers<"domains.list" | "domains.get" | "domains.renew" | "domains.whoisProtection" | "domains.autoRenew"> = {
  "domains.list": ({ world, caller }) => domainsOfAccount(world, caller.account).map(domainView),
  "domains.get": (ctx) => domainView(findDomain(ctx)),
  "domains.renew": renew,
  "domains.whoisProtection": enableWhoisProtection,
  "domains.autoRenew": setAutoRenew,
};

export const recordTransitions: Record<string, TransitionFn> = {
  "domains.renewal-confirm": (emu, payload) => {
    const rec = domainsState(emu.world).records.find((d) => d.id === payload.id);
    if (rec) rec.renewing = false;
  },
  /** A renewal the registry completed is recorded: the year it paid for is added. */
  "domains.renewal-save": (emu, payload) => {
    const rec = domainsState(emu.world).records.find((d) => d.id === payload.id);
    if (!rec) return;
    rec.expiresAt = addYears(rec.expiresAt, 1);
    recordDomainActivity(emu, "domain.renewed", rec);
  },
};
