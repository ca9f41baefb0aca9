/**
 * Shared by the receiving-mail tests that run the provider host (the emulator-level ones use
 * tests/email-sending/helpers.ts).
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import type { AddressRec, ReceivingRec } from "../../emulator/email/state";
import { emailCall } from "../email/helpers";

/** A sending domain added out of band (dns "auto", transitions settled), verified unless `verify` is false; answers its id. */
export async function sendingDomain(h: ResourceHarness, name: string, verify = true): Promise<string> {
  const { domainId } = await emailCall(h, "POST", "/domains", { domain: name });
  await h.emu.ctl("POST", "/transitions/settle");
  if (verify) {
    await emailCall(h, "POST", `/domains/${domainId}/verify`);
    await h.emu.ctl("POST", "/transitions/settle");
  }
  return domainId as string;
}

/** The emulator's receiving hosts and addresses (every project). */
export function inboxOf(h: ResourceHarness): { receiving: ReceivingRec[]; addresses: AddressRec[] } {
  const email = h.emu.control.state().email as { receiving?: ReceivingRec[]; addresses?: AddressRec[] };
  return { receiving: email.receiving ?? [], addresses: email.addresses ?? [] };
}
