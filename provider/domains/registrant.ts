/**
 * DomainRegistrant: the account's domain owner (registrant) details (assumed-routes.md "Domain
 * owner (registrant) details"; platform-api.md `PATCH /domains/registrant`). There is one set per
 * account, always there (empty on a fresh account), and nothing deletes it:
 * - create takes the account's details over and sends one `PATCH /domains/registrant` with the
 *   fields that differ from the program (nothing when none does); `adoptId` takes them as they are;
 * - update sends one PATCH with the changed fields; refresh reads `GET /domains/registrant`, so a
 *   change made in the dashboard shows as drift;
 * - delete sends nothing: the details stay with the account (the platform cannot clear them).
 * A `Domain` of the same program takes `registrant: owner.id`, so its registration waits for them.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import type { ApiClient } from "../client/http";
import { createOnce } from "../create-once";
import { registrantFields, type Registrant, type RegistrantField } from "../../contract/schemas";
import { isUnknown, operationError, pick, type Props } from "../resource";
import { adoptIdInput, defineResource, defineSchema, type InputsOf, type InputSpec } from "../schema";
import { emailAddress } from "../validation";

/** The Pulumi id of the account's one set of details (the API names no id for it). */
export const REGISTRANT_ID = "registrant";
/** The emulator's limit of a detail's length (assumed-routes.md states none); the API refuses longer ones with INVALID_REGISTRANT. */
const MAX_LENGTH = 255;

const text = (what: string) => z.string().trim().min(1, `must not be empty: ${what} is required for a registration`).max(MAX_LENGTH, `at most ${MAX_LENGTH} characters`);

const detail = <T extends z.ZodType>(description: string, schema: T, secret = false) =>
  ({
    schema,
    description,
    change: "update",
    changeText: "updates in place (`PATCH /domains/registrant` with the changed fields)",
    ...(secret ? { secret: true } : {}),
  }) satisfies InputSpec;

export const domainRegistrantSchema = defineSchema({
  type: "DomainRegistrant",
  service: "platform",
  summary:
    "The account's domain owner (registrant) details: the person or organization domains are registered to. One per account; a registration (`Domain`) is refused until they are complete. Changes update in place. Destroying the resource leaves the details with the account: the platform cannot clear them. Needs a whole-account API key.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();

// The account's owner details: written before the Domain registers (it takes \`registrant: owner.id\`).
const owner = new svc.DomainRegistrant("owner", {
  name: "Budi Santoso",
  organization: "Toko Budi",
  email: "budi@example.com",
  phone: config.requireSecret("ownerPhone"), // for example +62.8123456789
  address: "Jl. Merdeka 1",
  city: "Jakarta",
  province: "DKI Jakarta",
  postalCode: "10110",
  country: "ID",
});

const shop = new svc.Domain("shop", { name: "toko-budi.com", registrant: owner.id });

export const complete = owner.complete;
export const expiresAt = shop.expiresAt;
`,
  inputs: {
    name: detail("The owner's full name.", text("name")),
    organization: detail("The owner's organization, if any. Leaving it out clears it.", z.string().trim().max(MAX_LENGTH, `at most ${MAX_LENGTH} characters`).optional()),
    email: detail("The owner's contact address (`user@example.org`), lower-cased. Personal data.", emailAddress, true),
    phone: detail(
      "The owner's phone number in the registries' form `+<country code>.<number>`, for example `+62.8123456789`. Personal data.",
      z.string().trim().regex(/^\+\d{1,3}\.\d{4,14}$/, "+<country code>.<number>, for example +62.8123456789 (the registries' form, RFC 5733)"),
      true,
    ),
    address: detail("The owner's street address. Personal data.", text("address"), true),
    city: detail("The owner's city.", text("city")),
    province: detail("The owner's province or state.", text("province")),
    postalCode: detail("The owner's postal code. Personal data (with the street address it locates the owner).", text("postalCode"), true),
    country: detail(
      "The owner's country as a 2-letter code, for example `ID`; upper-cased.",
      z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, "a 2-letter country code, for example ID (ISO 3166, as RFC 5733 has it)"),
    ),
    adoptId: {
      ...adoptIdInput(`\`"${REGISTRANT_ID}"\`: the account's details, taken as they are (the next \`pulumi up\` writes the program's)`),
      schema: z.literal(REGISTRANT_ID, { message: `the account has one set of owner details, its id is "${REGISTRANT_ID}"` }).optional(),
    },
  },
  outputs: {
    complete: {
      schema: z.boolean(),
      description: "Whether the details are complete for a registration (every field but `organization` given).",
    },
  },
  adoption:
    `There is one set of details per account, always there, so the create takes it over in any case: without \`adoptId\` it writes the program's details (one \`PATCH /domains/registrant\` with the fields that differ); with \`adoptId: "${REGISTRANT_ID}"\` it takes them as they are and the next \`pulumi up\` writes the program's.`,
  interrupted:
    "The create reads the details and sends the fields that differ; `PATCH /domains/registrant` merges, so a create run again after an interrupted one sends what is still different, or nothing.",
  errors: {
    INVALID_REGISTRANT: "The API refused a detail; the message names each refused field and why: correct it in the program. Nothing was changed.",
    VALIDATION_ERROR: "A detail of the wrong type (the check refuses these already).",
    ACCOUNT_KEY_REQUIRED: "Owner details need a whole-account API key: this key is limited to one project. Use a key that covers the whole account with the Domain product (`svc:apiKey` / `SVC_API_KEY`).",
    SCOPE_NOT_ALLOWED: "The key lacks the Domain product: enable it for the key in the dashboard, or use a key that has it.",
  },
  notes: `**One per account.** Declare it once per account (per \`profile\`): two DomainRegistrants of one account would overwrite each other's details on every \`up\`.

**A Domain waits for it.** Give the \`Domain\` \`registrant: owner.id\`: the registration then waits until the details are written. While the details are not written yet (a first \`pulumi preview\` on a fresh account), the Domain's preview cannot price the name — the API refuses the dry run for incomplete details — and says so without failing; \`pulumi up\` prices it before paying, once the details are in.

**Personal data.** \`email\`, \`phone\`, \`address\` and \`postalCode\` are secret outputs (encrypted in the state, hidden in the CLI's output); a refused value is reported without it. The spec marks no field; these are the ones WHOIS protection hides and that reach a person (docs/decisions.md).

**Destroy leaves the details.** The API has no call that clears the account's owner details (\`""\` clears one field, and a registration then fails): destroying the resource removes it from the stack only, and the provider prints a message saying so.`,
});
/** Every detail; all but `organization` are required for a registration. */
const FIELDS = registrantFields;

