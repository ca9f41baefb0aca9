/**
 * Webhook: an https endpoint that receives the project's email events. The API has no update, so any
 * change replaces. The signing `secret` is answered once, at create: it is a secret output, carried
 * over from the prior state on read.
 *
 * Create goes through createOnce (../create-once.ts). Nothing tells whose a webhook is, so one with
 * the same url and events already there stops the create with its id and the `adoptId` line. A
 * webhook taken over (adoptId, or one a lost answer made) is useless as it is — its secret was only
 * in the answer that created it — so it is made anew: deleted, then created once more (webhooks are
 * free), and the stack holds the new secret.
 */
import { z } from "zod";
import { OutcomeUnknownError } from "../client/errors";
import { createOnce } from "../create-once";
import type { CallContext } from "../context";
import { webhookEventNames, type Webhook } from "../../contract/schemas";
import { isNotFound, operationError, operationFailed, pick, UUID, type Props } from "../resource";
import { adoptIdInput, defineResource, defineSchema, type InputsOf } from "../schema";
import { webhookUrlProblem } from "../../contract/hosts";
import { limitValue } from "../foresight";
import { LARGER_PLAN, readEmailStatus } from "./plan-limits";

/** The url rule in words: the page's, and the fallback of the check's message (which names the exact problem). */
const WEBHOOK_URL_RULE =
  "must be an https URL with a public fully-qualified host name (no IP address, no `localhost` or reserved top-level name), no credentials, no whitespace or control characters";

export const webhookSchema = defineSchema({
  type: "Webhook",
  sdk: { idOutputs: ["webhookId"], types: [{ dataType: "WebhookEvent" }] },
  preview: `**Limit.** A new webhook counts against the plan's \`webhooks\` (\`GET /status\`) with those the project holds and those the run adds: past it the preview refuses it on \`url\`, instead of \`402 WEBHOOK_LIMIT_REACHED\` mid-\`up\`. Only creates count.`,
  service: "email",
  summary:
    "An https endpoint that receives the project's email events, each delivery signed with `secret`. The API cannot change a webhook: any change replaces it, and the new one has a new secret.",
  example: `
import * as svc from "pulumi-svc";

const hook = new svc.Webhook("deliveries", {
  url: "https://hooks.example.com/svc-events",
  events: ["email.delivered", "email.bounced", "email.received"],
});

export const webhookId = hook.webhookId;
// The receiver verifies each delivery with verifyWebhookSignature(rawBody, signature, secret).
export const signingSecret = hook.secret; // a secret output
`,
  inputs: {
    url: {
      schema: z
        .string()
        .trim()
        .max(2000, "at most 2,000 characters")
        .refine((value) => !webhookUrlProblem(value), { error: (issue) => (typeof issue.input === "string" && webhookUrlProblem(issue.input)) || WEBHOOK_URL_RULE }),
      description: "The endpoint the API posts the events to.",
      change: "replace",
    },
    events: {
      schema: z
        .array(z.enum(webhookEventNames, { message: `each event must be one of ${webhookEventNames.join(", ")}` }))
        .min(1, "at least one event")
        .max(20, "at most 20 entries")
        // Order and duplicates carry no meaning: normalize, so they never show as a diff.
        .transform((events) => [...new Set(events)].sort()),
      description: "The events delivered to it. Order and duplicates do not matter (the outputs list each once, sorted).",
      change: "replace",
    },
    adoptId: {
      ...adoptIdInput("the id of an existing webhook (from `GET /webhooks`), which is made anew (see Adoption)"),
      schema: z.string().regex(UUID, "a webhook id (UUID)").optional(),
    },
  },
  outputs: {
    webhookId: { schema: z.string(), description: "The webhook's id at the API (the resource's id too)." },
    secret: {
      schema: z.string(),
      description:
        "The signing secret: verify each delivery with `verifyWebhookSignature(rawBody, req.headers[\"svc-signature\"], secret)`. The API answers it only when it creates the webhook, so a refresh keeps the one in the state.",
      secret: true,
    },
    enabled: { schema: z.boolean(), description: "Whether the API delivers to it (it may disable an endpoint that keeps failing)." },
    failCount: { schema: z.number(), description: "Deliveries that failed in a row, as the API counts them." },
    createdAt: { schema: z.string(), description: "When the API made the webhook (ISO 8601)." },
  },
  adoption:
    "`adoptId` is the webhook's id (from `GET /webhooks`). The API answers a webhook's secret only when it creates it, so an adopted webhook is made anew: the provider deletes it and creates one with the program's `url` and `events` (webhooks are free), and the stack holds the new secret. Events sent in between are not delivered. An unknown id fails the create.",
  adoptionRemakes: "deleted and made anew with the program's url and events, since the API answers a webhook's secret only to its create (webhooks are free)",
  interrupted:
    "A webhook with the same url and events may be anyone's (nothing tells whose it is): the create stops with its id and the `adoptId` line to add; adopting it makes it anew, for its secret. A webhook whose create answer was lost in the same run is made anew the same way (deleted, created once more), so the stack always holds a working secret.",
  errors: {
    WEBHOOK_LIMIT_REACHED: "The plan allows no more webhooks. During a replace (a new one is made before the old one goes), set the resource option `deleteBeforeReplace: true` so the old one is deleted first; otherwise delete unused webhooks or move to a larger plan.",
    INVALID_URL: "The URL must be https with a public fully-qualified host and no credentials (the check refuses most such URLs at preview).",
    NO_EVENTS: "No valid event name: give at least one of the events listed under `events`.",
    WEBHOOK_NOT_FOUND: "On delete it counts as deleted; on create with `adoptId`: no webhook with that id in the project.",
  },
  notes:
    "Any change replaces (the API has no update): the replacement has a new `secret`, so a receiver reading it from the stack's outputs picks it up on its next deploy. A `secret` given as an input is refused at preview, named but never echoed.",
});

