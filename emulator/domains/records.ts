/**
 * Registered domains of the account: list, get, renew, WHOIS protection and auto-renew.
 */
import type { Ctx, Handlers } from "../core/module";
import type { TransitionFn } from "../core/emu";
import { EmuError, Reply } from "../core/errors";
import { billing, extensionOf, pricedTld, requireOneYear } from "./catalog";
import { savePendingMessage, sendToRegistry } from "./registry";
import { addYears, domainsOfAccount, domainsState, domainView, expireDue, nameAndStatus, recordDomainActivity, type DomainRec } from "./state";

/** Realistic time the registry takes to confirm a renewal; another renewal meanwhile is RENEW_IN_PROGRESS. */
const RENEWAL_CONFIRM_SECONDS = 5;
/** Realistic delay before a DOMAIN_SAVE_PENDING renewal is recorded. */
const RENEWAL_SAVE_SECONDS = 30;

/** The saved domain with that id; unknown, malformed and not-yet-saved ids all answer 404. */
function findDomain(ctx: Ctx): DomainRec {
  expireDue(ctx.emu);
  const raw = ctx.params.domainId;
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  const rec = domainsOfAccount(ctx.world, ctx.caller.account).find((d) => d.id === id);
  if (!rec) throw new EmuError(404, "DOMAIN_NOT_FOUND", `No domain ${raw} in this account (unknown id, or not yet registered at the registry)`);
  return rec;
}

function requireLinked(rec: DomainRec, action: string): void {
  if (rec.status === "pending") throw new EmuError(400, "DOMAIN_NOT_LINKED", `${rec.name} is not yet active at the registry and cannot ${action} yet`);
}

function renew(ctx: Ctx<"domains.renew">) {
  const { emu, world } = ctx;
  const rec = findDomain(ctx);
  requireOneYear(ctx.body.period);
  requireLinked(rec, "be renewed");
  if (rec.renewing) throw new EmuError(409, "RENEW_IN_PROGRESS", `${rec.name} is already being renewed`);
  const prices = pricedTld(world, extensionOf(world, rec.name) ?? "");
  // WHOIS protection is a yearly add-on: it renews with the domain.
  const bill = billing(prices.renewal, rec.whoisProtection ? prices.whoisProtection : 0);

  emu.charge(ctx.caller.account, bill.total, `renewal of ${rec.name}`);
  const outcome = sendToRegistry(emu, ctx.caller.account, "renew", rec.name, bill.total);
  if (outcome === "save-pending") {
    emu.schedule("domains.renewal-save", { id: rec.id }, RENEWAL_SAVE_SECONDS);
    return new Reply(nameAndStatus(rec.name, rec.status), {
      extra: { code: "DOMAIN_SAVE_PENDING", message: savePendingMessage("renew", rec.name), billing: bill },
    });
  }
  rec.expiresAt = addYears(rec.expiresAt, 1);
  if (rec.status === "expired" && Date.parse(rec.expiresAt) > emu.nowMs()) rec.status = "active";
  rec.renewing = true;
  emu.schedule("domains.renewal-confirm", { id: rec.id }, RENEWAL_CONFIRM_SECONDS);
  recordDomainActivity(emu, "domain.renewed", rec);
  return new Reply({ ...domainView(rec), billing: bill }, { extra: { billing: bill } });
}

function enableWhoisProtection(ctx: Ctx) {
  const { emu, world } = ctx;
  const rec = findDomain(ctx);
  requireLinked(rec, "change WHOIS protection");
  if (rec.whoisProtection) throw new EmuError(409, "WHOIS_PROTECTION_ACTIVE", `WHOIS protection is already on for ${rec.name}`);
  const prices = pricedTld(world, extensionOf(world, rec.name) ?? "");
  const bill = billing(0, prices.whoisProtection);

  emu.charge(ctx.caller.account, bill.total, `WHOIS protection of ${rec.name}`);
  sendToRegistry(emu, ctx.caller.account, "whois", rec.name, bill.total);
  rec.whoisProtection = true;
  recordDomainActivity(emu, "domain.whois_protection_enabled", rec);
  return new Reply({ ...domainView(rec), billing: bill }, { extra: { billing: bill } });
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
  "domains.list": ({ emu, world, caller }) => {
    expireDue(emu);
    return domainsOfAccount(world, caller.account).map(domainView);
  },
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
