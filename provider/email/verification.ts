/**
 * The verification wait SendingDomain and SendingDomainVerification share: start DNS checks and wait
 * until the domain is `verified`, and the records to publish, as an error message lists them.
 */
import { Backoff, POLL } from "../client/backoff";
import { ApiError } from "../client/errors";
import { WaitTimeoutError } from "../client/poller";
import type { EmailDomain } from "../../contract/schemas";
import type { CallContext } from "../context";

export function formatDnsRecords(domain: EmailDomain): string {
  return domain.dnsRecords.map((r) => `  ${r.type} ${r.name} ${r.value}${r.priority !== undefined ? ` (priority ${r.priority})` : ""}`).join("\n");
}

/**
 * Starts DNS checks and polls until the domain is `verified`, starting a new check after a `failed`
 * one while time remains (records may still be propagating). Answers the verified domain; throws
 * WaitTimeoutError (with the last domain seen) when time runs out.
 */
export async function waitUntilVerified(ctx: CallContext, domainId: string, timeoutMs: number, seen?: EmailDomain): Promise<EmailDomain> {
  const deadline = Date.now() + timeoutMs;
  const poller = ctx.api.sendingDomains;
  const wait = (isDone: (d: EmailDomain | undefined) => boolean) =>
    poller.waitFor(domainId, isDone, { what: `domain ${domainId} to be verified`, timeoutMs: Math.max(0, deadline - Date.now()), describe: (d) => (d ? `status ${d.status}` : "gone") });
  // `seen`: the caller has just read the domain; reading it again would only cost a call.
  let domain = seen ?? (await wait(() => true));
  const pause = new Backoff(POLL);
  for (;;) {
    if (!domain) throw new ApiError({ service: "email", method: "GET", path: `/domains/${domainId}`, status: 404, code: "DOMAIN_NOT_FOUND", apiMessage: "the domain is gone", retryable: false });
    if (domain.status === "verified") return domain;
    const left = deadline - Date.now();
    if (left <= 0) throw new WaitTimeoutError(`domain ${domainId} to be verified`, domain, timeoutMs, (d) => `status ${d.status}`);
    if (domain.status === "failed") {
      // The records may still be propagating: pause, then check again.
      await pause.pause(left);
    }
    if (domain.status === "pending" || domain.status === "failed") await ctx.api.email.call("email.domains.verify", { params: { domainId } });
    domain = await wait((d) => d === undefined || d.status === "verified" || d.status === "failed");
  }
}

