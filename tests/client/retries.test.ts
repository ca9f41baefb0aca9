/**
 * Retries against a real HTTP server: reads are sent again after a 5xx or a dropped connection;
 * a paid call is sent again only when it was refused before acting (429) or never left; otherwise
 * it is sent once and its outcome is reported as unknown.
 */
import { ApiClient, ApiError, OutcomeUnknownError, type RequestEvent } from "../../provider/client";
import { freshKey, reply, startServer, vpsCreateBody, vpsRecord, type TestServer } from "../support/http-server";

let server: TestServer;
const clients: ApiClient[] = [];
let events: RequestEvent[];

function client(overrides: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  const c = new ApiClient({
    service: "platform",
    baseUrl: server.baseUrl,
    apiKey: freshKey("retry"),
    retry: { baseMs: 10, capMs: 50 },
    onRequest: (e) => events.push(e),
    ...overrides,
  });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  events = [];
  server = await startServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

test("a GET answered 503, 503, 200 succeeds on the third attempt", async () => {
  server.handle((r) =>
    r.n < 2 ? reply.fail(503, "SERVICE_UNAVAILABLE", "try again later") : reply.ok(vpsRecord({ id: "abc" })),
  );

  const vps = await client().call("vps.get", { params: { id: "abc" } });

  expect(vps.id).toBe("abc");
  expect(server.requests).toHaveLength(3);
  expect(server.requests.every((r) => r.method === "GET" && r.path === "/vps/abc")).toBe(true);
  expect(events.map((e) => [e.attempt, e.status])).toEqual([[1, 503], [2, 503], [3, 200]]);
});

test("a GET that keeps failing with 5xx gives up after the configured attempts", async () => {
  server.handle(() => reply.fail(500, "INTERNAL_ERROR", "Internal server error"));

  const err = await caught(client({ retry: { attempts: 3, baseMs: 5 } }).call("vps.list"));

  expect(err).toBeInstanceOf(ApiError);
  expect(err).not.toBeInstanceOf(OutcomeUnknownError);
  expect(err).toMatchObject({ status: 500, code: "INTERNAL_ERROR" });
  expect(server.requests).toHaveLength(3);
});

test("a paid POST answered 500 INTERNAL_ERROR is sent once and raises OutcomeUnknownError", async () => {
  server.handle(() => reply.fail(500, "INTERNAL_ERROR", "Internal server error"));

  const err = await caught(client().call("vps.create", { body: vpsCreateBody }));

  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]).toMatchObject({ method: "POST", path: "/vps" });
  expect(JSON.parse(server.requests[0].body)).toEqual(vpsCreateBody);
  expect(err).toBeInstanceOf(OutcomeUnknownError);
  expect(err).toBeInstanceOf(ApiError);
  const e = err as OutcomeUnknownError;
  expect(e.name).toBe("OutcomeUnknownError");
  expect(e.status).toBe(500);
  expect(e.code).toBe("INTERNAL_ERROR");
  expect(e.retryable).toBe(false);
  expect(e.message).toMatch(/^POST \/vps failed: 500 INTERNAL_ERROR — Internal server error\. The outcome is unknown/);
  expect(e.message).toMatch(/was not sent again/);
});

test("a paid POST whose connection is dropped after the server read it is sent once and raises OutcomeUnknownError", async () => {
  server.handle(() => reply.destroy());

  const err = await caught(client().call("vps.create", { body: vpsCreateBody }));

  expect(server.requests).toHaveLength(1);
  // The server did read the whole request before dropping the connection.
  expect(JSON.parse(server.requests[0].body)).toEqual(vpsCreateBody);
  expect(err).toBeInstanceOf(OutcomeUnknownError);
  const e = err as OutcomeUnknownError;
  expect(e.status).toBeUndefined();
  expect(e.code).toBe("NETWORK_ERROR");
  expect(e.message).toMatch(/^POST \/vps failed: NETWORK_ERROR — no answer \(.+\)\. The outcome is unknown/);
});

test("a paid POST answered 429 is sent again (refused before acting) and then succeeds", async () => {
  server.handle((r) =>
    r.n === 0
      ? reply.fail(429, "RATE_LIMITED", "Too many requests", {}, { "retry-after": "1" })
      : reply.ok(vpsRecord({ charged: 12.5 }), 201),
  );

  const created = await client().call("vps.create", { body: vpsCreateBody });

  expect(created.charged).toBe(12.5);
  expect(server.requests).toHaveLength(2);
  expect(server.requests.map((r) => r.method + " " + r.path)).toEqual(["POST /vps", "POST /vps"]);
  expect(server.requests[1].body).toBe(server.requests[0].body);
  // Retry-After was honoured before sending again.
  expect(server.requests[1].at - server.requests[0].answeredAt!).toBeGreaterThanOrEqual(1000);
  expect(events.map((e) => [e.attempt, e.status, e.code])).toEqual([[1, 429, "RATE_LIMITED"], [2, 201, undefined]]);
});

test("a paid POST that never left (connection refused) is sent again, and fails as a plain network error", async () => {
  // A port that was just listening and is now closed: nothing accepts the connection.
  const closed = await startServer();
  const baseUrl = closed.baseUrl;
  await closed.close();

  const err = await caught(client({ baseUrl, retry: { attempts: 3, baseMs: 5 } }).call("vps.create", { body: vpsCreateBody }));

  expect(err).toBeInstanceOf(ApiError);
  expect(err).not.toBeInstanceOf(OutcomeUnknownError);
  expect((err as ApiError).code).toBe("NETWORK_ERROR");
  expect((err as ApiError).message).toMatch(/ECONNREFUSED/);
  expect(events).toHaveLength(3);
});

test("an idempotent GET whose connection is dropped is sent again and succeeds", async () => {
  server.handle((r) => (r.n === 0 ? reply.destroy() : reply.ok([vpsRecord()])));

  const list = await client().call("vps.list");

  expect(list).toHaveLength(1);
  expect(server.requests).toHaveLength(2);
  expect(events.map((e) => [e.attempt, e.status, e.code])).toEqual([[1, undefined, "NETWORK_ERROR"], [2, 200, undefined]]);
});

test("an idempotent DELETE answered 502 is sent again", async () => {
  server.handle((r) => (r.n === 0 ? reply.fail(502, "BAD_GATEWAY", "upstream down") : reply.ok(vpsRecord({ status: "terminating" }))));

  const vps = await client().call("vps.terminate", { params: { id: "abc" } });

  expect(vps.status).toBe("terminating");
  expect(server.requests.map((r) => r.method + " " + r.path)).toEqual(["DELETE /vps/abc", "DELETE /vps/abc"]);
});
