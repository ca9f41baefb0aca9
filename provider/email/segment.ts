/**
 * EmailSegment: a saved filter over the project's contacts, 1 to 20 rules. Name and rules update in
 * place (`PATCH /segments/{id}`). Create goes through createOnce (../create-once.ts) like
 * EmailTopic: a segment with the same name already there stops the create with its id and the
 * `adoptId` line; a lost answer is settled by looking again.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import type { ApiClient } from "../client/http";
import { createOnce } from "../create-once";
import { segmentOperators, type EmailSegment, type SegmentRule } from "../../contract/schemas";
import { checkInputs, diffInputs, isNotFound, operationError, pick, stable, UUID, type Props, type ResourceImpl } from "../resource";

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

/** A rule as the program writes it: `value` absent rather than undefined (the API may echo either). */
const ruleOf = (r: SegmentRule) => ({ field: r.field, operator: r.operator, ...(r.value !== undefined ? { value: r.value } : {}) });

function outputs(inputs: Props, s: EmailSegment): Props {
  return { ...pick(inputs, INPUTS), segmentId: s.id, createdAt: s.createdAt, updatedAt: s.updatedAt };
}

function liveInputs(props: Props, s: EmailSegment): Props {
  return { ...pick(props, ["adoptId"]), name: s.name, rules: s.rules.map(ruleOf) };
}

function hintFor(err: unknown): string | undefined {
  if (isApiError(err, "SEGMENT_LIMIT_REACHED")) return "The plan allows no more segments: choose a larger plan (EmailPlan, getEmailPlans) or remove segments";
  return undefined;
}

async function findSegment(api: ApiClient, id: string): Promise<EmailSegment | undefined> {
  try {
    return await api.call("email.segments.get", { params: { segmentId: id } });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function converge(api: ApiClient, inputs: Props, s: EmailSegment): Promise<EmailSegment> {
  const rules = inputs.rules as SegmentRule[];
  if (s.name === inputs.name && stable(s.rules.map(ruleOf)) === stable(rules)) return s;
  return api.call("email.segments.update", { params: { segmentId: s.id }, body: { name: inputs.name as string, rules } });
}

export const emailSegment: ResourceImpl = {
  async check(_olds, news) {
    return checkInputs(news, fields);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: [], update: ["name", "rules"] });
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    try {
      const { object, adopted } = await createOnce<EmailSegment>(inputs, {
        noun: "segment",
        idOf: (s) => s.id,
        describe: (s) => `named "${s.name}"`,
        adopt: async (adoptId) => {
          const s = await findSegment(api, adoptId);
          if (!s) throw new Error(`create failed: adoptId "${adoptId}": no segment with this id in the project`);
          return s;
        },
        find: async (joinInFlight) => ({ objects: (await api.callShared("email.segments.list", {}, joinInFlight)).filter((s) => s.name === inputs.name), provablyMine: false }),
        send: () => api.call("email.segments.create", { body: { name: inputs.name as string, rules: inputs.rules as SegmentRule[] } }),
        otherwise: "give this segment another name, or remove the other one",
      });
      if (adopted && inputs.adoptId !== undefined) return { id: object.id, outs: outputs(liveInputs(inputs, object), object) };
      return { id: object.id, outs: outputs(inputs, await converge(api, inputs, object)) };
    } catch (err) {
      throw operationError("create", err, hintFor(err));
    }
  },

  async update(id, _olds, news, ctx) {
    const api = ctx.api.email;
    try {
      const s = await findSegment(api, id);
      if (!s) throw new Error(`segment ${id} no longer exists: run \`pulumi refresh\` to drop it from the state`);
      return { outs: outputs(news, await converge(api, news, s)) };
    } catch (err) {
      throw operationError("update", err);
    }
  },

  async read(id, props, ctx) {
    let s: EmailSegment | undefined;
    try {
      s = await findSegment(ctx.api.email, id);
    } catch (err) {
      throw operationError("read", err);
    }
    if (!s) return { id: "", props: {} };
    const inputs = liveInputs(props, s);
    return { id, props: outputs(inputs, s), inputs };
  },

  async delete(id, _props, ctx) {
    try {
      await ctx.api.email.call("email.segments.delete", { params: { segmentId: id } });
    } catch (err) {
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
