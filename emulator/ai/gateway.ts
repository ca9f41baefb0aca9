/**
 * The gateway's HTTP side: the four AI routes of the route table under `/ai`, in an encapsulated
 * fastify scope with its own body parser (8 MB), error handler and not-found handler, so the
 * envelope machinery of the other services never answers an AI request.
 *
 * Every answer is written on the raw response (`reply.hijack()`): the app-wide onSend hook (which
 * logs envelope codes) does not see it, and the gateway logs each request itself, once, with its
 * own code, when the request is over (streams: when they end).
 *
 * Order of one request: generic fault rules → key (401/403) → limits 1–4 (429/403/429) → body
 * (413/400) → model (404/410/400) → parameters (400, 413 prompt too long) → hold (402) → AI fault
 * `before` → model delay → answer (or a `mid-stream` / `break` fault).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { routes } from "../../contract/routes";
import { SERVICE_PREFIX } from "../core/module";
import type { Emu } from "../core/emu";
import type { FaultBook, RequestLog } from "../core/faults";
import {
  cannedAnswer,
  completionBody,
  cost,
  KEEP_ALIVE,
  outputCap,
  piecesOf,
  streamDelta,
  streamEnd,
  streamError,
  streamStart,
  tokensOf,
  type Answer,
  type Ids,
} from "./completions";
import { admit } from "./admission";
import { aiRoutes, callOf, logCall, newGateway, type AiCall, type AiRouteId } from "./call";
import { AiError, faultError } from "./errors";
import { listModels } from "./models";
import { readPrompt } from "./prompt";
import { charge, takeHold } from "./limits";
import { requestIdHeaders, sendError, sendOk, toAiError } from "./respond";
import { AI_BODY_LIMIT_BYTES, aiState, USAGE_CAP, type AiFaultRec, type AiModelRec, type AiUsageRec } from "./state";

export function registerGateway(app: FastifyInstance, emu: Emu, parts: { faults: FaultBook; log: RequestLog }): void {
  const gw = newGateway(emu, parts);

  /** Takes one use of the first AI fault that applies to this model. */
  function takeAiFault(model: string): AiFaultRec | undefined {
    const ai = aiState(emu.world);
    const fault = ai.faults.find((f) => f.remaining > 0 && (f.model === null || f.model === model));
    if (!fault) return undefined;
    fault.remaining--;
    ai.faults = ai.faults.filter((f) => f.remaining > 0);
    return fault;
  }

  function record(call: AiCall, model: AiModelRec, input: number, output: number, outcome: AiUsageRec["outcome"]): void {
    const amount = cost(model, input, output);
    charge(emu, call.key!.key, amount);
    const ai = aiState(emu.world);
    ai.usage.unshift({ requestId: call.requestId!, time: emu.nowIso(), keyPrefix: call.key!.key.slice(0, 12), model: model.id, inputTokens: input, outputTokens: output, cost: amount, outcome });
    if (ai.usage.length > USAGE_CAP) ai.usage.length = USAGE_CAP;
  }

  /** Timers of one request, all cleared when its response closes. */
  function timersOf(res: FastifyReply["raw"]) {
    const timers = new Set<NodeJS.Timeout>();
    const waiters = new Set<(done: boolean) => void>();
    let closed = false;
    const socket = res.socket;
    res.once("close", () => {
      closed = true;
      // The client went away mid-answer: drop the half-closed connection (it would hold the server's close()).
      if (!res.writableEnded) socket?.destroy();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const w of waiters) w(false);
      waiters.clear();
    });
    return {
      get closed() {
        return closed || res.destroyed;
      },
      /** Resolves true after `ms`, false if the response closed first. */
      wait(ms: number): Promise<boolean> {
        if (closed) return Promise.resolve(false);
        if (ms <= 0) return Promise.resolve(true);
        return new Promise((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            waiters.delete(resolve);
            resolve(true);
          }, ms);
          timers.add(t);
          waiters.add(resolve);
        });
      },
      timer(ms: number, fn: () => void): NodeJS.Timeout | undefined {
        if (closed) return undefined;
        const t = setTimeout(() => {
          timers.delete(t);
          fn();
        }, ms);
        timers.add(t);
        return t;
      },
      clear(t: NodeJS.Timeout | undefined) {
        if (!t) return;
        clearTimeout(t);
        timers.delete(t);
      },
    };
  }

  async function answerPlain(reply: FastifyReply, call: AiCall, model: AiModelRec, body: Record<string, unknown>, input: number, cap: number, fault: AiFaultRec | undefined, ids: Ids) {
    reply.hijack();
    const res = reply.raw;
    const t = timersOf(res);
    const went = await t.wait(model.delayMs ?? aiState(emu.world).settings.delayMs);
    if (!went || t.closed) return logCall(gw, call, 0, "client_closed", true);
    if (fault?.mode === "mid-stream") return void sendError(gw, reply, call, faultError(fault.kind));
    if (fault?.mode === "break") {
      logCall(gw, call, 0, fault.kind, true);
      res.destroy();
      return;
    }
    const answer = cannedAnswer(body, model, cap);
    record(call, model, input, answer.outputTokens, "completed");
    sendOk(gw, reply, call, completionBody(call.style, ids, model, answer, input));
  }

  async function answerStream(reply: FastifyReply, call: AiCall, model: AiModelRec, body: Record<string, unknown>, input: number, cap: number, fault: AiFaultRec | undefined, ids: Ids) {
    reply.hijack();
    const res = reply.raw;
    const settings = aiState(emu.world).settings;
    const t = timersOf(res);
    gw.open.add(res);
    res.writeHead(200, { ...requestIdHeaders(call, 200), "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();

    const answer: Answer = cannedAnswer(body, model, cap);
    let generated = "";
    let started = false;
    let ended = false;
    // Keep-alive comments while there is no output: the first after keepAliveFirstMs, then every keepAliveEveryMs.
    let keepAlive: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      t.clear(keepAlive);
      keepAlive = t.timer(ms, () => {
        if (t.closed) return;
        res.write(KEEP_ALIVE);
        arm(settings.keepAliveEveryMs);
      });
    };
    const write = (text: string) => {
      if (t.closed) return;
      res.write(text);
      arm(settings.keepAliveFirstMs);
    };
    const finish = (outcome: AiUsageRec["outcome"], code: string | null, dropped: boolean) => {
      ended = true;
      t.clear(keepAlive);
      gw.open.delete(res);
      const output = tokensOf(generated);
      // Nothing written yet: nothing charged (an error before any output, or a cancel while waiting).
      if (outcome === "completed" || output > 0) record(call, model, input, outcome === "completed" ? answer.outputTokens : output, outcome);
      logCall(gw, call, 200, code, dropped);
    };
    res.once("close", () => {
      if (!ended) finish("cancelled", "client_closed", false);
    });
    arm(settings.keepAliveFirstMs);

    if (!(await t.wait(model.delayMs ?? settings.delayMs))) return;
    const pieces = piecesOf(answer.text);
    const upTo = fault && fault.mode !== "before" ? Math.min(fault.afterChunks, pieces.length) : pieces.length;
    for (let i = 0; i < upTo; i++) {
      if (i > 0 && settings.chunkDelayMs > 0 && !(await t.wait(settings.chunkDelayMs))) return;
      if (t.closed) return;
      if (!started) {
        write(streamStart(call.style, ids, model, input));
        started = true;
      }
      write(streamDelta(call.style, ids, model, pieces[i]));
      generated += pieces[i];
    }
    if (t.closed) return;
    if (fault?.mode === "mid-stream") {
      write(streamError(call.style, faultError(fault.kind)));
      finish("failed", fault.kind, false);
      res.end();
      return;
    }
    if (fault?.mode === "break") {
      finish("broken", fault.kind, true);
      res.end(); // the body ends without `data: [DONE]` / `message_stop`
      return;
    }
    if (!started) write(streamStart(call.style, ids, model, input));
    write(streamEnd(call.style, ids, model, answer, input, Boolean((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage)));
    finish("completed", null, false);
    res.end();
  }

  async function handle(routeId: AiRouteId, request: FastifyRequest, reply: FastifyReply) {
    const call = callOf(gw, request, routeId);
    if (routeId === "ai.models") return listModels(gw, call, reply);
    const countOnly = routeId === "ai.countTokens";
    const { body: b, model, input } = readPrompt(emu, call, request.body, countOnly);
    if (countOnly) {
      sendOk(gw, reply, call, routes["ai.countTokens"].response.parse({ input_tokens: input }));
      return reply;
    }

    const cap = outputCap(b, model);
    const release = takeHold(emu, call.requestId!, cost(model, input, cap));
    reply.raw.once("close", release);
    const fault = takeAiFault(model.id);
    if (fault) call.faultId = fault.id;
    if (fault?.mode === "before") {
      release();
      throw faultError(fault.kind);
    }
    const ids: Ids = { id: (call.style === "anthropic" ? "msg_" : "chatcmpl-") + emu.hex(24), created: Math.floor(emu.nowMs() / 1000) };
    const run = b.stream === true ? answerStream : answerPlain;
    // The answer runs on its own (timers, stream writes); errors after the hijack end the response.
    run(reply, call, model, b, input, cap, fault, ids).catch((error) => {
      if (!reply.raw.headersSent) return sendError(gw, reply, call, toAiError(error));
      reply.raw.destroy();
      logCall(gw, call, 500, "internal_error");
    });
    return reply;
  }

  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      // The raw text: JSON errors are the gateway's own 400 `invalid_request`, in the route's style.
      scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: AI_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
      scope.setErrorHandler((error, request, reply) => {
        sendError(gw, reply, callOf(gw, request, null), toAiError(error));
      });
      scope.setNotFoundHandler((request, reply) => {
        const call = callOf(gw, request, null);
        call.style = "openai";
        sendError(gw, reply, call, new AiError(404, "not_found", `Unknown endpoint ${request.method} ${call.path}: use {ai_base_url}/v1 as the base for OpenAI-style clients and {ai_base_url} for Anthropic-style clients`));
      });
      scope.addHook("preClose", async () => {
        for (const res of gw.open) res.destroy();
        gw.open.clear();
      });

      for (const routeId of aiRoutes) {
        const route = routes[routeId];
        scope.route({
          method: route.method,
          url: route.path,
          bodyLimit: AI_BODY_LIMIT_BYTES,
          onRequest: (request, reply) => admit(gw, routeId, request, reply),
          handler: (request, reply) => handle(routeId, request, reply),
        });
      }
    },
    { prefix: SERVICE_PREFIX.ai },
  );
}
