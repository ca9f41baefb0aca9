/**
 * Raw HTTP: both error shapes, the type-by-status table, every code of the Errors table the
 * emulator produces (auth, body, model, size, injected upstream failures), and the header rules
 * (`x-request-id` on everything but 401, `retry-after: 1` on server_busy).
 */
import { routes } from "../../contract/routes";
import { aiCall, chat, ctl, messages, startAi, type TestEmulator, useAi } from "./helpers";

let emu: TestEmulator;
useAi((e) => (emu = e));

const CHAT = routes["ai.chatCompletions"].path;
const MESSAGES = routes["ai.messages"].path;
const COUNT = routes["ai.countTokens"].path;
const MODELS = routes["ai.models"].path;

const openaiError = (status: number, code: string, type: string) => ({ error: { message: expect.any(String), type, code } });
const anthropicError = (type: string) => ({ type: "error", error: { type, message: expect.any(String) } });

describe("authentication", () => {
  const cases = [
    ["no key", null, 401, "missing_api_key"],
    ["unknown key", "svc_00000000", 401, "invalid_api_key"],
    ["revoked key", "revoked", 401, "invalid_api_key"],
    ["expired key", "expired", 401, "expired_api_key"],
    ["email key", "email", 401, "invalid_api_key"],
    // platform-api.md, Authentication: "A key is enabled per product (for example VPS, Domain, Email,
    // Container, Database, AI). A key lacking the product answers 403 `SCOPE_NOT_ALLOWED`." In the
    // gateway's shape: its lower-case code, and type permission_error by its type-by-status table.
    ["platform key without the ai product", "vpsOnly", 403, "scope_not_allowed"],
  ] as const;

  test.each(cases)("%s (%s) → %i %s (OpenAI shape)", async (_n, name, status, code) => {
    const key = name === null ? null : name in emu.keys ? emu.keys[name as keyof typeof emu.keys] : name;
    const res = await chat(emu, {}, { key });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(openaiError(status, code, status === 401 ? "authentication_error" : "permission_error"));
    // x-request-id on everything but 401.
    expect(res.headers.get("x-request-id")).toEqual(status === 401 ? null : expect.stringMatching(/^req_/));
  });

  test.each(cases)("%s (%s) → %i (Anthropic shape, no code)", async (_n, name, status) => {
    const key = name === null ? null : name in emu.keys ? emu.keys[name as keyof typeof emu.keys] : name;
    const res = await messages(emu, {}, { key });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(anthropicError(status === 401 ? "authentication_error" : "permission_error"));
  });

  test("the key is read from x-api-key or Authorization: Bearer; a project-limited key with ai works", async () => {
    expect((await messages(emu, {}, { key: null, xApiKey: emu.keys.account })).status).toBe(200);
    expect((await chat(emu, {}, { key: null, headers: { authorization: `Bearer ${emu.keys.noVps}` } })).status).toBe(200);
    expect((await chat(emu, {}, { key: emu.keys.project })).status).toBe(200);
    expect((await aiCall(emu, "GET", MODELS, { key: null })).body).toEqual(openaiError(401, "missing_api_key", "authentication_error"));
  });
});

