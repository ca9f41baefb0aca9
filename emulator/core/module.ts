/**
 * What a service module is to the emulator's core: its handlers for routes of the table, its
 * background transitions, its own routes and control routes, and its answer to unknown paths under
 * its prefix. The core (app.ts, control.ts) knows modules only through this shape.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { RouteId, RouteResponse, Routes, Service } from "../../contract/routes";
import type { Caller } from "./auth";
import type { Emu, TransitionFn } from "./emu";
import type { Reply } from "./errors";
import type { FaultBook, RequestLog } from "./faults";
import type { AiErrorCode, ApiErrorCode } from "../../contract/error-codes";
import type { World } from "./world";

export const SERVICE_PREFIX: Record<Service, string> = { platform: "/api", email: "/email", ai: "/ai" };

/**
 * The body a route's handler receives: its body schema's output (fastify validated it before the
 * handler runs), or `undefined` for a route without one. Distributes over a union of routes, so a
 * helper taking `Ctx` accepts the context of any route.
 */
export type RequestBody<R extends RouteId> = R extends RouteId
  ? Routes[R] extends { body: infer B extends z.ZodType }
    ? z.output<B>
    : undefined
  : never;

/** The query a route's handler receives: its query schema's output, or the query string as parsed for a route without one. */
export type RequestQuery<R extends RouteId> = R extends RouteId
  ? Routes[R] extends { query: infer Q extends z.ZodType }
    ? z.output<Q>
    : Record<string, unknown>
  : never;

export interface Ctx<R extends RouteId = RouteId> {
  /** The route of the table being served (a paginated list's cursors belong to their route). */
  routeId: R;
  emu: Emu;
  world: World;
  caller: Caller;
  params: Record<string, string>;
  query: RequestQuery<R>;
  /** Typed by the route table's body schema ("types only"); handlers apply the business rules. */
  body: RequestBody<R>;
  headers: Record<string, string | string[] | undefined>;
}
/** The keys an object type names, without its index signature. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
/**
 * A response type as a handler must answer it: each field its schema declares, without the
 * `[x: string]: unknown` that a loose object adds. That index signature checks nothing, and it
 * would refuse every record kept in an `interface` (TypeScript gives interfaces no implicit index
 * signature); a field beyond the declared ones is still allowed, as the loose schema allows it. A
 * pure map (`z.record`) keeps its index signature: it has no other keys to check.
 */
type Declared<T> = T extends readonly (infer E)[]
  ? Declared<E>[]
  : T extends object
    ? [NamedKeys<T>] extends [never]
      ? T
      : { [K in keyof T as string extends K ? never : number extends K ? never : K]: Declared<T[K]> }
    : T;

/**
 * What a route's handler answers: its response schema's `data`, bare or in a `Reply` (another
 * success status, extra envelope fields), so an answer its route does not declare fails to
 * compile. A refusal is thrown (`EmuError`), so it needs no place here. The schema's output type,
 * not its input: the serializer (fastify-type-provider-zod 7's `serializerCompiler`) runs
 * `z.safeEncode(response, data)`, which takes the output side and writes the input side as JSON.
 * Distributes over a union of routes, like `Ctx`.
 */
export type Answer<R extends RouteId> = R extends RouteId ? Declared<RouteResponse<R>> | Reply<Declared<RouteResponse<R>>> : never;
export type Handler<R extends RouteId = RouteId> = (ctx: Ctx<R>) => Answer<R> | Promise<Answer<R>>;

/** Handlers for the routes `R`, each typed by its own route. */
export type Handlers<R extends RouteId> = { [K in R]: Handler<K> };
/** A module's handlers: any routes of the table, each typed by its own route. */
export type HandlerTable = { [K in RouteId]?: Handler<K> };

/**
 * Puts one route's handler of `from` into `to`, after `before` if given. Generic in the route so
 * that both tables keep its type (a write through a key of the whole table would not typecheck).
 */
function copyHandler<R extends RouteId>(id: R, from: { [K in R]?: Handler<K> }, to: { [K in R]?: Handler<K> }, before?: (ctx: Ctx) => void): void {
  const handler = from[id];
  if (!handler) return;
  to[id] = before
    ? (ctx: Ctx<R>) => {
        before(ctx);
        return handler(ctx);
      }
    : handler;
}

/** Each handler of `table` runs after `before` (upkeep due on every one of a module's routes once the caller is known). */
export function runBefore(table: HandlerTable, before: (ctx: Ctx) => void): HandlerTable {
  const out: HandlerTable = {};
  for (const id of Object.keys(table) as RouteId[]) copyHandler(id, table, out, before);
  return out;
}

/** The handlers of several modules as one table; a route served twice is an error. */
export function mergeHandlers(tables: HandlerTable[]): HandlerTable {
  const out: HandlerTable = {};
  for (const table of tables) {
    for (const id of Object.keys(table) as RouteId[]) {
      if (out[id]) throw new Error(`route ${id} has two handlers`);
      copyHandler(id, table, out);
    }
  }
  return out;
}

/** How a module's API words a body it refuses before its handler runs. Default: 422 VALIDATION for both. */
export interface Refusals {
  /** The code of a body or query the route's schema refuses (422). */
  validation?: ApiErrorCode;
  /** A body that is not JSON. */
  badJson?: { status: number; code: ApiErrorCode };
}

export interface ServiceModule {
  handlers: HandlerTable;
  refusals?: Refusals;
  transitions?: Record<string, TransitionFn>;
  /**
   * Routes of the table this module registers itself instead of through `handlers` (the AI gateway:
   * no envelope, its own auth, limits and error shapes). `register` is called once with the app.
   */
  serves?: RouteId[];
  register?: (app: FastifyInstance, emu: Emu, parts: { faults: FaultBook; log: RequestLog }) => void;
  /** Upkeep that the clock makes due, run before authentication of each request to one of the
   * module's table routes (an email plan that expired, or renews, before NO_PLAN is judged). */
  beforeRequest?: (emu: Emu) => void;
  /** Adds the module's own control routes; `control` is the loopback-only `/_emulator` scope. */
  control?: (control: FastifyInstance, emu: Emu) => void;
  /** The answer to a path under the module's prefix that names no route, when it is not the envelope's 404. */
  notFound?: (path: string, message: string) => { status: number; code: ApiErrorCode | AiErrorCode; body: Record<string, unknown> } | undefined;
}

