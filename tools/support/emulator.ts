/**
 * Test helper: a real emulator on 127.0.0.1 (port 0) and a tiny HTTP caller that returns status,
 * headers and the parsed body, so tests assert exactly what a client would see.
 */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** A raw body string (for broken JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** A 429 is waited out (its Retry-After) and the call sent again, as a client would: for a test's own
   * reads beside a program that uses the same key's 10 requests a second. */
  waitOutRateLimit?: boolean;
}

export interface TestEmulator extends RunningEmulator {
  /** `call("POST", "/api/vps", { key, body })`: path includes the service prefix (/api, /email, /ai). */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Control API over HTTP: `ctl("POST", "/faults", {...})`. */
  ctl(method: string, path: string, body?: unknown): Promise<CallResult>;
  origin: string;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, ...options });
  const origin = emulator.urls.control.replace(/\/_emulator$/, "");
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    let res = await fetch(origin + path, { method, headers, body });
    while (o.waitOutRateLimit && res.status === 429) {
      await res.text();
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get("retry-after") ?? 1)));
      res = await fetch(origin + path, { method, headers, body });
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    ...emulator,
    origin,
    call,
    ctl: (method, path, body) => call(method, `/_emulator${path}`, { body }),
  };
}
