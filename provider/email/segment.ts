/**
 * EmailSegment: a saved filter over the project's contacts, 1 to 20 rules. Name and rules update in
 * place (`PATCH /segments/{id}`); create, read and delete as every named audience object
 * (./named-object.ts: a same-named segment already there stops the create with the `adoptId` line).
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { segmentOperators, type EmailSegment, type SegmentRule } from "../../contract/schemas";
import { pick, stable, UUID } from "../resource";
import { namedObject } from "./named-object";

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

const fields = {
  name: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
  rules: z.array(rule).min(1, "at least 1 rule").max(20, "at most 20 rules"),
  /** An existing segment (its id) to manage instead of creating one. */
  adoptId: z.string().regex(UUID, "a segment id (UUID)").optional(),
};
const INPUTS = Object.keys(fields);

/** A rule as the program writes it: `value` absent rather than undefined. */
const ruleOf = (r: SegmentRule) => ({ field: r.field, operator: r.operator, ...(r.value !== undefined ? { value: r.value } : {}) });

export const emailSegment = namedObject<EmailSegment>({
  noun: "segment",
  fields,
  update: ["name", "rules"],
  get: (api, id) => api.call("email.segments.get", { params: { segmentId: id } }),
  reads: (api) => ({ list: api.segmentList, objects: api.segments }),
  create: (api, inputs) => api.call("email.segments.create", { body: { name: inputs.name as string, rules: inputs.rules as SegmentRule[] } }),
  async converge(api, inputs, s) {
    const rules = inputs.rules as SegmentRule[];
    if (s.name === inputs.name && stable(s.rules.map(ruleOf)) === stable(rules)) return s;
    return api.call("email.segments.update", { params: { segmentId: s.id }, body: { name: inputs.name as string, rules } });
  },
  remove: (api, id) => api.call("email.segments.delete", { params: { segmentId: id } }),
  liveInputs: (props, s) => ({ ...pick(props, ["adoptId"]), name: s.name, rules: s.rules.map(ruleOf) }),
  outputs: (inputs, s) => ({ ...pick(inputs, INPUTS), segmentId: s.id, createdAt: s.createdAt, updatedAt: s.updatedAt }),
  hint: (err) =>
    isApiError(err, "SEGMENT_LIMIT_REACHED") ? "The plan allows no more segments: choose a larger plan (EmailPlan, getEmailPlans) or remove segments" : undefined,
});
