/**
 * Mailbox: a receiving address that keeps the mail it gets, on a domain with receiving enabled
 * (pass `ReceivingDomain.domainId`, so the mailbox is made after receiving is on). `domainId` and
 * `localPart` replace; `name`, `forwardTo` and `notifications` update in place (PATCH). Up to five
 * forwarding addresses (checked at preview); whether the plan includes forwarding, and how many
 * mailboxes it allows, only the API knows (the program may buy the plan in the same `up`), so those
 * refusals come from the API, explained.
 *
 * Webmail passwords are dashboard-only (the API answers KEY_NOT_ALLOWED to a key): there is no input
 * for one, and a `password` given anyway is refused at preview without echoing it.
 *
 * Create goes through createOnce (../create-once.ts). The API refuses a second address with the same
 * local part on the domain (ADDRESS_EXISTS); the local part is the user's choice, so a mailbox found
 * that way may be anyone's: the create stops with its id and the `adoptId` line.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import type { CallContext } from "../context";
import type { InboundAddress } from "../../contract/schemas";
import { changedFromDefaults, diffInputs, isNotFound, operationError, operationFailed, pick, sensitiveFailure, UUID, type CheckFailure, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema, schemaHint, type InputsOf, type InputSpec } from "../schema";
import { emailAddress } from "../validation";
import { limitValue } from "../foresight";
import { LARGER_PLAN, readInboundStats } from "./plan-limits";

export const MAX_FORWARD_ADDRESSES = 5;

/** The part before the `@`: letters, digits and `. _ + -`, no dot first, last or twice; stored lower-case. */
export const localPart = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?!\.)(?!.*\.\.)[a-z0-9._+-]{1,64}(?<!\.)$/, "1 to 64 letters, digits, dots, _, + or -, not starting or ending with a dot, no two dots in a row (the part before the @)");


/** Webmail passwords: dashboard-only, refused as inputs (and never echoed). */
export const PASSWORD_PROPERTIES = ["password", "webmailPassword"];

/**
 * A webmail password given anyway: refused without its value (sensitiveFailure) and taken out of the
 * inputs before the per-field checks (which would name it as an unknown property, value and all).
 */
export function withoutPassword(news: Props, reason: string): { rest: Props; failures: CheckFailure[] } {
  const rest = { ...news };
  const failures: CheckFailure[] = [];
  for (const name of PASSWORD_PROPERTIES) {
    if (rest[name] === undefined) continue;
    delete rest[name];
    failures.push(sensitiveFailure(name, reason));
  }
  return { rest, failures };
}

/** `adoptId` of a receiving address (a mailbox or an alias): the address's id. */
export const addressAdoptId = (what: string): InputSpec => ({ ...adoptIdInput(what), schema: z.string().regex(UUID, "an address id (UUID)").optional() });

