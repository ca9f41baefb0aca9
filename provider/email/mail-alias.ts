/**
 * MailAlias: another address of a mailbox (on the mailbox's domain); mail to it lands in the mailbox
 * and follows the mailbox's forwarding. Both inputs replace (the API has nothing to update on an
 * alias). Name, forwarding, notifications and a password are the mailbox's settings (the API's
 * ALIAS_SETTINGS): given here they are refused at preview, naming the property and where it goes.
 *
 * Create reads the mailbox (its domain; a missing one is MAILBOX_NOT_FOUND, explained) and goes
 * through createOnce (../create-once.ts) like Mailbox: an alias of that local part already on the
 * mailbox may be anyone's, so the create stops with its id and the `adoptId` line.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import type { InboundAddress } from "../../contract/schemas";
import { isNotFound, isUnknown, operationError, operationFailed, pick, UUID, type Props } from "../resource";
import { checkSchema, defineResource, defineSchema } from "../schema";
import { addressAdoptId, localPart, MAILBOX_SETTINGS, withoutPassword } from "./mailbox";
import { limitValue } from "../foresight";
import { LARGER_PLAN, readInboundStats } from "./plan-limits";

export const mailAliasSchema = defineSchema({
  type: "MailAlias",
  sdk: { idOutputs: ["aliasId"] },
  preview: `**Limit.** A new alias of a mailbox that exists counts against the plan's aliases per mailbox (\`GET /inbound/stats\`): past it the preview refuses it on \`localPart\`, instead of \`402 ALIAS_LIMIT\` mid-\`up\`. An alias of a mailbox made in the same run is not counted at preview (which mailbox is not known yet).`,
  service: "email",
  summary:
    "Another address of a mailbox, on the mailbox's domain: its mail lands in the mailbox and follows the mailbox's forwarding. Both inputs replace (the API has nothing to update on an alias).",
  example: `
import * as svc from "pulumi-svc";

const mail = new svc.SendingDomain("mail", { domain: "example.org" });
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });
const support = new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });

// help@example.org lands in the support mailbox.
const help = new svc.MailAlias("help", { mailboxId: support.mailboxId, localPart: "help" });

export const aliasAddress = help.address;
`,
  inputs: {
    mailboxId: {
      schema: z.string().regex(UUID, "a mailbox id (UUID): the Mailbox's id"),
      description: "The mailbox: `Mailbox.id` (or `Mailbox.mailboxId`). The alias is on the mailbox's domain (create reads the mailbox for it: one `GET`).",
      change: "replace",
    },
    localPart: {
      schema: localPart,
      description: "The part before the `@`, on the mailbox's domain; stored lower-case.",
      change: "replace",
    },
    adoptId: addressAdoptId("the id of an alias already on the mailbox (from `GET /inbound/addresses`)"),
  },
  outputs: {
    address: { schema: z.string(), description: "The alias's whole address: `localPart@` the mailbox's host." },
    domainId: { schema: z.string(), description: "The mailbox's domain, which the alias is on." },
    aliasId: { schema: z.string(), description: "The alias's id at the API (the resource's id too)." },
    createdAt: { schema: z.string(), description: "When the API made the alias (ISO 8601)." },
  },
  adoption:
    "`adoptId` is the alias's id (from `GET /inbound/addresses`); it must be the alias `localPart@` of this mailbox, or the create fails naming what it is. The create reads it (nothing is made).",
  interrupted:
    "The API refuses a second address with the same local part on the domain (`ADDRESS_EXISTS`), and an alias of that local part already on the mailbox may be anyone's: the create stops with its id and the `adoptId` line to add.",
  errors: {
    ALIAS_LIMIT: "The mailbox has as many aliases as the plan allows: remove one, or move to a larger plan. During a replace, set the resource option `deleteBeforeReplace: true`.",
    MAILBOX_NOT_FOUND: "No mailbox with this `mailboxId` in the project of this key: pass a `Mailbox`'s id (`mailbox.id`).",
    ADDRESS_EXISTS: "A mailbox or alias already uses this address on the domain: choose another `localPart`.",
    DOMAIN_NOT_RECEIVING: "Receiving is off on the mailbox's domain (its `ReceivingDomain` is gone): run `pulumi up` for the whole program.",
    INVALID_ADDRESS: "`localPart` must be a valid local part of an address.",
    ALIAS_SETTINGS: "`name`, `forwardTo`, `notifications` and a password are the mailbox's settings: the check refuses them on an alias at preview; set them on the `Mailbox`.",
    ADDRESS_NOT_FOUND: "On delete it counts as deleted (deleting its mailbox deletes it too).",
  },
  notes:
    "`name`, `forwardTo`, `notifications` (and a password) are the mailbox's settings: given on an alias they are refused at preview, naming the property and where it goes (the API's `ALIAS_SETTINGS`). Aliases are free: nothing is charged.",
});
const INPUTS = Object.keys(mailAliasSchema.inputs);

function outputs(inputs: Props, alias: InboundAddress): Props {
  return { ...pick(inputs, INPUTS), address: alias.address, domainId: alias.domainId, aliasId: alias.id, createdAt: alias.createdAt };
}

function liveInputs(alias: InboundAddress, props: Props): Props {
  return { ...pick(props, ["adoptId"]), mailboxId: alias.mailboxId, localPart: alias.address.slice(0, alias.address.lastIndexOf("@")) };
}

/** The hint naming the mailbox a create was for; the other codes' hints are the schema's (`hints`). */
function hintFor(err: unknown, inputs: Props): string | undefined {
  if (isApiError(err, "MAILBOX_NOT_FOUND") || (isNotFound(err) && isApiError(err, "ADDRESS_NOT_FOUND"))) {
    return `No mailbox ${String(inputs.mailboxId)} in the project of this key: pass a Mailbox's id (mailbox.id)`;
  }
  return undefined;
}

