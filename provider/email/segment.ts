/**
 * EmailSegment: a saved filter over the project's contacts, 1 to 20 rules. Name and rules update in
 * place (`PATCH /segments/{id}`); create, read and delete as every named audience object
 * (./named-object.ts: a same-named segment already there stops the create with the `adoptId` line).
 */
import { z } from "zod";
import { segmentOperators, type SegmentRule } from "../../contract/schemas";
import { pick, stable, UUID } from "../resource";
import { adoptIdInput, defineSchema } from "../schema";
import { namedObject, namedObjectText } from "./named-object";

const rule = z
  .object({
    field: z.string().trim().min(1, "must not be empty"),
    operator: z.enum(segmentOperators, { message: `one of ${segmentOperators.join(", ")}` }),
    value: z.string().optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.operator !== "exists" && (r.value === undefined || r.value === "")) ctx.addIssue({ code: "custom", path: ["value"], message: `required with operator ${r.operator}` });
  });

export const emailSegmentSchema = defineSchema({
  type: "EmailSegment",
  sdk: {
    idOutputs: ["segmentId"],
    types: [
      {
        name: "EmailSegmentRule",
        doc: "One of {@link EmailSegmentArgs.rules}: the plain object form of a rule.",
        type: 'Extract<Extract<EmailSegmentArgs["rules"], readonly unknown[]>[number], { operator: unknown }>',
      },
    ],
  },
  service: "email",
  summary:
    "A saved filter over the project's contacts: a contact is in the segment when it matches all its rules; broadcasts may go to a segment. Its name and rules update in place; it counts against the plan's segment limit.",
  example: `
import * as svc from "pulumi-svc";

// Contacts of acme.dev who opted in to the product news.
const acme = new svc.EmailSegment("acme", {
  name: "Acme customers",
  rules: [
    { field: "email", operator: "contains", value: "@acme.dev" },
    { field: "topic", operator: "equals", value: "Product news" },
  ],
});

export const segmentId = acme.segmentId;
`,
  inputs: {
    name: {
      schema: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
      description: "The segment's name, as the dashboard lists it (names may repeat at the API). Leading and trailing spaces are trimmed.",
      change: "update",
    },
    rules: {
      schema: z.array(rule).min(1, "at least 1 rule").max(20, "at most 20 rules"),
      description:
        "The rules a contact must all match. `field`: `email`, `topic` or a custom contact property's name; `operator`: how the field is compared; `value`: what it is compared with (required except with `exists`).",
      change: "update",
    },
    adoptId: { ...adoptIdInput("the id of an existing segment (`GET /segments`)"), schema: z.string().regex(UUID, "a segment id (UUID)").optional() },
  },
  outputs: {
    segmentId: { schema: z.string(), description: "The segment's id at the API (also the Pulumi id)." },
    createdAt: { schema: z.string(), description: "When the API made it (ISO 8601)." },
    updatedAt: { schema: z.string(), description: "When it last changed at the API (ISO 8601)." },
  },
  ...namedObjectText("segment", "/segments"),
  errors: {
    SEGMENT_LIMIT_REACHED: { status: 402, what: "the plan allows no more segments: choose a larger plan (`EmailPlan`, `getEmailPlans`) or remove segments." },
    SEGMENT_NOT_FOUND: "On update: the segment was deleted outside Pulumi; `pulumi refresh` drops it and the next `up` makes it again. On delete: counts as deleted.",
    VALIDATION: "The API refused a value the check let through: the message names it.",
  },
  notes:
    "Create sends `POST /segments`; a change of name or rules sends one `PATCH /segments/{id}` (nothing when the segment already matches; rules compare as a whole, in order). " +
    "Refresh reads `GET /segments/{id}`: a change made in the dashboard shows as drift; a segment deleted outside Pulumi is gone. Delete: already gone counts as deleted.",
});
const INPUTS = Object.keys(emailSegmentSchema.inputs);

/** A rule as the program writes it: `value` absent rather than undefined. */
const ruleOf = (r: SegmentRule) => ({ field: r.field, operator: r.operator, ...(r.value !== undefined ? { value: r.value } : {}) });

export const emailSegment = namedObject({
  noun: "segment",
  schema: emailSegmentSchema,
  get: (api, id) => api.call("email.segments.get", { params: { segmentId: id } }),
  reads: (api) => ({ list: api.segmentList, objects: api.segments }),
  create: (api, inputs) => api.call("email.segments.create", { body: { name: inputs.name, rules: inputs.rules } }),
  async converge(api, inputs, s) {
    const rules = inputs.rules;
    if (s.name === inputs.name && stable(s.rules.map(ruleOf)) === stable(rules)) return s;
    return api.call("email.segments.update", { params: { segmentId: s.id }, body: { name: inputs.name, rules } });
  },
  remove: (api, id) => api.call("email.segments.delete", { params: { segmentId: id } }),
  liveInputs: (props, s) => ({ ...pick(props, ["adoptId"]), name: s.name, rules: s.rules.map(ruleOf) }),
  outputs: (inputs, s) => ({ ...pick(inputs, INPUTS), segmentId: s.id, createdAt: s.createdAt, updatedAt: s.updatedAt }),
  hints: ["SEGMENT_LIMIT_REACHED"],
});