export const mailboxSchema = defineSchema({
  type: "Mailbox",
  sdk: { idOutputs: ["mailboxId"] },
  preview: `**Limits.** A new mailbox counts against the plan's \`mailboxes\` (\`GET /inbound/stats\`) with those the project holds and those the run adds: past it the preview refuses it on \`localPart\` with the counts, instead of \`402 MAILBOX_LIMIT\` mid-\`up\`. A \`forwardTo\` on a plan without forwarding is refused at preview (\`FORWARDING_NOT_ALLOWED\`). Only creates count.`,
  service: "email",
  summary:
    "A receiving address that keeps the mail it gets, on a domain with receiving on (a `ReceivingDomain`). Its display name, forwarding and notifications update in place; its webmail password is set in the dashboard only (the API refuses it to a key), so it is no input here. Deleting a mailbox deletes its aliases too.",
  example: `
import * as svc from "pulumi-svc";

// Forwarding needs a plan that includes it (getEmailPlans(): forwarding true). A project has one
// EmailPlan: declare it once, and make the mailbox depend on it so the plan is bought first.
const plan = new svc.EmailPlan("plan", { planCode: "business" });

const mail = new svc.SendingDomain("mail", { domain: "example.org" });
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });

// Pass the ReceivingDomain's domainId: the mailbox is made once receiving is on.
const support = new svc.Mailbox(
  "support",
  {
    domainId: inbound.domainId,
    localPart: "support",
    name: "Support desk",
    forwardTo: ["oncall@example.net"],
  },
  { dependsOn: [plan] },
);

export const address = support.address; // support@example.org
`,
  inputs: {
    domainId: {
      schema: z.string().min(1, "must not be empty"),
      description:
        "The domain: **`ReceivingDomain.domainId`**, so the mailbox is made after receiving is on (the API answers `DOMAIN_NOT_RECEIVING` otherwise).",
      change: "replace",
    },
    localPart: {
      schema: localPart,
      description: "The part before the `@`; stored lower-case.",
      change: "replace",
    },
    name: {
      schema: z.string().max(200, "at most 200 characters").regex(/^[^\r\n]*$/, "must not contain line breaks").optional(),
      description: "The display name.",
      change: "update",
    },
    forwardTo: {
      schema: z
        .array(emailAddress)
        .max(MAX_FORWARD_ADDRESSES, `at most ${MAX_FORWARD_ADDRESSES} forwarding addresses per mailbox`)
        // Order and repeats carry no meaning: normalized, so they never show as a diff.
        .transform((list) => [...new Set(list)].sort())
        .optional(),
      description:
        "Addresses every message is forwarded to; order and repeats do not matter. Needs a plan with forwarding: otherwise the API refuses it (`FORWARDING_NOT_ALLOWED`).",
      change: "update",
      default: "`[]` (no forwarding)",
    },
    notifications: {
      schema: z.boolean().optional(),
      description: "Notify the account when mail arrives.",
      change: "update",
      default: "`false`",
    },
    adoptId: addressAdoptId("the id of a mailbox already on the domain (from `GET /inbound/addresses`)"),
  },
  outputs: {
    address: { schema: z.string(), description: "The mailbox's whole address, `localPart@host`." },
    mailboxId: { schema: z.string(), description: "The mailbox's id at the API (the resource's id too): what `MailAlias` takes." },
    createdAt: { schema: z.string(), description: "When the API made the mailbox (ISO 8601)." },
  },
  adoption:
    "`adoptId` is the mailbox's id (from `GET /inbound/addresses`); it must be the mailbox `localPart@` on `domainId`, or the create fails naming what it is. The create reads it (nothing is made) and takes it as it is: the next `up` applies this program's settings.",
  interrupted:
    "The API refuses a second address with the same local part on the domain (`ADDRESS_EXISTS`), and the local part is the user's choice, so the mailbox found may be anyone's: the create stops with its id and the `adoptId` line to add.",
  errors: {
    FORWARDING_NOT_ALLOWED: "The project's plan does not include forwarding (`getInboundStats` shows the plan's values): remove `forwardTo`, or move to a plan that includes forwarding — an `EmailPlan` this Mailbox depends on, so the plan changes first.",
    MAILBOX_LIMIT: "The plan allows no more mailboxes: delete one, or move to a larger plan (or add the extra-mailboxes add-on). During a replace, set the resource option `deleteBeforeReplace: true`.",
    DOMAIN_NOT_RECEIVING: "Receiving is not enabled on the domain: declare a `ReceivingDomain` for it and pass its `domainId` output to this Mailbox, so the mailbox is created after receiving is on.",
    ADDRESS_EXISTS: "An alias or mailbox already uses this address on the domain: choose another `localPart`, or remove that address first (the error names its id and the `adoptId` line when it is a mailbox).",
    INVALID_ADDRESS: "`localPart` and every `forwardTo` address must be valid addresses, and a mailbox cannot forward to itself.",
    DOMAIN_NOT_FOUND: "No sending domain with this `domainId` in the project of this key.",
    ADDRESS_NOT_FOUND: "On update: the mailbox is gone; `pulumi refresh`, then `pulumi up` creates it again. On delete it counts as deleted (turning receiving off, or deleting the domain, removes it too).",
    KEY_NOT_ALLOWED: "Webmail passwords are set in the dashboard only: the API refuses them to any key, so a password is refused at preview already.",
  },
  notes: `Whether the plan includes forwarding, and how many mailboxes it allows, only the API knows: the program may buy or change the plan in the same \`up\` (an \`EmailPlan\`), so a preview cannot, and those refusals come from the API, explained. For example: \`create failed: POST /inbound/addresses 402 FORWARDING_NOT_ALLOWED — The plan has no forwarding. The project's plan does not include forwarding (getInboundStats shows the plan's values): remove forwardTo, or move to a plan that includes forwarding — an EmailPlan this Mailbox depends on, so the plan changes first\`.

**Webmail passwords are dashboard-only**: the API answers \`KEY_NOT_ALLOWED\` to any key, so there is no input for one; set it in the dashboard. A \`password\` (or \`webmailPassword\`) given anyway is refused at preview, naming the property but never its value.

Settings removed from the program go back to none (\`name\`), \`[]\` and \`false\` at the API.`,
});
const INPUTS = Object.keys(mailboxSchema.inputs);
/** Mailbox-only settings, the ones that update in place (the API's ALIAS_SETTINGS for an alias). */
export const MAILBOX_SETTINGS = changesOf(mailboxSchema).update;
/** Settings the state keeps only when the program sets them. */
const DEFAULTS: Props = { forwardTo: [], notifications: false };