/**
 * The one mapper from an API webhook to the resource's properties: create's outputs, adoption, read
 * and drift. The API answers the signing secret only when it creates the webhook: `kept.secret` is
 * that answer's, or the state's (absent when neither has it: an undefined value cannot cross the host).
 */
export function webhookProperties(hook: Webhook, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...pick(kept, ["adoptId"]), url: hook.url, events: [...new Set(hook.events)].sort() };
  const secret = hook.secret ?? kept.secret;
  return {
    inputs,
    outputs: { ...inputs, webhookId: hook.id, ...(secret !== undefined ? { secret } : {}), enabled: hook.enabled, failCount: hook.failCount, createdAt: hook.createdAt },
  };
}

function sameEndpoint(hook: Webhook, inputs: WebhookInputs): boolean {
  return hook.url === inputs.url && [...new Set(hook.events)].sort().join(",") === (inputs.events).join(",");
}

type WebhookInputs = InputsOf<typeof webhookSchema>;

/** Creates sent in all to make a webhook anew while their answers are lost (each lost one's webhook is removed). */
const REMAKE_ATTEMPTS = 2;

async function createWebhook(ctx: CallContext, inputs: WebhookInputs): Promise<Webhook> {
  const api = ctx.api.email;
  const body = { url: inputs.url, events: inputs.events };
  const { object } = await createOnce<Webhook>(ctx, inputs, {
    noun: "webhook",
    idOf: (h) => h.id,
    describe: (h) => `for ${h.url} (${h.events.join(", ")})`,
    adopt: async (adoptId) => {
      const found = (await ctx.api.webhooks.snapshot()).find((h) => h.id === adoptId);
      if (!found) throw operationFailed("create", `adoptId "${adoptId}": no webhook with this id in the project`);
      return found;
    },
    find: async (joinInFlight) => ({ objects: (await (joinInFlight ? ctx.api.webhooks.lookup() : ctx.api.webhooks.fresh())).filter((h) => sameEndpoint(h, inputs)), provablyMine: false }),
    send: () => api.call("email.webhooks.create", { body }),
    take: async (found) => {
      if (found.secret !== undefined) return found;
      // Made anew for its secret. A webhook whose create answer is lost is as useless: it is removed
      // too (a failed removal is an error, never a silent orphan), and the create is sent once more.
      const remove = async (id: string) =>
        api.call("email.webhooks.delete", { params: { webhookId: id } }).catch((err) => {
          if (!isNotFound(err)) throw err;
        });
      await remove(found.id);
      for (let attempt = 1; ; attempt++) {
        try {
          return await api.call("email.webhooks.create", { body });
        } catch (err) {
          if (!(err instanceof OutcomeUnknownError)) throw err;
          for (const orphan of (await ctx.api.webhooks.fresh()).filter((h) => sameEndpoint(h, inputs))) await remove(orphan.id);
          if (attempt >= REMAKE_ATTEMPTS) {
            throw operationError("create", err, `Webhook ${found.id} was deleted to make it anew, and the webhooks these lost answers made were removed: none is left for this resource, and \`pulumi up\` may try again`);
          }
        }
      }
    },
    otherwise: "delete it, or point this webhook at another URL",
  });
  return object;
}

// A signing secret pasted as an input is refused without its value (a secret output: the default check).
export const webhook = defineResource(webhookSchema, {
  async create(inputs, ctx) {
    const hook = await createWebhook(ctx, inputs);
    return { id: hook.id, outs: webhookProperties(hook, inputs).outputs };
  },
  hints: ["WEBHOOK_LIMIT_REACHED", "INVALID_URL"],
  find: async (id, _props, ctx) => (await ctx.api.webhooks.snapshot()).find((h) => h.id === id),
  // The API never answers the secret again: the mapper keeps the one from the prior state.
  properties: (hook, props) => webhookProperties(hook, props),
  remove: (id, _props, ctx) => ctx.api.email.call("email.webhooks.delete", { params: { webhookId: id } }),

  counted: {
    kind: () => "webhooks",
    identity: (inputs) => String(inputs.url),
    what: "webhooks",
    property: "url",
    limit: async (ctx) => limitValue((await readEmailStatus(ctx)).plan?.webhooks),
    existing: async (ctx) => (await ctx.api.webhooks.lookup()).map((w) => w.url),
    fix: LARGER_PLAN,
  },
});