/** The program's details as the API would hold them (a left-out organization is null). */
function wanted(inputs: InputsOf<typeof domainRegistrantSchema>): Record<RegistrantField, string | null> {
  const { name, organization, email, phone, address, city, province, postalCode, country } = inputs;
  return {
    name: name ?? null,
    organization: organization ?? null,
    email: email ?? null,
    phone: phone ?? null,
    address: address ?? null,
    city: city ?? null,
    province: province ?? null,
    postalCode: postalCode ?? null,
    country: country ?? null,
  };
}

/** The details as the program would write them (refresh, adoption). */
function liveInputs(kept: Props, live: Registrant): Props {
  const inputs: Props = { ...pick(kept, ["adoptId"]) };
  for (const f of FIELDS) if (live[f] !== null && live[f] !== "") inputs[f] = live[f];
  return inputs;
}

function outputs(inputs: Props, live: Registrant): Props {
  const complete = FIELDS.every((f) => f === "organization" || !!live[f]?.trim());
  return { ...pick(inputs, ["adoptId"]), ...liveInputs({}, live), complete };
}

/** Writes the fields that differ (one PATCH, or none): answers the details as they then are. */
async function converge(api: ApiClient, inputs: InputsOf<typeof domainRegistrantSchema>, live: Registrant): Promise<Registrant> {
  const target = wanted(inputs);
  const changes = Object.fromEntries(FIELDS.filter((f) => (live[f] || null) !== target[f]).map((f) => [f, target[f]]));
  if (Object.keys(changes).length === 0) return live;
  return api.call("domains.registrant.update", { body: changes });
}

/** What to do about a refusal, by its code (never the API's words, which may echo a value). */
function hintFor(err: unknown): string | undefined {
  if (isApiError(err, "INVALID_REGISTRANT")) return "Correct the refused details (the message names each field): nothing was changed";
  if (isApiError(err, "ACCOUNT_KEY_REQUIRED")) return "Owner details need a whole-account API key with the Domain product: set it as svc:apiKey or SVC_API_KEY";
  return undefined;
}

export const domainRegistrant = defineResource(domainRegistrantSchema, {
  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const read = () => api.call("domains.registrant.get");
    const { object: live } = await createOnce<Registrant>(ctx, inputs, {
      noun: "owner details",
      idOf: () => REGISTRANT_ID,
      describe: () => "of the account",
      adopt: () => read(),
      // Always there, one per account: the account's own, so taken over (and written below).
      find: async () => ({ objects: [await read()], provablyMine: true }),
      send: () => read(),
      otherwise: "",
      alwaysThere: true,
    });
    if (inputs.adoptId !== undefined && !isUnknown(inputs.adoptId)) return { id: REGISTRANT_ID, outs: outputs(inputs, live) };
    return { id: REGISTRANT_ID, outs: outputs(inputs, await converge(api, inputs, live)) };
  },
  hintFor: (err) => hintFor(err),

  async update(_id, _olds, news, ctx) {
    const api = ctx.api.platform;
    try {
      // Compared with the live details, not the old state: only what differs is sent.
      const live = await api.call("domains.registrant.get");
      return { outs: outputs(news, await converge(api, news, live)) };
    } catch (err) {
      throw operationError("update", err, hintFor(err));
    }
  },

  async read(id, props, ctx) {
    let live: Registrant;
    try {
      live = await ctx.api.platform.call("domains.registrant.get");
    } catch (err) {
      throw operationError("read", err, hintFor(err));
    }
    const inputs = liveInputs(props, live);
    return { id, props: outputs(inputs, live), inputs };
  },

  async delete() {
    // Nothing clears the account's owner details. The engine shows the provider's stderr lines as messages.
    process.stderr.write(
      "DomainRegistrant was removed from the stack only: the platform cannot clear the account's owner details, so they stay as they are " +
        "(and domains can still be registered with them). Change them in the dashboard if needed.\n",
    );
  },
});
