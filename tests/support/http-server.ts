/**
 * A small scriptable HTTP server on 127.0.0.1 for client tests: a real socket, a real HTTP exchange,
 * nothing in undici stubbed. Each request is read whole, recorded (arrival time, method, path,
 * headers, body) and passed to the current handler, which answers one of the `reply` shapes.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

export interface SeenRequest {
  /** 0-based order of arrival. */
  n: number;
  /** performance.now() when the request's headers arrived. */
  at: number;
  method: string;
  /** Path below the `/api` prefix, without the query: `/vps`, `/vps/abc`. */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the answer was written out (or the socket destroyed). */
  answeredAt?: number;
  /** Status sent; undefined when the socket was destroyed. */
  status?: number;
}

export type Reply =
  | { kind: "body"; status: number; body: string; contentType: string; headers: Record<string, string> }
  | { kind: "destroy" };

export type Handler = (req: SeenRequest) => Reply | Promise<Reply>;

export const reply = {
  /** Any JSON value as the body. */
  json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
    return { kind: "body", status, body: JSON.stringify(body), contentType: "application/json; charset=utf-8", headers };
  },
  /** `{ success: true, data, ...extra }` */
  ok(data: unknown, status = 200, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
    return reply.json(status, { success: true, data, ...extra }, headers);
  },
  /** `{ success: false, error, code, ...extra }` */
  fail(status: number, code: string, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
    return reply.json(status, { success: false, error, code, ...extra }, headers);
  },
  html(status: number, html: string, headers: Record<string, string> = {}): Reply {
    return { kind: "body", status, body: html, contentType: "text/html; charset=utf-8", headers };
  },
  /** A body sent exactly as given (broken JSON, anything). */
  raw(status: number, body: string, contentType = "application/json", headers: Record<string, string> = {}): Reply {
    return { kind: "body", status, body, contentType, headers };
  },
  /** Destroys the connection after the request (headers and body) was read: no answer at all. */
  destroy(): Reply {
    return { kind: "destroy" };
  },
};

export interface TestServer {
  /** `http://127.0.0.1:<port>/api` */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request in order of arrival. */
  readonly requests: SeenRequest[];
  /** Replaces the handler (the default answers 404 NOT_FOUND). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

const PREFIX = "/api";

export async function startServer(handler?: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  let current: Handler = handler ?? ((r) => reply.fail(404, "NOT_FOUND", `no route ${r.method} ${r.path}`));

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) || "/" : url.pathname;
    const seen: SeenRequest = {
      n: requests.length,
      at,
      method: req.method ?? "",
      path,
      query: url.search,
      headers: req.headers,
      body: "",
    };
    requests.push(seen);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.body = Buffer.concat(chunks).toString("utf8");
      Promise.resolve()
        .then(() => current(seen))
        .then(
          (r) => send(seen, res, r),
          (err: unknown) => send(seen, res, reply.fail(500, "TEST_HANDLER_FAILED", String(err))),
        );
    });
  };

  const server: Server = createServer(onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    port,
    requests,
    handle(h) {
      current = h;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(seen: SeenRequest, res: ServerResponse, r: Reply): void {
  if (r.kind === "destroy") {
    seen.answeredAt = performance.now();
    res.socket?.destroy();
    return;
  }
  res.writeHead(r.status, { "content-type": r.contentType, "content-length": Buffer.byteLength(r.body), ...r.headers });
  res.end(r.body, () => {
    seen.answeredAt = performance.now();
  });
  seen.status = r.status;
}

/** A valid `vps` record (schemas.vps), overridable field by field. */
export function vpsRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "0b7f3c1e-5d4a-4c2b-9a8e-1f2d3c4b5a69",
    name: "web-1",
    projectId: "6a1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f",
    planId: "plan-small",
    osType: "ubuntu",
    osVersion: "24.04",
    billingPeriod: "monthly",
    autoRenew: true,
    status: "running",
    publicIp: "203.0.113.7",
    expiresAt: "2026-01-01T00:00:00.000Z",
    lastJobStatus: null,
    lastJobError: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A valid `POST /vps` body (the ids those of `vpsRecord`). */
export const vpsCreateBody = {
  planId: "plan-small",
  projectId: "6a1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f",
  name: "web-1",
  osType: "ubuntu",
  osVersion: "24.04",
  rootPassword: "Sup3r!secret#pw",
  billingPeriod: "monthly",
};

/** A distinct API key per test: the rate-limit buckets are process-wide, keyed by API key. */
export function freshKey(label = "test"): string {
  return `sk_${label}_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}
