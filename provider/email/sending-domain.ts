/**
 * SendingDomain: a domain the project sends email from. `domain` replaces; the wait settings update
 * without a call. Create adds the domain, waits for its `add_domain` job, starts a DNS check and, when
 * `waitForVerification` is on, waits until `verified`. A wait that times out is a partial failure: the
 * id is kept and the next `up` continues the wait instead of adding the domain again.
 *
 * Adding goes through createOnce (../create-once.ts). A domain name is the user's own choice, so a
 * domain of that name already in the project may be anyone's: the create stops with its id and the
 * `adoptId` line rather than take it over (the API would refuse a second one, DOMAIN_EXISTS).
 */
import { z } from "zod";
import { isApiError, type OperationError } from "../client/errors";
import { createOnce } from "../create-once";
import { emailDomain, emailDomainStatus, type EmailDomain } from "../../contract/schemas";
import { WaitTimeoutError } from "../client/poller";
import { changedFromDefaults, diffInputs, isNotFound, operationError, operationFailed, PartialFailure, pick, type Props } from "../resource";
import { adoptIdInput, changesOf, defineResource, defineSchema, type InputsOf } from "../schema";
import type { CallContext } from "../context";
import { isFullyQualified, nonPublicTldProblem } from "../validation";
import { limitValue } from "../foresight";
import { LARGER_PLAN, readEmailStatus } from "./plan-limits";
import { JOB_TIMEOUT_MS, waitForJob } from "./jobs";
import { formatDnsRecords, waitUntilVerified } from "./verification";

/** A fully-qualified domain name: labels of letters, digits and inner hyphens, an alphabetic TLD (or an internationalized one in punycode, xn--…). */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, "at most 253 characters")
  .refine(isFullyQualified, "must be a fully-qualified domain name (for example mail.example.com)")
  .refine((name) => !nonPublicTldProblem(name), {
    // Without an input (the reference's rule text): the rule in words.
    error: (issue) => (typeof issue.input === "string" && nonPublicTldProblem(issue.input)) || "must end in a public top-level name (not `localhost`, `.local`, `.test`, `.example`, `.internal`…)",
  });

/**
 * How the provider waits, not properties of the domain: check leaves them out when the user did
 * (the state keeps what was written, 58 bytes less per domain), the waits and the outputs apply
 * these defaults, and diff counts a default written out and one left out as the same.
 */
const WAIT_DEFAULTS = { waitForVerification: true, verificationTimeoutSeconds: 600 };

/** A DNS record to publish, as the API lists it (SendingDomain's `dnsRecords`, ReceivingDomain's `mxRecords`). */
export const dnsRecordOutput = z.array(z.object({ type: z.string(), name: z.string(), value: z.string(), priority: z.number().optional() }));

