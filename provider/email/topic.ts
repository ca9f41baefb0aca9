/**
 * EmailTopic: a subscription topic contacts opt in to. Name and description update in place
 * (`PATCH /topics/{id}`); create, read and delete as every named audience object
 * (./named-object.ts: a same-named topic already there stops the create with the `adoptId` line).
 * Name 1–100 characters and description at most 500: the emulator's rules (assumed-routes.md gives none).
 */
import { z } from "zod";
import { pick, UUID, type Props } from "../resource";
import { adoptIdInput, defineSchema } from "../schema";
import { namedObject, namedObjectText } from "./named-object";

export const emailTopicSchema = defineSchema({
  type: "EmailTopic",
  sdk: { idOutputs: ["topicId"] },
  service: "email",
  summary:
    "A subscription topic of the project's audience: contacts opt in to it, and a broadcast may go to a topic's subscribers. Its name and description update in place; it counts against the plan's topic limit.",
  example: `
import * as svc from "pulumi-svc";

const news = new svc.EmailTopic("news", {
  name: "Product news",
  description: "A monthly letter about what is new.",
});

export const topicId = news.topicId;
`,
  inputs: {
    name: {
      schema: z.string().trim().min(1, "must not be empty").max(100, "at most 100 characters"),
      description: "The topic's name, as contacts and the dashboard see it (names may repeat at the API). Leading and trailing spaces are trimmed.",
      change: "update",
    },
    description: {
      schema: z.string().max(500, "at most 500 characters").optional(),
      description: "What subscribers get from this topic. Removing it clears it at the API.",
      change: "update",
    },
    adoptId: { ...adoptIdInput("the id of an existing topic (`GET /topics`)"), schema: z.string().regex(UUID, "a topic id (UUID)").optional() },
  },
  outputs: {
    topicId: { schema: z.string(), description: "The topic's id at the API (also the Pulumi id)." },
    createdAt: { schema: z.string(), description: "When the API made it (ISO 8601)." },
  },
  ...namedObjectText("topic", "/topics"),
  errors: {
    TOPIC_LIMIT_REACHED: { status: 402, what: "the plan allows no more topics: choose a larger plan (`EmailPlan`, `getEmailPlans`) or remove topics." },
    TOPIC_NOT_FOUND: "On update: the topic was deleted outside Pulumi; `pulumi refresh` drops it and the next `up` makes it again. On delete: counts as deleted.",
    VALIDATION: "The API refused a value the check let through: the message names it.",
  },
  notes:
    "Create sends `POST /topics`; a change of name or description sends one `PATCH /topics/{id}` (nothing when the topic already matches). " +
    "Refresh reads `GET /topics/{id}`: a change made in the dashboard shows as drift; a topic deleted outside Pulumi is gone. Delete: already gone counts as deleted. " +
    "The name's 1 to 100 characters and the description's 500 are the emulator's rules (assumed-routes.md states none).",
});
const INPUTS = Object.keys(emailTopicSchema.inputs);

export const emailTopic = namedObject({
  noun: "topic",
  schema: emailTopicSchema,
  get: (api, id) => api.call("email.topics.get", { params: { topicId: id } }),
  reads: (api) => ({ list: api.topicList, objects: api.topics }),
  create: (api, inputs) =>
    api.call("email.topics.create", { body: { name: inputs.name, ...(inputs.description !== undefined ? { description: inputs.description } : {}) } }),
  async converge(api, inputs, t) {
    const description = (inputs.description) ?? null;
    if (t.name === inputs.name && t.description === description) return t;
    return api.call("email.topics.update", { params: { topicId: t.id }, body: { name: inputs.name, description } });
  },
  remove: (api, id) => api.call("email.topics.delete", { params: { topicId: id } }),
  liveInputs: (props: Props, t) => ({ ...pick(props, ["adoptId"]), name: t.name, ...(t.description !== null ? { description: t.description } : {}) }),
  outputs: (inputs, t) => ({ ...pick(inputs, INPUTS), topicId: t.id, createdAt: t.createdAt }),
  hints: ["TOPIC_LIMIT_REACHED"],
});
