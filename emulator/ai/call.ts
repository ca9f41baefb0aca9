/**
 * One gateway request's record (its route, style, key and request id, the fault that hit it) and
 * its single line in the request log. Every part of the gateway gets the record passed in; the
 * gateway keeps it by request so the error and not-found handlers find what the hooks learnt.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { routes, aiStyleOf, type AiStyle, type RouteId } from "../../contract/routes";
import type { Emu } from "../core/emu";
import type { FaultBook, RequestLog } from "../core/faults";
import type { KeyRecord } from "../core/world";
import { keyFromHeaders } from "./auth";

export const aiRoutes = ["ai.models", "ai.chatCompletions", "ai.messages", "ai.countTokens"] as const satisfies readonly RouteId[];
export type AiRouteId = (typeof aiRoutes)[number];

/** The path of a route relative to `{ai_base_url}` (for messages that name the right endpoint). */
export const pathOf = (id: AiRouteId) => routes[id].path;

export type RawResponse = FastifyReply["raw"];

export interface AiCall {
  routeId: AiRouteId | null;
  style: AiStyle;
  path: string;
  method: string;
  keyPrefix: string | null;
  requestId: string | null;
  key: KeyRecord | null;
  faultId: number | null;
  logged: boolean;
}

/** What the gateway shares across the requests of one app. */
export interface Gateway {
  emu: Emu;
  faults: FaultBook;
  log: RequestLog;
  calls: WeakMap<FastifyRequest, AiCall>;
  /** Open streams, ended when the app closes (a hijacked response would hold `close()` forever). */
  open: Set<RawResponse>;
}

export function newGateway(emu: Emu, parts: { faults: FaultBook; log: RequestLog }): Gateway {
  return { emu, faults: parts.faults, log: parts.log, calls: new WeakMap(), open: new Set() };
}

/** The request's record, made on first use (`routeId` null: a path that names no route). */
export function callOf(gw: Gateway, request: FastifyRequest, routeId: AiRouteId | null): AiCall {
  let call = gw.calls.get(request);
  if (!call) {
    const path = request.url.split("?")[0];
    const key = keyFromHeaders(request.headers);
    // Unknown paths answer in the OpenAI style.
    call = { routeId, style: routeId ? aiStyleOf(pathOf(routeId)) : "openai", path, method: request.method, keyPrefix: key ? key.slice(0, 12) : null, requestId: null, key: null, faultId: null, logged: false };
    gw.calls.set(request, call);
  }
  return call;
}

/** Logs the request once, when it is over (a stream: when it ends); later calls do nothing. */
export function logCall(gw: Gateway, call: AiCall, status: number, code: string | null, dropped = false): void {
  if (call.logged) return;
  call.logged = true;
  gw.log.add({ time: gw.emu.nowIso(), keyPrefix: call.keyPrefix, method: call.method, path: call.path, route: call.routeId, status: dropped ? 0 : status, code, fault: call.faultId, dropped });
  gw.emu.save();
}
