/**
 * Domain: a domain name registered to the account. Registration is paid and cannot be undone, so the
 * resource pays at most once:
 * - preview prices the name with a `?dryRun=true` registration and refuses, with the reason, what the
 *   real call would refuse or what the wallet cannot pay;
 * - create sends `POST /domains` once, through createOnce (../create-once.ts): a name already in the
 *   account may have been registered by hand or by another stack, so it stops the create with the
 *   `adoptId` line rather than be taken over; an unknown outcome is settled by reading the account's
 *   list, never by sending again (kept inside the registration: a refunded 5xx and a record not yet
 *   saved are the domain API's own cases); `DOMAIN_SAVE_PENDING` is a success (a repeat would charge
 *   again);
 * - delete calls nothing: the registration stays in the account.
 * The Pulumi id is the name, known even while the registry has not saved the record; the numeric API
 * id is the output `domainId`, filled once the record is saved.
 */
import { z } from "zod";
import { ApiError, isApiError, OutcomeUnknownError } from "../client/errors";
import { domainErrorCodes, isApiErrorCode } from "../../contract/error-codes";
import type { ApiClient } from "../client/http";
import type { CallContext } from "../context";
import { domainBilling, domainDryRun, domainPaid, registeredDomain, type RegisteredDomain } from "../../contract/schemas";
import {
  diffInputs,
  isNotFound,
  isUnknown,
  operationError,
  operationFailed,
  PartialFailure,
  pick,
  type CheckFailure,
  type Props,
} from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema, schemaHint, type InputsOf } from "../schema";
import { createOnce } from "../create-once";
import { DNS_LABEL, TOP_LEVEL_LABEL } from "../validation";


/**
 * Why a trimmed, lower-cased name cannot be registered, judged without the price catalogue (the
 * dry run judges the extension, subdomains and availability). Undefined when it may be registrable.
 */
export function domainNameProblem(name: string): string | undefined {
  if (!name) return "must not be empty";
  if (name.length > 253) return "at most 253 characters";
  const labels = name.split(".");
  if (labels.length < 2) return `"${name}" has no extension: give the whole name, for example example.com`;
  if (labels.includes("")) return `"${name}" has an empty label (a leading, trailing or doubled dot)`;
  const bad = labels.find((label) => !DNS_LABEL.test(label));
  if (bad !== undefined) {
    return `"${bad}" is not a valid label: 1 to 63 letters, digits or inner hyphens (write an international name in its xn-- form)`;
  }
  const extension = labels[labels.length - 1];
  if (!TOP_LEVEL_LABEL.test(extension)) return `".${extension}" is not a domain extension`;
  return undefined;
}

