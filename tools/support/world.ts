/**
 * What the tests and the tools share about the emulator's world: a fresh world, the first account's
 * wallet, the records it holds, the requests it answered, a seeded random source, and the seeded
 * values test programs use.
 */
import type { World } from "../../emulator";
import { Rng } from "../../emulator/core/rng";
import type { DomainRec } from "../../emulator/domains/state";
import type { AddressRec, DomainRec as EmailDomainRec, ReceivingRec, TemplateRec, WebhookRec } from "../../emulator/email/state";
import type { ServerRec } from "../../emulator/vps/state";
import type { TestEmulator } from "./emulator";

export type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A root password every server rule accepts. */
export const PASSWORD = "Sup3rSecret!23";

/** The seeded server plans by name (emulator/core/seed.ts). */
export const PLAN = {
  small: "s-1vcpu-1gb",
  medium: "s-2vcpu-2gb",
  large: "s-4vcpu-8gb", // the only one offering windows 2022
  cpu: "c-2vcpu-4gb", // another family
  sgp: "s-2vcpu-2gb-sgp", // another region
  shared: "nat-1vcpu-1gb", // shares the region's public address (SSH keys, port forwards); 1 snapshot
  sharedLarge: "nat-2vcpu-2gb", // the same family, 2 snapshots
} as const;

/** The first account's seeded wallet balance (emulator/core/seed.ts). */
export const SEEDED_WALLET = 50_000_000;

export const DAY_MS = 86_400_000;

/** A timestamp as the emulator answers it: ISO 8601 in UTC with milliseconds. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export type TransitionSetting = { mode: "immediate" | "time" | "manual"; seconds?: number };

/**
 * Back to the seeded world (and the options the emulator started with, unless `transitions` says
 * otherwise), a full rate-limit bucket for every key and an empty request log.
 */
export async function freshWorld(emu: TestEmulator, transitions?: TransitionSetting): Promise<void> {
  await emu.ctl("POST", "/reset");
  if (transitions) await emu.ctl("POST", "/transitions", transitions);
  await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  emu.control.clearRequests();
}

/** The first account's wallet. */
export const walletOf = (emu: TestEmulator): number => emu.control.state().account.wallet;

/**
 * The requests the emulator answered since the last clear, as `METHOD /path`, with the status and
 * the code when asked. A 429 is left out: the API refused it before acting and the client sends it
 * again (timing jitter, not behaviour).
 */
export function answered(emu: TestEmulator, show: { status?: boolean; code?: boolean } = {}): string[] {
  return emu.control
    .requests()
    .filter((r) => r.status !== 429)
    .map((r) => `${r.method} ${r.path}${show.status ? ` ${r.status}` : ""}${show.code && r.code ? ` ${r.code}` : ""}`);
}

/** A seeded random source in [0, 1): the emulator's own generator, so a seed draws the same every run. */
export function seededRandom(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** Every server record of the world (the terminated ones too): `World.vps` is typed loosely. */
export const serverRecords = (w: World): ServerRec[] => (w.vps as { servers?: ServerRec[] }).servers ?? [];

/** The servers not terminated. */
export const liveServers = (w: World): ServerRec[] => serverRecords(w).filter((s) => s.status !== "terminated");

/** The first project's email records. */
interface EmailRecords {
  domains: EmailDomainRec[];
  templates: TemplateRec[];
  webhooks: WebhookRec[];
  receiving: ReceivingRec[];
  addresses: AddressRec[];
}
export function emailRecords(w: World): EmailRecords {
  const email = w.email as Partial<EmailRecords>;
  return { domains: email.domains ?? [], templates: email.templates ?? [], webhooks: email.webhooks ?? [], receiving: email.receiving ?? [], addresses: email.addresses ?? [] };
}

/** The registered domains (every account's). */
export const domainRecords = (w: World): DomainRec[] => (w.domains as { records?: DomainRec[] }).records ?? [];
