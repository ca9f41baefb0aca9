/**
 * Raw HTTP streams and money: SSE shapes and end markers in both styles, keep-alive comments at
 * the control-set intervals, a failure after the 200 as the last event, a broken stream without its
 * end marker (what was generated is charged), holds against the AI balance (402 without a charge),
 * the output cap, and the charge of a success.
 */
import { routes } from "../../contract/routes";
import { aiStatus, chat, ctl, messages, openStream, sseEvents, startAi, streamText, tokens, untilIdle, type TestEmulator, useAi } from "./helpers";

let emu: TestEmulator;
useAi((e) => (emu = e));

const usage = async () => (await ctl(emu, "GET", "/ai/usage")).usage as { cost: number; inputTokens: number; outputTokens: number; outcome: string; model: string }[];
const CHAT = routes["ai.chatCompletions"].path;
const MSG = routes["ai.messages"].path;
const user = (content: string) => [{ role: "user", content }];

describe("streams", () => {
  test("OpenAI style: data lines of chat.completion.chunk, then data: [DONE]; x-request-id; charged", async () => {
    const res = await streamText(emu, CHAT, { model: "gpt-4o-mini", messages: user("satu dua") });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const events = sseEvents(res.text);
    expect(events.at(-1)).toEqual({ event: null, data: "[DONE]" });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe("Emulated reply from gpt-4o-mini: satu dua");
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(res.text).not.toContain(": keep-alive");
    const [u] = await usage();
    expect(u).toMatchObject({ outcome: "completed", inputTokens: 2, outputTokens: tokens("Emulated reply from gpt-4o-mini: satu dua") });
  });

  test("Anthropic style: message_start … content_block_delta … message_delta, message_stop", async () => {
    const res = await streamText(emu, MSG, { model: "claude-sonnet-4", max_tokens: 100, messages: user("tiga") });
    const events = sseEvents(res.text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("message_start");
    expect(names).toContain("content_block_delta");
    expect(names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
    for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event);
    const text = events.filter((e) => e.event === "content_block_delta").map((e) => JSON.parse(e.data).delta.text).join("");
    expect(text).toBe("Emulated reply from claude-sonnet-4: tiga");
  });

  test("keep-alive comments while the model is slow: the first after keepAliveFirstMs, then every keepAliveEveryMs", async () => {
    await ctl(emu, "PATCH", "/ai/settings", { keepAliveFirstMs: 10, keepAliveEveryMs: 10 });
    await ctl(emu, "PATCH", "/ai/models/gpt-4o-mini", { delayMs: 300 });
    const res = await streamText(emu, CHAT, { model: "gpt-4o-mini", messages: user("pelan") });
    const beforeOutput = res.text.slice(0, res.text.indexOf("data:"));
    expect(beforeOutput.match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(sseEvents(res.text).at(-1)?.data).toBe("[DONE]");
    // Other models keep the global (zero) delay: no keep-alive.
    expect((await streamText(emu, CHAT, { model: "gpt-4o", messages: user("cepat") })).text).not.toContain(": keep-alive");
  });

  test("a failure after the 200 (OpenAI): a data line with the error body, then data: [DONE]; not charged", async () => {
    await ctl(emu, "PATCH", "/ai/settings", { keepAliveFirstMs: 10, keepAliveEveryMs: 10, delayMs: 100 });
    await ctl(emu, "POST", "/ai/faults", { kind: "upstream_unreachable", mode: "mid-stream" });
    const balance = (await aiStatus(emu)).balance;
    const res = await streamText(emu, CHAT, { model: "gpt-4o-mini", messages: user("x") });
    expect(res.status).toBe(200);
    expect(res.text).toContain(": keep-alive");
    const events = sseEvents(res.text);
    expect(events.map((e) => e.data).slice(-1)).toEqual(["[DONE]"]);
    expect(JSON.parse(events.at(-2)!.data)).toEqual({ error: { type: "api_error", code: "upstream_unreachable", message: expect.any(String) } });
    expect(events).toHaveLength(2);
    expect((await aiStatus(emu)).balance).toBe(balance);
    const log = await ctl(emu, "GET", "/requests");
    expect(log.at(-1)).toMatchObject({ route: "ai.chatCompletions", status: 200, code: "upstream_unreachable", dropped: false });
  });

  test("a failure after the 200 (Anthropic): `event: error` with the Anthropic body is the last event", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "model_unavailable", mode: "mid-stream", afterChunks: 2 });
    const res = await streamText(emu, MSG, { model: "claude-haiku-3-5", max_tokens: 100, messages: user("x") });
    const events = sseEvents(res.text);
    expect(events.at(-1)!.event).toBe("error");
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ type: "error", error: { type: "api_error", message: expect.any(String) } });
    expect(events.map((e) => e.event)).not.toContain("message_stop");
    // Output had begun: what was generated is charged.
    const [u] = await usage();
    expect(u).toMatchObject({ outcome: "failed", outputTokens: tokens("Emulated reply ") });
  });

  test.each([
    [CHAT, "gpt-4o-mini", "data: [DONE]"],
    [MSG, "claude-haiku-3-5", "message_stop"],
  ])("a broken stream (%s) ends without its end marker; what was generated is charged", async (path, model, marker) => {
    await ctl(emu, "POST", "/ai/faults", { kind: "upstream_error", mode: "break", afterChunks: 3 });
    const balance = (await aiStatus(emu)).balance;
    const res = await streamText(emu, path, { model, max_tokens: 100, messages: user("abc") });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(marker);
    expect(res.text).not.toContain("error");
    const generated = "Emulated reply from ";
    const [u] = await usage();
    const price = (await ctl(emu, "GET", "/ai/models")).find((m: { id: string }) => m.id === model).price;
    expect(u).toMatchObject({ outcome: "broken", inputTokens: 1, outputTokens: tokens(generated) });
    expect(u.cost).toBe(Math.ceil(1 * price.input + tokens(generated) * price.output));
    expect((await aiStatus(emu)).balance).toBe(balance - u.cost);
    expect((await ctl(emu, "GET", "/requests")).at(-1)).toMatchObject({ dropped: true });
  });

  test("a stream cancelled by the client before any output costs nothing and frees its slot and hold", async () => {
    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 60_000 });
    const s = await openStream(emu, CHAT, { model: "gpt-4o", messages: user("x") });
    expect((await aiStatus(emu)).held).toBeGreaterThan(0);
    await s.close();
    await untilIdle(emu);
    expect(await aiStatus(emu)).toMatchObject({ held: 0, balance: 10_000_000 });
    expect(await usage()).toEqual([]);
  });
});

