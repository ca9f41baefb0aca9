/**
 * Small helpers shared by the Domain resource tests (the harness itself is tests/support/).
 */
import { answered, domainRecords as registeredDomains, freshWorld, SEEDED_WALLET, walletOf } from "../../tools/support/world";
import type { ResourceHarness } from "../../tools/support/resource-harness";
import type { DomainRec } from "../../emulator/domains/state";

export type { Props } from "../../tools/support/world";
import type { Props } from "../../tools/support/world";

export const T = "Domain";
export { SEEDED_WALLET };
/** Seeded `.com` prices (emulator/core/seed.ts). */
export const COM = { registration: 165_000, whoisProtection: 50_000 };

/** Back to the seeded world, immediate transitions, a full rate-limit bucket and an empty request log. */
export const fresh = (h: ResourceHarness): Promise<void> => freshWorld(h.emu, { mode: "immediate" });

export const wallet = (h: ResourceHarness): number => walletOf(h.emu);

/** The registered domains the emulator holds (what the API really has). */
export function domainRecords(h: ResourceHarness): DomainRec[] {
  return registeredDomains(h.emu.control.state());
}

/** Every request the emulator answered since the last clear, as `METHOD /path status`. A dry run
 * (`POST /api/domains?dryRun=true`, 200) and a registration (201) differ only by status: the log has
 * no query. */
export const calls = (h: ResourceHarness): string[] => answered(h.emu, { status: true });

/** Registration calls (real ones and dry runs alike) the emulator received since the last clear. */
export const registerCalls = (h: ResourceHarness) => h.emu.control.requests().filter((r) => r.method === "POST" && r.path === "/api/domains");

/** A call straight to the emulator's platform API with the whole-account key (setup done "out of band"). */
export async function platformCall(h: ResourceHarness, method: string, path: string, body?: unknown): Promise<Props> {
  const res = await h.emu.call(method, `/api${path}`, { key: h.emu.keys.account, body });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export { failure, outputsOf } from "../../tools/support/resource-harness";
