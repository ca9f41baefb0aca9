/**
 * EmailTopic: a subscription topic contacts opt in to. Name and description update in place
 * (`PATCH /topics/{id}`). Create goes through createOnce (../create-once.ts): topic names may
 * repeat at the API and nothing tells whose a topic is, so one with the same name already there
 * stops the create with its id and the `adoptId` line; a lost answer is settled by looking again.
 * Name 1–100 characters and description at most 500: the emulator's rules (assumed-routes.md gives none).
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import type { ApiClient } from "../client/http";
import { createOnce } from "../create-once";
import type { EmailTopic } from "../../contract/schemas";
import { checkInputs, diffInputs, isNotFound, operationError, pick, UUID, type Props, type ResourceImpl } from "../resource";

const fields = {
  name: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
  description: z.string().max(500, "at most 500 characters").optional(),
  /** An existing topic (its id) to manage instead of creating one. */
  adoptId: z.string().regex(UUID, "a topic id (UUID)").optional(),
};
const INPUTS = Object.keys(fields);

function outputs(inputs: Props, t: EmailTopic): Props {
  return { ...pick(inputs, INPUTS), topicId: t.id, createdAt: t.createdAt };
}

/** The program's inputs as the API's topic says (adopt, refresh). */
function liveInputs(props: Props, t: EmailTopic): Props {
  return { ...pick(props, ["adoptId"]), name: t.name, ...(t.description !== null ? { description: t.description } : {}) };
}

function hintFor(err: unknown): string | undefined {
  if (isApiError(err, "TOPIC_LIMIT_REACHED")) return "The plan allows no more topics: choose a larger plan (EmailPlan, getEmailPlans) or remove topics";
  return undefined;
}

async function findTopic(api: ApiClient, id: string): Promise<EmailTopic | undefined> {
  try {
    return await api.call("email.topics.get", { params: { topicId: id } });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Sets name and description to the program's where the topic differs. */
async function converge(api: ApiClient, inputs: Props, t: EmailTopic): Promise<EmailTopic> {
  const description = (inputs.description as string | undefined) ?? null;
  if (t.name === inputs.name && t.description === description) return t;
  return api.call("email.topics.update", { params: { topicId: t.id }, body: { name: inputs.name as string, description } });
}

export const emailTopic: ResourceImpl = {
  async check(_olds, news) {
    return checkInputs(news, fields);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: [], update: ["name", "description"] });
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    try {
      const { object, adopted } = await createOnce<EmailTopic>(inputs, {
        noun: "topic",
        idOf: (t) => t.id,
        describe: (t) => `named "${t.name}"`,
        adopt: async (adoptId) => {
          const t = await findTopic(api, adoptId);
          if (!t) throw new Error(`create failed: adoptId "${adoptId}": no topic with this id in the project`);
          return t;
        },
        find: async (joinInFlight) => ({ objects: (await api.callShared("email.topics.list", {}, joinInFlight)).filter((t) => t.name === inputs.name), provablyMine: false }),
        send: () => api.call("email.topics.create", { body: { name: inputs.name as string, ...(inputs.description !== undefined ? { description: inputs.description as string } : {}) } }),
        otherwise: "give this topic another name, or remove the other one",
      });
      // Adopted by adoptId: as it is (the next preview shows where the program differs).
      if (adopted && inputs.adoptId !== undefined) return { id: object.id, outs: outputs(liveInputs(inputs, object), object) };
      return { id: object.id, outs: outputs(inputs, await converge(api, inputs, object)) };
    } catch (err) {
      throw operationError("create", err, hintFor(err));
    }
  },

  async update(id, _olds, news, ctx) {
    const api = ctx.api.email;
    try {
      const t = await findTopic(api, id);
      if (!t) throw new Error(`topic ${id} no longer exists: run \`pulumi refresh\` to drop it from the state`);
      return { outs: outputs(news, await converge(api, news, t)) };
    } catch (err) {
      throw operationError("update", err);
    }
  },

  async read(id, props, ctx) {
    let t: EmailTopic | undefined;
    try {
      t = await findTopic(ctx.api.email, id);
    } catch (err) {
      throw operationError("read", err);
    }
    if (!t) return { id: "", props: {} };
    const inputs = liveInputs(props, t);
    return { id, props: outputs(inputs, t), inputs };
  },

  async delete(id, _props, ctx) {
    try {
      await ctx.api.email.call("email.topics.delete", { params: { topicId: id } });
    } catch (err) {
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
