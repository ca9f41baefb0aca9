/**
 * The three POST routes once admitted, after the prompt's refusals (prompt.ts): count_tokens
 * answers at once; chat/completions and messages take a hold of their largest cost (402), take an
 * AI fault if one applies (`before`: its status now) and start their answer, plain or streamed,
 * which runs on after the handler returns.
 */
import type { FastifyReply } from "fastify";
import { routes } from "../../contract/routes";
import type { Emu } from "../core/emu";
import { answerPlain, type Completion } from "./answer";
import { logCall, type AiCall, type Gateway } from "./call";
import { cost, outputCap, type Ids } from "./completions";
import { faultError } from "./errors";
import { takeHold } from "./limits";
import { readPrompt } from "./prompt";
import { sendError, sendOk, toAiError } from "./respond";
import { aiState, type AiFaultRec } from "./state";
import { answerStream } from "./stream";

export async function countTokens(gw: Gateway, call: AiCall, reply: FastifyReply, raw: unknown): Promise<FastifyReply> {
  const { input } = readPrompt(gw.emu, call, raw, true);
  sendOk(gw, reply, call, routes["ai.countTokens"].response.parse({ input_tokens: input }));
  return reply;
}

export async function complete(gw: Gateway, call: AiCall, reply: FastifyReply, raw: unknown): Promise<FastifyReply> {
  const prompt = readPrompt(gw.emu, call, raw, false);
  const { model, input } = prompt;
  const cap = outputCap(prompt.body, model);
  const release = takeHold(gw.emu, call.key!, call.requestId!, cost(model, input, cap));
  reply.raw.once("close", release);
  const fault = takeAiFault(gw.emu, model.id);
  if (fault) call.faultId = fault.id;
  if (fault?.mode === "before") {
    release();
    throw faultError(fault.kind);
  }
  const ids: Ids = { id: (call.style === "anthropic" ? "msg_" : "chatcmpl-") + gw.emu.hex(24), created: Math.floor(gw.emu.nowMs() / 1000) };
  startAnswer(gw, reply, { ...prompt, call, cap, fault, ids });
  return reply;
}

/** Takes one use of the first AI fault that applies to this model. */
function takeAiFault(emu: Emu, model: string): AiFaultRec | undefined {
  const ai = aiState(emu.world);
  const fault = ai.faults.find((f) => f.remaining > 0 && (f.model === null || f.model === model));
  if (!fault) return undefined;
  fault.remaining--;
  ai.faults = ai.faults.filter((f) => f.remaining > 0);
  return fault;
}

/** The answer runs on its own (timers, stream writes); errors after the hijack end the response. */
function startAnswer(gw: Gateway, reply: FastifyReply, c: Completion): void {
  const run = c.body.stream === true ? answerStream : answerPlain;
  run(gw, reply, c).catch((error) => {
    if (!reply.raw.headersSent) return sendError(gw, reply, c.call, toAiError(error));
    reply.raw.destroy();
    logCall(gw, c.call, 500, "internal_error");
  });
}