export const mailAlias = defineResource(mailAliasSchema, {
  async check(_olds, news) {
    const { rest, failures } = withoutPassword(news, "an alias has no password (the mailbox's webmail password is set in the dashboard only): remove it");
    for (const name of MAILBOX_SETTINGS) {
      if (rest[name] === undefined) continue;
      delete rest[name];
      failures.push({ property: name, reason: `${name} is a mailbox setting: an alias delivers to its mailbox and follows its settings (the API refuses it with ALIAS_SETTINGS). Set ${name} on the Mailbox` });
    }
    const result = checkSchema(mailAliasSchema, rest);
    return { ...result, failures: [...failures, ...result.failures] };
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    const mailboxId = inputs.mailboxId;
    const localPartValue = inputs.localPart;
    const ofThisAlias = (a: InboundAddress) => a.type === "alias" && a.mailboxId === mailboxId && a.address.startsWith(`${localPartValue}@`);
    const mailbox = await api.call("email.addresses.get", { params: { addressId: mailboxId } });
    if (mailbox.type !== "mailbox") throw operationFailed("create", `${mailboxId} is the alias ${mailbox.address}, not a mailbox: pass a Mailbox's id`);
    const { object, adopted } = await createOnce<InboundAddress>(ctx, inputs, {
      noun: "alias",
      idOf: (a) => a.id,
      describe: (a) => `${a.address} of mailbox ${mailbox.address}`,
      adopt: async (adoptId) => {
        const found = await ctx.api.addresses.read(adoptId).catch((err) => {
          throw operationError("create", err);
        });
        if (!found) throw operationFailed("create", `adoptId "${adoptId}": no receiving address with this id in the project of this key`);
        if (!ofThisAlias(found)) throw operationFailed("create", `adoptId "${adoptId}" is the ${found.type} ${found.address}, not the alias ${localPartValue}@ of mailbox ${mailbox.address}: give the right id, or remove adoptId`);
        return found;
      },
      find: async (joinInFlight) => ({ objects: (await (joinInFlight ? ctx.api.addressList.lookup() : ctx.api.addressList.fresh())).filter(ofThisAlias), provablyMine: false }),
      send: () => api.call("email.addresses.create", { body: { domainId: mailbox.domainId, localPart: localPartValue, type: "alias", mailboxId } }),
      refusedAsDuplicate: (err) => isApiError(err, "ADDRESS_EXISTS"),
      otherwise: "choose another localPart, or delete that alias first",
    });
    return { id: object.id, outs: outputs(adopted ? liveInputs(object, inputs) : inputs, object) };
  },
  hintFor,
  hints: ["ALIAS_LIMIT", "ADDRESS_EXISTS", "DOMAIN_NOT_RECEIVING", "INVALID_ADDRESS"],

  find: (id, _props, ctx) => ctx.api.addresses.read(id),
  properties(alias, props) {
    const inputs = liveInputs(alias, props);
    return { inputs, outputs: outputs(inputs, alias) };
  },
  // ADDRESS_NOT_FOUND: gone already (deleting its mailbox deletes it too).
  remove: (id, _props, ctx) => ctx.api.email.call("email.addresses.delete", { params: { addressId: id } }),

  // Counted per mailbox: an alias of a mailbox not made yet (its id not known) is not counted.
  counted: {
    kind: (inputs) => (inputs.mailboxId !== undefined && !isUnknown(inputs.mailboxId) ? `aliases of mailbox ${inputs.mailboxId}` : undefined),
    identity: (inputs) => String(inputs.localPart),
    what: "aliases on this mailbox",
    property: "localPart",
    limit: async (ctx) => limitValue((await readInboundStats(ctx)).plan.aliases),
    existing: async (ctx, inputs) => {
      const aliases = (await ctx.api.addressList.lookup()).filter((a) => a.mailboxId === inputs.mailboxId && a.type === "alias");
      return aliases.map((a) => a.address.slice(0, a.address.lastIndexOf("@")));
    },
    fix: LARGER_PLAN,
  },
});
