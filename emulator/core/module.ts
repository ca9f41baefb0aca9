/**
 * What a service module is to the emulator's core: its handlers for routes of the table, its
 * background transitions, its own routes and control routes, and its answer to unknown paths under
 * its prefix. The core (app.ts, control.ts) knows modules only through this shape.
 */
import type { FastifyInstance } from "fastify";
import type { RouteId, Service } from "../../contract/routes";
import type { Caller } from "./auth";
import type { Emu, TransitionFn } from "./emu";
import type { FaultBook, RequestLog } from "./faults";
import type { AiErrorCode, ApiErrorCode } from "../../contract/error-codes";
import type { World } from "./world";

export const SERVICE_PREFIX: Record<Service, string> = { platform: "/api", email: "/email", ai: "/ai" };

export interface Ctx {
  /** The route of the table being served (a paginated list's cursors belong to their route). */
  routeId: RouteId;
  emu: Emu;
  world: World;
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  // Validated against the route table's body schema; handlers apply the business rules.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, string | string[] | undefined>;
}
export type Handler = (ctx: Ctx) => unknown;

/** How a module's API words a body it refuses before its handler runs. Default: 422 VALIDATION for both. */
export interface Refusals {
  /** The code of a body or query the route's schema refuses (422). */
  validation?: ApiErrorCode;
  /** A body that is not JSON. */
  badJson?: { status: number; code: ApiErrorCode };
}

export interface ServiceModule {
  handlers: Partial<Record<RouteId, Handler>>;
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

