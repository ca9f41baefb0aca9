/**
 * The emulated registry behind paid domain calls. Its outcomes other than plain success are
 * reached by tests through `POST /_emulator/job-failures {kind}` (`emu.takeJobFailure`): a failed
 * call is refunded once and notified (spec: 422, 500 and 502 are refunded).
 */
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import type { ApiErrorCode } from "../../contract/error-codes";
import type { Account } from "../core/world";

export type RegistryOperation = "register" | "renew" | "whois";

/** How a registry call ended when it did not fail. */
export type RegistryResult =
  | "done"
  /** Delivered but not recorded: answered DOMAIN_SAVE_PENDING, charged, saved by a transition. */
  | "save-pending"
  /** Registered, but the registry activates it later: status `pending` (DOMAIN_NOT_LINKED on renew). */
  | "activation-pending";

interface OutcomeKinds {
  rejected: string;
  unreachable: string;
  internalError: string;
  savePending?: string;
  activationPending?: string;
}

/** The job-failure kinds each operation reads, checked in this order; the first one asked wins. */
export const REGISTRY_KINDS: Record<RegistryOperation, OutcomeKinds> = {
  register: {
    rejected: "domains.registrar-rejected",
    unreachable: "domains.registrar-unreachable",
    internalError: "domains.internal-error",
    savePending: "domains.save-pending",
    activationPending: "domains.activation-pending",
  },
  renew: {
    rejected: "domains.renew-rejected",
    unreachable: "domains.renew-unreachable",
    internalError: "domains.renew-internal-error",
    savePending: "domains.renew-save-pending",
  },
  whois: {
    rejected: "domains.whois-rejected",
    unreachable: "domains.whois-unreachable",
    internalError: "domains.whois-internal-error",
  },
};

const WHAT: Record<RegistryOperation, { noun: string; type: string; title: string }> = {
  register: { noun: "registration", type: "domain.registration_failed", title: "Domain registration failed" },
  renew: { noun: "renewal", type: "domain.renewal_failed", title: "Domain renewal failed" },
  whois: { noun: "WHOIS protection", type: "domain.whois_protection_failed", title: "WHOIS protection failed" },
};

/**
 * Sends an already charged operation to the registry. On failure: refunds `charged`, notifies the
 * account, and throws the spec's code (422 REGISTRAR_REJECTED with the registry's reason, 502
 * REGISTRAR_ERROR and 500 INTERNAL_ERROR with generic messages).
 */
export function sendToRegistry(emu: Emu, account: Account, op: RegistryOperation, domainName: string, charged: number): RegistryResult {
  const kinds = REGISTRY_KINDS[op];
  const what = WHAT[op];
  const fail = (status: number, code: ApiErrorCode, message: string, reason: string): never => {
    emu.refund(account, charged);
    emu.notify({
      type: what.type,
      title: what.title,
      message: `${what.noun[0].toUpperCase()}${what.noun.slice(1)} of ${domainName} failed: ${reason}. IDR ${charged.toLocaleString("en-US")} was refunded to your wallet.`,
      link: "/domains",
      projectId: null,
      accountId: account.id,
    });
    throw new EmuError(status, code, message);
  };

  const rejected = emu.takeJobFailure(kinds.rejected);
  if (rejected !== undefined) return fail(422, "REGISTRAR_REJECTED", `The registry rejected the ${what.noun} of ${domainName}: ${rejected}; the charge was refunded`, rejected);
  if (emu.takeJobFailure(kinds.unreachable) !== undefined) {
    return fail(502, "REGISTRAR_ERROR", "The registry could not be reached; the charge was refunded", "registry unreachable");
  }
  if (emu.takeJobFailure(kinds.internalError) !== undefined) return fail(500, "INTERNAL_ERROR", "Internal error; the charge was refunded", "internal error");
  if (kinds.savePending && emu.takeJobFailure(kinds.savePending) !== undefined) return "save-pending";
  if (kinds.activationPending && emu.takeJobFailure(kinds.activationPending) !== undefined) return "activation-pending";
  return "done";
}

/** The `message` of a DOMAIN_SAVE_PENDING success. */
export function savePendingMessage(op: "register" | "renew", domainName: string): string {
  return `The registry completed the ${WHAT[op].noun} of ${domainName} but it is not recorded yet; it appears shortly. Do not repeat the call: a repeat charges again.`;
}
