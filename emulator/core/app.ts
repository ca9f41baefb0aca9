/**
 * The emulator's HTTP app: fastify 5 with fastify-type-provider-zod, one route per entry of the
 * project's route table (response schemas enforced, so the emulator cannot drift from the contract
 * silently), plus the loopback-only control API under `/_emulator`.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { routes, type RouteDef, type RouteId } from "../../contract/routes";
import { authenticate, bearerOf, type Caller } from "./auth";
import { SERVICE_PREFIX, mergeHandlers, type Handler, type HandlerTable, type RequestBody, type RequestQuery, type Refusals, type ServiceModule } from "./module";
import { controlOperations, registerControl, type EmulatorControl } from "./control";
import type { Emu } from "./emu";
import { EmuError, Reply } from "./errors";
import type { ApiErrorCode } from "../../contract/error-codes";
import { FaultBook, RequestLog, type FaultRule } from "./faults";
import { parseJsonBody } from "./json";
import { IdempotencyBook, idempotencyHeader } from "./idempotency";

/** Larger bodies are refused before they are read (422, like any body the schema refuses). */
const BODY_LIMIT_BYTES = 12 * 1024 * 1024;
const RATE_CAPACITY = 10;
const RATE_PER_SECOND = 10;
/** Size of the bucket map at which full (refilled) buckets are swept out. */
const RATE_BUCKETS_SWEEP_AT = 256;

declare module "fastify" {
  interface FastifyRequest {
    svc?: { routeId: RouteId; route: RouteDef; fault?: FaultRule; key?: string; idempotencyScope?: string; replayed?: boolean };
  }
}

function failure(reply: FastifyReply, status: number, code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return reply.code(status).type("application/json").send({ success: false, error: message, code, ...extra });
}

/** The code of an injected fault that names none: a 429 is the rate limit's, anything else an internal error. */
const defaultFaultCode = (status: number | undefined): ApiErrorCode => (status === 429 ? "RATE_LIMITED" : "INTERNAL_ERROR");

/** Routes of the table that no module handles. */
export function missingHandlers(modules: ServiceModule[]): RouteId[] {
  return (Object.keys(routes) as RouteId[]).filter((id) => !modules.some((m) => m.handlers[id] || m.serves?.includes(id)));
}

export interface AppParts {
  app: FastifyInstance;
  faults: FaultBook;
  log: RequestLog;
  control: EmulatorControl;
}

/**
 * A path the router cannot decode (bad percent-encoding) names no route: answered in the envelope,
 * not with the framework's own JSON, and logged like every request (no hook runs there).
 */
function unknownPathAnswer(emu: Emu, log: RequestLog, modules: ServiceModule[]) {
  return (error: Error, request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0];
    const key = bearerOf(request.headers.authorization);
    const message = `No route ${request.method} ${path}: ${error.message}`;
    // A module without the envelope (the AI gateway) answers its own unknown paths in its own shape.
    const own = modules.map((m) => m.notFound?.(path, message)).find((answer) => answer !== undefined);
    const logged = (status: number, code: string) => log.add({ time: emu.nowIso(), keyPrefix: key?.slice(0, 12) ?? null, method: request.method, path, route: null, status, code, fault: null, dropped: false });
    if (own) {
      logged(own.status, own.code);
      return (reply as FastifyReply).code(own.status).type("application/json").send(own.body);
    }
    const answer = unknownRoute(emu, request, reply, path, message);
    logged(reply.statusCode, reply.statusCode === 429 ? "RATE_LIMITED" : "NOT_FOUND");
    return answer;
  };
}

/** Each route's handler and refusal wording, from the modules; their transitions go to `emu`. */
function collectModules(emu: Emu, modules: ServiceModule[]): { handlers: HandlerTable; refusalsOf: Map<RouteId, Refusals> } {
  const handlers = mergeHandlers(modules.map((m) => m.handlers));
  const refusalsOf = new Map<RouteId, Refusals>();
  for (const m of modules) {
    const refusals = m.refusals;
    if (refusals) for (const id of Object.keys(m.handlers) as RouteId[]) refusalsOf.set(id, refusals);
    for (const [kind, fn] of Object.entries(m.transitions ?? {})) emu.registerTransition(kind, fn);
  }
  return { handlers, refusalsOf };
}

