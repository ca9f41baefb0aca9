/**
 * The verification wait SendingDomain and SendingDomainVerification share: start DNS checks and wait
 * until the domain is `verified`, and the records to publish, as an error message lists them.
 */
import { Backoff, POLL } from "../client/backoff";
import type { Deadline } from "../client/deadline";
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
 * WaitTimeoutError (with the last domain seen) when the deadline passes.
 */
export async function waitUntilVerified(ctx: CallContext, domainId: string, deadline: Deadline, seen?: EmailDomain): Promise<EmailDomain> {
  const poller = ctx.api.sendingDomains;
  const wait = (isDone: (d: EmailDomain | undefined) => boolean) =>
    poller.waitFor(domainId, isDone, { what: `domain ${domainId} to be verified`, deadline, describe: (d) => (d ? `status ${d.status}` : "gone") });
  // `seen`: the caller has just read the domain; reading it again would only cost a call.
  let domain = seen ?? (await wait(() => true));
  const pause = new Backoff(POLL);
  for (;;) {
    if (!domain) throw new ApiError({ service: "email", method: "GET", path: `/domains/${domainId}`, status: 404, code: "DOMAIN_NOT_FOUND", apiMessage: "the domain is gone", retryable: false });
    if (domain.status === "verified") return domain;
    if (deadline.passed()) throw new WaitTimeoutError(`domain ${domainId} to be verified`, domain, deadline.limitMs, (d) => `status ${d.status}`);
    if (domain.status === "failed") {
      // The records may still be propagating: pause, then check again.
      await deadline.sleep(pause.next());
    }
    if (domain.status === "pending" || domain.status === "failed") await ctx.api.email.call("email.domains.verify", { params: { domainId } });
    domain = await wait((d) => d === undefined || d.status === "verified" || d.status === "failed");
  }
}

