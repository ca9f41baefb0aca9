/**
 * The verification wait SendingDomain and SendingDomainVerification share: start DNS checks and wait
 * until the domain is `verified`, and the records to publish, as an error message lists them.
 */
import { Backoff, POLL } from "../client/backoff";
import type { Deadline } from "../client/deadline";
import { ApiError } from "../client/errors";
import { WaitTimeoutError } from "../client/poller";
import { emailDomain, type EmailDomain } from "../../contract/schemas";
import type { CallContext } from "../context";

export function formatDnsRecords(domain: EmailDomain): string {
  return domain.dnsRecords.map((r) => `  ${r.type} ${r.name} ${r.value}${r.priority !== undefined ? ` (priority ${r.priority})` : ""}`).join("\n");
}

/**
 * Starts DNS checks and polls until the domain is `verified`, starting a new check after a `failed`
 * one while time remains (records may still be propagating), for at most `limitSeconds` and never
 * past the operation's deadline (customTimeouts bounds the whole operation: the sooner wins).
 * Answers the verified domain; when the time is up, throws WaitTimeoutError with the last domain
 * seen and the limit that applied (`waitedMs`, what the callers' messages name).
 */
export async function waitUntilVerified(ctx: CallContext, domainId: string, limitSeconds: number, seen?: EmailDomain): Promise<EmailDomain> {
  const deadline = ctx.deadline.within(limitSeconds * 1000);
  try {
    return await verifyBefore(ctx, domainId, deadline, seen);
  } catch (err) {
    // The poller's own timeout names the time it waited; the message names the limit.
    if (err instanceof WaitTimeoutError) throw new WaitTimeoutError(verifiedWhat(domainId), emailDomain.optional().safeParse(err.lastState).data, deadline.limitMs, describeDomain);
    throw err;
  }
}

const verifiedWhat = (domainId: string) => `domain ${domainId} to be verified`;
const describeDomain = (d: EmailDomain | undefined) => (d ? `status ${d.status}` : "gone");

async function verifyBefore(ctx: CallContext, domainId: string, deadline: Deadline, seen?: EmailDomain): Promise<EmailDomain> {
  const what = verifiedWhat(domainId);
  const wait = (isDone: (d: EmailDomain | undefined) => boolean) => ctx.api.sendingDomains.waitFor(domainId, isDone, { what, deadline, describe: describeDomain });
  // `seen`: the caller has just read the domain; reading it again would only cost a call.
  let domain = seen ?? (await wait(() => true));
  const pause = new Backoff(POLL);
  for (;;) {
    if (!domain) throw new ApiError({ service: "email", method: "GET", path: `/domains/${domainId}`, status: 404, code: "DOMAIN_NOT_FOUND", apiMessage: "the domain is gone", retryable: false });
    if (domain.status === "verified") return domain;
    if (deadline.passed()) throw new WaitTimeoutError(what, domain, deadline.limitMs, describeDomain);
    if (domain.status === "failed") {
      // The records may still be propagating: pause, then check again.
      await deadline.sleep(pause.next());
    }
    if (domain.status === "pending" || domain.status === "failed") await ctx.api.email.call("email.domains.verify", { params: { domainId } });
    domain = await wait((d) => d === undefined || d.status === "verified" || d.status === "failed");
  }
}