/**
 * Server side of the per-key limit, on the emulator clock: answers the seconds to wait, or 0.
 *
 * Only keys the world holds get a bucket: a made-up key (or none) is answered 401 anyway, and a
 * bucket per presented string would let any client grow the emulator's memory without bound. Such
 * requests still carry the headers every response has (spec: "Every response carries
 * X-RateLimit-Limit and X-RateLimit-Remaining"), with a full allowance: no key's bucket was spent.
 * A bucket that has refilled is the same as none, so full buckets are dropped as the map grows.
 */
function rateLimit(emu: Emu, key: string | undefined, reply: FastifyReply): number {
  reply.header("x-ratelimit-limit", String(RATE_CAPACITY));
  if (!key || !emu.world.keys.some((k) => k.key === key)) {
    reply.header("x-ratelimit-remaining", String(RATE_CAPACITY));
    return 0;
  }
  const buckets = emu.rateBuckets;
  const now = emu.nowMs();
  const refilled = (b: { tokens: number; at: number }) => Math.min(RATE_CAPACITY, b.tokens + (Math.max(0, now - b.at) / 1000) * RATE_PER_SECOND);
  if (buckets.size >= RATE_BUCKETS_SWEEP_AT) {
    for (const [k, b] of buckets) if (refilled(b) >= RATE_CAPACITY) buckets.delete(k);
  }
  const b = buckets.get(key) ?? { tokens: RATE_CAPACITY, at: now };
  b.tokens = refilled(b);
  b.at = now;
  buckets.set(key, b);
  let wait = 0;
  if (b.tokens >= 1) b.tokens -= 1;
  else wait = Math.max(1, Math.ceil((1 - b.tokens) / RATE_PER_SECOND));
  reply.header("x-ratelimit-remaining", String(Math.floor(b.tokens)));
  return wait;
}

/**
 * A path under `/api` or `/email` that names no route still answers as the API: platform-api.md,
 * Rate limit: "Every response carries `X-RateLimit-Limit` (10) and `X-RateLimit-Remaining`" (and
 * email-service.md the same), so a 404 carries them, and counts against its key like any request
 * (over the limit it is the 429). The AI gateway's paths and the control API answer in their own way.
 */
function unknownRoute(emu: Emu, request: FastifyRequest, reply: FastifyReply, path: string, message: string) {
  if (/^\/(api|email)(\/|$)/.test(path)) {
    const wait = rateLimit(emu, bearerOf(request.headers.authorization), reply);
    if (wait > 0) {
      reply.header("retry-after", String(wait));
      return failure(reply, 429, "RATE_LIMITED", "Too many requests: over 10 per second for this key");
    }
  }
  return failure(reply, 404, "NOT_FOUND", message);
}

/** Requests a `commit: "after-client-left"` fault holds without an answer. */
interface HeldRequests {
  open: Set<FastifyReply["raw"]>;
  closing: boolean;
}

/**
 * The `commit: "after-client-left"` fault: no answer; once the client has closed the connection
 * (its time-out), and `delayMs` later, the handler runs — the object appears after the client gave
 * up. Logged once, as a dropped request, when it is carried out.
 */
async function commitAfterClientLeft(
  emu: Emu,
  log: RequestLog,
  request: FastifyRequest,
  reply: FastifyReply,
  held: HeldRequests,
  run: () => Promise<void>,
): Promise<void> {
  const svc = request.svc!;
  const fault = svc.fault!;
  reply.hijack();
  const res = reply.raw;
  held.open.add(res);
  await new Promise<void>((resolve) => {
    if (res.destroyed || request.raw.socket.destroyed) return resolve();
    res.once("close", () => resolve());
  });
  held.open.delete(res);
  if (held.closing) return; // the emulator closes: nothing more is carried out
  if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  let code: string | null = null;
  try {
    await run();
  } catch (err) {
    code = err instanceof EmuError ? err.code : "INTERNAL_ERROR";
  }
  log.add({ time: emu.nowIso(), keyPrefix: svc.key?.slice(0, 12) ?? null, method: request.method, path: request.url.split("?")[0], route: svc.routeId, status: 0, code, fault: fault.id, dropped: true });
  emu.save();
}

