/**
 * The answer of a completion request without `stream`: the model's delay, then the canned
 * completion, charged. An AI fault answers its status after the delay (`mid-stream`) or closes the
 * connection without an answer (`break`).
 */
import type { FastifyReply } from "fastify";
import { logCall, type AiCall, type Gateway } from "./call";
import { cannedAnswer, completionBody, type Ids } from "./completions";
import { faultError } from "./errors";
import type { Prompt } from "./prompt";
import { sendError, sendOk } from "./respond";
import { aiState, type AiFaultRec, type AiModelRec, type AiSettings } from "./state";
import { responseTimers } from "./timers";
import { recordUsage } from "./usage";

/** A request that passed every check and holds its cost: what its answer, plain or streamed, needs. */
export interface Completion extends Prompt {
  call: AiCall;
  /** Most output tokens (see outputCap). */
  cap: number;
  /** An AI fault of mode `mid-stream` or `break` (a `before` fault refused the request already). */
  fault: AiFaultRec | undefined;
  ids: Ids;
}

/** Time before the model's first output: its own delay, else the global setting. */
export const firstOutputDelayMs = (model: AiModelRec, settings: AiSettings) => model.delayMs ?? settings.delayMs;

export async function answerPlain(gw: Gateway, reply: FastifyReply, c: Completion): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  const timers = responseTimers(res);
  const went = await timers.wait(firstOutputDelayMs(c.model, aiState(gw.emu.world).settings));
  if (!went || timers.closed) return logCall(gw, c.call, 0, "client_closed", true);
  if (c.fault?.mode === "mid-stream") return sendError(gw, reply, c.call, faultError(c.fault.kind));
  if (c.fault?.mode === "break") {
    logCall(gw, c.call, 0, c.fault.kind, true);
    res.destroy();
    return;
  }
  const answer = cannedAnswer(c.body, c.model, c.cap);
  recordUsage(gw.emu, c.call, c.model, c.input, answer.outputTokens, "completed");
  sendOk(gw, reply, c.call, completionBody(c.call.style, c.ids, c.model, answer, c.input));
}