describe("holds and charges", () => {
  test("success charges the actual usage (input + output tokens × the model's prices)", async () => {
    const res = await chat(emu, { model: "gpt-4o", messages: user("halo dunia") });
    expect(res.status).toBe(200);
    const out = tokens("Emulated reply from gpt-4o: halo dunia");
    expect(res.body.usage).toEqual({ prompt_tokens: 3, completion_tokens: out, total_tokens: 3 + out });
    const cost = 3 * 30 + out * 120;
    expect((await aiStatus(emu)).balance).toBe(10_000_000 - cost);
    const [u] = await usage();
    expect(u).toMatchObject({ model: "gpt-4o", cost, outcome: "completed" });
    expect(u).toHaveProperty("requestId", res.headers.get("x-request-id"));
  });

  test("402 insufficient_balance when the balance cannot cover the hold; nothing charged; a lower output cap passes", async () => {
    // Hold with no max_tokens: 1 input token × 2 + 16,384 output tokens × 8.
    await ctl(emu, "PATCH", "/ai/balance", { balance: 1 * 2 + 16_384 * 8 - 1 });
    const refused = await chat(emu, {});
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: { type: "billing_error", code: "insufficient_balance", message: expect.any(String) } });
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    const anth = await messages(emu, { max_tokens: 8_192 });
    expect(anth.status).toBe(402);
    expect(anth.body).toEqual({ type: "error", error: { type: "billing_error", message: expect.any(String) } });
    expect((await aiStatus(emu)).balance).toBe(16_385 * 8 - 7);
    expect(await usage()).toEqual([]);
    expect((await chat(emu, { max_tokens: 100 })).status).toBe(200);
  });

  test("the output cap: max_tokens above the model's limit is lowered to it (hold), and the answer stops at the cap", async () => {
    // llama-3.3-70b: limit 4,096 output tokens at 12 per token; input "x" = 1 token at 10.
    await ctl(emu, "PATCH", "/ai/balance", { balance: 10 + 4_096 * 12 });
    const ok = await chat(emu, { model: "llama-3.3-70b", max_tokens: 100_000, messages: user("x") });
    expect(ok.status).toBe(200);
    await ctl(emu, "PATCH", "/ai/balance", { balance: 10 + 4_096 * 12 - 1 });
    expect((await chat(emu, { model: "llama-3.3-70b", max_tokens: 100_000, messages: user("x") })).status).toBe(402);
    await ctl(emu, "PATCH", "/ai/balance", { balance: 1_000_000 });
    const capped = await chat(emu, { model: "llama-3.3-70b", max_tokens: 3, messages: user("x") });
    expect(capped.body.choices[0]).toMatchObject({ message: { content: "Emulated rep" }, finish_reason: "length" });
    expect(capped.body.usage.completion_tokens).toBe(3);
  });

  test("open holds count against the balance: a second request that the rest cannot cover answers 402", async () => {
    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 60_000 });
    await ctl(emu, "PATCH", "/ai/balance", { balance: 1 * 2 + 100 * 8 });
    const s = await openStream(emu, CHAT, { model: "gpt-4o-mini", max_tokens: 100, messages: user("x") });
    expect((await chat(emu, { max_tokens: 1 })).status).toBe(402);
    await s.close();
    await untilIdle(emu);
    await ctl(emu, "PATCH", "/ai/settings", { delayMs: 0 });
    expect((await chat(emu, { max_tokens: 1 })).status).toBe(200);
  });

  test("the per-key spend of the UTC month follows the charges", async () => {
    await chat(emu, {});
    await chat(emu, {}, { key: emu.keys.project });
    const { spend, usage: rows } = await ctl(emu, "GET", "/ai/usage");
    const month = new Date(emu.control.emu.nowMs()).toISOString().slice(0, 7);
    expect(spend[emu.keys.account][month]).toBe(rows[1].cost);
    expect(spend[emu.keys.project][month]).toBe(rows[0].cost);
  });
});
