/**
 * ReceivingDomain: receiving mail enabled on a verified sending domain, for the domain itself or a
 * subdomain of it (`host`); outputs the MX records to publish. Its id is the domain's id: receiving is
 * a setting of the domain (PUT/GET/DELETE /domains/{id}/receiving), one per domain. `domainId`
 * replaces; `host` updates in place (the same PUT; the addresses stay, on the new host). Turning
 * receiving off deletes the domain's addresses with it (the API's rule).
 *
 * Without `host` the host is the domain itself: the state keeps the domain's name (`domain`) so that
 * diff and refresh tell "the default" from a host set out of band without another call.
 *
 * Enabling goes through createOnce (../create-once.ts). Receiving already on with the host this
 * resource asks for is the state the PUT would make (an interrupted `up` made it): it is taken
 * over. On with another host, it may be anyone's: the create stops with the `adoptId` line.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import type { ApiClient } from "../client/http";
import type { ReceivingStatus } from "../../contract/schemas";
import { diffInputs, isUnknown, operationError, operationFailed, pick, stable, type CheckFailure, type DiffResult, type Props } from "../resource";
import { adoptIdInput, changesOf, defineResource, defineSchema } from "../schema";
import { dnsRecordOutput, domainName } from "./sending-domain";

function adoptIdRule(inputs: Props): CheckFailure[] {
  if (inputs.adoptId === undefined || isUnknown(inputs.adoptId) || isUnknown(inputs.domainId) || inputs.adoptId === inputs.domainId) return [];
  return [{ property: "adoptId", reason: "the id of a ReceivingDomain is its domain's id: adoptId must equal domainId" }];
}

export const receivingDomainSchema = defineSchema({
  type: "ReceivingDomain",
  service: "email",
  summary:
    "Receiving mail on a verified sending domain, for the domain itself or a subdomain of it, with the MX records to publish. Pass its `domainId` to `Mailbox`, so mailboxes are made after receiving is on. Deleting it turns receiving off, which deletes the domain's addresses with it.",
  example: `
import * as svc from "pulumi-svc";

const mail = new svc.SendingDomain("mail", { domain: "example.org" });

// Mail for support@in.example.org and the like; publish \`mxRecords\` with your DNS provider.
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId, host: "in.example.org" });

export const mxRecords = inbound.mxRecords;
`,
  inputs: {
    domainId: {
      schema: z.string().min(1, "must not be empty"),
      description:
        "A verified sending domain: `SendingDomain.domainId` (it waits for verification by default) or `SendingDomainVerification.domainId`. It is this resource's id too: receiving is a setting of the domain, one per domain.",
      change: "replace",
    },
    host: {
      // The API refuses a host that is not the domain or a subdomain of it, or is its bounce. host (INVALID_HOST).
      schema: domainName.optional(),
      description: "The host that receives mail: the domain itself or a subdomain of it, not its envelope-sender (`bounce.`) host.",
      change: "update",
      changeText: "updates in place (the same `PUT`): the addresses stay, on the new host",
      default: "the domain itself",
    },
    adoptId: adoptIdInput("the id of a domain that already receives mail, equal to `domainId`"),
  },
  outputs: {
    domain: {
      schema: z.string(),
      description: "The sending domain's name (kept in the state so that a `host` left out diffs as \"the domain itself\" without another call).",
    },
    mxRecords: { schema: dnsRecordOutput, description: "The MX records to publish with your DNS provider, exactly as given." },
  },
  rules: [{ text: "`adoptId`, when given, equals `domainId` (a ReceivingDomain's id is its domain's id)", check: adoptIdRule }],
  adoption:
    "`adoptId` is the domain's id, equal to `domainId`. The create reads the domain's receiving setting (nothing is changed); a domain that does not receive mail fails the create (remove `adoptId` to enable receiving).",
  interrupted:
    "Receiving already on with the host this resource asks for is what the `PUT` would make: the create takes it over. On with another host, it may be anyone's: the create stops with the `adoptId` line to add.",
  errors: {
    DOMAIN_NOT_VERIFIED: "Receiving needs a verified domain: take `domainId` from a `SendingDomain` that waits for verification (the default), or from a `SendingDomainVerification`'s `domainId` output, so receiving is enabled after the domain is verified.",
    PLAN_REQUIRED: "The project's plan has no receiving (`getInboundStats` shows the plan's values): move to a plan that includes it, with an `EmailPlan` this ReceivingDomain depends on.",
    INBOUND_HOST_TAKEN: "Another project (or another domain of this one) already receives mail for this host: choose another host, or turn receiving off there first.",
    INVALID_HOST: "`host` must be the domain itself or a subdomain of it, and not its envelope-sender (`bounce.`) host.",
    DOMAIN_NOT_FOUND: "No sending domain with this `domainId` in the project of this key. On delete: the domain, and its receiving, are gone (counts as deleted).",
  },
  notes: `Create: \`PUT /domains/{id}/receiving\`. Refresh reads \`GET /domains/{id}/receiving\`: receiving turned off is gone, a host changed out of band is drift. Delete turns receiving off, **which deletes the domain's addresses with it** (the API's rule).

Receiving, mailboxes and aliases are free: nothing is charged.`,
});

type Enabled = ReceivingStatus & { host: string };

/** `domain`: the sending domain's name, the host when `host` is not given. */
function outputs(inputs: Props, live: Enabled, domain: string | undefined): Props {
  return {
    ...pick(inputs, ["domainId", "adoptId"]),
    host: live.host,
    ...(domain !== undefined ? { domain } : {}),
    mxRecords: (live.mxRecords ?? []).map((r) => ({ type: r.type, name: r.name, value: r.value, ...(r.priority !== undefined ? { priority: r.priority } : {}) })),
  };
}

