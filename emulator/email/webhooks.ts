/**
 * Webhooks: created with a signing secret that only the creating answer shows; no update route.
 * Unknown event names are dropped (the spec's NO_EVENTS refuses only a list with no valid name).
 */
import { webhookEventNames } from "../../contract/schemas";
import type { Ctx, Handlers } from "../core/module";
import { EmuError } from "../core/errors";
import { isLoopbackHostname } from "./delivery";
import { webhookUrlProblem as sharedWebhookUrlProblem, WEBHOOK_URL_MAX_CHARS } from "../../contract/hosts";
import { callerPlan, callerProject, emailState, recordUserActivity, type WebhookRec } from "./state";

const ENTITY = "email_webhook";
const MAX_EVENTS = 20;
const SECRET_PREFIX = "whsec_";
const KNOWN_EVENTS: ReadonlySet<string> = new Set(webhookEventNames);

export function webhookView(w: WebhookRec) {
  return {
    id: w.id,
    url: w.url,
    events: [...w.events],
    enabled: w.enabled,
    failCount: w.failCount,
    lastTriggeredAt: w.lastTriggeredAt,
    createdAt: w.createdAt,
  };
}

/**
 * Why a webhook url is refused (the spec's rule, shared with the provider's check: contract/hosts.ts),
 * or null. With `allowLocal` (emulator option `allowLocalWebhooks`) a loopback host (`localhost`,
 * 127.0.0.0/8, `[::1]`) is accepted too, over `http://` or `https://`, without credentials.
 */
export function webhookUrlProblem(url: string, allowLocal = false): string | null {
  if (allowLocal && url.length <= WEBHOOK_URL_MAX_CHARS && !/[\s\x00-\x1f\x7f@]/.test(url)) {
    try {
      const parsed = new URL(url);
      if (isLoopbackHostname(parsed.hostname) && (parsed.protocol === "http:" || parsed.protocol === "https:")) return null;
    } catch {
      /* the shared rule words it */
    }
  }
  return sharedWebhookUrlProblem(url) ?? null;
}

function projectWebhooks(ctx: Ctx): WebhookRec[] {
  const projectId = callerProject(ctx).id;
  return emailState(ctx.world).webhooks.filter((w) => w.projectId === projectId);
}

export const webhookHandlers: Handlers<"email.webhooks.list" | "email.webhooks.create" | "email.webhooks.delete"> = {
  "email.webhooks.list": (ctx) => projectWebhooks(ctx).map(webhookView),

  "email.webhooks.create": (ctx) => {
    const { url, events } = ctx.body;
    if (events.length > MAX_EVENTS) throw new EmuError(422, "VALIDATION", `events: at most ${MAX_EVENTS} entries (got ${events.length})`);
    const problem = webhookUrlProblem(url, ctx.emu.options.allowLocalWebhooks === true);
    if (problem) throw new EmuError(400, "INVALID_URL", `Webhook url ${problem}`);
    const valid = [...new Set(events.filter((e) => KNOWN_EVENTS.has(e)))];
    if (valid.length === 0) throw new EmuError(400, "NO_EVENTS", `No valid event name; known events: ${webhookEventNames.join(", ")}`);
    const limit = callerPlan(ctx).webhooks;
    if (projectWebhooks(ctx).length >= limit) throw new EmuError(402, "WEBHOOK_LIMIT_REACHED", `Your plan allows ${limit} webhooks`);

    const webhook: WebhookRec = {
      id: ctx.emu.uuid(),
      projectId: callerProject(ctx).id,
      url,
      events: valid,
      enabled: true,
      failCount: 0,
      lastTriggeredAt: null,
      createdAt: ctx.emu.nowIso(),
      secret: SECRET_PREFIX + ctx.emu.hex(64),
    };
    emailState(ctx.world).webhooks.push(webhook);
    recordUserActivity(ctx, "email.webhook.created", ENTITY, webhook.id, webhook.url);
    return { ...webhookView(webhook), secret: webhook.secret };
  },

  "email.webhooks.delete": (ctx) => {
    const webhook = projectWebhooks(ctx).find((w) => w.id === ctx.params.webhookId);
    if (!webhook) throw new EmuError(404, "WEBHOOK_NOT_FOUND", "Webhook not found");
    const state = emailState(ctx.world);
    state.webhooks = state.webhooks.filter((w) => w !== webhook);
    recordUserActivity(ctx, "email.webhook.deleted", ENTITY, webhook.id, webhook.url);
    return { deleted: true as const };
  },
};