function outputs(inputs: Props, box: InboundAddress): Props {
  return { ...DEFAULTS, ...pick(inputs, INPUTS), address: box.address, mailboxId: box.id, createdAt: box.createdAt };
}

/** The mailbox's values as the program's inputs (pulumi-svc's own kept from `props`). */
function liveInputs(box: InboundAddress, props: Props): Props {
  return {
    ...pick(props, ["adoptId"]),
    domainId: box.domainId,
    localPart: box.address.slice(0, box.address.lastIndexOf("@")),
    ...(box.name !== null ? { name: box.name } : {}),
    ...changedFromDefaults({ forwardTo: [...box.forwardTo].sort(), notifications: box.notifications }, DEFAULTS),
  };
}

/** The codes whose `schema.errors` text is the hint of a failed create or update. */
const HINTS = ["FORWARDING_NOT_ALLOWED", "MAILBOX_LIMIT", "ADDRESS_EXISTS", "INVALID_ADDRESS"] as const;

/** The hints naming the domain a mailbox is on; the other codes' hints are the schema's (HINTS). */
function hintFor(err: unknown, inputs: Props): string | undefined {
  if (isApiError(err, "DOMAIN_NOT_RECEIVING")) {
    return `Receiving is not enabled on domain ${String(inputs.domainId)}: declare a ReceivingDomain for it and pass its domainId output to this Mailbox, so the mailbox is created after receiving is on`;
  }
  if (isApiError(err, "DOMAIN_NOT_FOUND")) return `No sending domain ${String(inputs.domainId)} in the project of this key`;
  return undefined;
}

async function createMailbox(ctx: CallContext, inputs: InputsOf<typeof mailboxSchema>): Promise<{ box: InboundAddress; adopted: boolean }> {
  const reads = ctx.api;
  const api = reads.email;
  const domainId = inputs.domainId;
  const localPartValue = inputs.localPart;
  const { object, adopted } = await createOnce<InboundAddress>(ctx, inputs, {
    noun: "mailbox",
    idOf: (a) => a.id,
    describe: (a) => a.address,
    adopt: async (adoptId) => {
      let found: InboundAddress | undefined;
      try {
        found = await reads.addresses.read(adoptId);
      } catch (err) {
        throw operationError("create", err);
      }
      if (!found) throw operationFailed("create", `adoptId "${adoptId}": no receiving address with this id in the project of this key`);
      if (found.type !== "mailbox" || found.domainId !== domainId || !found.address.startsWith(`${localPartValue}@`)) {
        throw operationFailed("create", `adoptId "${adoptId}" is the ${found.type} ${found.address} (domain ${found.domainId}), not the mailbox ${localPartValue}@ on domain ${domainId}: give the right id, or remove adoptId`);
      }
      return found;
    },
    find: async (joinInFlight) => ({
      objects: (await (joinInFlight ? reads.addressList.lookup() : reads.addressList.fresh())).filter((a) => a.type === "mailbox" && a.domainId === domainId && a.address.startsWith(`${localPartValue}@`)),
      provablyMine: false,
    }),
    send: () =>
      api.call("email.addresses.create", {
        body: {
          domainId,
          localPart: localPartValue,
          type: "mailbox",
          ...(inputs.name !== undefined ? { name: inputs.name } : {}),
          ...(inputs.forwardTo !== undefined ? { forwardTo: inputs.forwardTo } : {}),
          ...(inputs.notifications !== undefined ? { notifications: inputs.notifications } : {}),
        },
      }),
    refusedAsDuplicate: (err) => isApiError(err, "ADDRESS_EXISTS"),
    otherwise: "choose another localPart, or delete that mailbox first",
  });
  return { box: object, adopted };
}

