/**
 * EmailSuppression: one address on the project's suppression list (assumed-routes.md
 * "Suppressions"): the platform refuses to send to it (RECIPIENT_SUPPRESSED). The Pulumi id is the
 * lower-cased address; a new address replaces the resource (the list holds addresses, nothing to
 * update). Create goes through createOnce (../create-once.ts): an address already on the list may
 * have been put there by a bounce, a complaint or by hand, so it stops the create with the
 * `adoptId` line rather than be taken over (destroying it would take the address off the list);
 * `adoptId` takes it as it is. `POST /suppressions` is repeat-safe at the API (the existing row,
 * 200), so the client may send it again after a lost answer. Delete: already gone counts as deleted.
 */
import { z } from "zod";
import type { ApiClient } from "../client/http";
import { createOnce } from "../create-once";
import { suppressionReasons, type EmailSuppression } from "../../contract/schemas";
import { isNotFound, isUnknown, operationError, operationFailed, pick, type Props } from "../resource";
import { adoptIdInput, defineResource, defineSchema } from "../schema";
import { emailAddress } from "../validation";

export const emailSuppressionSchema = defineSchema({
  type: "EmailSuppression",
  service: "email",
  summary:
    "One address on the project's suppression list: the platform sends nothing to it (a send answers `RECIPIENT_SUPPRESSED`). Destroying the resource takes the address off the list, so mail reaches it again. An address already on the list (a bounce, a complaint, added by hand) is managed with `adoptId`.",
  example: `
import * as svc from "pulumi-svc";

// Nothing is sent to this address while the resource exists; destroying it takes the address off the list.
const doNotMail = new svc.EmailSuppression("do-not-mail", {
  email: "former-customer@example.org",
});

export const reason = doNotMail.reason; // "manual"
`,
  inputs: {
    email: {
      schema: emailAddress,
      description: "The address to suppress, `user@example.org`. Trimmed and lower-cased: the list matches addresses case-insensitively.",
      change: "replace",
      changeText: "replaces the object: the new address is listed, then the old one is taken off the list",
    },
    adoptId: {
      ...adoptIdInput("the address, already on the suppression list (it must equal `email`)"),
      schema: z.string().trim().toLowerCase().optional(),
    },
  },
  outputs: {
    reason: {
      schema: z.enum(suppressionReasons),
      description: "Why the address is listed: `manual` (added through the API, as this resource does), or `bounce` / `complaint` (added by the platform, for an adopted address).",
    },
    createdAt: { schema: z.string(), description: "When the address was put on the list (ISO 8601)." },
  },
  rules: [
    {
      text: "`adoptId`, when given, equals `email`: the id of an EmailSuppression is its address",
      check: (inputs) =>
        inputs.adoptId !== undefined && !isUnknown(inputs.adoptId) && !isUnknown(inputs.email) && inputs.adoptId !== inputs.email
          ? [{ property: "adoptId", reason: "the id of an EmailSuppression is its address: adoptId must equal email" }]
          : [],
    },
  ],
  adoption:
    "`adoptId` is the **address**, already on the project's suppression list, and must equal `email`: `adoptId: \"bounced@example.org\"`. The create reads its row (nothing is added) and takes it as it is, whatever its `reason`. An address not on the list fails the create: remove `adoptId` to add it.",
  interrupted:
    "An address on the list may have been put there by anyone (a bounce, a complaint, the dashboard, an interrupted create): the repeated create stops with the address and the `adoptId` line to add; nothing is listed twice. A create whose answer was lost is sent again by the client: the API answers the existing row to a repeat.",
  errors: {
    INVALID_EMAIL: "The API refused the address: the check refuses what is not an address already; give `user@example.org`.",
    SUPPRESSION_NOT_FOUND: "On `adoptId`: the address is not on the list (remove `adoptId` to add it). On refresh: taken off the list elsewhere; the resource is dropped and the next `up` lists it again. On delete: counts as deleted.",
    VALIDATION: "The API refused a value the check let through: the message names it.",
  },
  notes:
    "Create sends `GET /suppressions/{email}` (is it listed already?) and then `POST /suppressions` with `reason: manual`. " +
    "Refresh reads `GET /suppressions/{email}`: an address taken off the list elsewhere is gone, and the next `up` lists it again. " +
    "Delete sends `DELETE /suppressions/{email}`: the address receives mail again, whatever put it on the list (an adopted `bounce` row too: keep such a row with the resource option `retainOnDelete: true`). " +
    "The whole list, page by page: `getEmailSuppressions`.",
});
const INPUTS = Object.keys(emailSuppressionSchema.inputs);

function outputs(inputs: Props, row: EmailSuppression): Props {
  return { ...pick(inputs, INPUTS), email: row.email, reason: row.reason, createdAt: row.createdAt };
}

/** The address's row, or undefined when it is not on the list. */
async function findRow(api: ApiClient, email: string): Promise<EmailSuppression | undefined> {
  try {
    return await api.call("email.suppressions.get", { params: { email } });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export const emailSuppression = defineResource(emailSuppressionSchema, {
  async create(inputs, ctx) {
    const email = inputs.email;
    const api = ctx.api.email;
    const { object } = await createOnce<EmailSuppression>(ctx, inputs, {
      noun: "suppression",
      idOf: (row) => row.email,
      describe: (row) => `of reason ${row.reason}, listed ${row.createdAt},`,
      adopt: async (adoptId) => {
        if (adoptId !== email) throw operationFailed("create", `adoptId "${adoptId}": the id of an EmailSuppression is its address: adoptId must equal email ("${email}")`);
        const row = await findRow(api, email);
        if (!row) throw operationFailed("create", `adoptId "${adoptId}": the address is not on the project's suppression list: remove adoptId to add it`);
        return row;
      },
      find: async () => {
        const row = await findRow(api, email);
        return { objects: row ? [row] : [], provablyMine: false };
      },
      send: () => api.call("email.suppressions.add", { body: { email, reason: "manual" } }),
      otherwise: "leave it to the list as it is (this resource is not needed), or give another address",
    });
    return { id: object.email, outs: outputs(inputs, object) };
  },

  async update(id, _olds, news, ctx) {
    // Only adoptId can change without a replace: the row is read again, nothing is sent.
    let row: EmailSuppression | undefined;
    try {
      row = await findRow(ctx.api.email, id);
    } catch (err) {
      throw operationError("update", err);
    }
    if (!row) throw operationFailed("update", `${id} is no longer on the suppression list: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` lists it again`);
    return { outs: outputs(news, row) };
  },

  async read(id, props, ctx) {
    let row: EmailSuppression | undefined;
    try {
      row = await findRow(ctx.api.email, id);
    } catch (err) {
      throw operationError("read", err);
    }
    if (!row) return { id: "", props: {} };
    const inputs = { ...pick(props, ["adoptId"]), email: row.email };
    return { id: row.email, props: outputs(inputs, row), inputs };
  },

  remove: (id, _props, ctx) => ctx.api.email.call("email.suppressions.delete", { params: { email: id } }),
});
