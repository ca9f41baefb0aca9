/**
 * Helpers of the AI gateway tests: a real emulator (port 0), raw calls against `{ai_base_url}`, the
 * control API, SSE reading, and clock alignment so minute windows never straddle a boundary.
 */
import { Agent, fetch as undiciFetch } from "undici";
import { routes } from "../../contract/routes";
import { startTestEmulator, type CallResult, type TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

export type { TestEmulator };

export interface AiCallOptions {
  /** The key sent as `Authorization: Bearer`; null = none. */
  key?: string | null;
  /** Send the key as `x-api-key` instead. */
  xApiKey?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function startAi(): Promise<TestEmulator> {
  return startTestEmulator();
}

export function aiCall(emu: TestEmulator, method: string, path: string, o: AiCallOptions = {}): Promise<CallResult> {
  const headers = { ...(o.headers ?? {}) };
  if (o.xApiKey) headers["x-api-key"] = o.xApiKey;
  return emu.call(method, `/ai${path}`, { key: o.key === undefined ? emu.keys.account : o.key, body: o.body, rawBody: o.rawBody, headers });
}

export const chat = (emu: TestEmulator, body: Record<string, unknown>, o: AiCallOptions = {}) =>
  aiCall(emu, "POST", routes["ai.chatCompletions"].path, { ...o, body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], ...body } });
export const messages = (emu: TestEmulator, body: Record<string, unknown>, o: AiCallOptions = {}) =>
  aiCall(emu, "POST", routes["ai.messages"].path, { ...o, body: { model: "claude-haiku-3-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }], ...body } });

/** Control API call that must succeed; answers `data`. */
export async function ctl(emu: TestEmulator, method: string, path: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await emu.ctl(method, path, body);
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function aiStatus(emu: TestEmulator): Promise<{ balance: number; inFlight: number; held: number }> {
  return ctl(emu, "GET", "/ai");
}

/** Moves the emulator clock to 1 s past the start of the next calendar minute. */
export function alignMinute(emu: TestEmulator): void {
  const now = emu.control.emu.nowMs();
  const next = (Math.floor(now / 60_000) + 1) * 60_000 + 1_000;
  emu.control.advanceClock((next - now) / 1000);
}

/** Moves the emulator clock to 1 s past the start of the next UTC calendar month. */
export function nextMonth(emu: TestEmulator): void {
  const now = new Date(emu.control.emu.nowMs());
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 1);
  emu.control.advanceClock((next - now.getTime()) / 1000);
}

/** A streamed request read to its end: status, headers and the whole text. */
export async function streamText(emu: TestEmulator, path: string, body: Record<string, unknown>, key = emu.keys.account) {
  const res = await fetch(`${emu.urls.ai}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ ...body, stream: true }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The `data:` payloads of an SSE text, with their event names. */
export function sseEvents(text: string): { event: string | null; data: string }[] {
  return text
    .split("\n\n")
    .filter((block) => block.split("\n").some((l) => l.startsWith("data:")))
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event:"))?.slice(6).trim() ?? null;
      const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
      return { event, data };
    });
}

/**
 * Streams left open go through their own connection pool: `closeStreamPool()` (afterAll, before
 * `emu.close()`) drops its connections, so the server's close never waits on a spare keep-alive one.
 */
let pool: Agent | undefined;
export async function closeStreamPool(): Promise<void> {
  await pool?.destroy();
  pool = undefined;
}

/** A stream left open: resolves once its 200 headers arrived; `close()` aborts it. */
export async function openStream(emu: TestEmulator, path: string, body: Record<string, unknown>, key = emu.keys.account) {
  pool ??= new Agent();
  const controller = new AbortController();
  const res = await undiciFetch(`${emu.urls.ai}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ ...body, stream: true }),
    signal: controller.signal,
    dispatcher: pool,
  });
  // Keep reading in the background so the connection stays healthy until aborted.
  const done = res.text().catch(() => "");
  return {
    status: res.status,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

/** Waits (polling the control API) until the gateway has no request in progress. */
export async function untilIdle(emu: TestEmulator, inFlight = 0): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await aiStatus(emu)).inFlight === inFlight) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`gateway still has requests in progress (want ${inFlight})`);
}

export const tokens = (text: string) => Math.ceil(text.length / 4);

/**
 * One emulator per test file: started before all, reset before each test (and put at the start of
 * a calendar minute with `alignMinute`, for tests that count per-minute limits), closed after all.
 */
export function useAi(set: (emu: TestEmulator) => void, options: { alignMinute?: boolean } = {}): void {
  useEmulator(set, {
    fresh: async (emu) => {
      await ctl(emu, "POST", "/reset");
      if (options.alignMinute) alignMinute(emu);
    },
    beforeClose: closeStreamPool,
  });
}
