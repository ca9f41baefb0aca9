/**
 * SendingDomainVerification: waits until a sending domain is verified, for programs that publish the
 * domain's DNS records themselves and make this resource depend on them. Nothing is created at the
 * API: the id is the domain's id. Read answers "gone" when the domain is no longer verified, so the
 * next `up` waits again (the AWS SES verification pattern).
 */
import { z } from "zod";
import type { EmailDomain } from "../../contract/schemas";
import { WaitTimeoutError } from "../client/poller";
import { changedFromDefaults, checkInputs, diffInputs, isNotFound, operationError, operationFailed, pick, type Props, type ResourceImpl } from "../resource";
import type { CallContext } from "../context";
import { formatDnsRecords, waitUntilVerified } from "./verification";

/** How long to wait is a setting of the provider, not of the domain: stored only when set (as SendingDomain's). */
const WAIT_DEFAULTS = { timeoutSeconds: 600 };

const fields = {
  domainId: z.string().min(1, "must not be empty"),
  timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
};

/**
 * The one mapper from an API sending domain to this resource's properties: create's outputs, read
 * and drift. `kept`: the wait setting (an input only where it differs from the default).
 */
export function verificationProperties(domain: EmailDomain, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...changedFromDefaults(kept, WAIT_DEFAULTS), domainId: domain.id };
  return { inputs, outputs: { ...WAIT_DEFAULTS, ...inputs, domain: domain.domain, status: domain.status, ...(domain.verifiedAt ? { verifiedAt: domain.verifiedAt } : {}) } };
}

async function verify(ctx: CallContext, operation: string, inputs: Props): Promise<Props> {
  const domainId = inputs.domainId as string;
  // customTimeouts bounds the whole operation: the shorter of it and timeoutSeconds wins.
  const seconds = Math.min((inputs.timeoutSeconds as number | undefined) ?? WAIT_DEFAULTS.timeoutSeconds, ctx.timeoutMs(Infinity) / 1000);
  try {
    return verificationProperties(await waitUntilVerified(ctx, domainId, seconds * 1000), inputs).outputs;
  } catch (err) {
    if (err instanceof WaitTimeoutError) {
      const last = err.lastState as EmailDomain;
      // Not the wait's own error as the cause: the limit may be timeoutSeconds, not customTimeouts (common-inputs.ts hints at those).
      throw operationFailed(
        operation,
        `domain ${last.domain} (${domainId}) is not verified after ${seconds} s (status ${last.status}). ` +
          `Check that these DNS records are published exactly as shown; \`pulumi up\` starts the wait again:\n${formatDnsRecords(last)}`,
        "WAIT_TIMEOUT",
      );
    }
    throw operationError(operation, err, isNotFound(err) ? `No sending domain ${domainId} in this project` : undefined);
  }
}

export const sendingDomainVerification: ResourceImpl = {
  async check(_olds, news) {
    return checkInputs(news, fields);
  },
  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: ["domainId"], update: ["timeoutSeconds"], defaults: WAIT_DEFAULTS });
  },
  async create(inputs, ctx) {
    return { id: inputs.domainId as string, outs: await verify(ctx, "create", inputs) };
  },
  async update(_id, _olds, news, ctx) {
    return { outs: await verify(ctx, "update", news) };
  },
  async read(id, props, ctx) {
    let domain: EmailDomain | undefined;
    try {
      domain = await ctx.api.sendingDomains.read(id);
    } catch (err) {
      throw operationError("read", err);
    }
    if (!domain || domain.status !== "verified") return { id: "", props: {} };
    const { inputs, outputs } = verificationProperties(domain, props);
    return { id, props: outputs, inputs };
  },
  async delete() {
    // Nothing to undo at the API: verification is a state of the domain.
  },
};
