/**
 * The official clients against the emulator's AI base: `openai` with `{ai_base_url}/v1`,
 * `@anthropic-ai/sdk` with `{ai_base_url}`. They list models, complete, stream to the end, surface
 * the gateway's 429 and 503 with the right class, status and type, and (with retries on) honour
 * `retry-after: 1` on `server_busy` and succeed on the next attempt.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { alignMinute, ctl, startAi, type TestEmulator, useAi } from "./helpers";

let emu: TestEmulator;
useAi((e) => (emu = e), { alignMinute: true });

/** A fetch that records when each attempt was sent and what it answered. */
function recordingFetch() {
  const attempts: { at: number; status: number }[] = [];
  const f = async (input: string | URL | Request, init?: RequestInit) => {
    const at = Date.now();
    const res = await fetch(input, init);
    attempts.push({ at, status: res.status });
    return res;
  };
  return { attempts, fetch: f as typeof fetch };
}

describe("openai v6", () => {
  const client = (maxRetries = 0, f?: typeof fetch) => new OpenAI({ apiKey: emu.keys.account, baseURL: `${emu.urls.ai}/v1`, maxRetries, ...(f ? { fetch: f } : {}) });

  test("lists the usable models (no retired, no switched-off)", async () => {
    const ids: string[] = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toEqual(["gpt-4o-mini", "gpt-4o", "claude-sonnet-4", "claude-haiku-3-5", "llama-3.3-70b"]);
  });

  test("completes with a canned answer and usage", async () => {
    const res = await client().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Apa kabar?" }] });
    expect(res.object).toBe("chat.completion");
    expect(res.choices[0].message.content).toBe("Emulated reply from gpt-4o-mini: Apa kabar?");
    expect(res.choices[0].finish_reason).toBe("stop");
    expect(res.usage).toEqual({ prompt_tokens: 3, completion_tokens: 11, total_tokens: 14 });
    expect(res._request_id).toMatch(/^req_/);
  });

  test("streams to the end; the text equals the non-streamed answer", async () => {
    const stream = await client().chat.completions.create({
      model: "llama-3.3-70b",
      messages: [{ role: "user", content: "tell me a story" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let finish: string | null = null;
    let usage: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Emulated reply from llama-3.3-70b: tell me a story");
    expect(finish).toBe("stop");
    expect(usage).toEqual({ prompt_tokens: 4, completion_tokens: 13, total_tokens: 17 });
  });

  test("429 from the key's per-minute limit: RateLimitError, type rate_limit_error", async () => {
    await ctl(emu, "PATCH", "/ai/keys/account", { perMinute: 1 });
    await client().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "one" }] });
    const err = await client()
      .chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "two" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.type).toBe("rate_limit_error");
    expect(e.code).toBe("rate_limited");
    expect(e.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(e.message).toContain("limit 1 per minute");
  });

  test("503 model_unavailable: APIError status 503, type api_error", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "model_unavailable", model: "gpt-4o" });
    const err = await client()
      .chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    const e = err as InstanceType<typeof OpenAI.APIError>;
    expect(e.status).toBe(503);
    expect(e.type).toBe("api_error");
    expect(e.code).toBe("model_unavailable");
    expect(e.headers?.get("x-request-id")).toMatch(/^req_/);
  });

  test("a mid-stream failure surfaces as an APIError while iterating", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "upstream_error", mode: "mid-stream", afterChunks: 2 });
    const stream = await client().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "x" }], stream: true });
    let text = "";
    const err = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(text).toBe("Emulated reply ");
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).type).toBe("api_error");
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe("upstream_error");
  });

  test("with retries on, server_busy (retry-after: 1) is retried after the given second and succeeds", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "server_busy", count: 1 });
    const rec = recordingFetch();
    const res = await client(2, rec.fetch).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "again" }] });
    expect(res.choices[0].message.content).toBe("Emulated reply from gpt-4o-mini: again");
    expect(rec.attempts.map((a) => a.status)).toEqual([503, 200]);
    // Honoured retry-after: 1 (the SDK's own backoff for a first retry is at most 0.5 s).
    expect(rec.attempts[1].at - rec.attempts[0].at).toBeGreaterThanOrEqual(950);
  });
});

