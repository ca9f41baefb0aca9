/**
 * The client on the AI gateway: no envelope, so the body itself is the data, and failures in either
 * of the gateway's two shapes become the same typed ApiError (code from OpenAI's `error.code`, or
 * Anthropic's `error.type`, which has no code), retried by the usual rules.
 */
import { ApiClient, ApiError } from "../../provider/client";
import { freshKey, reply, startServer, type TestServer } from "../support/http-server";

let server: TestServer;
let client: ApiClient;

beforeEach(async () => {
  server = await startServer();
  client = new ApiClient({ service: "ai", baseUrl: server.baseUrl, apiKey: freshKey("ai"), retry: { baseMs: 5, capMs: 20 } });
});
afterEach(async () => {
  await client.close();
  await server.close();
});

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

const models = { object: "list", data: [{ id: "svc-chat-small", object: "model", created: 1_700_000_000, owned_by: "svc" }] };

test("a success is the body itself, validated against the route's schema", async () => {
  server.handle(() => reply.json(200, models));
  await expect(client.call("ai.models")).resolves.toEqual(models);
  expect(server.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
  expect(server.requests[0].headers.authorization).toMatch(/^Bearer /);
});

test("an answer of the wrong shape is UNEXPECTED_RESPONSE, not a crash", async () => {
  server.handle(() => reply.json(200, { object: "list", data: [{ id: 7 }] }));
  const err = await apiError(client.call("ai.models"));
  expect(err).toMatchObject({ code: "UNEXPECTED_RESPONSE", status: 200, path: "/v1/models" });
});

test("an OpenAI-style failure carries its code; 4xx is not retried", async () => {
  server.handle(() => reply.json(404, { error: { message: "The model `gone` does not exist", type: "not_found_error", code: "model_not_found" } }));
  const err = await apiError(client.call("ai.models"));
  expect(err).toMatchObject({ status: 404, code: "model_not_found", apiMessage: "The model `gone` does not exist" });
  expect(err.message).toBe("GET /v1/models failed: 404 model_not_found — The model `gone` does not exist");
  expect(server.requests).toHaveLength(1);
});

test("an Anthropic-style failure (no code) is known by its type", async () => {
  server.handle(() => reply.json(400, { type: "error", error: { type: "invalid_request_error", message: "max_tokens: required" } }));
  const err = await apiError(client.call("ai.countTokens", { body: { model: "m" } }));
  expect(err).toMatchObject({ status: 400, code: "invalid_request_error", apiMessage: "max_tokens: required" });
});

test("503 server_busy with retry-after: 1 is retried after the second it asks for, then succeeds", async () => {
  let n = 0;
  server.handle(() =>
    n++ === 0 ? reply.json(503, { error: { message: "busy", type: "api_error", code: "server_busy" } }, { "retry-after": "1" }) : reply.json(200, models),
  );
  await expect(client.call("ai.models")).resolves.toEqual(models);
  expect(server.requests).toHaveLength(2);
  expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(950);
});