export const sendingDomainSchema = defineSchema({
  type: "SendingDomain",
  sdk: {
    idOutputs: ["domainId"],
    types: [
      {
        name: "DnsRecord",
        doc: "A DNS record to publish, exactly as given: an entry of `SendingDomain.dnsRecords` and `ReceivingDomain.mxRecords`.",
        type: "{\n  type: string;\n  name: string;\n  value: string;\n  priority?: number;\n}",
        interface: true,
      },
    ],
  },
  preview: `**Limit.** A new sending domain counts against the plan's \`domains\` (\`GET /status\`) with those the project holds and those the run adds: past it the preview refuses it on \`domain\` with the counts, instead of \`402 DOMAIN_LIMIT_REACHED\` mid-\`up\`. Only creates count (a replace may run delete-first; removals run after every create); a domain already in the project (adopted) adds nothing.`,
  service: "email",
  summary:
    "A domain the project sends email from, with the DNS records to publish for it. By default `up` waits until the domain is verified; a program that publishes the records itself turns the wait off and adds a `SendingDomainVerification` that depends on them.",
  example: `
import * as svc from "pulumi-svc";

// \`up\` waits until the domain is verified (publish the records it lists, or see SendingDomainVerification).
const mail = new svc.SendingDomain("mail", {
  domain: "mail.example.com",
  verificationTimeoutSeconds: 1800,
});

export const domainId = mail.domainId;
export const recordsToPublish = mail.dnsRecords;
`,
  inputs: {
    domain: {
      schema: domainName,
      description: "The domain to send from, for example `mail.example.com`. Lower-cased.",
      change: "replace",
    },
    waitForVerification: {
      schema: z.boolean().optional(),
      description:
        "Wait in `up` until the domain is verified. Set it to false when the same program publishes the DNS records (from `dnsRecords`); then add a `SendingDomainVerification` that depends on them.",
      change: "update",
      changeText: "updates in place without changing the domain (it says how the provider waits); a domain not verified yet is waited for again",
      default: "`true`",
    },
    verificationTimeoutSeconds: {
      schema: z.number().int().min(1).max(86_400).optional(),
      description: "How long, in seconds, `up` waits for the domain to be verified (when `waitForVerification`). Where `customTimeouts` is shorter, it wins.",
      change: "update",
      changeText: "updates in place without changing the domain (it says how the provider waits)",
      default: "`600`",
    },
    adoptId: adoptIdInput("the id of a sending domain already in the project (from `GET /domains`)"),
  },
  outputs: {
    domainId: { schema: z.string(), description: "The domain's id at the API (the resource's id too): what `SendingDomainVerification` and `ReceivingDomain` take." },
    status: { schema: emailDomainStatus, description: "The verification status, as the API last answered it." },
    dnsRecords: { schema: dnsRecordOutput, description: "The records to publish with your DNS provider, exactly as given (`priority` for MX records)." },
    verifiedAt: { schema: z.string(), tsType: "string | undefined", description: "When the domain was verified (ISO 8601); absent until it is." },
  },
  waits: [
    { what: "create: its `add_domain` job", limit: "2 min" },
    { what: "create and update, when `waitForVerification`: verification (a new DNS check after a `failed` one while time remains)", limit: "`verificationTimeoutSeconds` (600 s)" },
  ],
  adoption:
    "`adoptId` is the sending domain's id (from `GET /domains`); it must be the id of the domain named by `domain`, or the create fails naming the domain it is. The create reads it (nothing is added) and then waits for verification as usual. An unknown id fails the create with `DOMAIN_NOT_FOUND`.",
  interrupted:
    "A domain name is the user's own choice, so the domain already in the project may be anyone's: the create stops with its id and the `adoptId` line to add (the API would refuse a second one, `DOMAIN_EXISTS`). A create that ran out of time while waiting for verification is not an interrupted one: the domain is in the state (partial failure) and the next `up` continues the wait, never adding the domain again.",
  errors: {
    DOMAIN_EXISTS: "The domain is already in the project: the error names its id; if it is this stack's, add the `adoptId` line it gives, otherwise remove it from the project first.",
    DOMAIN_LIMIT_REACHED: "The plan allows no more domains: remove one, or move to a larger plan (`EmailPlan`).",
    INVALID_DOMAIN: "The API refused the name: give a public fully-qualified domain name you control.",
    DOMAIN_NOT_FOUND: "On update: the domain was removed outside Pulumi; `pulumi refresh`, then `pulumi up` adds it again. On create with `adoptId`: no such domain in the project of this key.",
  },
  notes: `Create adds the domain, waits for its \`add_domain\` job, starts a DNS check and — when \`waitForVerification\` — polls until \`verified\`, starting a new check after a \`failed\` one while time remains. Without the wait, it only starts the check. A wait that times out (error code \`WAIT_TIMEOUT\`) keeps the domain in the state (partial failure) and lists the DNS records to publish exactly as shown: publish them and run \`pulumi up\` again, which continues the wait and never adds the domain again. To manage the records in the same program, set \`waitForVerification: false\`, create the records from \`dnsRecords\`, and add a \`SendingDomainVerification\` that depends on them. A domain left unverified this way diffs as an update also after a \`pulumi refresh\` (which forgets the failure), so the next \`up\` continues the wait.

Its \`domainId\` is the resource's \`id\`: known in the preview of an update (a changed wait setting), so \`ReceivingDomain\` and \`SendingDomainVerification\` wired by it stay unchanged there; \`status\`, \`dnsRecords\` and \`verifiedAt\` are unknown in that preview.

The wait settings (\`waitForVerification\`, \`verificationTimeoutSeconds\`) say how the provider waits, not what the domain is: the state's inputs keep them only when set (a refresh puts back only values other than the default), and a default written out and one left out diff as the same, so states written by 0.1.0 show no change. The outputs show the settings that applied.

Delete: \`DELETE /domains/{id}\` (an already-gone domain counts as deleted).`,
});
const INPUTS = Object.keys(sendingDomainSchema.inputs);