describe("@anthropic-ai/sdk", () => {
  const client = (maxRetries = 0, f?: typeof fetch) => new Anthropic({ apiKey: emu.keys.account, baseURL: emu.urls.ai, maxRetries, ...(f ? { fetch: f } : {}) });

  test("lists the usable models", async () => {
    const ids: string[] = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toContain("claude-sonnet-4");
    expect(ids).not.toContain("gpt-4-turbo");
    expect(ids).not.toContain("mistral-large");
  });

  test("completes (key sent as x-api-key) with a canned answer and usage", async () => {
    const msg = await client().messages.create({ model: "claude-sonnet-4", max_tokens: 256, messages: [{ role: "user", content: "Halo" }] });
    expect(msg.type).toBe("message");
    expect(msg.content).toEqual([{ type: "text", text: "Emulated reply from claude-sonnet-4: Halo" }]);
    expect(msg.stop_reason).toBe("end_turn");
    expect(msg.usage).toMatchObject({ input_tokens: 1, output_tokens: 11 });
  });

  test("streams to the end: raw events and the stream helper", async () => {
    const stream = await client().messages.create({ model: "claude-haiku-3-5", max_tokens: 256, messages: [{ role: "user", content: "cerita" }], stream: true });
    const kinds: string[] = [];
    let text = "";
    for await (const ev of stream) {
      kinds.push(ev.type);
      if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") text += ev.delta.text;
    }
    expect(text).toBe("Emulated reply from claude-haiku-3-5: cerita");
    expect(kinds[0]).toBe("message_start");
    expect(kinds.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);

    const helper = client().messages.stream({ model: "llama-3.3-70b", max_tokens: 256, messages: [{ role: "user", content: "dua" }] });
    const final = await helper.finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Emulated reply from llama-3.3-70b: dua" }]);
    expect(final.stop_reason).toBe("end_turn");
  });

  test("count_tokens answers input_tokens", async () => {
    const res = await client().messages.countTokens({ model: "claude-sonnet-4", messages: [{ role: "user", content: "12345678" }] });
    expect(res).toEqual({ input_tokens: 2 });
  });

  test("429 from the account's per-minute limit: RateLimitError, error.error.type rate_limit_error", async () => {
    await ctl(emu, "PATCH", "/ai/limits", { perMinute: 1 });
    await client().messages.create({ model: "claude-sonnet-4", max_tokens: 16, messages: [{ role: "user", content: "1" }] });
    const err = await client()
      .messages.create({ model: "claude-sonnet-4", max_tokens: 16, messages: [{ role: "user", content: "2" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(429);
    expect(e.error).toEqual({ type: "error", error: { type: "rate_limit_error", message: expect.stringContaining("limit 1 per minute") } });
  });

  test("503 service_unavailable: APIError status 503, type api_error", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "service_unavailable" });
    const err = await client()
      .messages.create({ model: "claude-sonnet-4", max_tokens: 16, messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(503);
    expect((e.error as { error: { type: string } }).error.type).toBe("api_error");
    expect(e.requestID).toMatch(/^req_/);
  });

  test("a mid-stream failure is the stream's last event: the SDK throws it", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "upstream_unreachable", mode: "mid-stream" });
    const stream = await client().messages.create({ model: "claude-sonnet-4", max_tokens: 64, messages: [{ role: "user", content: "x" }], stream: true });
    const err = await (async () => {
      for await (const _ev of stream) {
        /* no output before the failure */
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toEqual({ type: "error", error: { type: "api_error", message: expect.any(String) } });
  });

  test("with retries on, server_busy (retry-after: 1) is retried after the given second and succeeds", async () => {
    await ctl(emu, "POST", "/ai/faults", { kind: "server_busy", count: 1 });
    const rec = recordingFetch();
    const msg = await client(2, rec.fetch).messages.create({ model: "claude-sonnet-4", max_tokens: 16, messages: [{ role: "user", content: "lagi" }] });
    expect(msg.content).toEqual([{ type: "text", text: "Emulated reply from claude-sonnet-4: lagi" }]);
    expect(rec.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(rec.attempts[1].at - rec.attempts[0].at).toBeGreaterThanOrEqual(950);
  });
});
