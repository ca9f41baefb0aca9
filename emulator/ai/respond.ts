/**
 * Answers written on the raw response (`reply.hijack()`): the app-wide onSend hook, which logs
 * envelope codes, never sees them, and each answer logs its request itself.
 */
import type { FastifyReply } from "fastify";
import { logCall, type AiCall, type Gateway } from "./call";
import { AiError, errorBody } from "./errors";
import { AI_BODY_LIMIT_BYTES } from "./state";

/** The spec: x-request-id on every answer but a 401 (also sent as `request-id`, the header the Anthropic SDK reads). */
export function requestIdHeaders(call: AiCall, status: number): Record<string, string> {
  return call.requestId && status !== 401 ? { "x-request-id": call.requestId, "request-id": call.requestId } : {};
}

function writeJson(reply: FastifyReply, call: AiCall, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  reply.hijack();
  const res = reply.raw;
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(status, { ...requestIdHeaders(call, status), ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
    res.end(text);
  }
}

/** A 200 with its body; the request is over. */
export function sendOk(gw: Gateway, reply: FastifyReply, call: AiCall, body: unknown): void {
  writeJson(reply, call, 200, body);
  logCall(gw, call, 200, null);
}

/** The error in the request's style; the request is over. */
export function sendError(gw: Gateway, reply: FastifyReply, call: AiCall, err: AiError): void {
  writeJson(reply, call, err.status, errorBody(call.style, err.status, err.code, err.message), err.headers);
  logCall(gw, call, err.status, err.code);
}

/** The gateway's answer to anything thrown: its own errors as they are, fastify's 4xx as 400, the rest 500. */
export function toAiError(error: unknown): AiError {
  if (error instanceof AiError) return error;
  const code = (error as { code?: string }).code ?? "";
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return new AiError(413, "request_too_large", `Request body over ${AI_BODY_LIMIT_BYTES / 1024 / 1024} MB: send less, or send images by URL`);
  }
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) return new AiError(400, "invalid_request", `Invalid request: ${(error as Error).message}`);
  if (process.env.SVC_EMULATOR_DEBUG) console.error("emulator ai:", error);
  return new AiError(500, "internal_error", "Unexpected gateway error");
}