function drop(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket.destroy();
}

/** The request log: every request, with the code it answered; a fault that acts after the handler runs here. */
function logRequests(app: FastifyInstance, emu: Emu, log: RequestLog, idempotency: IdempotencyBook): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.url.startsWith("/_emulator")) return payload;
    // A change answered 2xx by the envelope APIs is in the state file before its answer leaves; the
    // rest (reads and refusals, which seldom change anything; the AI gateway's answers) is written behind.
    if (request.svc && request.method !== "GET" && reply.statusCode < 300) await emu.committed();
    else emu.save(reply.statusCode >= 300 || request.method === "GET");
    const fault = request.svc?.fault;
    const dropNow = Boolean(fault?.afterCommit && fault.drop);
    // An after-commit fault with a status replaces the handler's answer: what the client gets.
    const faultAnswer =
      fault?.afterCommit && !fault.drop && fault.status
        ? { status: fault.status, body: JSON.stringify({ success: false, error: "Injected fault after commit", code: fault.code ?? defaultFaultCode(fault.status) }) }
        : undefined;
    const sent = faultAnswer?.body ?? payload;
    const status = dropNow ? 0 : (faultAnswer?.status ?? reply.statusCode);
    let code: string | null = null;
    if (typeof sent === "string" && status >= 400) {
      try {
        code = (JSON.parse(sent) as { code?: string }).code ?? null;
      } catch {
        /* not JSON */
      }
    }
    log.add({
      time: emu.nowIso(),
      keyPrefix: request.svc?.key ? request.svc.key.slice(0, 12) : null,
      method: request.method,
      path: request.url.split("?")[0],
      route: request.svc?.routeId ?? null,
      status,
      code,
      fault: fault?.id ?? null,
      dropped: dropNow,
      ...idempotencyLogFields(request),
    });
    // The first request of an Idempotency-Key runs until its answer leaves (REQUEST_IN_PROGRESS meanwhile).
    const finishIdempotency = () => idempotency.finish(request.svc?.idempotencyScope);
    if (fault?.afterCommit) {
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      finishIdempotency();
      if (fault.drop) {
        request.raw.socket.destroy();
        return payload;
      }
      if (faultAnswer) {
        reply.code(faultAnswer.status);
        return faultAnswer.body;
      }
    }
    finishIdempotency();
    return payload;
  });
}

/** A body the JSON parser refuses: not JSON, or nested deeper than MAX_JSON_DEPTH. */
class BodyRefused extends Error {
  readonly statusCode = 400;
  constructor(
    readonly reason: "invalid" | "too-deep",
    message: string,
  ) {
    super(message);
  }
}

/** The request log's view of an Idempotency-Key: the header as sent on a route that reads one (not on a dry run), and whether the answer was a replay. */
function idempotencyLogFields(request: FastifyRequest): { idempotencyKey?: string; replayed?: boolean } {
  // A dry run acts on nothing and its key is not read.
  if (!request.svc?.route.idempotencyKey || (request.query as { dryRun?: string } | undefined)?.dryRun === "true") return {};
  const key = idempotencyHeader(request.headers);
  return { ...(key !== undefined ? { idempotencyKey: key } : {}), ...(request.svc.replayed ? { replayed: true } : {}) };
}

