/**
 * SendingDomainVerification: waits until a sending domain is verified, for programs that publish the
 * domain's DNS records themselves and make this resource depend on them. Nothing is created at the
 * API: the id is the domain's id. Read answers "gone" when the domain is no longer verified, so the
 * next `up` waits again (the AWS SES verification pattern).
 */
import { z } from "zod";
import { emailDomain, emailDomainStatus, type EmailDomain } from "../../contract/schemas";
import { WaitTimeoutError } from "../client/poller";
import { changedFromDefaults, diffInputs, isNotFound, operationError, operationFailed, type Props } from "../resource";
import { changesOf, defineResource, defineSchema, type InputsOf } from "../schema";
import type { CallContext } from "../context";
import { formatDnsRecords, waitUntilVerified } from "./verification";

/** How long to wait is a setting of the provider, not of the domain: stored only when set (as SendingDomain's). */
const WAIT_DEFAULTS = { timeoutSeconds: 600 };

export const sendingDomainVerificationSchema = defineSchema({
  type: "SendingDomainVerification",
  sdk: {
    noAdoption: "a verification is a state of its sending domain, not an object: declare it over the SendingDomain (adopt that one with adoptId) instead",
  },
  service: "email",
  summary:
    "Waits until a sending domain is verified, for programs that publish its DNS records themselves. Make it depend on those records (from `SendingDomain.dnsRecords`, with `waitForVerification: false`). Nothing is created at the API; if the domain stops being verified, `refresh` drops this resource and the next `up` waits again.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

// This program publishes the records itself, so the SendingDomain does not wait...
const mail = new svc.SendingDomain("mail", { domain: "mail.example.com", waitForVerification: false });

// ...one record resource per entry of mail.dnsRecords, with your DNS provider's package:
const published: pulumi.Resource[] = [];

// ...and the wait comes after them.
const verified = new svc.SendingDomainVerification("mail-verified", { domainId: mail.domainId, timeoutSeconds: 900 }, { dependsOn: published });

export const verifiedAt = verified.verifiedAt;
`,
  inputs: {
    domainId: {
      schema: z.string().min(1, "must not be empty"),
      description: "The sending domain to wait for: `SendingDomain.domainId`. It is this resource's id too.",
      change: "replace",
    },
    timeoutSeconds: {
      schema: z.number().int().min(1).max(86_400).optional(),
      description: "The limit of the wait, in seconds; the shorter of it and `customTimeouts` applies.",
      change: "update",
      changeText: "updates in place (a setting of how the provider waits: the state keeps it only when set, and a default written out diffs as one left out); a domain not verified yet is waited for again",
      default: "`600`",
    },
  },
  outputs: {
    domain: { schema: z.string(), description: "The sending domain's name." },
    status: { schema: emailDomainStatus, description: "The verification status: `verified` once the wait succeeded." },
    verifiedAt: { schema: z.string(), tsType: "string | undefined", description: "When the domain was verified (ISO 8601)." },
  },
  waits: [{ what: "create and update: verification (it starts a DNS check, polls, and checks again after `failed` while time remains)", limit: "`timeoutSeconds` (600 s)" }],
  interrupted: "Nothing to find: it makes no object. The next `up` asks for verification again and waits.",
  errors: {
    DOMAIN_NOT_FOUND: "No sending domain with this `domainId` in the project of this key: pass a `SendingDomain`'s `domainId`.",
  },
  notes:
    "For programs that publish the DNS records themselves: create it after the records (`dependsOn`, or by using their outputs). It starts the check, polls, checks again after `failed` while time remains, and succeeds on `verified`; a wait that runs out (error code `WAIT_TIMEOUT`) lists the DNS records: check they are published exactly as shown, and `pulumi up` starts the wait again. A refresh drops it when the domain is no longer verified, so the next `up` waits again (the AWS SES verification pattern). Delete calls nothing: verification is a state of the domain. It makes no object of its own, so it has no `adoptId` (its create asks the API to check the records again and waits).",
});

/**
 * The one mapper from an API sending domain to this resource's properties: create's outputs, read
 * and drift. `kept`: the wait setting (an input only where it differs from the default).
 */
export function verificationProperties(domain: EmailDomain, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...changedFromDefaults(kept, WAIT_DEFAULTS), domainId: domain.id };
  return { inputs, outputs: { ...WAIT_DEFAULTS, ...inputs, domain: domain.domain, status: domain.status, ...(domain.verifiedAt ? { verifiedAt: domain.verifiedAt } : {}) } };
}

async function verify(ctx: CallContext, operation: string, inputs: InputsOf<typeof sendingDomainVerificationSchema>): Promise<Props> {
  const domainId = inputs.domainId;
  try {
    return verificationProperties(await waitUntilVerified(ctx, domainId, (inputs.timeoutSeconds) ?? WAIT_DEFAULTS.timeoutSeconds), inputs).outputs;
  } catch (err) {
    if (err instanceof WaitTimeoutError) {
      const last = emailDomain.parse(err.lastState);
      const seconds = Math.round(err.waitedMs / 1000);
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

export const sendingDomainVerification = defineResource(sendingDomainVerificationSchema, {
  async diff(_id, olds, news) {
    return diffInputs(olds, news, { ...changesOf(sendingDomainVerificationSchema), defaults: WAIT_DEFAULTS });
  },
  async create(inputs, ctx) {
    return { id: inputs.domainId, outs: await verify(ctx, "create", inputs) };
  },
  // verify words the wait's failures (a timeout lists the DNS records).
  ownCreateErrors: true,
  async update(_id, _olds, news, ctx) {
    return { outs: await verify(ctx, "update", news) };
  },
  // A domain no longer verified is gone: the next `up` waits again.
  find: async (id, _props, ctx) => {
    const domain = await ctx.api.sendingDomains.read(id);
    return domain?.status === "verified" ? domain : undefined;
  },
  properties: (domain, props) => verificationProperties(domain, props),
  async delete() {
    // Nothing to undo at the API: verification is a state of the domain.
  },
});
