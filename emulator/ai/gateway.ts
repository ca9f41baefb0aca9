/**
 * The gateway's HTTP side: the four AI routes of the route table under `/ai`, in an encapsulated
 * fastify scope with its own body parser (8 MB), error handler and not-found handler, so the
 * envelope machinery of the other services never answers an AI request.
 *
 * Every answer is written on the raw response (see respond.ts), and the gateway logs each request
 * itself, once, with its own code, when the request is over (streams: when they end).
 *
 * Order of one request: generic fault rules → key (401/403) → limits 1–4 (429/403/429)
 * (admission.ts) → body (413/400) → model (404/410/400) → parameters (400, 413 prompt too long)
 * (prompt.ts) → hold (402) → AI fault `before` (complete.ts) → model delay → answer (or a
 * `mid-stream` / `break` fault) (answer.ts, stream.ts).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { routes } from "../../contract/routes";
import type { Emu } from "../core/emu";
import type { FaultBook, RequestLog } from "../core/faults";
import { SERVICE_PREFIX } from "../core/module";
import { admit } from "./admission";
import { aiRoutes, callOf, newGateway, type AiCall, type AiRouteId, type Gateway } from "./call";
import { complete, countTokens } from "./complete";
import { AiError } from "./errors";
import { listModels } from "./models";
import { sendError, toAiError } from "./respond";
import { AI_BODY_LIMIT_BYTES } from "./state";

/** A route's handler, after admission: `body` is the raw request text. */
type AiHandler = (gw: Gateway, call: AiCall, reply: FastifyReply, body: unknown) => Promise<FastifyReply>;

const handlers: Record<AiRouteId, AiHandler> = {
  "ai.models": listModels,
  "ai.chatCompletions": complete,
  "ai.messages": complete,
  "ai.countTokens": countTokens,
};

export function registerGateway(app: FastifyInstance, emu: Emu, parts: { faults: FaultBook; log: RequestLog }): void {
  const gw = newGateway(emu, parts);
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
          handler: (request, reply) => handlers[routeId](gw, callOf(gw, request, routeId), reply, request.body),
        });
      }
    },
    { prefix: SERVICE_PREFIX.ai },
  );
}