const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((value, ctx) => {
    const problem = domainNameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const domainSchema = defineSchema({
  type: "Domain",
  moveRefused: {
    reason:
      "a registered domain cannot move to another account: a replace would register the name again in the new account (paid) while the registration in the old one stays. Keep the profile, or move the domain outside pulumi-svc and adopt it there (adoptId)",
    inShort: "a registration cannot move between accounts",
  },
  sdk: {
    types: [
      {
        name: "DomainBilling",
        doc: "What a registration cost (a {@link Domain}'s output `billing`).",
        type: 'DomainOutputs["billing"] extends pulumi.Output<infer T> ? NonNullable<T> : never',
      },
    ],
  },
  preview: `**Price.** The registration's dry run gives its price, which joins the run's other paid steps of the profile (servers, backups, email plan) against the wallet as first read in the run (see [Vps](Vps.md#what-the-preview-foresees)): the preview line says the price, and the step that brings the run over the wallet is refused on \`name\`.`,
  service: "platform",
  summary:
    "A domain name registered to the account, paid from the wallet. Preview prices the name with a free dry run and refuses what cannot be registered or paid; `up` registers it once, never charging twice. Needs a whole-account API key. Destroying (or renaming) the resource does NOT delete the registration: it cannot be undone, so the domain stays in the account and only leaves the stack.",
  example: `
import * as svc from "pulumi-svc";

// Registered once, paid from the wallet; preview shows a refusal (price, balance, availability) before any charge.
const shop = new svc.Domain("shop", {
  name: "my-shop.com",
  whoisProtection: true,
});

export const domainId = shop.domainId;
export const expiresAt = shop.expiresAt;
`,
  inputs: {
    name: {
      schema: domainName,
      description:
        "The registrable domain, for example `example.com`, not a subdomain: labels of 1 to 63 letters, digits or inner hyphens (an international name in its `xn--` form), at most 253 characters, ending in a domain extension. Trimmed and lower-cased. Whether the extension is sold, the name free and not premium is judged by the preview's dry run.",
      change: "replace",
      changeText: "replaces the object: registers (and pays for) the new name; the old one stays registered in the account",
    },
    period: {
      schema: z
        .literal(1, { message: "only 1 is accepted: the API registers a domain for one year (PERIOD_NOT_SUPPORTED otherwise); autoRenew renews it yearly" })
        .default(1),
      description: "Years to register for. The API registers for one year only; `autoRenew` renews it yearly.",
      change: "update",
      changeText: "none possible (only 1 is accepted)",
    },
    whoisProtection: {
      schema: z.boolean().default(false),
      description: "Buy WHOIS protection, which hides the owner's details in the public WHOIS. Paid; once bought it cannot be removed.",
      change: "update",
      changeText: "`false → true` buys it in place (paid); `true → false` is refused at preview (the API cannot remove it)",
    },
    autoRenew: {
      schema: z.boolean().default(true),
      description: "Renew the registration from the wallet when it expires, a year at a time at the renewal price; when the wallet cannot pay, the domain expires. Turn it off to let the domain lapse.",
      change: "update",
      changeText: "toggles in place",
    },
    registrant: {
      schema: z.string().min(1, "must not be empty").optional(),
      description:
        "The account's `DomainRegistrant` of the same program (`owner.id`): the registration waits until the owner details are written, and a preview before they are does not fail for them being incomplete.",
      change: "state",
    },
    adoptId: {
      ...adoptIdInput("the domain name, already registered in this account (it must equal `name`)"),
      schema: z.string().trim().toLowerCase().optional(),
    },
  },
  outputs: {
    domainId: {
      schema: z.number().optional(),
      tsType: "number | undefined",
      description: "The API's numeric id of the registration; undefined while `savePending` (the next refresh or `up` fills it). The Pulumi id is the name.",
    },
    status: { schema: z.number(), description: "The registration's status as the API's number; `statusLabel` says it in words." },
    statusLabel: { schema: z.string(), description: "The registration's status in words: `active`, `pending` (not yet active at the registry) or `expired`." },
    expiresAt: {
      schema: z.string().optional(),
      tsType: "string | undefined",
      description: "When the registration expires (ISO 8601), a year later after each renewal, automatic ones included (a refresh reads it); undefined until the record is saved.",
    },
    billing: {
      schema: z.object({ registration: z.number(), whoisProtection: z.number(), total: z.number(), depositCharged: z.number() }).optional(),
      tsType: "{ registration: number; whoisProtection: number; total: number; depositCharged: number } | undefined",
      description:
        "What the registration cost, in the wallet's currency (Rupiah): `registration`, `whoisProtection`, their `total` and the part paid from the deposit (`depositCharged`). Undefined when the resource adopted an existing registration or the registration's answer was lost.",
    },
    savePending: {
      schema: z.boolean(),
      description: "True while the registry has registered the name but the platform has not saved its record (`DOMAIN_SAVE_PENDING`): `domainId` is filled by the next refresh or update, and a refresh keeps the resource meanwhile.",
    },
  },
  rules: [
    {
      text: "`adoptId`, when given, equals `name`: the id of a Domain is its name",
      check: (inputs) =>
        inputs.adoptId !== undefined && !isUnknown(inputs.adoptId) && !isUnknown(inputs.name) && inputs.adoptId !== inputs.name
          ? [{ property: "adoptId", reason: "the id of a Domain is its name: adoptId must equal name" }]
          : [],
    },
  ],
  adoption:
    "`adoptId` is the domain **name**, already registered in this account, and must equal `name`: `adoptId: \"my-shop.com\"`. The create reads the account's record (nothing is registered or charged) and takes the registration as it is; where its WHOIS protection or auto-renew differs from the program, the next `pulumi up` updates it. A name not registered in this account (another account's, or not registered) fails the create: register it with this resource, without `adoptId`. The Pulumi id is the name too, but the `import` resource option does not work for dynamic providers (see the README).",
  interrupted:
    "The registration an interrupted create made is in the account, but a name in the account may also have been registered by hand or by another stack: the repeated create stops with the name and the line `adoptId: \"<name>\"` to add (nothing is charged again). A registration whose answer was lost in the same run is settled by reading the account's list, never by sending again: found, it is this create's (auto-renew is set to the program's); not found, the error says it was not sent again and how to check (a registration whose record is not saved yet, `DOMAIN_SAVE_PENDING`, is not listed either).",
  errors: {
    ACCOUNT_KEY_REQUIRED: "Domain resources need a whole-account API key: this key is limited to one project. Create a key that covers the whole account with the Domain product (dashboard, project settings, API keys) and set it as `svc:apiKey` or `SVC_API_KEY`. Refused at preview.",
    SCOPE_NOT_ALLOWED: "The key lacks the Domain product: enable it for the key in the dashboard, or use a key that has it.",
    TLD_NOT_SUPPORTED: "The extension cannot be registered here: choose another extension. Refused at preview.",
    PREMIUM_NOT_SUPPORTED: "A premium name, which cannot be registered online: choose another name. Refused at preview.",
    PRICE_UNAVAILABLE: "There is no valid price for this extension right now: try again later. Refused at preview.",
    PERIOD_NOT_SUPPORTED: "Only period 1 is accepted (the check refuses others already).",
    DOMAIN_UNAVAILABLE: "The name belongs to another account: choose another name. Refused at preview.",
    DOMAIN_ALREADY_IN_ACCOUNT: "The name is already registered in this account: add `adoptId: \"<name>\"` to manage it (nothing is registered or charged again). Refused at preview.",
    REGISTRANT_INCOMPLETE: "The account's owner (registrant) details are incomplete; the error lists the missing fields. Declare them with a `DomainRegistrant` and give this Domain `registrant: owner.id`, or complete them in the dashboard, then run again. Refused at preview, unless `registrant` names a DomainRegistrant not written yet.",
    INSUFFICIENT_BALANCE: "The wallet cannot pay: top up, then run again. Preview refuses it already, with the price and the balance.",
    REGISTRAR_REJECTED: { status: 422, what: "the registry refused; the charge, if any, was refunded and nothing was registered: the next `pulumi up` may try again." },
    REGISTRAR_ERROR: { status: 502, what: "the registry was unreachable; refunded, nothing registered: the next `pulumi up` may try again." },
    INTERNAL_ERROR: "500 from the domain API: refunded, nothing registered: the next `pulumi up` may try again. Buying WHOIS protection: not bought, the next `up` tries again.",
    WHOIS_PROTECTION_ACTIVE: "Buying WHOIS protection that is already on: taken as done (the update reads the domain).",
  },
  notes: `**Preview** checks the inputs, then, for a name not yet in the state and not adopted, sends the free \`POST /domains?dryRun=true\` and refuses on \`name\`, with the reason, an unsupported extension, a premium name, no price now, a name of another account, a name already in the account (with the \`adoptId\` line to adopt it), incomplete owner details (which fields, and where to complete them), a key limited to one project, or a wallet that cannot pay (the price and the balance). A dry run that fails for any other reason (no answer, 5xx, a bad key) also stops the preview: a paid call never runs unpriced.

**\`up\` pays once.** \`POST /domains\` is sent once. A lost answer is settled by \`GET /domains\`: the name is adopted if it is in the account. If it is not, the error says so and that it was not sent again: a registration whose record is not saved yet (\`DOMAIN_SAVE_PENDING\`) is not listed either, so look at the domains and wallet a minute later and adopt it (\`adoptId\`) if it appears. \`DOMAIN_SAVE_PENDING\` is a success (\`savePending: true\`, no \`domainId\` yet; the next refresh or \`up\` fills it, and a refresh keeps the resource meanwhile). 422, 500 and 502 answers are refunded by the API; the error says so, and the next \`up\` may try again. With \`autoRenew: false\` the new registration's auto-renew is turned off right after it (or by the next \`up\`, if the record was not saved yet). WHOIS protection bought later is paid too and sent once: a lost answer is settled by reading the domain.

**Refresh** reads the account's list of domains once for every Domain of the refresh (by \`domainId\`, or by name while it is unknown). An expired or lapsed domain stays in the state with its status; one absent from the account is gone.

**Auto-renewal, and what \`pulumi refresh\` shows after it.** With \`autoRenew\` on, the platform renews the registration itself when it expires, charging the wallet the renewal price (and WHOIS protection's, when on). After such a renewal, \`pulumi refresh\` lists the Domain unchanged (the renewal changes outputs only, and the diff compares inputs) while the state takes the new \`expiresAt\`, a year later, with \`status\` 1 (\`active\`). When the wallet cannot pay, the renewal fails with \`INSUFFICIENT_BALANCE\` (told in the account's notifications, \`getNotifications\`: type \`domain.auto_renew_failed\`), nothing is charged and the domain expires: \`pulumi refresh\` again lists it unchanged, and the state takes \`status\` 3, \`statusLabel: "expired"\` and the old \`expiresAt\`. The expired domain stays in the account and in the stack; \`pulumi up\` neither renews nor registers it again: top up the wallet, then renew it in the dashboard (or \`POST /domains/{id}/renew\`), and the next refresh shows it \`active\`. With \`autoRenew: false\` it expires the same way, without a charge or a notification.

**Destroy leaves the registration.** A registration cannot be undone (the DNSimple provider behaves the same), so deleting the resource (or renaming it) only removes it from the stack; the domain stays in the account, with its auto-renew and WHOIS protection settings, and the provider prints a message saying so. Turn \`autoRenew\` off first to let it lapse.

**\`profile\`** cannot change: the replace would register the name again in the other account (paid) while the first registration stays, so it is refused at preview.`,
});
const INPUTS = Object.keys(domainSchema.inputs);

/** What a domain answer shows: the whole record, or only name and status while its save is pending. */
type DomainView = Pick<RegisteredDomain, "status" | "status_label"> & Partial<RegisteredDomain>;

/**
 * `savePending` is true while the registry has registered the name but the platform has not saved
 * its record (DOMAIN_SAVE_PENDING): there is no `domainId` yet, and the name is not in the list.
 */
function outputs(inputs: Props, record: DomainView, billing: unknown, savePending = false): Props {
  return {
    ...pick(inputs, INPUTS),
    ...(record.id !== undefined ? { domainId: record.id } : {}),
    status: record.status,
    statusLabel: record.status_label,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    ...(billing !== undefined ? { billing } : {}),
    savePending,
  };
}

/**
 * The one mapper from the account's record of a domain to the resource's properties: create's
 * outputs, adoption, read and drift. The API registers for one year only (period 1). `kept`: adoptId;
 * `billing` describes the registration and is answered only by it (carried over from the state).
 */
export function domainProperties(record: RegisteredDomain, kept: Props, billing: unknown): { inputs: Props; outputs: Props } {
  const inputs = { ...pick(kept, ["adoptId", "registrant"]), name: record.name, period: 1, whoisProtection: record.whoisProtection, autoRenew: record.autoRenew };
  return { inputs, outputs: outputs(inputs, record, billing) };
}

type DomainInputs = InputsOf<typeof domainSchema>;

const awaitingSave = (props: Props) => props.savePending === true;

const money = (amount: number, currency: string) => `${currency} ${amount.toLocaleString("en-US")}`;

const adoptHint = (name: string) =>
  `${name} is already registered in this account (id ${name}): if an interrupted \`pulumi up\` registered it, or to manage it with this ` +
  `resource, add \`adoptId: "${name}"\` to it (nothing is registered or charged again)`;

const REFUNDED = "the charge, if any, was refunded (the API refunds every 422, 500 and 502 answer)";
const REGISTRATION_REFUNDED = `Nothing was registered and ${REFUNDED}: the next \`pulumi up\` may try again`;
const WHOIS_REFUNDED = `WHOIS protection was not bought and ${REFUNDED}: the next \`pulumi up\` tries again`;

/** What the user can do about an API refusal, by its code. */
function hintFor(err: unknown, name: string): string | undefined {
  // As a catalogued code: a misspelled case does not compile.
  if (!(err instanceof ApiError) || !isApiErrorCode(err.code)) return undefined;
  switch (err.code) {
    case "ACCOUNT_KEY_REQUIRED":
      return (
        "Domain resources need a whole-account API key: this key is limited to one project. Create a key that covers " +
        "the whole account with the Domain product (dashboard, project settings, API keys) and set it as svc:apiKey or SVC_API_KEY"
      );
    case "SCOPE_NOT_ALLOWED":
      return "This API key lacks the Domain product: enable it for the key in the dashboard, or use a key that has it";
    case "TLD_NOT_SUPPORTED":
      return `The extension of ${name} cannot be registered here: choose another extension`;
    case "PREMIUM_NOT_SUPPORTED":
      return `${name} is a premium name, which cannot be registered online: choose another name`;
    case "PRICE_UNAVAILABLE":
      return "There is no valid price for this extension right now: try again later";
    case "PERIOD_NOT_SUPPORTED":
      return "Only period 1 is accepted: a domain is registered for one year and autoRenew renews it yearly";
    case "DOMAIN_UNAVAILABLE":
      return `${name} belongs to another account: choose another name`;
    case "DOMAIN_ALREADY_IN_ACCOUNT":
      return adoptHint(name);
    case "REGISTRANT_INCOMPLETE": {
      const missing = Array.isArray(err.details.missing) ? err.details.missing.join(", ") : "the API did not say which";
      return `The account's owner (registrant) details are incomplete; missing: ${missing}. Complete them in the dashboard or with PATCH /domains/registrant (a DomainRegistrant resource, given to this Domain as registrant: owner.id), then run again`;
    }
    default:
      return schemaHint(domainSchema, err, ["INSUFFICIENT_BALANCE"]);
  }
}

/** A 422, 500 or 502 answered by the domain API itself (a code of its table, not a proxy's page or the client's own): refunded, per the spec. */
function isRefunded(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 422 || err.status === 500 || err.status === 502) && domainErrorCodes.some((code) => code === err.code);
}

/** The same failure, described as one whose outcome is known (a refunded answer, or a dry run). */
function knownOutcome(err: unknown): unknown {
  if (!(err instanceof OutcomeUnknownError)) return err;
  const { service, method, path, status, code, apiMessage, details } = err;
  return new ApiError({ service, method, path, status, code, apiMessage, details, retryable: false });
}

/**
 * The error a user sees for a failed call of `operation` on the domain `name`. For a paid call,
 * `refunded` says what a refunded answer means: its outcome is known, so it is not "unknown";
 * `otherwise` is the hint when the code has none of its own.
 */
function apiFailure(operation: string, err: unknown, name: string, refunded?: string, otherwise?: string): Error {
  if (refunded && isRefunded(err)) return operationError(operation, knownOutcome(err), hintFor(err, name) ?? refunded);
  return operationError(operation, err, hintFor(err, name) ?? otherwise);
}

/** The account's record of the domain: by its numeric id when known, else by name from the list. */
async function findDomain(api: ApiClient, name: string, domainId: unknown): Promise<RegisteredDomain | undefined> {
  if (typeof domainId === "number") {
    try {
      return await api.call("domains.get", { params: { domainId } });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
  return (await api.call("domains.list")).find((d) => d.name === name);
}

/**
 * Preview's price check: a dry run of the registration (charges nothing). Answers the failure on
 * `name` when the real call would be refused or the wallet cannot pay. A dry run that fails for
 * another reason (no answer, 5xx, a bad key) is a failure too: a paid call must not run unpriced.
 */
async function dryRunFailure(ctx: CallContext, name: string, inputs: Props): Promise<CheckFailure | undefined> {
  const whoisProtection = inputs.whoisProtection === true;
  let raw;
  try {
    raw = await ctx.api.platform.call("domains.register", { body: { name, period: 1, whoisProtection }, query: { dryRun: "true" } });
  } catch (err) {
    // The program's DomainRegistrant writes them before the registration (its id is unknown until then).
    if (isApiError(err, "REGISTRANT_INCOMPLETE") && isUnknown(inputs.registrant)) {
      process.stderr.write(`Domain ${name}: not priced in this preview: the owner details are written by the program's DomainRegistrant first; \`pulumi up\` prices the name before paying.\n`);
      return undefined;
    }
    const hint = hintFor(err, name) ?? "The price could not be checked, so the preview stops here (a dry run charges nothing): try again";
    return { property: "name", reason: operationError("registration dry run", knownOutcome(err), hint).message };
  }
  const answer = domainDryRun.safeParse(raw).data;
  if (!answer) {
    return { property: "name", reason: `the registration dry run for ${name} was not answered as a dry run: look at the account's domains and wallet before running again` };
  }
  const { billing, currency } = answer;
  const balance = answer.balanceAfter + billing.total;
  const parts = billing.whoisProtection ? ` (registration ${money(billing.registration, currency)} + WHOIS protection ${money(billing.whoisProtection, currency)})` : "";
  // Priced with the run's other paid steps, against the wallet as first read in this process (foresight.ts).
  if (answer.enoughBalance) return ctx.api.foresight.charge("name", { resource: "Domain", what: `the registration of ${name}${parts}`, amount: billing.total }, { knownBalance: { balance, currency } });
  return {
    property: "name",
    reason:
      `the wallet cannot pay for ${name}: it costs ${money(billing.total, currency)}${parts} and the wallet holds ${money(balance, currency)}. ` +
      `Top up at least ${money(billing.total - balance, currency)}, then run again`,
  };
}

/** Sets auto-renew on a just-registered domain when the program asks for off (new ones renew). */
async function finishCreate(api: ApiClient, inputs: DomainInputs, record: RegisteredDomain, billing: unknown): Promise<Props> {
  if (record.autoRenew === inputs.autoRenew) return domainProperties(record, inputs, billing).outputs;
  try {
    const updated = await api.call("domains.autoRenew", { params: { domainId: record.id }, body: { enabled: inputs.autoRenew } });
    return domainProperties(updated, inputs, billing).outputs;
  } catch (err) {
    throw new PartialFailure(
      record.name,
      outputs(inputs, record, billing),
      inputs,
      `${apiFailure("create", err, record.name).message}. ${record.name} is registered and paid: the next \`pulumi up\` sets auto-renew without registering again`,
    );
  }
}

/**
 * The registration's outcome is unknown (no answer, or a 5xx): the account's list says whether the
 * name is ours now. A registration the registry completed but has not saved yet (DOMAIN_SAVE_PENDING)
 * is not in the list either; that cannot be told apart, so the error says how to find out. Never
 * sent again: a repeat would charge again.
 */
async function settleUnknownOutcome(api: ApiClient, inputs: DomainInputs, err: OutcomeUnknownError): Promise<Props> {
  const name = inputs.name;
  let found: RegisteredDomain | undefined;
  try {
    found = await findDomain(api, name, undefined);
  } catch (readErr) {
    throw operationError(
      "create",
      err,
      `Reading the account's domains to settle it failed too (${operationError("read", readErr).message}). Before running \`pulumi up\` again, ` +
        `look at the account's domains: if ${name} is there, add \`adoptId: "${name}"\` to this Domain`,
    );
  }
  // Billing is unknown: the answer that carried it was lost.
  if (found) return finishCreate(api, inputs, found, undefined);
  if (isRefunded(err)) throw apiFailure("create", err, name, REGISTRATION_REFUNDED);
  throw operationError(
    "create",
    err,
    `${name} is not in the account's domains, so it was most likely not registered. It was not sent again, to avoid a second charge: ` +
      `if the registry completed it but the record is not saved yet (DOMAIN_SAVE_PENDING) it appears shortly. Wait a minute, then look at ` +
      `the account's domains and wallet: if ${name} is listed, add \`adoptId: "${name}"\` and run \`pulumi up\`; if not, run \`pulumi up\` again`,
  );
}

/** Buys WHOIS protection once. Paid: an unknown outcome is settled by reading the domain. */
async function enableWhoisProtection(api: ApiClient, record: RegisteredDomain): Promise<RegisteredDomain> {
  const params = { domainId: record.id };
  const read = () =>
    api.call("domains.get", { params }).catch((err) => {
      throw apiFailure("update", err, record.name);
    });
  try {
    await api.call("domains.whoisProtection", { params });
  } catch (err) {
    if (isApiError(err, "WHOIS_PROTECTION_ACTIVE")) return read();
    if (!(err instanceof OutcomeUnknownError)) throw apiFailure("update", err, record.name, WHOIS_REFUNDED);
    if (!(await read()).whoisProtection) {
      if (isRefunded(err)) throw apiFailure("update", err, record.name, WHOIS_REFUNDED);
      throw operationError("update", err, `WHOIS protection is still off on ${record.name}, so it was not bought: the next \`pulumi up\` tries again`);
    }
  }
  return read();
}

/**
 * Registers the name: `POST /domains`, sent once. An unknown outcome is settled here by reading the
 * account's list (settleUnknownOutcome), never by sending again. Answers the outputs.
 */
async function register(api: ApiClient, inputs: DomainInputs): Promise<Props> {
  const name = inputs.name;
  let answer;
  try {
    answer = await api.request("domains.register", { body: { name, period: 1, whoisProtection: inputs.whoisProtection === true } });
  } catch (err) {
    if (err instanceof OutcomeUnknownError) return settleUnknownOutcome(api, inputs, err);
    throw apiFailure("create", err, name, REGISTRATION_REFUNDED);
  }
  const data = domainPaid.safeParse(answer.data).data;
  if (!data) throw operationFailed("create", `POST /domains answered a dry run for ${name}: nothing was registered; run \`pulumi up\` again`);
  const billing = domainBilling.safeParse(answer.envelope.billing).data ?? data.billing;

  if (answer.code === "DOMAIN_SAVE_PENDING") {
    // Registered and paid; the record is saved later. Never repeat the call: a repeat charges again.
    const outs = outputs(inputs, data, billing, true);
    if (inputs.autoRenew === false) {
      throw new PartialFailure(
        name,
        // The live value: a new registration renews. The next update compares with it.
        { ...outs, autoRenew: true },
        inputs,
        `${name} is registered and paid, but the registry has not saved its record yet (DOMAIN_SAVE_PENDING), so auto-renew cannot be ` +
          `turned off yet. Run \`pulumi up\` again in a minute: it turns auto-renew off without registering again`,
      );
    }
    return outs;
  }

  // A whole record is the usual answer; otherwise the account's record is read.
  let record = registeredDomain.safeParse(data).data;
  try {
    record ??= await findDomain(api, name, data.id);
  } catch (err) {
    throw new PartialFailure(name, outputs(inputs, data, billing), inputs, `${operationError("create", err).message}. ${name} is registered and paid: the next \`pulumi up\` reads it without registering again`);
  }
  if (!record) return outputs(inputs, data, billing, true);
  return finishCreate(api, inputs, record, billing);
}

export const domain = defineResource(domainSchema, {
  async check(olds, news, ctx) {
    const result = checkSchema(domainSchema, news);
    // Against the state, so not a rule of the inputs alone: the API cannot remove WHOIS protection.
    if (olds.whoisProtection === true && result.inputs.whoisProtection === false && olds.name === result.inputs.name) {
      result.failures.unshift({ property: "whoisProtection", reason: "WHOIS protection cannot be turned off: the API cannot remove it once bought. Keep whoisProtection: true" });
    }
    const name = result.inputs.name;
    // Price only a name not yet in the state and not adopted: a registered one is never registered again.
    if (result.failures.length || typeof name !== "string" || isUnknown(name) || olds.name === name || result.inputs.adoptId !== undefined) return result;
    const failure = await dryRunFailure(ctx, name, result.inputs);
    if (failure) result.failures.push(failure);
    return result;
  },

  async diff(_id, olds, news) {
    const result = diffInputs(olds, news, changesOf(domainSchema));
    // A registration whose record was not saved yet: the next update fills `domainId`.
    return awaitingSave(olds) && !result.changes ? { changes: true, replaces: [] } : result;
  },

  async create(inputs, ctx) {
    const name = inputs.name;
    const api = ctx.api.platform;
    // `outs` when this create registered the name; `record` when it found a registration to adopt.
    const { object } = await createOnce<{ record?: RegisteredDomain; outs?: Props }>(ctx, inputs, {
      noun: "domain",
      idOf: () => name,
      describe: () => `named ${name}, registered in this account,`,
      adopt: async (adoptId) => {
        if (adoptId !== name) throw operationFailed("create", `adoptId "${adoptId}": the id of a Domain is its name: adoptId must equal name ("${name}")`);
        const record = await findDomain(api, name, undefined).catch((err) => {
          throw apiFailure("create", err, name);
        });
        if (!record) {
          throw operationFailed(
            "create",
            `adoptId "${name}": not registered in this account: a domain of another account, or not registered — register it with this resource without adoptId`,
          );
        }
        return { record };
      },
      // Any name in the account may have been registered by hand or by another stack: never provably mine.
      find: async () => {
        const record = await findDomain(api, name, undefined);
        return { objects: record ? [{ record }] : [], provablyMine: false };
      },
      // The lost answer is settled inside the registration (settleUnknownOutcome), not by createOnce:
      // a refunded 5xx is known to have registered nothing, and a registration whose record is not
      // saved yet (DOMAIN_SAVE_PENDING) is paid but not in the list, so "not found" is not "nothing
      // charged"; and a registration found afterwards is this create's, so auto-renew is set to the program's.
      send: async () => ({ outs: await register(api, inputs) }),
      otherwise: `choose another name (a registration cannot be undone: ${name} stays in the account)`,
    }).catch((err) => {
      // A failed look (the raw API error) was before anything was sent.
      throw apiFailure("create", err, name, undefined, "Nothing was registered or charged: run `pulumi up` again");
    });
    if (object.outs) return { id: name, outs: object.outs };
    // Adopted as it is, nothing changed: outputs are the live registration's (the API registers for
    // one year only), so the next preview plans an update wherever the program differs.
    const record = object.record!;
    return { id: name, outs: domainProperties(record, inputs, undefined).outputs };
  },
  // Its failures say what was registered or charged (apiFailure).
  ownCreateErrors: true,

  async update(id, olds, news, ctx) {
    const name = id;
    let api: ApiClient;
    let record: RegisteredDomain | undefined;
    try {
      api = ctx.api.platform;
      record = await findDomain(api, name, olds.domainId);
    } catch (err) {
      throw apiFailure("update", err, name);
    }
    if (!record) {
      if (!awaitingSave(olds)) {
        throw operationFailed("update", `${name} (id ${String(olds.domainId)}) is no longer in the account: run \`pulumi refresh\` to drop it from the state`);
      }
      if (olds.whoisProtection === news.whoisProtection && olds.autoRenew === news.autoRenew) return { outs: { ...olds, ...pick(news, INPUTS) } };
      throw operationFailed("update", `the registry has not saved the record of ${name} yet (DOMAIN_SAVE_PENDING), so it cannot be changed yet: run \`pulumi up\` again in a minute`);
    }
    // Compared with the live record, read first: WHOIS protection is paid and may already be on.
    // Turning it off is refused by check; the API cannot do it.
    if (news.whoisProtection === true && !record.whoisProtection) record = await enableWhoisProtection(api, record);
    if (record.autoRenew !== news.autoRenew) {
      try {
        record = await api.call("domains.autoRenew", { params: { domainId: record.id }, body: { enabled: news.autoRenew } });
      } catch (err) {
        throw apiFailure("update", err, name);
      }
    }
    // `billing` describes the registration: carried over, the API never answers it again.
    return { outs: domainProperties(record, news, olds.billing).outputs };
  },

  async read(id, props, ctx) {
    const name = id.trim().toLowerCase();
    let record: RegisteredDomain | undefined;
    try {
      // The account's list answers every Domain of a refresh at once (client/poller.ts, Listing).
      const domainId = props.domainId;
      record = (await ctx.api.registeredDomains.snapshot()).find((d) => (typeof domainId === "number" ? d.id === domainId : d.name === name));
    } catch (err) {
      throw apiFailure("read", err, name);
    }
    if (!record) {
      // Not saved yet is not gone: dropping it would make the next `up` register (and pay) again.
      if (awaitingSave(props)) return { id: name, props, inputs: pick(props, INPUTS) };
      return { id: "", props: {} };
    }
    // An expired or lapsed domain stays, with its status: a refresh never plans a new registration.
    const { inputs, outputs } = domainProperties(record, props, props.billing);
    return { id: record.name, props: outputs, inputs };
  },

  async delete(id) {
    // Registration cannot be undone (the DNSimple provider behaves the same). The engine shows the
    // provider's stderr lines as messages, so the user is told why the domain is still there.
    process.stderr.write(
      `Domain ${id} was removed from the stack only: a registration cannot be undone, so ${id} stays registered in the account ` +
        `(with its auto-renew and WHOIS protection settings). To let it lapse, turn auto-renew off in the dashboard.\n`,
    );
  },
});
