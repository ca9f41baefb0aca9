/**
 * Small helpers shared by the email resource tests (the harness itself is tests/support/).
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import type { DomainRec, TemplateRec, WebhookRec } from "../../emulator/email/state";

import { answered, emailRecords, freshWorld, walletOf, type Props } from "../../tools/support/world";

export type { Props };

/** Back to the seeded world, a full rate-limit bucket and an empty request log. */
export const fresh = (h: ResourceHarness): Promise<void> => freshWorld(h.emu);

/** The emulator's email records of the first project (what the API really holds). */
export function emailWorld(h: ResourceHarness): { domains: DomainRec[]; templates: TemplateRec[]; webhooks: WebhookRec[] } {
  return emailRecords(h.emu.control.state());
}

/** The emulator's sending domain of that id, if it has one. */
export const domainRec = (h: ResourceHarness, id: string): DomainRec | undefined => emailWorld(h).domains.find((d) => d.id === id);

/** The account's wallet balance: adoption and repeated creates must leave it as it was. */
export const wallet = (h: ResourceHarness): number => walletOf(h.emu);

/** Every request the emulator answered since the last clear, as `METHOD /path`. A 429 is left out:
 * the API refused it before acting and the client sends it again (timing jitter, not behaviour). */
export const calls = (h: ResourceHarness): string[] => answered(h.emu);

/** A call straight to the emulator's email API with the project's email key (setup done "out of band"). */
export async function emailCall(h: ResourceHarness, method: string, path: string, body?: unknown): Promise<Props> {
  const res = await h.emu.call(method, `/email${path}`, { key: h.emu.keys.email, body });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export { failure, outputsOf } from "../../tools/support/resource-harness";
