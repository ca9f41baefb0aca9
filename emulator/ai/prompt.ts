/**
 * What the gateway refuses in an admitted POST, in the spec's order: the body (400 not JSON, not an
 * object, no model; an 8 MB+ body never gets here, see toAiError), the model (404 / 410 / 400
 * `unsupported_format`), the parameters (400) and a prompt over the model's context window (413).
 */
import type { Emu } from "../core/emu";
import { parseJsonBody } from "../core/json";
import { pathOf, type AiCall } from "./call";
import { inputTokens, validateParams } from "./completions";
import { AiError } from "./errors";
import { keyAllowsModel } from "./limits";
import { aiState, type AiModelRec } from "./state";

/** A request the model accepts: its body, its model and its input tokens. */
export interface Prompt {
  body: Record<string, unknown>;
  model: AiModelRec;
  input: number;
}

/** `countOnly`: count_tokens, which takes no output parameters. */
export function readPrompt(emu: Emu, call: AiCall, raw: unknown, countOnly: boolean): Prompt {
  const body = parseBody(raw);
  if (typeof body.model !== "string" || body.model === "") throw new AiError(400, "invalid_request", "model: required (a model id from GET /v1/models)");
  const model = resolveModel(emu, call, body.model);
  validateParams(call.style, body, countOnly);
  const input = inputTokens(call.style, body);
  if (input > model.contextWindow) {
    throw new AiError(413, "invalid_request", `Prompt is too long: ${input} tokens > ${model.contextWindow} maximum for ${model.id}`);
  }
  return { body, model, input };
}

/** The raw text as a JSON object (the scope's parser leaves JSON errors to the gateway's own 400). */
function parseBody(raw: unknown): Record<string, unknown> {
  let body: unknown;
  if (typeof raw === "string" && raw.trim() !== "") {
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) throw new AiError(400, "invalid_request", parsed.message);
    body = parsed.value;
  }
  if (body === undefined) throw new AiError(400, "invalid_request", "Body required: a JSON object with a model field");
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new AiError(400, "invalid_request", "Body must be a JSON object");
  return body as Record<string, unknown>;
}

/** The model of a request, or the spec's 404 / 410 / 400 `unsupported_format`. */
function resolveModel(emu: Emu, call: AiCall, id: string): AiModelRec {
  const model = aiState(emu.world).models.find((m) => m.id === id);
  if (!model || !model.enabled || !keyAllowsModel(emu, call.key!, model.id)) {
    throw new AiError(404, "model_not_found", `Model '${id}' not found: choose an id from GET /v1/models`);
  }
  if (model.retired) {
    throw new AiError(410, "model_retired", `Model '${id}' is retired: use '${model.replacement ?? "another model from GET /v1/models"}' instead`);
  }
  if (!model.styles.includes(call.style)) {
    const right = call.style === "openai" ? `POST ${pathOf("ai.messages")} (Anthropic style, base {ai_base_url})` : `POST ${pathOf("ai.chatCompletions")} (OpenAI style, base {ai_base_url}/v1)`;
    throw new AiError(400, "unsupported_format", `Model '${id}' is not served in the ${call.style === "openai" ? "OpenAI" : "Anthropic"} style: call ${right}`);
  }
  return model;
}
