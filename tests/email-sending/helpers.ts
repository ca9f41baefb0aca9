/**
 * Shared by the email-sending tests: a real emulator (loopback webhooks allowed), email API calls
 * that keep the per-key rate limit refilled, a verified sending domain, and a webhook receiver on
 * 127.0.0.1 that records every delivery with its raw body.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type CallResult, type TestEmulator } from "../../tools/support/emulator";
import { perFile } from "../support/per-file";

export const FROM_DOMAIN = "mail.acme-shop.dev";
export const FROM = `Acme <news@${FROM_DOMAIN}>`;
export const SIM = "simulator.svc.dev";

export interface Api {
  emu: TestEmulator;
  /** A call to the email base with the first project's email key (unless `key` says otherwise). */
  (method: string, path: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<CallResult>;
}

export async function startSendingEmulator(options: EmulatorOptions = {}): Promise<Api> {
  const emu = await startTestEmulator({ allowLocalWebhooks: true, ...options });
  let calls = 0;
  const api = (async (method, path, o = {}) => {
    // Every key may make 10 calls per second of the emulator clock: move it one second every 9 calls.
    if (++calls >= 9) {
      await emu.ctl("POST", "/clock/advance", { seconds: 1 });
      calls = 0;
    }
    const key = o.key === undefined ? emu.keys.email : o.key;
    return emu.call(method, `/email${path}`, { key, body: o.body, headers: o.headers });
  }) as Api;
  api.emu = emu;
  return api;
}

/** Back to the seeded world, with a verified sending domain. */
export async function freshWithDomain(api: Api, domain = FROM_DOMAIN): Promise<void> {
  await api.emu.ctl("POST", "/reset");
  await api.emu.ctl("POST", "/clock/advance", { seconds: 2 });
  await verifiedDomain(api, domain);
}

export async function verifiedDomain(api: Api, domain: string, key?: string): Promise<string> {
  const added = ok(await api("POST", "/domains", { key, body: { domain } }), 202);
  await api.emu.ctl("POST", "/transitions/settle");
  ok(await api("POST", `/domains/${added.domainId}/verify`, { key }), 202);
  await api.emu.ctl("POST", "/transitions/settle");
  expect(ok(await api("GET", `/domains/${added.domainId}`, { key }), 200).status).toBe("verified");
  return added.domainId as string;
}

/** Answers `data` of a success, failing the test with the envelope otherwise. */
export function ok(res: CallResult, status: number) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: true, data: expect.anything() } });
  return res.body.data;
}

export function refused(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code, success: res.body?.success, error: typeof res.body?.error }).toEqual({ status, code, success: false, error: "string" });
}

/** Polls until `check` answers a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  answered: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** An HTTP receiver on 127.0.0.1; `answer(n)` decides the status of the n-th request (1-based). */
export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const status = answer(received.length + 1);
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep the text */
      }
      received.push({ path: req.url ?? "", headers: req.headers, raw, body, answered: status });
      res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/svc`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function createWebhook(api: Api, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  return ok(await api("POST", "/webhooks", { body: { url, events } }), 201);
}

/** A send that must be accepted: answers the email id. */
export async function send(api: Api, body: Record<string, unknown>): Promise<string> {
  return ok(await api("POST", "/send", { body: { from: FROM, to: ["ana@acme-customer.dev"], subject: "Hello", text: "Hi there", ...body } }), 202).id as string;
}

/**
 * One sending emulator per test file: started before all, back to the seeded world with a verified
 * sending domain before each test (then `beforeEachTest`, if given), closed after all.
 */
export function useSendingEmulator(set: (api: Api) => void, beforeEachTest?: (api: Api) => Promise<unknown>): void {
  perFile({
    start: () => startSendingEmulator(),
    set,
    close: (api) => api.emu.close(),
    fresh: async (api) => {
      await freshWithDomain(api);
      await beforeEachTest?.(api);
    },
  });
}
