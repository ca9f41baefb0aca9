/**
 * Owner (registrant) details of the account: `GET` and `PATCH /domains/registrant`, and the
 * completeness check registrations make (REGISTRANT_INCOMPLETE with `missing`).
 */
import type { Ctx, Handlers } from "../core/module";
import { EmuError } from "../core/errors";
import type { Account } from "../core/world";

/** The owner detail fields, in the order answers list them; all but `organization` are required. */
export const REGISTRANT_FIELDS = ["name", "organization", "email", "phone", "address", "city", "province", "postalCode", "country"] as const;
type RegistrantField = (typeof REGISTRANT_FIELDS)[number];
const OPTIONAL_FIELDS: readonly RegistrantField[] = ["organization"];
const MAX_LENGTH = 255;

/** Format rules of the fields that have one: a refusal names the field and the rule. */
const FORMATS: Partial<Record<RegistrantField, { test: RegExp; rule: string }>> = {
  email: { test: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, rule: "an address like name@example.com" },
  phone: { test: /^\+\d{1,3}\.\d{4,14}$/, rule: "+CC.number, for example +62.8123456789" },
  country: { test: /^[A-Za-z]{2}$/, rule: "a 2-letter country code, for example ID" },
  postalCode: { test: /^[A-Za-z0-9 -]{3,10}$/, rule: "3 to 10 letters, digits, spaces or hyphens" },
};

const isField = (name: string): name is RegistrantField => (REGISTRANT_FIELDS as readonly string[]).includes(name);

/** Required owner details that are absent, null or blank. */
export function missingRegistrantFields(account: Account): string[] {
  const r = account.registrant;
  return REGISTRANT_FIELDS.filter((f) => !OPTIONAL_FIELDS.includes(f) && !(r[f] ?? "").trim());
}

function registrantView(account: Account): Record<RegistrantField, string | null> {
  const r = account.registrant;
  return Object.fromEntries(REGISTRANT_FIELDS.map((f) => [f, r[f] ?? null])) as Record<RegistrantField, string | null>;
}

/**
 * Merges the sent fields. A value of another type than string or null is 422 VALIDATION_ERROR; an
 * unknown field or a value breaking its format is 400 INVALID_REGISTRANT naming every refused
 * field. Nothing is changed on a refusal. "" or null clears a field (a required one then counts
 * as missing for registrations).
 */
function updateRegistrant(ctx: Ctx<"domains.registrant.update">) {
  const body = ctx.body;
  const changes: Partial<Record<RegistrantField, string | null>> = {};
  const refused: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (value !== null && typeof value !== "string") throw new EmuError(422, "VALIDATION_ERROR", `${field}: expected a string or null`);
    if (!isField(field)) {
      refused.push(`${field} (unknown owner detail; known: ${REGISTRANT_FIELDS.join(", ")})`);
      continue;
    }
    const text = value === null ? null : value.trim();
    if (text) {
      const format = FORMATS[field];
      if (text.length > MAX_LENGTH) refused.push(`${field} (at most ${MAX_LENGTH} characters)`);
      else if (format && !format.test.test(text)) refused.push(`${field} (must be ${format.rule})`);
    }
    changes[field] = field === "country" && text ? text.toUpperCase() : text;
  }
  if (refused.length) throw new EmuError(400, "INVALID_REGISTRANT", `Owner details refused: ${refused.join("; ")}`);
  Object.assign(ctx.caller.account.registrant, changes);
  return registrantView(ctx.caller.account);
}

export const registrantHandlers: Handlers<"domains.registrant.get" | "domains.registrant.update"> = {
  "domains.registrant.get": ({ caller }) => registrantView(caller.account),
  "domains.registrant.update": updateRegistrant,
};