/** Receiving as the API answers it, when it is on. */
const enabled = (status: ReceivingStatus | undefined): Enabled | undefined => (status?.enabled && status.host ? { ...status, host: status.host } : undefined);

/** The answer of `PUT /domains/{id}/receiving`: receiving on, with its host. */
async function enable(api: ApiClient, domainId: string, body: { host?: string }): Promise<Enabled> {
  const live = enabled(await api.call("email.receiving.enable", { params: { domainId }, body }));
  if (!live) throw new Error(`PUT /domains/${domainId}/receiving answered receiving off or without its host`);
  return live;
}

async function readReceiving(api: ApiClient, domainId: string): Promise<Enabled | undefined> {
  return enabled(await api.call("email.receiving.get", { params: { domainId } }));
}

function hintFor(err: unknown, domainId: string): string | undefined {
  if (isApiError(err, "DOMAIN_NOT_VERIFIED")) {
    return "Receiving needs a verified domain: take domainId from a SendingDomain that waits for verification (the default), or from a SendingDomainVerification's domainId output, so receiving is enabled after the domain is verified";
  }
  if (isApiError(err, "PLAN_REQUIRED")) return "The project's plan has no receiving (getInboundStats shows the plan's values): move to a plan that includes it, with an EmailPlan this ReceivingDomain depends on";
  if (isApiError(err, "INBOUND_HOST_TAKEN")) return "Another project (or another domain of this one) already receives mail for this host: choose another host, or turn receiving off there first";
  if (isApiError(err, "INVALID_HOST")) return "host must be the domain itself or a subdomain of it, and not its envelope-sender (bounce.) host";
  if (isApiError(err, "DOMAIN_NOT_FOUND")) return `No sending domain ${domainId} in the project of this key`;
  return undefined;
}

/** Receiving's wanted host: `host`, else the domain itself (the API's default; `domain` when known). */
const wantedHost = (inputs: Props, domain?: string) => (inputs.host) ?? domain;

export const receivingDomain = defineResource(receivingDomainSchema, {
  async diff(_id, olds, news): Promise<DiffResult> {
    const result = diffInputs(olds, news, { replace: changesOf(receivingDomainSchema).replace, update: [] });
    // Absent `host` means the domain itself: compared with the domain's name the state keeps.
    const hostChanged = isUnknown(news.host) || stable(olds.host) !== stable(wantedHost(news, olds.domain));
    return hostChanged ? { ...result, changes: true } : result;
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    const domainId = inputs.domainId;
    const body = inputs.host === undefined ? {} : { host: inputs.host };
    const { object, adopted } = await createOnce<Enabled>(ctx, inputs, {
      noun: "receiving setting",
      idOf: () => domainId,
      describe: (r) => `for host ${r.host} on domain ${domainId}`,
      adopt: async () => {
        const live = await readReceiving(api, domainId);
        if (!live) throw operationFailed("create", `adoptId "${domainId}": domain ${domainId} does not receive mail; remove adoptId to enable receiving`);
        return live;
      },
      find: async () => {
        const live = await readReceiving(api, domainId);
        // Without `host`, the API's answer names the domain's default host only after the PUT:
        // receiving already on is this resource's when its host is the one asked for.
        const wanted = inputs.host ?? (live ? (await api.call("email.domains.get", { params: { domainId } })).domain : undefined);
        return { objects: live ? [live] : [], provablyMine: live?.host === wanted };
      },
      send: () => enable(api, domainId, body),
      otherwise: "turn receiving off on that domain first, or set host to the one it uses",
    });
    // The domain's name: the host this call enabled when none was asked for (the API's default), else read once.
    const domain = !adopted && inputs.host === undefined ? object.host : (await api.call("email.domains.get", { params: { domainId } })).domain;
    return { id: domainId, outs: outputs(inputs, object, domain) };
  },
  hintFor: (err, inputs) => hintFor(err, inputs.domainId),

  async update(id, olds, news, ctx) {
    const body = news.host === undefined ? {} : { host: news.host };
    try {
      const live = await enable(ctx.api.email, id, body);
      return { outs: outputs(news, live, olds.domain) };
    } catch (err) {
      throw operationError("update", err, hintFor(err, id));
    }
  },

  async find(id, props, ctx) {
    // No list of receiving settings: one read per domain (concurrent reads of one share it).
    const live = enabled(await ctx.api.receiving.read(id));
    if (!live) return undefined;
    // An import has no state: the domain's name is read once (through the sending domains' list).
    const domain = (props.domain) ?? (await ctx.api.sendingDomains.read(id))?.domain;
    return domain === undefined ? undefined : { ...live, domain };
  },
  properties(live, props, id) {
    // A host other than the domain itself is a `host` input; the domain itself is the default.
    const inputs: Props = { ...pick(props, ["adoptId"]), domainId: id, ...(live.host !== live.domain ? { host: live.host } : {}) };
    return { inputs, outputs: outputs(inputs, live, live.domain) };
  },

  // DOMAIN_NOT_FOUND: the domain, and its receiving, are gone.
  remove: (id, _props, ctx) => ctx.api.email.call("email.receiving.disable", { params: { domainId: id } }),
});