/**
 * The one mapper from an API sending domain to the resource's properties: create's outputs,
 * adoption, read and drift. `kept`: adoptId and the wait settings (inputs only where they differ
 * from the defaults; the outputs show them all).
 */
export function sendingDomainProperties(domain: EmailDomain, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...pick(kept, ["adoptId"]), ...changedFromDefaults(kept, WAIT_DEFAULTS), domain: domain.domain };
  const outputs = {
    ...WAIT_DEFAULTS,
    ...inputs,
    domainId: domain.id,
    status: domain.status,
    dnsRecords: domain.dnsRecords.map((r) => ({ type: r.type, name: r.name, value: r.value, ...(r.priority !== undefined ? { priority: r.priority } : {}) })),
    ...(domain.verifiedAt ? { verifiedAt: domain.verifiedAt } : {}),
  };
  return { inputs, outputs };
}

/** The outputs of the domain this resource added, from the program's `inputs`. */
const outputs = (inputs: Props, domain: EmailDomain): Props => sendingDomainProperties(domain, inputs).outputs;

function verificationTimeout(operation: string, domain: EmailDomain, seconds: number): OperationError {
  return operationFailed(
    operation,
    `domain ${domain.domain} (${domain.id}) was added but is not verified after ${seconds} s (status ${domain.status}). ` +
    `Publish these DNS records exactly as shown, then run \`pulumi up\` again to continue the wait:\n${formatDnsRecords(domain)}\n` +
    `To manage the DNS records in the same program, set waitForVerification: false on the SendingDomain, create the records ` +
    `from its dnsRecords output, and add a SendingDomainVerification that depends on them.`,
    "WAIT_TIMEOUT",
  );
}

type SendingDomainInputs = InputsOf<typeof sendingDomainSchema>;

/** Adds the domain at most once (createOnce); answers its id and, when this call added it, the job. */
async function addDomain(ctx: CallContext, inputs: SendingDomainInputs): Promise<{ domainId: string; jobId?: string }> {
  const api = ctx.api.email;
  const domain = inputs.domain;
  try {
    const { object } = await createOnce<{ domainId: string; jobId?: string }>(ctx, inputs, {
      noun: "sending domain",
      idOf: (d) => d.domainId,
      describe: () => domain,
      adopt: async (adoptId) => {
        // Read on its own, not through the poller: an unknown id's error carries the API's own answer.
        let found: EmailDomain;
        try {
          found = await api.call("email.domains.get", { params: { domainId: adoptId } });
        } catch (err) {
          throw operationError("create", err, isNotFound(err) ? `adoptId "${adoptId}": no sending domain with this id in the project of this key` : undefined);
        }
        // The id of another domain would put that domain under this resource's name.
        if (found.domain.toLowerCase() !== domain) {
          throw operationFailed("create", `adoptId "${adoptId}" is the sending domain ${found.domain}, not ${domain}: give the id of ${domain} (from GET /domains), or remove adoptId`);
        }
        return { domainId: found.id };
      },
      find: async () => ({
        objects: (await ctx.api.sendingDomainList.fresh()).filter((d) => d.domain.toLowerCase() === domain).map((d) => ({ domainId: d.id })),
        provablyMine: false,
      }),
      send: () => api.call("email.domains.create", { body: { domain } }),
      refusedAsDuplicate: (err) => isApiError(err, "DOMAIN_EXISTS"),
      otherwise: "remove it from the project first, or send from another domain",
    });
    return object;
  } catch (err) {
    if (!isApiError(err, "DOMAIN_EXISTS")) throw operationError("create", err);
    // Refused as a duplicate, yet the look after the refusal found none (removed meanwhile, or the list
    // failed): name it if a second look finds it.
    const existing = await api
      .call("email.domains.list")
      .then((all) => all.find((d) => d.domain.toLowerCase() === domain))
      .catch(() => undefined);
    throw operationError(
      "create",
      err,
      existing
        ? `The domain was added to the project meanwhile (id ${existing.id}). If it is this stack's, add \`adoptId: "${existing.id}"\` to this SendingDomain and run \`pulumi up\` again; otherwise remove it from the project first`
        : "The domain was added to the project meanwhile: `pulumi up` again names its id and the `adoptId` line to add",
    );
  }
}

