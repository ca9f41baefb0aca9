/**
 * The error-code catalogue (contract/error-codes.ts) against the spec's tables, the types that hold
 * client and emulator to it (a misspelled code does not compile: the `@ts-expect-error` lines below
 * fail `npm run typecheck` the day they compile), the emulator's fault rules held to it, and the
 * errors a user gets: OperationError's fields, the API's request id on the error and in its message.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AI_ERROR_CODES, API_ERROR_CODES, aiErrorTypes, aiGatewayErrorCodes, type ApiErrorCode } from "../../contract/error-codes";
import { ApiClient, ApiError, isApiError, OperationError } from "../../provider/client";
import { operationError } from "../../provider/resource";
import { EmuError } from "../../emulator/core/errors";
import { AiError } from "../../emulator/ai/errors";
import type { TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";
import { freshKey, reply, startServer } from "../support/http-server";

// The spec documents the project is built against: shared/spec beside the repository (as CI's clone
// has it); SVC_SPEC_DIR points elsewhere.
const SPEC = process.env.SVC_SPEC_DIR ?? join(__dirname, "..", "..", "..", "shared", "spec");
const specText = (name: string) => readFileSync(join(SPEC, name), "utf8");

/** The codes of a document's tables: a cell that is a code, or a list of codes, in backticks or not. */
function tableCodes(text: string, pattern: RegExp): Set<string> {
  const codes = new Set<string>();
  for (const line of text.split("\n").filter((l) => l.startsWith("|"))) {
    for (const cell of line.split("|").map((c) => c.trim().replace(/`/g, ""))) {
      const parts = cell.split(/,\s*/);
      if (parts.every((p) => pattern.test(p))) for (const p of parts) codes.add(p);
    }
  }
  return codes;
}

describe("the catalogue is the spec's tables", () => {
  test("every code of the platform, email and assumed-routes tables is in ApiErrorCode, and nothing else", () => {
    const upper = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^(NO_API_KEY|PARSE|LIMIT|BUSY|VALIDATION|UNAUTHORIZED|UNKNOWN)$/;
    const fromTables = new Set([...["platform-api.md", "email-service.md", "assumed-routes.md"].flatMap((f) => [...tableCodes(specText(f), upper)])]);
    // Codes named in route-table cells of assumed-routes.md ("404 `SSH_KEY_NOT_FOUND`") sit beside other words.
    for (const m of specText("assumed-routes.md").matchAll(/\d{3} `([A-Z_]+)`/g)) fromTables.add(m[1]);
    for (const m of specText("platform-api.md").matchAll(/\d{3} `([A-Z_]+)`/g)) fromTables.add(m[1]);
    expect([...API_ERROR_CODES].sort()).toEqual([...fromTables].sort());
  });

  test("every code of the AI gateway's Errors table is in AiErrorCode", () => {
    const errors = specText("ai-gateway.md").split("## Errors")[1].split("###")[0];
    expect([...aiGatewayErrorCodes].sort()).toEqual([...tableCodes(errors, /^[a-z]+(_[a-z]+)+$/)].sort());
    expect(AI_ERROR_CODES).toEqual(expect.arrayContaining([...aiGatewayErrorCodes]));
  });

  test("AiErrorType is the gateway's Type by status table", () => {
    const table = specText("ai-gateway.md").split("### Type by status")[1].split("###")[0];
    expect([...aiErrorTypes].sort()).toEqual([...tableCodes(table, /^[a-z]+(_[a-z]+)+$/)].sort());
  });
});

describe("a code outside the catalogue does not compile", () => {
  const err: unknown = new Error("x");
  test("isApiError takes catalogued codes and the client's own", () => {
    expect(isApiError(err, "VPS_BUSY")).toBe(false);
    expect(isApiError(err, "WAIT_TIMEOUT")).toBe(false);
    expect(isApiError(err, "model_not_found")).toBe(false);
    // @ts-expect-error a misspelled code
    expect(isApiError(err, "VPS_BUSSY")).toBe(false);
    // @ts-expect-error a code no spec table has
    expect(isApiError(err, "SERVICE_UNAVAILABLE")).toBe(false);
    // @ts-expect-error not a code at all
    expect(isApiError(err, "TYPO")).toBe(false);
    // An Anthropic-style error's type stands in for its code.
    expect(isApiError(err, "rate_limit_error")).toBe(false);
  });

  test("an ApiError the program makes takes a catalogued code, the client's own or a status; only a decoded answer carries another", () => {
    const init = { service: "platform", method: "GET", path: "/vps/x", status: 404, apiMessage: "gone", retryable: false } as const;
    expect(new ApiError({ ...init, code: "INSTANCE_NOT_FOUND" }).code).toBe("INSTANCE_NOT_FOUND");
    expect(new ApiError({ ...init, code: "TIMEOUT" }).code).toBe("TIMEOUT");
    expect(new ApiError({ ...init, code: "HTTP_404" }).code).toBe("HTTP_404");
    // @ts-expect-error a misspelled code
    expect(new ApiError({ ...init, code: "INSTANCE_NOT_FOUNDD" }).code).toBe("INSTANCE_NOT_FOUNDD");
    const text: string = "X";
    // @ts-expect-error any string is not a code: the API's own come only from a decoded answer
    expect(new ApiError({ ...init, code: text }).code).toBe("X");
  });

  test("an OperationError's code is its cause's (the API's or the client's own), typed as the ApiError's; a foreign error's code is not taken", () => {
    const init = { service: "platform", method: "GET", path: "/vps/x", status: 409, apiMessage: "busy", retryable: false } as const;
    const busy = new OperationError("update", new ApiError({ ...init, code: "VPS_BUSY" }));
    const code: ApiError["code"] | undefined = busy.code;
    expect(code).toBe("VPS_BUSY");
    expect(new OperationError("create", busy).code).toBe("VPS_BUSY");
    expect(new OperationError("create", new Error("x"), { code: "ALREADY_EXISTS" }).code).toBe("ALREADY_EXISTS");
    // A system error's code (a socket's ECONNRESET) is no API code: the client answers those as NETWORK_ERROR.
    expect(new OperationError("read", Object.assign(new Error("reset"), { code: "ECONNRESET" })).code).toBeUndefined();
    // @ts-expect-error a misspelled code
    expect(new OperationError("create", new Error("x"), { code: "ALREADY_EXIST" }).code).toBe("ALREADY_EXIST");
  });

  test("the emulator's error helpers take only catalogued codes", () => {
    expect(new EmuError(409, "VPS_BUSY", "busy").code).toBe("VPS_BUSY");
    // @ts-expect-error a misspelled code
    expect(new EmuError(409, "VPS_BUSSY", "busy").code).toBe("VPS_BUSSY");
    // @ts-expect-error an AI code on the envelope APIs
    expect(new EmuError(404, "model_not_found", "gone").code).toBe("model_not_found");
    expect(new AiError(404, "model_not_found", "gone").code).toBe("model_not_found");
    // @ts-expect-error a platform code on the AI gateway
    expect(new AiError(404, "NOT_FOUND", "gone").code).toBe("NOT_FOUND");
    const typed: ApiErrorCode = "INSTANCE_NOT_FOUND";
    expect(typed).toBe("INSTANCE_NOT_FOUND");
  });
});

describe("the code of a failed answer, as the client decodes it", () => {
  test.each([
    ["a code the catalogue lacks: as the API wrote it", reply.fail(409, "NEWER_THAN_THE_CATALOGUE", "new"), "NEWER_THAN_THE_CATALOGUE"],
    ["no code in the failure envelope: the status", reply.json(503, { success: false, error: "down" }), "HTTP_503"],
    ["a JSON body without the envelope: the status", reply.json(502, { message: "bad gateway" }), "HTTP_502"],
  ])("%s", async (_what, answer, code) => {
    const server = await startServer(() => answer);
    const client = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey: freshKey("codes"), retry: { attempts: 1 } });
    try {
      const err = await client.call("vps.get", { params: { id: "x" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(code);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("against the emulator", () => {
  let emu: TestEmulator;
  useEmulator((e) => (emu = e));

  test.each([
    ["a code no table has", { path: "/api/vps", status: 503, code: "SERVICE_UNAVAILABLE" }],
    ["an AI gateway code on a platform path", { path: "/api/vps", status: 404, code: "model_not_found" }],
    ["a platform code on an AI path", { path: "/ai/v1/models", status: 404, code: "INSTANCE_NOT_FOUND" }],
  ])("a fault rule with %s is refused, naming code", async (_what, rule) => {
    const res = await emu.ctl("POST", "/faults", rule);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).toMatch(/code/);
    expect((await emu.ctl("GET", "/faults")).body.data).toEqual([]);
  });

  test("an injected fault without a code answers the catalogue's code for its status", async () => {
    await emu.ctl("POST", "/faults", { path: "/api/account/wallet", status: 429, times: 1 });
    await emu.ctl("POST", "/faults", { path: "/api/account/wallet", status: 503, times: 1 });
    const key = emu.keys.account;
    expect((await emu.call("GET", "/api/account/wallet", { key })).body.code).toBe("RATE_LIMITED");
    expect((await emu.call("GET", "/api/account/wallet", { key })).body.code).toBe("INTERNAL_ERROR");
  });

  test("OperationError keeps the API error and copies operation, method, path, status and code", async () => {
    const client = new ApiClient({ service: "platform", baseUrl: emu.urls.api, apiKey: emu.keys.account });
    try {
      const missing = "00000000-0000-4000-8000-000000000000";
      const err = await client.call("vps.get", { params: { id: missing } }).catch((e: unknown) => operationError("read", e, "Run `pulumi refresh`"));
      expect(err).toBeInstanceOf(OperationError);
      const op = err as OperationError;
      expect(op).toMatchObject({ name: "OperationError", operation: "read", method: "GET", path: `/vps/${missing}`, status: 404, code: "INSTANCE_NOT_FOUND", hint: "Run `pulumi refresh`" });
      expect(op.apiError).toBeInstanceOf(ApiError);
      expect(op.cause).toBe(op.apiError);
      expect(op.message).toMatch(new RegExp(`^read failed: GET /vps/${missing} 404 INSTANCE_NOT_FOUND — .+\\. Run \`pulumi refresh\`$`));
      // The same operation is not wrapped twice.
      expect(operationError("read", op)).toBe(op);
    } finally {
      await client.close();
    }
  });

  test("an Anthropic-style error carries its type as the code", async () => {
    const client = new ApiClient({ service: "ai", baseUrl: emu.urls.ai, apiKey: emu.keys.account });
    try {
      const err = await client.call("ai.messages", { body: { model: "no-such-model", max_tokens: 8, messages: [{ role: "user", content: "hi" }] } }).catch((e: unknown) => e);
      expect(isApiError(err, "not_found_error")).toBe(true);
      expect(err).toMatchObject({ status: 404, code: "not_found_error" });
    } finally {
      await client.close();
    }
  });

  test("the API's request id (x-request-id) is kept on the error and shown in its message", async () => {
    const client = new ApiClient({ service: "ai", baseUrl: emu.urls.ai, apiKey: emu.keys.account });
    try {
      const err = await client.call("ai.chatCompletions", { body: { model: "no-such-model", messages: [{ role: "user", content: "hi" }] } }).catch((e: unknown) => e);
      expect(isApiError(err, "model_not_found")).toBe(true);
      const apiError = err as ApiError;
      const logged = (await emu.ctl("GET", "/requests")).body.data.at(-1);
      expect(logged).toMatchObject({ status: 404, code: "model_not_found" });
      expect(apiError.requestId).toMatch(/\S{8,}/);
      expect(apiError.message).toBe(`POST /v1/chat/completions failed: 404 model_not_found — ${apiError.apiMessage} (request id ${apiError.requestId})`);
      const op = operationError("getAiModels", apiError);
      expect(op).toMatchObject({ requestId: apiError.requestId });
      expect(op.message).toContain(`(request id ${apiError.requestId})`);
    } finally {
      await client.close();
    }
  });
});
