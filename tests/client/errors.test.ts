/**
 * Every failure becomes a typed ApiError with status and code, never an untyped throw or a raw
 * parse error; and the API key never leaks into an error, whatever the server echoes back.
 */
import { inspect } from "node:util";
import { ApiClient, ApiError, OutcomeUnknownError, type RequestEvent } from "../../provider/client";
import { freshKey, reply, startServer, vpsCreateBody, vpsRecord, type TestServer } from "../support/http-server";

let server: TestServer;
const clients: ApiClient[] = [];
let events: RequestEvent[];

function client(apiKey = freshKey("err"), retry: Record<string, number> = { baseMs: 5, capMs: 20 }): ApiClient {
  const c = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey, retry, onRequest: (e) => events.push(e) });
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

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error("expected the call to fail");
}

describe("failure envelopes", () => {
  test("402 INSUFFICIENT_BALANCE on POST /vps: ApiError with status, code and the exact message", async () => {
    const apiMessage = "Saldo tidak cukup: dibutuhkan 150000, tersedia 20000";
    server.handle(() => reply.fail(402, "INSUFFICIENT_BALANCE", apiMessage));

    const err = await apiError(client().call("vps.create", { body: vpsCreateBody }));

    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    expect(err.name).toBe("ApiError");
    expect(err.message).toBe(`POST /vps failed: 402 INSUFFICIENT_BALANCE — ${apiMessage}`);
    expect(err).toMatchObject({
      service: "platform",
      method: "POST",
      path: "/vps",
      status: 402,
      code: "INSUFFICIENT_BALANCE",
      apiMessage,
      retryable: false,
      details: {},
    });
    // A business refusal is final: sent once.
    expect(server.requests).toHaveLength(1);
  });

  test("extra envelope fields land in details (REGISTRANT_INCOMPLETE with missing)", async () => {
    server.handle(() =>
      reply.fail(400, "REGISTRANT_INCOMPLETE", "Owner details are incomplete", { missing: ["phone", "address"] }),
    );

    const err = await apiError(client().call("domains.register", { body: { name: "example.id", period: 1 } }));

    expect(err.status).toBe(400);
    expect(err.code).toBe("REGISTRANT_INCOMPLETE");
    expect(err.details).toEqual({ missing: ["phone", "address"] });
    expect(err.message).toBe("POST /domains failed: 400 REGISTRANT_INCOMPLETE — Owner details are incomplete");
    expect(server.requests).toHaveLength(1);
  });

  test("a 404 on a read is not retried and keeps the API's code", async () => {
    server.handle(() => reply.fail(404, "INSTANCE_NOT_FOUND", "No server with that id"));

    const err = await apiError(client().call("vps.get", { params: { id: "nope" } }));

    expect(err.message).toBe("GET /vps/nope failed: 404 INSTANCE_NOT_FOUND — No server with that id");
    expect(server.requests).toHaveLength(1);
  });

  test("an error status without the envelope still gives status and a code", async () => {
    server.handle(() => reply.json(409, { message: "conflict" }));

    const err = await apiError(client().call("vps.get", { params: { id: "abc" } }));

    expect(err.status).toBe(409);
    expect(err.code).toBe("HTTP_409");
  });
});

