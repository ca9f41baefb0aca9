/**
 * `POST /domains` (with `?dryRun=true`): every refusal comes before the charge (spec: charge only
 * after every 400, 402, 404 and 409 check), then the registry decides the outcome.
 */
import type { Ctx } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError, Reply } from "../core/errors";
import { billing, checkedName, dryRunReply, pricedTld, requireOneYear } from "./catalog";
import { missingRegistrantFields } from "./registrant";
import { savePendingMessage, sendToRegistry } from "./registry";
import { addYears, domainsState, domainView, nameAndStatus, ownerOf, recordDomainActivity, type DomainRec, type DomainStatus } from "./state";

/** Realistic delay before a DOMAIN_SAVE_PENDING registration is saved with its id. */
const SAVE_SECONDS = 30;
/** Realistic delay before the registry activates a `pending` registration. */
const ACTIVATION_SECONDS = 60;

function createRecord(emu: Emu, fields: { name: string; status: DomainStatus; expiresAt: string; whoisProtection: boolean; accountId: string }): DomainRec {
  const state = domainsState(emu.world);
  const rec: DomainRec = { id: state.nextId++, ...fields, autoRenew: true, createdAt: emu.nowIso(), renewing: false };
  state.records.push(rec);
  recordDomainActivity(emu, "domain.registered", rec);
  return rec;
}

export function registerDomain(ctx: Ctx<"domains.register">) {
  const { emu, world } = ctx;
  const account = ctx.caller.account;
  const body = ctx.body;
  const { name, tld } = checkedName(world, body.name);
  const prices = pricedTld(world, tld);
  requireOneYear(body.period);
  if (world.catalog.premiumDomains.includes(name)) throw new EmuError(400, "PREMIUM_NOT_SUPPORTED", `${name} is a premium name and cannot be registered online`);
  const missing = missingRegistrantFields(account);
  if (missing.length) throw new EmuError(400, "REGISTRANT_INCOMPLETE", "Owner details are incomplete", { missing });
  const state = domainsState(world);
  const holder = state.records.find((d) => d.name === name);
  if (holder && ownerOf(world, holder) === account) throw new EmuError(409, "DOMAIN_ALREADY_IN_ACCOUNT", `${name} is already in your account`);
  if (holder || world.catalog.takenDomains.includes(name)) throw new EmuError(409, "DOMAIN_UNAVAILABLE", `${name} belongs to another account`);

  const whoisProtection = body.whoisProtection === true;
  const bill = billing(prices.registration, whoisProtection ? prices.whoisProtection : 0);
  if (ctx.query.dryRun === "true") return dryRunReply(account, bill, "nothing was registered or charged");

  emu.charge(account, bill.total, `registration of ${name}`);
  const outcome = sendToRegistry(emu, account, "register", name, bill.total);
  const expiresAt = addYears(emu.nowIso(), 1);
  // A name still waiting to be saved is unknown to the account, so a repeat passes every check
  // and is charged again (spec: "a repeat charges again"); the registry already holds the name,
  // so the repeat buys nothing and answers DOMAIN_SAVE_PENDING once more.
  const alreadyPending = state.pendingSaves.some((p) => p.name === name);
  if (outcome === "save-pending" || alreadyPending) {
    if (!alreadyPending) {
      state.pendingSaves.push({ name, whoisProtection, expiresAt, accountId: account.id });
      emu.schedule("domains.save", { name }, SAVE_SECONDS);
    }
    return new Reply(nameAndStatus(name, "active"), {
      status: 201,
      extra: { code: "DOMAIN_SAVE_PENDING", message: savePendingMessage("register", name), billing: bill },
    });
  }
  const rec = createRecord(emu, { name, status: outcome === "activation-pending" ? "pending" : "active", expiresAt, whoisProtection, accountId: account.id });
  if (rec.status === "pending") emu.schedule("domains.activate", { id: rec.id }, ACTIVATION_SECONDS);
  return new Reply({ ...domainView(rec), billing: bill }, { extra: { billing: bill } });
}

export const registerTransitions: Record<string, TransitionFn> = {
  /** The delivered registration is saved: it gets its id and shows in lists. */
  "domains.save": (emu, payload) => {
    const state = domainsState(emu.world);
    const pending = state.pendingSaves.find((p) => p.name === payload.name);
    if (!pending) return;
    state.pendingSaves = state.pendingSaves.filter((p) => p !== pending);
    const accountId = ownerOf(emu.world, pending).id;
    createRecord(emu, { name: pending.name, status: "active", expiresAt: pending.expiresAt, whoisProtection: pending.whoisProtection, accountId });
  },
  "domains.activate": (emu, payload) => {
    const rec = domainsState(emu.world).records.find((d) => d.id === payload.id);
    if (rec) rec.status = "active";
  },
};
