/**
 * The four limits in the spec's order: key per-minute, account per-minute (fixed calendar-minute
 * windows on the emulator clock, every attempt counted), key monthly spend (UTC calendar month),
 * account concurrency (a stream holds its slot until it ends). Refused requests take no hold and
 * are not charged.
 */
import { routes } from "../../contract/routes";
import { aiCall, aiStatus, alignMinute, chat, ctl, messages, nextMonth, openStream, startAi, untilIdle, type TestEmulator, useAi } from "./helpers";

let emu: TestEmulator;
useAi((e) => (emu = e), { alignMinute: true });

const COUNT = routes["ai.countTokens"].path;
const count = (key = emu.keys.account) => aiCall(emu, "POST", COUNT, { key, body: { model: "claude-sonnet-4", messages: [{ role: "user", content: "x" }] } });

describe("per-minute limits", () => {
  test("a key's own limit: 429 rate_limited saying `limit N per minute`; resets at the next calendar minute", async () => {
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await count()).status).toBe(200);
    const refused = await chat(emu, {});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { type: "rate_limit_error", code: "rate_limited", message: expect.stringContaining("limit 3 per minute") } });
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    const anth = await messages(emu, {});
    expect(anth.body).toEqual({ type: "error", error: { type: "rate_limit_error", message: expect.stringContaining("limit 3 per minute") } });
    // Other keys have no limit of their own.
    expect((await count(emu.keys.project)).status).toBe(200);
    // Still the same minute 58 s later; the next calendar minute starts a fresh window.
    emu.control.advanceClock(58);
    expect((await count()).status).toBe(429);
    emu.control.advanceClock(1.5);
    expect((await count()).status).toBe(200);
  });

  test("the account limit covers all keys together (default 600) and counts refused attempts", async () => {
    expect((await ctl(emu, "GET", "/ai/limits")).account).toEqual({ perMinute: 600, concurrency: 20 });
    await ctl(emu, "PATCH", "/ai/limits", { perMinute: 10 });
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 2 });
    // 5 attempts by the limited key: 2 pass, 3 refused by the key limit — all 5 count for the account.
    const first = [];
    for (let i = 0; i < 5; i++) first.push((await count()).status);
    expect(first).toEqual([200, 200, 429, 429, 429]);
    const second = [];
    for (let i = 0; i < 6; i++) second.push(await count(emu.keys.project));
    expect(second.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(second[5].body.error.message).toContain("limit 10 per minute");
    alignMinute(emu);
    expect((await count(emu.keys.project)).status).toBe(200);
  });

  test("GET /v1/models counts too", async () => {
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 1 });
    expect((await aiCall(emu, "GET", routes["ai.models"].path)).status).toBe(200);
    const res = await aiCall(emu, "GET", routes["ai.models"].path);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("rate_limited");
  });
});

describe("monthly spend limit", () => {
  test("403 key_spend_limit_reached once the key's spend this UTC month reaches its limit; the next month starts afresh", async () => {
    await ctl(emu, "PATCH", "/ai/keys/account", { monthlySpendLimit: 50 });
    const ok = await chat(emu, { max_tokens: 100 });
    expect(ok.status).toBe(200);
    const spent = (await ctl(emu, "GET", "/ai/usage")).usage[0].cost;
    expect(spent).toBeGreaterThanOrEqual(50);
    const refused = await chat(emu, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { type: "permission_error", code: "key_spend_limit_reached", message: expect.any(String) } });
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await messages(emu, {})).body.error.type).toBe("permission_error");
    // Another key of the account is not limited.
    expect((await chat(emu, {}, { key: emu.keys.project })).status).toBe(200);
    nextMonth(emu);
    expect((await chat(emu, {})).status).toBe(200);
  });
});

describe("check order", () => {
  test("a key over both its per-minute limit and its spend limit answers 429 first", async () => {
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 1, monthlySpendLimit: 0 });
    const first = await chat(emu, {});
    expect(first.status).toBe(403);
    expect(first.body.error.code).toBe("key_spend_limit_reached");
    const second = await chat(emu, {});
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("rate_limited");
  });

  test("the key limit comes before the account limit (its message names the key's number)", async () => {
    await ctl(emu, "PATCH", "/ai/limits", { perMinute: 1 });
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 1 });
    await count();
    expect((await count()).body.error.message).toContain("API key: limit 1 per minute");
  });
});

describe("concurrency", () => {
  test("20 slow streams fill the account; the 21st answers 429 too_many_concurrent_requests; a slot frees when a stream ends", async () => {
    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 60_000 });
    const balance = (await aiStatus(emu)).balance;
    const streams = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? openStream(emu, routes["ai.chatCompletions"].path, { model: "gpt-4o-mini", max_tokens: 50, messages: [{ role: "user", content: "x" }] }) : openStream(emu, routes["ai.messages"].path, { model: "claude-haiku-3-5", max_tokens: 50, messages: [{ role: "user", content: "x" }] }, emu.keys.project),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual(Array(20).fill(200));
    expect((await aiStatus(emu)).inFlight).toBe(20);
    expect((await aiStatus(emu)).held).toBeGreaterThan(0);

    const refused = await chat(emu, {});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { type: "rate_limit_error", code: "too_many_concurrent_requests", message: expect.any(String) } });
    expect((await messages(emu, {})).body.error.type).toBe("rate_limit_error");
    // Order: the spend limit (3) is checked before concurrency (4).
    await ctl(emu, "PATCH", "/ai/keys/noVps", { monthlySpendLimit: 0 });
    expect((await chat(emu, {}, { key: emu.keys.noVps })).body.error.code).toBe("key_spend_limit_reached");

    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 0 });
    await streams[0].close();
    await untilIdle(emu, 19);
    expect((await chat(emu, {})).status).toBe(200);
    await untilIdle(emu, 19);
    expect((await chat(emu, {})).status).toBe(200);

    await Promise.all(streams.slice(1).map((s) => s.close()));
    await untilIdle(emu);
    const after = await aiStatus(emu);
    expect(after.held).toBe(0);
    // Cancelled before any output: not charged; the two completions were.
    const usage = (await ctl(emu, "GET", "/ai/usage")).usage;
    expect(usage.map((u: { outcome: string }) => u.outcome)).toEqual(["completed", "completed"]);
    expect(after.balance).toBe(balance - usage[0].cost - usage[1].cost);
  });

  test("the concurrency limit is settable", async () => {
    await ctl(emu, "PATCH", "/ai/limits", { concurrency: 1 });
    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 60_000 });
    const s = await openStream(emu, routes["ai.chatCompletions"].path, { model: "gpt-4o-mini", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
    expect((await chat(emu, {})).body.error.code).toBe("too_many_concurrent_requests");
    await s.close();
    await untilIdle(emu);
    expect((await count()).status).toBe(200);
  });
});