describe("body and model errors", () => {
  test.each([
    ["not JSON", "{model:", CHAT],
    ["a JSON array", "[1]", CHAT],
    ["no model", JSON.stringify({ messages: [{ role: "user", content: "x" }] }), CHAT],
    ["empty body", "", MESSAGES],
    ["bad message format", JSON.stringify({ model: "claude-sonnet-4", max_tokens: 5, messages: [{ role: "robot", content: "x" }] }), MESSAGES],
    ["max_tokens 0", JSON.stringify({ model: "gpt-4o-mini", max_tokens: 0, messages: [{ role: "user", content: "x" }] }), CHAT],
    ["no messages", JSON.stringify({ model: "claude-sonnet-4" }), COUNT],
  ])("%s → 400 invalid_request", async (_n, rawBody, path) => {
    const res = await aiCall(emu, "POST", path, { rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(path === CHAT ? openaiError(400, "invalid_request", "invalid_request_error") : anthropicError("invalid_request_error"));
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  test("a model in the wrong style → 400 unsupported_format naming the right endpoint", async () => {
    const a = await chat(emu, { model: "claude-sonnet-4" });
    expect(a.status).toBe(400);
    expect(a.body).toEqual(openaiError(400, "unsupported_format", "invalid_request_error"));
    expect(a.body.error.message).toContain(`POST ${MESSAGES}`);
    const b = await messages(emu, { model: "gpt-4o-mini" });
    expect(b.body).toEqual(anthropicError("invalid_request_error"));
    expect(b.body.error.message).toContain(`POST ${CHAT}`);
    const c = await aiCall(emu, "POST", COUNT, { body: { model: "gpt-4o", messages: [{ role: "user", content: "x" }] } });
    expect(c.status).toBe(400);
    expect(c.body.error.message).toContain(`POST ${CHAT}`);
    // A model served in both styles answers in both.
    expect((await chat(emu, { model: "llama-3.3-70b" })).status).toBe(200);
    expect((await messages(emu, { model: "llama-3.3-70b" })).status).toBe(200);
  });

  test("a retired model → 410 model_retired naming the replacement", async () => {
    const res = await chat(emu, { model: "gpt-4-turbo" });
    expect(res.status).toBe(410);
    expect(res.body).toEqual(openaiError(410, "model_retired", "not_found_error"));
    expect(res.body.error.message).toContain("'gpt-4o'");
  });

  test.each([
    ["unknown", "gpt-9"],
    ["switched off", "mistral-large"],
  ])("%s model → 404 model_not_found", async (_n, model) => {
    const res = await chat(emu, { model });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(openaiError(404, "model_not_found", "not_found_error"));
    const m = await messages(emu, { model });
    expect(m.status).toBe(404);
    expect(m.body).toEqual(anthropicError("not_found_error"));
  });

  test("the key's allowlist: other models answer 404 model_not_found and are not listed", async () => {
    await ctl(emu, "PATCH", `/ai/keys/${emu.keys.project}`, { models: ["gpt-4o-mini", "claude-sonnet-4"] });
    const list = await aiCall(emu, "GET", MODELS, { key: emu.keys.project });
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual(["gpt-4o-mini", "claude-sonnet-4"]);
    expect((await chat(emu, { model: "gpt-4o" }, { key: emu.keys.project })).body.error.code).toBe("model_not_found");
    expect((await chat(emu, { model: "gpt-4o-mini" }, { key: emu.keys.project })).status).toBe(200);
    // Other keys are not affected.
    expect((await chat(emu, { model: "gpt-4o" })).status).toBe(200);
  });

  test("GET /v1/models: OpenAI list shape, usable models only, model changes show at once", async () => {
    const res = await aiCall(emu, "GET", MODELS);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expect(res.body.data[0]).toMatchObject({ id: "gpt-4o-mini", object: "model", created: expect.any(Number), owned_by: "openai" });
    expect(routes["ai.models"].response.safeParse(res.body).success).toBe(true);
    await ctl(emu, "PATCH", "/ai/models/gpt-4o", { retired: true, replacement: "gpt-4o-mini" });
    await ctl(emu, "PATCH", "/ai/models/mistral-large", { enabled: true });
    const ids = (await aiCall(emu, "GET", MODELS)).body.data.map((m: { id: string }) => m.id);
    expect(ids).not.toContain("gpt-4o");
    expect(ids).toContain("mistral-large");
    expect((await chat(emu, { model: "gpt-4o" })).body.error.message).toContain("'gpt-4o-mini'");
  });

  test("a prompt over the model's context window → 413 invalid_request (type request_too_large)", async () => {
    await ctl(emu, "PATCH", "/ai/models/gpt-4o-mini", { contextWindow: 10 });
    const res = await chat(emu, { messages: [{ role: "user", content: "x".repeat(100) }] });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(openaiError(413, "invalid_request", "request_too_large"));
  });

  test("a body just over 8 MB → 413 request_too_large in the route's style; not charged", async () => {
    const before = (await ctl(emu, "GET", "/ai/balance")).balance;
    const over = "x".repeat(8 * 1024 * 1024 + 1);
    const a = await aiCall(emu, "POST", CHAT, { rawBody: over });
    expect(a.status).toBe(413);
    expect(a.body).toEqual(openaiError(413, "request_too_large", "request_too_large"));
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    const b = await aiCall(emu, "POST", MESSAGES, { rawBody: over });
    expect(b.status).toBe(413);
    expect(b.body).toEqual(anthropicError("request_too_large"));
    // At the limit the body is read (and refused on its content, not its size).
    const at = await aiCall(emu, "POST", CHAT, { rawBody: " ".repeat(8 * 1024 * 1024 - 2) + "[]" });
    expect(at.status).toBe(400);
    expect((await ctl(emu, "GET", "/ai/balance")).balance).toBe(before);
  });

  test("an unknown path under /ai → 404 not_found in the OpenAI shape", async () => {
    for (const [method, path] of [
      ["POST", "/chat/completions"], // the OpenAI base without /v1
      ["POST", "/v1/v1/messages"],
      ["GET", "/v1/chat/completions"],
      ["GET", "/v1/messages/batches"],
      ["GET", "/v1/models/%E0%A4%A"], // bad percent-encoding: refused by the router itself
    ]) {
      const res = await aiCall(emu, method, path, { body: method === "POST" ? { model: "gpt-4o-mini" } : undefined });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(openaiError(404, "not_found", "not_found_error"));
    }
  });
});

describe("injected upstream and gateway failures (before the answer: the real status)", () => {
  const kinds = [
    ["upstream_error", 502],
    ["upstream_unreachable", 502],
    ["upstream_auth_error", 502],
    ["upstream_unavailable", 503],
    ["model_unavailable", 503],
    ["server_busy", 503],
    ["internal_error", 500],
    ["pricing_unavailable", 503],
    ["service_unavailable", 503],
    ["rate_limited", 429],
  ] as const;

  test.each(kinds)("%s → %i in both shapes, with x-request-id; not charged", async (kind, status) => {
    const before = (await ctl(emu, "GET", "/ai/balance")).balance;
    await ctl(emu, "POST", "/ai/faults", { kind, count: 2 });
    const type = status === 429 ? "rate_limit_error" : "api_error";
    const a = await chat(emu, {});
    expect(a.status).toBe(status);
    expect(a.body).toEqual(openaiError(status, kind, type));
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    expect(a.headers.get("retry-after")).toBe(kind === "server_busy" ? "1" : null);
    const b = await messages(emu, {});
    expect(b.status).toBe(status);
    expect(b.body).toEqual(anthropicError(type));
    expect(b.headers.get("x-request-id")).toMatch(/^req_/);
    // The count is used up: the next call succeeds; failed attempts cost nothing.
    expect((await chat(emu, { max_tokens: 10 })).status).toBe(200);
    const usage = (await ctl(emu, "GET", "/ai/usage")).usage;
    expect(usage).toHaveLength(1);
    expect((await ctl(emu, "GET", "/ai/balance")).balance).toBe(before - usage[0].cost);
  });

  test("a fault limited to one model leaves the others alone", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "model_unavailable", model: "gpt-4o", count: 5 });
    expect((await chat(emu, { model: "gpt-4o-mini" })).status).toBe(200);
    expect((await chat(emu, { model: "gpt-4o" })).status).toBe(503);
  });

  test("a non-streamed request hit by a break fault loses its connection, uncharged", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "upstream_unreachable", mode: "break" });
    await expect(chat(emu, {})).rejects.toThrow();
    expect((await ctl(emu, "GET", "/ai/usage")).usage).toEqual([]);
  });

  test("generic fault rules of /_emulator/faults apply to /ai paths, answered in the route's style", async () => {
    await ctl(emu, "POST", "/faults", { path: "/ai/v1/messages", status: 500, times: 1 });
    const res = await messages(emu, {});
    expect(res.status).toBe(500);
    expect(res.body).toEqual(anthropicError("api_error"));
    expect((await messages(emu, {})).status).toBe(200);
  });
});

