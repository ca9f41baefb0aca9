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
import { isApiError, OutcomeUnknownError } from "../client/errors";
import { createOnce } from "../create-once";
import type { CallContext } from "../context";
import { webhookEventNames, type Webhook } from "../../contract/schemas";
import { checkInputs, diffInputs, isNotFound, operationError, operationFailed, pick, UUID, type Props, type ResourceImpl } from "../resource";
import { webhookUrlProblem } from "../../contract/hosts";

const fields = {
  url: z
    .string()
    .trim()
    .max(2000, "at most 2,000 characters")
    .superRefine((value, ctx) => {
      const problem = webhookUrlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  events: z
    .array(z.enum(webhookEventNames, { message: `each event must be one of ${webhookEventNames.join(", ")}` }))
    .min(1, "at least one event")
    .max(20, "at most 20 entries")
    // Order and duplicates carry no meaning: normalize, so they never show as a diff.
    .transform((events) => [...new Set(events)].sort()),
  /** An existing webhook (its id) to take over: it is made anew, for a secret this stack holds. */
  adoptId: z.string().regex(UUID, "a webhook id (UUID)").optional(),
};

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

function sameEndpoint(hook: Webhook, inputs: Props): boolean {
  return hook.url === inputs.url && [...new Set(hook.events)].sort().join(",") === (inputs.events as string[]).join(",");
}

/** Creates sent in all to make a webhook anew while their answers are lost (each lost one's webhook is removed). */
const REMAKE_ATTEMPTS = 2;

async function createWebhook(ctx: CallContext, inputs: Props): Promise<Webhook> {
  const api = ctx.api.email;
  const body = { url: inputs.url as string, events: inputs.events as string[] };
  const { object } = await createOnce<Webhook>(inputs, {
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

export const webhook: ResourceImpl = {
  async check(_olds, news) {
    // A signing secret pasted as an input is refused without its value (sensitiveFailure).
    return checkInputs(news, fields, undefined, { sensitive: ["secret"] });
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: ["url", "events"], update: [] });
  },

  async create(inputs, ctx) {
    try {
      const hook = await createWebhook(ctx, inputs);
      return { id: hook.id, outs: webhookProperties(hook, inputs).outputs };
    } catch (err) {
      const hint = isApiError(err, "WEBHOOK_LIMIT_REACHED")
        ? "The plan allows no more webhooks. If this happened while replacing a webhook, set the resource option `deleteBeforeReplace: true` so the old one is deleted first"
        : isApiError(err, "INVALID_URL")
          ? "The URL must be https with a public fully-qualified host and no credentials"
          : undefined;
      throw operationError("create", err, hint);
    }
  },

  async update(_id, _olds, news) {
    // Unreachable in practice (every input replaces); answer complete outputs all the same.
    return { outs: news };
  },

  async read(id, props, ctx) {
    let hooks: Webhook[];
    try {
      hooks = await ctx.api.webhooks.snapshot();
    } catch (err) {
      throw operationError("read", err);
    }
    const hook = hooks.find((h) => h.id === id);
    if (!hook) return { id: "", props: {} };
    // The API never answers the secret again: the mapper keeps the one from the prior state.
    const { inputs, outputs } = webhookProperties(hook, props);
    return { id, props: outputs, inputs };
  },

  async delete(id, _props, ctx) {
    try {
      await ctx.api.email.call("email.webhooks.delete", { params: { webhookId: id } });
    } catch (err) {
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
