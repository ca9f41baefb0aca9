/**
 * The answer of a completion request with `stream: true`: 200 at once, keep-alive comments while
 * there is no output, the canned text one word per event after the model's delay, then the end
 * marker. An AI fault cuts the text after `afterChunks` words and sends its error as the last event
 * (`mid-stream`) or ends without the marker (`break`). A stream that does not complete is charged
 * for what it wrote; nothing written, nothing charged.
 */
import type { FastifyReply } from "fastify";
import { firstOutputDelayMs, type Completion } from "./answer";
import { logCall, type Gateway, type RawResponse } from "./call";
import { cannedAnswer, KEEP_ALIVE, piecesOf, streamDelta, streamEnd, streamError, streamStart, tokensOf, type Answer } from "./completions";
import { faultError } from "./errors";
import { requestIdHeaders } from "./respond";
import { aiState, type AiSettings, type AiUsageRec } from "./state";
import { responseTimers, type ResponseTimers } from "./timers";
import { recordUsage } from "./usage";

export async function answerStream(gw: Gateway, reply: FastifyReply, c: Completion): Promise<void> {
  reply.hijack();
  await new AnswerStream(gw, reply.raw, c).run();
}

class AnswerStream {
  private readonly settings: AiSettings;
  private readonly timers: ResponseTimers;
  private readonly answer: Answer;
  /** The text written so far: what a stream that does not complete is charged for. */
  private generated = "";
  private started = false;
  private ended = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly gw: Gateway,
    private readonly res: RawResponse,
    private readonly c: Completion,
  ) {
    this.settings = aiState(gw.emu.world).settings;
    this.timers = responseTimers(res);
    this.answer = cannedAnswer(c.body, c.model, c.cap);
  }

  async run(): Promise<void> {
    this.open();
    if (!(await this.timers.wait(firstOutputDelayMs(this.c.model, this.settings)))) return;
    if (await this.writePieces()) this.end();
  }

  /** 200 and the event-stream headers now; a client that goes away before the end cancels the answer. */
  private open(): void {
    this.gw.open.add(this.res);
    this.res.writeHead(200, { ...requestIdHeaders(this.c.call, 200), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    this.res.flushHeaders();
    this.res.once("close", () => {
      if (!this.ended) this.finish("cancelled", "client_closed", false);
    });
    this.armKeepAlive(this.settings.keepAliveFirstMs);
  }

  /** The answer's words, up to a fault's `afterChunks`; false when the client went away meanwhile. */
  private async writePieces(): Promise<boolean> {
    const { call, ids, model, fault } = this.c;
    const pieces = piecesOf(this.answer.text);
    const upTo = fault ? Math.min(fault.afterChunks, pieces.length) : pieces.length;
    for (let i = 0; i < upTo; i++) {
      if (i > 0 && this.settings.chunkDelayMs > 0 && !(await this.timers.wait(this.settings.chunkDelayMs))) return false;
      if (this.timers.closed) return false;
      this.startOnce();
      this.write(streamDelta(call.style, ids, model, pieces[i]));
      this.generated += pieces[i];
    }
    return !this.timers.closed;
  }

  /** The last event: the fault's error, a break (no end marker), or the normal end. */
  private end(): void {
    const { call, ids, model, input, body, fault } = this.c;
    if (fault?.mode === "mid-stream") {
      this.write(streamError(call.style, faultError(fault.kind)));
      this.finish("failed", fault.kind, false);
    } else if (fault?.mode === "break") {
      // The body ends without `data: [DONE]` / `message_stop`.
      this.finish("broken", fault.kind, true);
    } else {
      this.startOnce();
      this.write(streamEnd(call.style, ids, model, this.answer, input, Boolean((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)));
      this.finish("completed", null, false);
    }
    this.res.end();
  }

  /** The stream's opening goes with its first output. */
  private startOnce(): void {
    if (this.started) return;
    this.write(streamStart(this.c.call.style, this.c.ids, this.c.model, this.c.input));
    this.started = true;
  }

  private write(text: string): void {
    if (this.timers.closed) return;
    this.res.write(text);
    this.armKeepAlive(this.settings.keepAliveFirstMs);
  }

  /** Keep-alive comments while there is no output: the first after keepAliveFirstMs, then every keepAliveEveryMs. */
  private armKeepAlive(ms: number): void {
    this.timers.clear(this.keepAlive);
    this.keepAlive = this.timers.timer(ms, () => {
      if (this.timers.closed) return;
      this.res.write(KEEP_ALIVE);
      this.armKeepAlive(this.settings.keepAliveEveryMs);
    });
  }

  private finish(outcome: AiUsageRec["outcome"], code: string | null, dropped: boolean): void {
    this.ended = true;
    this.timers.clear(this.keepAlive);
    this.gw.open.delete(this.res);
    const { call, model, input } = this.c;
    const output = tokensOf(this.generated);
    // Nothing written yet: nothing charged (an error before any output, or a cancel while waiting).
    if (outcome === "completed" || output > 0) recordUsage(this.gw.emu, call, model, input, outcome === "completed" ? this.answer.outputTokens : output, outcome);
    logCall(this.gw, call, 200, code, dropped);
  }
}
