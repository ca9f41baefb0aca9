/**
 * The client's retry budget (retry-budget.ts) and `isApiError` through the cause chain.
 */
import { ApiClient, ApiError, apiErrorOf, isApiError, OperationError, RetryBudget, RETRY_COSTS, type ErrorCode } from "../../provider/client";
import { freshKey, reply, startServer, type TestServer } from "../support/http-server";

const apiError = (code: ErrorCode) =>
  new ApiError({ service: "platform", method: "POST", path: "/vps", status: 409, code, apiMessage: "busy", retryable: false });

describe("isApiError follows the cause chain", () => {
  test("an ApiError, an OperationError wrapping one, an Error whose cause is one; any of the codes given", () => {
    const busy = apiError("VPS_BUSY");
    const wrapped = new OperationError("create", busy);
    const twice = new Error("outer", { cause: new Error("middle", { cause: busy }) });
    for (const err of [busy, wrapped, twice]) {
      expect(isApiError(err)).toBe(true);
      expect(isApiError(err, "VPS_BUSY")).toBe(true);
      expect(isApiError(err, "INSUFFICIENT_BALANCE", "VPS_BUSY")).toBe(true);
      expect(isApiError(err, "INSUFFICIENT_BALANCE")).toBe(false);
      expect(apiErrorOf(err, "VPS_BUSY")).toBe(busy);
    }
    expect(isApiError(new Error("plain"))).toBe(false);
    expect(isApiError("VPS_BUSY")).toBe(false);
    expect(apiErrorOf(undefined)).toBeUndefined();
  });

  test("the first ApiError of the codes wins, past an outer one of another code", () => {
    const inner = apiError("VPS_BUSY");
    const outer = new ApiError({ service: "platform", method: "GET", path: "/vps", code: "INTERNAL_ERROR", apiMessage: "x", retryable: true, cause: inner });
    expect(apiErrorOf(outer)).toBe(outer);
    expect(apiErrorOf(outer, "VPS_BUSY")).toBe(inner);
  });
});

describe("RetryBudget", () => {
  test("draws 5 a retry and 10 after a timeout; refuses what it cannot pay; a success gives back its last retry's cost, or 1", () => {
    const budget = new RetryBudget({ ...RETRY_COSTS, capacity: 20 });
    expect(budget.draw(false)).toBe(5);
    expect(budget.draw(true)).toBe(10);
    expect(budget.draw(false)).toBe(5);
    expect(budget.remaining).toBe(0);
    expect(budget.draw(false)).toBeUndefined();
    budget.succeeded(10);
    expect(budget.remaining).toBe(10);
    budget.succeeded(undefined);
    expect(budget.remaining).toBe(11);
    for (let i = 0; i < 50; i++) budget.succeeded(undefined);
    expect(budget.remaining).toBe(20);
  });
});

describe("a client's requests share one budget", () => {
  let server: TestServer;
  const clients: ApiClient[] = [];
  beforeEach(async () => {
    server = await startServer(() => reply.fail(503, "INTERNAL_ERROR", "down"));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  test("a request alone keeps its 5 attempts with the default budget", async () => {
    const c = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey: freshKey("budget"), retry: { baseMs: 1, capMs: 2 } });
    clients.push(c);
    await expect(c.call("vps.list")).rejects.toMatchObject({ code: "INTERNAL_ERROR" });
    expect(server.requests).toHaveLength(5);
  });

  test("once the budget is spent, the client's failing requests are not sent again", async () => {
    // 15 tokens: three retries in all, whichever requests draw them.
    const c = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey: freshKey("budget"), retry: { baseMs: 1, capMs: 2 }, retryBudget: new RetryBudget({ ...RETRY_COSTS, capacity: 15 }) });
    clients.push(c);
    const failures = await Promise.all(Array.from({ length: 4 }, () => c.call("vps.list").catch((err: unknown) => err)));
    expect(failures.every((err) => apiErrorOf(err)?.status === 503)).toBe(true);
    expect(server.requests).toHaveLength(4 + 3);
  });
});