/** Refusals before a handler runs (schema, broken JSON, size, media type), worded per module; unknown routes. */
function answerRefusals(app: FastifyInstance, emu: Emu, refusalsOf: Map<RouteId, Refusals>): void {
  /** Code of a schema refusal: each API names it its own way (its module says how). */
  const validationCode = (routeId: RouteId | undefined) => (routeId && refusalsOf.get(routeId)?.validation) || "VALIDATION";

  app.setErrorHandler((error, request, reply) => {
    const svc = request.svc;
    if (error instanceof EmuError) return failure(reply, error.status, error.code, error.message, error.extra);
    // A path that names no route is 404 whatever its body (fastify parses the body before the not-found handler).
    if (request.is404) return unknownRoute(emu, request, reply, request.url.split("?")[0], `No route ${request.method} ${request.url.split("?")[0]}`);
    const badBody = error instanceof BodyRefused || error instanceof SyntaxError || ["FST_ERR_CTP_INVALID_JSON_BODY", "FST_ERR_CTP_EMPTY_JSON_BODY"].includes((error as { code?: string }).code ?? "");
    // The control API's own refusal of a body (400 VALIDATION, as parseControlBody answers).
    if (!svc && badBody) return failure(reply, 400, "VALIDATION", error instanceof BodyRefused && error.reason === "too-deep" ? error.message : "body: not valid JSON");
    if (svc && error instanceof BodyRefused && error.reason === "too-deep") return failure(reply, 422, validationCode(svc.routeId), error.message);
    if (svc && hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const part = error.validationContext === "querystring" ? "query" : "body";
      const field = (issue?.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".") || part;
      return failure(reply, 422, validationCode(svc.routeId), `${field}: ${issue?.message ?? "invalid"}`);
    }
    const fastifyCode = (error as { code?: string }).code ?? "";
    if (svc && badBody) {
      const badJson = refusalsOf.get(svc.routeId)?.badJson;
      if (badJson) return failure(reply, badJson.status, badJson.code, "Body is not valid JSON");
      return failure(reply, 422, validationCode(svc.routeId), "body: not valid JSON");
    }
    if (fastifyCode === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return failure(reply, 422, validationCode(svc?.routeId), `body: larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MB`);
    }
    if (fastifyCode === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return failure(reply, 422, validationCode(svc?.routeId), "body: send application/json");
    // A handler answered something its route's response schema refuses: the emulator drifted.
    const detail = error instanceof Error ? error.message : String(error);
    if (process.env.SVC_EMULATOR_DEBUG) console.error(`emulator: ${request.method} ${request.url}:`, error);
    return failure(reply, 500, "INTERNAL_ERROR", `Internal error${process.env.SVC_EMULATOR_DEBUG ? `: ${detail}` : ""}`);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    return unknownRoute(emu, request, reply, path, `No route ${request.method} ${path}`);
  });

  // Bodyless POST/DELETE with a JSON content type: accept an empty body as no body.
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    const parsed = parseJsonBody(text);
    if (parsed.ok) return done(null, parsed.value);
    done(new BodyRefused(parsed.reason, parsed.message), undefined);
  });
}