describe("answers that are not the envelope", () => {
  test("an HTML 502 page: BAD_RESPONSE with status 502, retried for a GET, then fails saying it is not JSON", async () => {
    server.handle(() => reply.html(502, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"));

    const err = await apiError(client(freshKey("html"), { attempts: 3, baseMs: 5 }).call("vps.list"));

    expect(err.status).toBe(502);
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toMatch(/^GET \/vps failed: 502 BAD_RESPONSE — the answer is not JSON \(text\/html; charset=utf-8\): /);
    expect(err.message).toContain("502 Bad Gateway");
    expect(server.requests).toHaveLength(3);
    expect(events.map((e) => e.code)).toEqual(["BAD_RESPONSE", "BAD_RESPONSE", "BAD_RESPONSE"]);
  });

  test("a paid POST answered 201 with data the client cannot read: sent once, outcome unknown (it probably charged)", async () => {
    server.handle(() => reply.ok({ id: 42 }, 201));

    const err = await apiError(client().call("vps.create", { body: vpsCreateBody }));

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.code).toBe("UNEXPECTED_RESPONSE");
    expect(err.status).toBe(201);
    expect(err.message).toMatch(/outcome is unknown/);
    expect(server.requests).toHaveLength(1);
  });

  test("an HTML 502 on a paid POST: sent once, outcome unknown", async () => {
    server.handle(() => reply.html(502, "<html><body>Bad Gateway</body></html>"));

    const err = await apiError(client().call("vps.create", { body: vpsCreateBody }));

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.status).toBe(502);
    expect(server.requests).toHaveLength(1);
  });

  test("a broken JSON body: BAD_RESPONSE naming the content type and showing the start of the body", async () => {
    server.handle(() => reply.raw(200, '{"success":true,"data":[{"id":"abc",'));

    const err = await apiError(client().call("vps.list"));

    expect(err.status).toBe(200);
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toBe(
      'GET /vps failed: 200 BAD_RESPONSE — the answer is not JSON (application/json): "{\\"success\\":true,\\"data\\":[{\\"id\\":\\"abc\\","',
    );
  });

  test("broken JSON with a 503 is retried for a GET like any 503", async () => {
    server.handle((r) => (r.n === 0 ? reply.raw(503, "{oops") : reply.ok([])));

    await expect(client().call("vps.list")).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  test("JSON that is neither envelope: BAD_RESPONSE", async () => {
    server.handle(() => reply.json(200, [vpsRecord()]));

    const err = await apiError(client().call("vps.list"));

    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toBe("GET /vps failed: 200 BAD_RESPONSE — the answer is not the {success, data} envelope");
  });

  test("a success whose data does not match the route's schema: UNEXPECTED_RESPONSE naming the field path", async () => {
    server.handle(() => reply.ok([vpsRecord(), vpsRecord({ publicIp: 42 })]));

    const err = await apiError(client().call("vps.list"));

    expect(err.status).toBe(200);
    expect(err.code).toBe("UNEXPECTED_RESPONSE");
    expect(err.message).toMatch(/^GET \/vps failed: 200 UNEXPECTED_RESPONSE — the answer's data does not have the expected shape at 1\.publicIp: /);
    expect(server.requests).toHaveLength(1);
  });

  test("a missing field is named too", async () => {
    const { status: _dropped, ...withoutStatus } = vpsRecord();
    server.handle(() => reply.ok(withoutStatus));

    const err = await apiError(client().call("vps.get", { params: { id: "abc" } }));

    expect(err.code).toBe("UNEXPECTED_RESPONSE");
    expect(err.message).toContain("expected shape at status:");
  });
});

describe("the API key never leaks into an error", () => {
  function expectNoKey(err: ApiError, key: string): void {
    const texts = [
      err.message,
      String(err),
      err.stack ?? "",
      JSON.stringify(err),
      JSON.stringify({ ...err }),
      inspect(err, { depth: 10 }),
      err.apiMessage,
      JSON.stringify(err.details),
    ];
    for (const text of texts) {
      expect(text).not.toContain(key);
      // Not even the bare secret part after the prefix.
      expect(text).not.toContain(key.slice(3));
    }
  }

  test("a 401 whose message echoes the Authorization header", async () => {
    const key = freshKey("live");
    server.handle((r) => reply.fail(401, "INVALID_API_KEY", `Unknown API key: ${String(r.headers.authorization)}`));

    const err = await apiError(client(key).call("vps.list"));

    // The server really did echo it.
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(err.status).toBe(401);
    expect(err.code).toBe("INVALID_API_KEY");
    expect(err.message).toBe("GET /vps failed: 401 INVALID_API_KEY — Unknown API key: Bearer [redacted]");
    expectNoKey(err, key);
  });

  test("a key echoed in extra envelope fields (details)", async () => {
    const key = freshKey("live");
    server.handle((r) =>
      reply.fail(401, "INVALID_API_KEY", "Unknown API key", {
        received: r.headers.authorization,
        debug: { headers: { authorization: r.headers.authorization }, seen: [String(r.headers.authorization).slice(7)] },
      }),
    );

    const err = await apiError(client(key).call("vps.list"));

    expect(err.details).toEqual({
      received: "Bearer [redacted]",
      debug: { headers: { authorization: "Bearer [redacted]" }, seen: ["[redacted]"] },
    });
    expectNoKey(err, key);
  });

  test("a key echoed in an HTML error page", async () => {
    const key = freshKey("live");
    server.handle((r) => reply.html(401, `<html><body>Bad credentials ${String(r.headers.authorization)}</body></html>`));

    const err = await apiError(client(key).call("vps.list"));

    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toContain("Bad credentials Bearer [redacted]");
    expectNoKey(err, key);
  });

  test("a key echoed on a paid call's 5xx (OutcomeUnknownError)", async () => {
    const key = freshKey("live");
    server.handle((r) => reply.fail(500, "INTERNAL_ERROR", `failed for ${String(r.headers.authorization)}`, { key: r.headers.authorization }));

    const err = await apiError(client(key).call("vps.create", { body: vpsCreateBody }));

    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expectNoKey(err, key);
  });
});
