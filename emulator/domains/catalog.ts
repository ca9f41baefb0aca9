/**
 * Domain names against the seeded catalogue (`world.catalog`): name syntax, extension lookup,
 * prices and the billing object of paid calls.
 */
import { EmuError, Reply } from "../core/errors";
import type { Account, TldRec, World } from "../core/world";

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_NAME_LENGTH = 253;

/** The catalogue extension of a name: the longest matching suffix (`co.id` before `id`). */
export function extensionOf(world: World, name: string): string | undefined {
  return Object.keys(world.catalog.tlds)
    .filter((tld) => name.endsWith(`.${tld}`))
    .sort((a, b) => b.length - a.length)[0];
}

/**
 * Checks a requested name and answers it normalised (lower case) with its extension. A malformed
 * name is a wrong value of the field `name`: 422 VALIDATION_ERROR (spec: "wrong type or value"),
 * which is never charged. An extension outside the catalogue is 400 TLD_NOT_SUPPORTED.
 */
export function checkedName(world: World, raw: string): { name: string; tld: string } {
  const name = raw.trim().toLowerCase();
  const invalid = (why: string) => new EmuError(422, "VALIDATION_ERROR", `name: ${why}`);
  if (!name) throw invalid("required");
  if (name.length > MAX_NAME_LENGTH) throw invalid(`at most ${MAX_NAME_LENGTH} characters`);
  const labels = name.split(".");
  if (labels.length < 2) throw invalid(`"${raw}" has no extension (example.com)`);
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    throw invalid(`"${bad}" is not a valid label: 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen`);
  }
  if (name in world.catalog.tlds) throw invalid(`"${name}" is an extension, not a domain`);
  const tld = extensionOf(world, name);
  if (!tld) throw new EmuError(400, "TLD_NOT_SUPPORTED", `The extension .${labels[labels.length - 1]} cannot be registered`);
  if (name.slice(0, -(tld.length + 1)).includes(".")) throw invalid(`"${name}" is a subdomain; register the domain itself`);
  return { name, tld };
}

/** The price entry of an extension that can be sold now, or the spec's refusal. */
export function pricedTld(world: World, tld: string): TldRec {
  const rec = world.catalog.tlds[tld];
  if (!rec || rec.supported === false) throw new EmuError(400, "TLD_NOT_SUPPORTED", `The extension .${tld} cannot be registered`);
  if (rec.supported === "unavailable") throw new EmuError(400, "PRICE_UNAVAILABLE", `No valid price for .${tld} right now; try again later`);
  return rec;
}

export interface DomainBilling {
  registration: number;
  whoisProtection: number;
  total: number;
  depositCharged: number;
}

/** The billing object of a paid call; the whole total is taken from the deposit (wallet). */
export function billing(registration: number, whoisProtection: number): DomainBilling {
  const total = registration + whoisProtection;
  return { registration, whoisProtection, total, depositCharged: total };
}

/**
 * The answer of a paid call made with `?dryRun=true` (platform-api.md: "nothing is created, changed
 * or charged"; dry runs "return the wallet balance after the charge and a boolean `enoughBalance`"):
 * its price, after every refusal the real call makes but the wallet's (200, never 402).
 */
export function dryRunReply(account: Account, bill: DomainBilling, what: string) {
  const balanceAfter = account.wallet - bill.total;
  return new Reply(
    { dryRun: true as const, currency: account.currency, billing: bill, balanceAfter, enoughBalance: balanceAfter >= 0, note: `Dry run: ${what}` },
    { status: 200 },
  );
}

/** Only period 1 is sold (spec: PERIOD_NOT_SUPPORTED). */
export function requireOneYear(period: number): void {
  if (period !== 1) throw new EmuError(400, "PERIOD_NOT_SUPPORTED", `period ${period} is not supported: registrations and renewals are for 1 year`);
}
