/**
 * The gateway's first hook, before the body is read: a generic fault rule of `POST /_emulator/faults`,
 * then the key (401/403), then limits 1–4 (429/403/429).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticateAi } from "./auth";
import { callOf, logCall, type AiCall, type AiRouteId, type Gateway } from "./call";
import { AiError, defaultCodeOfStatus } from "./errors";
import type { AiErrorCode } from "../../contract/error-codes";
import { checkLimits } from "./limits";

export async function admit(gw: Gateway, routeId: AiRouteId, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const call = callOf(gw, request, routeId);
  gw.emu.settleDue();
  call.requestId = "req_" + gw.emu.hex(24);
  if (await applyFaultRule(gw, call, request, reply)) return;
  call.key = authenticateAi(gw.emu, request.headers);
  // Limits 1–4; the concurrency slot is held until the response closes (a stream: until it ends).
  reply.raw.once("close", checkLimits(gw.emu, call.key));
}

/**
 * A fault rule on an `/ai/...` path: its delay, then a drop (true: the request is over) or a
 * thrown status in the route's style.
 */
async function applyFaultRule(gw: Gateway, call: AiCall, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const rule = gw.faults.match(request.method, call.path, () => gw.emu.random());
  if (!rule) return false;
  call.faultId = rule.id;
  if (rule.delayMs) await new Promise((r) => setTimeout(r, rule.delayMs));
  if (rule.drop) {
    logCall(gw, call, 0, null, true);
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  if (rule.status) throw new AiError(rule.status, (rule.code as AiErrorCode | undefined) ?? defaultCodeOfStatus(rule.status), "Injected fault", rule.status === 429 || rule.status === 503 ? { "retry-after": "1" } : {});
  return false;
}