export const mailbox = defineResource(mailboxSchema, {
  async check(_olds, news) {
    const { rest, failures } = withoutPassword(news, "webmail passwords are set in the dashboard only (the API answers KEY_NOT_ALLOWED to a key): remove it from the program and set it in the dashboard");
    const result = checkSchema(mailboxSchema, rest);
    return { ...result, failures: [...failures, ...result.failures] };
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { ...changesOf(mailboxSchema), defaults: DEFAULTS });
  },

  async create(inputs, ctx) {
    const { box, adopted } = await createMailbox(ctx, inputs);
    // An adopted mailbox is taken as it is: the next preview shows where it differs from the program.
    return { id: box.id, outs: outputs(adopted ? liveInputs(box, inputs) : inputs, box) };
  },
  hintFor,
  hints: HINTS,

  async update(id, _olds, news, ctx) {
    try {
      const box = await ctx.api.email.call("email.addresses.update", {
        params: { addressId: id },
        // A setting removed from the program goes back to none.
        body: { name: (news.name) ?? null, forwardTo: (news.forwardTo) ?? [], notifications: (news.notifications) ?? false },
      });
      return { outs: outputs(news, box) };
    } catch (err) {
      const hint = isNotFound(err) ? "The mailbox is gone: run `pulumi refresh`, then `pulumi up` creates it again" : (hintFor(err, news) ?? schemaHint(mailboxSchema, err, HINTS));
      throw operationError("update", err, hint);
    }
  },

  find: (id, _props, ctx) => ctx.api.addresses.read(id),
  properties(box, props) {
    const inputs = liveInputs(box, props);
    return { inputs, outputs: outputs(inputs, box) };
  },
  // ADDRESS_NOT_FOUND: gone already (turning receiving off, or deleting the domain, removes it too).
  remove: (id, _props, ctx) => ctx.api.email.call("email.addresses.delete", { params: { addressId: id } }),

  counted: {
    kind: () => "mailboxes",
    identity: (inputs) => `${String(inputs.localPart)}@${String(inputs.domainId)}`,
    what: "mailboxes",
    property: "localPart",
    limit: async (ctx) => limitValue((await readInboundStats(ctx)).plan.mailboxes),
    existing: async (ctx) => {
      const boxes = (await ctx.api.addressList.lookup()).filter((a) => a.type === "mailbox");
      return boxes.map((a) => `${a.address.slice(0, a.address.lastIndexOf("@"))}@${a.domainId}`);
    },
    fix: `${LARGER_PLAN}; extra mailboxes are also sold as the EmailPlan add-on "extra-mailboxes"`,
  },
  // A list with values not known yet forwards all the same.
  async planRefuses(inputs, ctx, plan) {
    if (!Array.isArray(inputs.forwardTo) || inputs.forwardTo.length === 0 || (await readInboundStats(ctx)).plan.forwarding) return [];
    return [{ property: "forwardTo", reason: `the email plan ${plan} has no forwarding (the API would refuse it: 402 FORWARDING_NOT_ALLOWED): remove forwardTo, or move to a plan with forwarding (svc.EmailPlan; getEmailPlans)` }];
  },
});