describe("request log and reset", () => {
  test("AI requests appear in GET /_emulator/requests with route, status and code", async () => {
    await ctl(emu, "DELETE", "/requests");
    await chat(emu, {});
    await chat(emu, { model: "nope" });
    await messages(emu, {}, { key: null });
    const log = await ctl(emu, "GET", "/requests");
    expect(log).toEqual([
      expect.objectContaining({ method: "POST", path: "/ai/v1/chat/completions", route: "ai.chatCompletions", status: 200, code: null, keyPrefix: emu.keys.account.slice(0, 12) }),
      expect.objectContaining({ route: "ai.chatCompletions", status: 404, code: "model_not_found" }),
      expect.objectContaining({ route: "ai.messages", status: 401, code: "missing_api_key", keyPrefix: null }),
    ]);
  });

  test("POST /_emulator/reset restores the catalogue, balance, limits and faults", async () => {
    await ctl(emu, "PATCH", "/ai/balance", { balance: 5 });
    await ctl(emu, "PATCH", "/ai/models/gpt-4o-mini", { enabled: false });
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 1 });
    await ctl(emu, "POST", "/ai/faults", { kind: "internal_error", count: 9 });
    await ctl(emu, "POST", "/reset");
    const ai = await ctl(emu, "GET", "/ai");
    expect(ai.balance).toBe(10_000_000);
    expect(ai.keyLimits).toEqual({});
    expect(ai.faults).toEqual([]);
    expect(ai.inFlight).toBe(0);
    expect((await chat(emu, {})).status).toBe(200);
    expect((await chat(emu, {})).status).toBe(200);
  });

  test("the control API validates its input", async () => {
    expect((await emu.ctl("POST", "/ai/faults", { kind: "nope" })).status).toBe(400);
    expect((await emu.ctl("PATCH", "/ai/balance", { balance: -1 })).status).toBe(400);
    expect((await emu.ctl("PATCH", "/ai/models/none", { enabled: false })).status).toBe(404);
    expect((await emu.ctl("PATCH", "/ai/keys/none", { perMinute: 1 })).status).toBe(404);
    const added = await emu.ctl("POST", "/ai/models", { id: "new-model", styles: ["anthropic"], price: { input: 1, output: 1 } });
    expect(added.status).toBe(201);
    expect((await messages(emu, { model: "new-model" })).status).toBe(200);
    expect((await emu.ctl("POST", "/ai/models", { id: "new-model", styles: ["anthropic"], price: { input: 1, output: 1 } })).status).toBe(409);
  });
});
