/**
 * Canned, deterministic answers in the shapes the official SDKs parse: OpenAI `chat.completion`
 * (and its `chat.completion.chunk` stream), Anthropic `message` (and its named-event stream),
 * `count_tokens`. Tokens are counted as ceil(characters / 4).
 */
import type { AiStyle } from "../../contract/routes";
import { AiError, errorBody } from "./errors";
import { DEFAULT_OUTPUT_CAP, type AiModelRec } from "./state";

export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Text of one message content: a string, or parts whose `text` counts (others by their JSON). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : JSON.stringify(part)))
      .join("\n");
  }
  if (content === null || content === undefined) return "";
  return JSON.stringify(content);
}

type Body = Record<string, unknown>;
type Message = { role: string; content: unknown };

/** 400 `invalid_request` for what the model refuses: message format, max_tokens, stream flag. */
export function validateParams(style: AiStyle, body: Body, countOnly: boolean): void {
  const bad = (message: string) => new AiError(400, "invalid_request", message);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw bad("messages: must be a non-empty array");
  messages.forEach((m, i) => {
    if (!m || typeof m !== "object" || Array.isArray(m)) throw bad(`messages.${i}: must be an object`);
    const role = (m as { role?: unknown }).role;
    const roles = style === "anthropic" ? ["user", "assistant"] : ["system", "developer", "user", "assistant", "tool", "function"];
    if (typeof role !== "string" || !roles.includes(role)) throw bad(`messages.${i}.role: must be one of ${roles.join(", ")}`);
    const content = (m as { content?: unknown }).content;
    const okContent = typeof content === "string" || Array.isArray(content) || (style === "openai" && (content === null || content === undefined) && role === "assistant");
    if (!okContent) throw bad(`messages.${i}.content: must be a string or an array of content parts`);
  });
  if (style === "anthropic" && body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system)) {
    throw bad("system: must be a string or an array of text blocks");
  }
  if (countOnly) return;
  for (const field of ["max_tokens", "max_completion_tokens"]) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw bad(`${field}: must be a positive integer`);
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") throw bad("stream: must be a boolean");
}

export function inputTokens(style: AiStyle, body: Body): number {
  const parts: string[] = [];
  if (style === "anthropic" && body.system !== undefined) parts.push(contentText(body.system));
  for (const m of body.messages as Message[]) parts.push(contentText(m.content));
  if (body.tools !== undefined) parts.push(JSON.stringify(body.tools));
  return tokensOf(parts.join("\n"));
}

/** The output cap: `max_tokens` (or `max_completion_tokens`), else 16,384; never above the model's limit. */
export function outputCap(body: Body, model: AiModelRec): number {
  const asked = (body.max_completion_tokens ?? body.max_tokens) as number | undefined | null;
  return Math.min(asked ?? DEFAULT_OUTPUT_CAP, model.outputLimit);
}

export function cost(model: AiModelRec, input: number, output: number): number {
  return Math.ceil(input * model.price.input + output * model.price.output);
}

export interface Answer {
  text: string;
  outputTokens: number;
  truncated: boolean;
}

/** The canned reply: derived from the last user message, cut to the output cap. */
export function cannedAnswer(body: Body, model: AiModelRec, cap: number): Answer {
  const messages = body.messages as Message[];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const said = lastUser ? contentText(lastUser.content).trim() : "";
  let text = `Emulated reply from ${model.id}: ${said || "(no user message)"}`;
  let truncated = false;
  if (tokensOf(text) > cap) {
    text = text.slice(0, cap * 4);
    truncated = true;
  }
  return { text, outputTokens: tokensOf(text), truncated };
}

/** Pieces of a streamed answer: one word (with its trailing space) per chunk. */
export function piecesOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export interface Ids {
  id: string;
  created: number;
}

export function completionBody(style: AiStyle, ids: Ids, model: AiModelRec, answer: Answer, input: number): Record<string, unknown> {
  if (style === "anthropic") {
    return {
      id: ids.id,
      type: "message",
      role: "assistant",
      model: model.id,
      content: [{ type: "text", text: answer.text }],
      stop_reason: answer.truncated ? "max_tokens" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: answer.outputTokens },
    };
  }
  return {
    id: ids.id,
    object: "chat.completion",
    created: ids.created,
    model: model.id,
    choices: [{ index: 0, message: { role: "assistant", content: answer.text, refusal: null }, logprobs: null, finish_reason: answer.truncated ? "length" : "stop" }],
    usage: { prompt_tokens: input, completion_tokens: answer.outputTokens, total_tokens: input + answer.outputTokens },
  };
}

// ---- server-sent events ----

const sse = (event: string | null, data: unknown) => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
export const KEEP_ALIVE = ": keep-alive\n\n";

/** The stream's opening, sent with the first output. */
export function streamStart(style: AiStyle, ids: Ids, model: AiModelRec, input: number): string {
  if (style === "anthropic") {
    return (
      sse("message_start", {
        type: "message_start",
        message: { id: ids.id, type: "message", role: "assistant", model: model.id, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 0 } },
      }) + sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } })
    );
  }
  return sse(null, chunk(ids, model, { role: "assistant", content: "" }, null));
}

function chunk(ids: Ids, model: AiModelRec, delta: Record<string, unknown>, finish: string | null) {
  return { id: ids.id, object: "chat.completion.chunk", created: ids.created, model: model.id, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

export function streamDelta(style: AiStyle, ids: Ids, model: AiModelRec, text: string): string {
  if (style === "anthropic") return sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
  return sse(null, chunk(ids, model, { content: text }, null));
}

/** The normal end, with the end marker (`data: [DONE]` / `message_stop`). */
export function streamEnd(style: AiStyle, ids: Ids, model: AiModelRec, answer: Answer, input: number, includeUsage: boolean): string {
  if (style === "anthropic") {
    return (
      sse("content_block_stop", { type: "content_block_stop", index: 0 }) +
      sse("message_delta", { type: "message_delta", delta: { stop_reason: answer.truncated ? "max_tokens" : "end_turn", stop_sequence: null }, usage: { output_tokens: answer.outputTokens } }) +
      sse("message_stop", { type: "message_stop" })
    );
  }
  let out = sse(null, chunk(ids, model, {}, answer.truncated ? "length" : "stop"));
  if (includeUsage) {
    out += sse(null, {
      id: ids.id,
      object: "chat.completion.chunk",
      created: ids.created,
      model: model.id,
      choices: [],
      usage: { prompt_tokens: input, completion_tokens: answer.outputTokens, total_tokens: input + answer.outputTokens },
    });
  }
  return out + sse(null, "[DONE]");
}

/** A failure after the 200: the error as the last event (OpenAI: then `data: [DONE]`). */
export function streamError(style: AiStyle, err: AiError): string {
  const body = errorBody(style, err.status, err.code, err.message);
  if (style === "anthropic") return sse("error", body);
  return sse(null, body) + sse(null, "[DONE]");
}