/** One route per entry of the table (but the modules' own): rate limit, faults, auth, then the handler, in the envelope. */
function registerTableRoutes(
  app: FastifyInstance,
  emu: Emu,
  handlers: HandlerTable,
  modules: ServiceModule[],
  faults: FaultBook,
  log: RequestLog,
  idempotency: IdempotencyBook,
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const held: HeldRequests = { open: new Set(), closing: false };
  // Requests held for a client that never leaves would keep close() waiting: closing lets them go uncommitted.
  app.addHook("preClose", async () => {
    held.closing = true;
    for (const res of held.open) res.destroy();
  });
  /** Generic in the route, so that its handler and the body it receives keep the route's types. */
  const registerRoute = <R extends RouteId>(routeId: R, table: { [K in R]?: Handler<K> }): void => {
    const route: RouteDef = routes[routeId];
    // A route without a handler answers 501; tests/emulator asserts that none is left (missingHandlers).
    const handler: Handler<R> =
      table[routeId] ??
      (() => {
        // 501 with a catalogued code: the emulator answers only the spec's codes.
        throw new EmuError(501, "INTERNAL_ERROR", `The emulator does not serve ${route.method} ${route.path} yet`);
      });
    const envelope = z.looseObject({ success: z.literal(true), data: route.response });
    const url = SERVICE_PREFIX[route.service] + route.path.replace(/\{(\w+)\}/g, ":$1");
    typed.route({
      method: route.method,
      url,
      schema: {
        ...(route.body ? { body: route.body } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        response: { 200: envelope, 201: envelope, 202: envelope },
      },
      onRequest: async (request, reply) => {
        const key = bearerOf(request.headers.authorization);
        request.svc = { routeId, route, key };
        emu.settleDue();
        const wait = rateLimit(emu, key, reply);
        if (wait > 0) {
          reply.header("retry-after", String(wait));
          return failure(reply, 429, "RATE_LIMITED", "Too many requests: over 10 per second for this key");
        }
        const fault = faults.match(request.method, request.url.split("?")[0], () => emu.random());
        if (fault) {
          request.svc.fault = fault;
          if (!fault.afterCommit && !fault.commit) {
            if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
            if (fault.drop) {
              log.add({ time: emu.nowIso(), keyPrefix: key?.slice(0, 12) ?? null, method: request.method, path: request.url.split("?")[0], route: routeId, status: 0, code: null, fault: fault.id, dropped: true, ...idempotencyLogFields(request) });
              return drop(request, reply);
            }
            if (fault.status) {
              // An injected 429 is the rate limit's answer: it says when to come back, as the real one does.
              if (fault.status === 429) reply.header("retry-after", "1");
              return failure(reply, fault.status, (fault.code as ApiErrorCode | undefined) ?? defaultFaultCode(fault.status), "Injected fault");
            }
          }
        }
        for (const m of modules) m.beforeRequest?.(emu);
        // Before body validation: a call without a valid key answers 401, whatever its body.
        (request as FastifyRequest & { caller?: Caller }).caller = authenticate(emu, routeId, route, request.headers);
      },
      handler: async (request, reply) => {
        const caller = (request as FastifyRequest & { caller?: Caller }).caller!;
        const query = (request.query ?? {}) as Record<string, unknown>;
        const admission = idempotency.admit(route, caller, request.headers, query);
        if (admission && "replay" in admission) {
          request.svc!.replayed = true;
          const { status, data, extra } = admission.replay;
          return reply.code(status).header("idempotent-replayed", "true").send({ success: true as const, ...extra, data });
        }
        if (admission) request.svc!.idempotencyScope = admission.scope;
        // The validator compiled from `route.body` ran before this handler: the body is its output.
        const run = () => handler({ routeId, emu, world: emu.world, caller, params: request.params as Record<string, string>, query: query as RequestQuery<R>, body: request.body as RequestBody<R>, headers: request.headers });
        const answerOf = (result: unknown) => ({
          status: result instanceof Reply ? (result.options.status ?? route.status) : route.status,
          data: result instanceof Reply ? result.data : result,
          extra: result instanceof Reply ? (result.options.extra ?? {}) : {},
        });
        if (request.svc?.fault?.commit === "after-client-left") {
          return commitAfterClientLeft(emu, log, request, reply, held, async () => {
            // Carried out with nobody listening: a repeat with the key is answered from the record.
            try {
              const result = await run();
              if (admission) idempotency.record(admission.scope, answerOf(result));
            } finally {
              idempotency.finish(admission?.scope);
            }
          });
        }
        let result: unknown;
        try {
          result = await run();
        } catch (err) {
          // A failed first request releases its key.
          idempotency.finish(admission?.scope);
          request.svc!.idempotencyScope = undefined;
          throw err;
        }
        const { status, data, extra } = answerOf(result);
        if (admission) idempotency.record(admission.scope, { status, data, extra });
        return reply.code(status).send({ success: true as const, ...extra, data });
      },
    });
  };
  const selfServed = new Set(modules.flatMap((m) => m.serves ?? []));
  for (const routeId of Object.keys(routes) as RouteId[]) {
    if (!selfServed.has(routeId)) registerRoute(routeId, handlers);
  }
}

export function buildApp(emu: Emu, modules: ServiceModule[]): AppParts {
  const faults = new FaultBook();
  const log = new RequestLog();
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // An id of any length reaches its handler and answers that route's not-found code (the router's
    // default, 100 characters, answered a bare 414 outside the envelope). Node's 16 KB limit on the
    // request head still bounds the whole path.
    routerOptions: { maxParamLength: 16 * 1024 },
    frameworkErrors: unknownPathAnswer(emu, log, modules),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const { handlers, refusalsOf } = collectModules(emu, modules);
  const idempotency = new IdempotencyBook(emu);
  logRequests(app, emu, log, idempotency);
  answerRefusals(app, emu, refusalsOf);
  registerTableRoutes(app, emu, handlers, modules, faults, log, idempotency);
  for (const m of modules) m.register?.(app, emu, { faults, log });
  const control = controlOperations(emu, faults, log);
  registerControl(app, control, faults, modules);
  return { app, faults, log, control };
}
