/**
 * EmailTopic: a subscription topic contacts opt in to. Name and description update in place
 * (`PATCH /topics/{id}`); create, read and delete as every named audience object
 * (./named-object.ts: a same-named topic already there stops the create with the `adoptId` line).
 * Name 1–100 characters and description at most 500: the emulator's rules (assumed-routes.md gives none).
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import type { EmailTopic } from "../../contract/schemas";
import { pick, UUID, type Props } from "../resource";
import { namedObject } from "./named-object";

const fields = {
  name: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
  description: z.string().max(500, "at most 500 characters").optional(),
  /** An existing topic (its id) to manage instead of creating one. */
  adoptId: z.string().regex(UUID, "a topic id (UUID)").optional(),
};
const INPUTS = Object.keys(fields);

export const emailTopic = namedObject<EmailTopic>({
  noun: "topic",
  fields,
  update: ["name", "description"],
  get: (api, id) => api.call("email.topics.get", { params: { topicId: id } }),
  reads: (api) => ({ list: api.topicList, objects: api.topics }),
  create: (api, inputs) =>
    api.call("email.topics.create", { body: { name: inputs.name as string, ...(inputs.description !== undefined ? { description: inputs.description as string } : {}) } }),
  async converge(api, inputs, t) {
    const description = (inputs.description as string | undefined) ?? null;
    if (t.name === inputs.name && t.description === description) return t;
    return api.call("email.topics.update", { params: { topicId: t.id }, body: { name: inputs.name as string, description } });
  },
  remove: (api, id) => api.call("email.topics.delete", { params: { topicId: id } }),
  liveInputs: (props: Props, t) => ({ ...pick(props, ["adoptId"]), name: t.name, ...(t.description !== null ? { description: t.description } : {}) }),
  outputs: (inputs, t) => ({ ...pick(inputs, INPUTS), topicId: t.id, createdAt: t.createdAt }),
  hint: (err) =>
    isApiError(err, "TOPIC_LIMIT_REACHED") ? "The plan allows no more topics: choose a larger plan (EmailPlan, getEmailPlans) or remove topics" : undefined,
});