/** Waits for verification when asked; answers the outputs, or throws the partial failure. */
async function settle(ctx: CallContext, inputs: SendingDomainInputs, domain: EmailDomain, operation: "create" | "update"): Promise<Props> {
  const api = ctx.api.email;
  const wait = { ...WAIT_DEFAULTS, ...inputs };
  if (!wait.waitForVerification || domain.status === "verified") {
    if (domain.status === "pending" || domain.status === "failed") {
      await api.call("email.domains.verify", { params: { domainId: domain.id } });
      domain = await api.call("email.domains.get", { params: { domainId: domain.id } });
    }
    return outputs(inputs, domain);
  }
  try {
    return outputs(inputs, await waitUntilVerified(ctx, domain.id, wait.verificationTimeoutSeconds, domain));
  } catch (err) {
    if (err instanceof WaitTimeoutError) {
      const last = emailDomain.parse(err.lastState);
      throw new PartialFailure(domain.id, outputs(inputs, last), inputs, verificationTimeout(operation, last, Math.round(err.waitedMs / 1000)));
    }
    throw new PartialFailure(domain.id, outputs(inputs, domain), inputs, operationError(operation, err));
  }
}

export const sendingDomain = defineResource(sendingDomainSchema, {
  // Each failure is worded here: a wait's or a read's as a partial failure that keeps the object.
  ownCreateErrors: true,
  async diff(_id, olds, news) {
    const diff = diffInputs(olds, news, { ...changesOf(sendingDomainSchema), defaults: WAIT_DEFAULTS });
    // A domain left unverified by a wait that ran out is waited for again by the update. After a
    // refresh the engine no longer remembers that wait's failure (it clears the init errors), so
    // the old status is what says the work is unfinished.
    const waits = (news.waitForVerification ?? WAIT_DEFAULTS.waitForVerification) !== false;
    if (!diff.changes && waits && olds.status !== undefined && olds.status !== "verified") return { ...diff, changes: true };
    return diff;
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    const added = await addDomain(ctx, inputs);
    if (added.jobId) {
      let job;
      try {
        job = await waitForJob(ctx, added.jobId, "add_domain");
      } catch (err) {
        throw new PartialFailure(added.domainId, { ...pick(inputs, INPUTS), domainId: added.domainId }, inputs, operationError("create", err));
      }
      if (job.status === "failed") {
        const still = await api.call("email.domains.get", { params: { domainId: added.domainId } }).catch(() => undefined);
        const failure = operationFailed("create", `job ${job.jobId} (add_domain) failed: ${job.errorMessage ?? "no reason given"}`);
        if (still) throw new PartialFailure(added.domainId, outputs(inputs, still), inputs, failure);
        throw failure;
      }
    }
    // Read as it is after its add job, with the other domains read at this moment (one list call).
    const partial = (err: unknown) => new PartialFailure(added.domainId, { ...pick(inputs, INPUTS), domainId: added.domainId }, inputs, operationError("create", err));
    const domain = await ctx.api.sendingDomains
      .waitFor(added.domainId, () => true, { what: `sending domain ${added.domainId} to be read`, deadline: ctx.deadline.orAfter(JOB_TIMEOUT_MS) })
      .catch((err) => {
        throw partial(err);
      });
    if (!domain) throw partial(operationFailed("create", `sending domain ${added.domainId} is gone after its add job ended`));
    return { id: domain.id, outs: await settle(ctx, inputs, domain, "create") };
  },

  /** Only the wait settings change in place; a domain still unverified continues its wait here. */
  async update(id, _olds, news, ctx) {
    const api = ctx.api.email;
    let domain: EmailDomain;
    try {
      domain = await api.call("email.domains.get", { params: { domainId: id } });
    } catch (err) {
      throw operationError("update", err, isNotFound(err) ? "The domain is gone: run `pulumi refresh`, then `pulumi up` adds it again" : undefined);
    }
    return { outs: await settle(ctx, news, domain, "update") };
  },

  find: (id, _props, ctx) => ctx.api.sendingDomains.read(id),
  properties: (domain, props) => sendingDomainProperties(domain, props),

  remove: (id, _props, ctx) => ctx.api.email.call("email.domains.delete", { params: { domainId: id } }),

  counted: {
    kind: () => "sending domains",
    identity: (inputs) => String(inputs.domain),
    what: "sending domains",
    property: "domain",
    limit: async (ctx) => limitValue((await readEmailStatus(ctx)).plan?.domains),
    existing: async (ctx) => (await ctx.api.sendingDomainList.lookup()).map((d) => d.domain),
    fix: LARGER_PLAN,
  },
});
