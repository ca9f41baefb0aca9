/**
 * Webhook deliveries over real HTTP, as the spec's Events part says: POST with
 * `Content-Type: application/json`, header `Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" keyed with the webhook secret>`, 8 s time-out, 3 attempts in total waiting 1 s then
 * 2 s (real time), the same body and signature on every attempt; a 4xx (any non-2xx under 500) is
 * not retried, a network error, time-out or 5xx is. The host is resolved before every delivery
 * and every address must be public (loopback too with `allowLocalWebhooks`); the connection goes to
 * the address that was checked. `failCount` counts consecutive failed deliveries (a delivery is all
 * its attempts) and resets on a success.
 *
 * Deliveries run in the background of the process (never inside a request) and stop when the
 * emulator closes. The delivery log (`GET /_emulator/email/deliveries`) is kept in memory.
 */
import { createHmac } from "node:crypto";
import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import type { Emu } from "../core/emu";
import { classifyHost } from "../../contract/hosts";
import { emailState } from "./state";

export const DELIVERY_TIMEOUT_MS = 8000;
/** Waits before the 2nd and the 3rd attempt. */
export const RETRY_WAITS_MS = [1000, 2000];
const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
const LOG_SIZE = 1000;

export interface DeliveryLogEntry {
  /** Delivery id: the attempts of one delivery share it. */
  deliveryId: string;
  webhookId: string;
  url: string;
  eventType: string;
  messageId: string | null;
  attempt: number;
  /** HTTP status of the receiver's answer, null when there was none. */
  status: number | null;
  /** Network error, time-out or refusal; null when the receiver answered. */
  error: string | null;
  /** true: this attempt ends the delivery (success, not retried, or the last attempt). */
  final: boolean;
  ok: boolean;
  /** Real time of the attempt. */
  at: string;
  durationMs: number;
}

/** A host name that names the local machine: `localhost`, 127.0.0.0/8, `::1` (bracketed in URLs). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost") return true;
  return isLoopbackAddress(host.replace(/^\[(.*)\]$/, "$1"));
}

function isLoopbackAddress(address: string): boolean {
  if (/^127\.\d+\.\d+\.\d+$/.test(address)) return true;
  const v6 = address.toLowerCase();
  return v6 === "::1" || v6 === "0:0:0:0:0:0:0:1" || /^::ffff:127\.\d+\.\d+\.\d+$/.test(v6);
}

function isPublicAddress(address: string): boolean {
  const host = isIP(address) === 6 ? `[${address}]` : address;
  const kind = classifyHost(host);
  return kind.kind === "ip" && kind.publicAddress;
}

/** `Svc-Signature` header value for a body signed at `t` (unix seconds). */
export function signatureHeader(secret: string, t: number, body: string): string {
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

type AttemptResult = { status: number; error: null } | { status: null; error: string; retry: boolean };

class Deliverer {
  /** Attempts of the current world's deliveries (a reset or a loaded world starts a new log). */
  private entries: DeliveryLogEntry[] = [];
  private world: Emu["world"];
  /** Worlds of the deliveries under way, one entry per delivery. */
  private readonly active = new Set<{ world: Emu["world"] }>();
  private closed = false;
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private readonly requests = new Set<{ destroy(err?: Error): void }>();
  private counter = 0;

  constructor(private readonly emu: Emu) {
    this.world = emu.world;
  }

  get log(): DeliveryLogEntry[] {
    if (this.emu.world !== this.world) {
      this.world = this.emu.world;
      this.entries = [];
    }
    return this.entries;
  }

  close(): void {
    this.closed = true;
    for (const w of this.waits) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.waits.clear();
    for (const r of this.requests) r.destroy(new Error("emulator closed"));
    this.requests.clear();
  }

  /** Starts one delivery in the background. */
  start(webhookId: string, url: string, secret: string, eventType: string, messageId: string | null, body: string): void {
    if (this.closed) return;
    const deliveryId = `dlv_${++this.counter}`;
    const token = { world: this.emu.world };
    this.active.add(token);
    void this.run(deliveryId, webhookId, url, secret, eventType, messageId, body).finally(() => this.active.delete(token));
  }

  /** Deliveries of the current world still under way. */
  get inFlight(): number {
    let n = 0;
    for (const t of this.active) if (t.world === this.emu.world) n++;
    return n;
  }

  private async run(deliveryId: string, webhookId: string, url: string, secret: string, eventType: string, messageId: string | null, body: string): Promise<void> {
    const world = this.emu.world;
    // Signed once: retries carry the same body and signature.
    const signature = signatureHeader(secret, Math.floor(Date.now() / 1000), body);
    let ok = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.closed; attempt++) {
      const started = Date.now();
      const result = await this.attempt(url, body, signature);
      // Closed, or the world was reset or replaced meanwhile: the delivery belongs to no world now.
      if (this.closed || this.emu.world !== world) return;
      ok = result.status !== null && result.status >= 200 && result.status < 300;
      const retry = !ok && (result.status === null ? result.retry : result.status >= 500);
      const final = ok || !retry || attempt === MAX_ATTEMPTS;
      this.record({
        deliveryId,
        webhookId,
        url,
        eventType,
        messageId,
        attempt,
        status: result.status,
        error: result.error,
        final,
        ok,
        at: new Date(started).toISOString(),
        durationMs: Date.now() - started,
      });
      if (final) break;
      await this.wait(RETRY_WAITS_MS[attempt - 1]);
    }
    if (this.closed || this.emu.world !== world) return;
    // The webhook may have been deleted meanwhile.
    const webhook = emailState(world).webhooks.find((w) => w.id === webhookId);
    if (!webhook) return;
    webhook.failCount = ok ? 0 : webhook.failCount + 1;
    this.emu.save();
  }

  private record(entry: DeliveryLogEntry): void {
    const log = this.log;
    log.push(entry);
    if (log.length > LOG_SIZE) log.splice(0, log.length - LOG_SIZE);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const w = {
        timer: setTimeout(() => {
          this.waits.delete(w);
          resolve();
        }, ms),
        resolve,
      };
      w.timer.unref();
      this.waits.add(w);
    });
  }

  /** One POST: resolve, check the addresses, connect to the checked one. */
  private async attempt(url: string, body: string, signature: string): Promise<AttemptResult> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { status: null, error: "refused: not a valid URL", retry: false };
    }
    const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
    const allowLocal = this.emu.options.allowLocalWebhooks === true;
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname, { all: true });
    } catch (err) {
      return { status: null, error: `could not resolve ${hostname}: ${(err as Error).message}`, retry: true };
    }
    const refused = addresses.find((a) => !isPublicAddress(a.address) && !(allowLocal && isLoopbackAddress(a.address)));
    if (refused || addresses.length === 0) {
      const what = refused ? `${hostname} resolves to ${refused.address}, not a public address` : `${hostname} has no address`;
      return { status: null, error: `refused: ${what}`, retry: false };
    }
    if (parsed.protocol === "http:" && !(allowLocal && addresses.every((a) => isLoopbackAddress(a.address)))) {
      return { status: null, error: "refused: plain http is only for loopback receivers", retry: false };
    }
    // An IPv4 address first: `localhost` resolves to ::1 too, where a receiver on 127.0.0.1 does not listen.
    const target = addresses.find((a) => a.family === 4) ?? addresses[0];
    const request = parsed.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const done = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.requests.delete(req);
        resolve(r);
      };
      const req = request(
        {
          host: target.address,
          family: target.family,
          port: parsed.port || (parsed.protocol === "https:" ? 443 : 80),
          path: `${parsed.pathname}${parsed.search}`,
          method: "POST",
          servername: isIP(hostname) ? undefined : hostname,
          headers: {
            host: parsed.host,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "user-agent": "svc-emulator-webhooks/1",
            "svc-signature": signature,
          },
          agent: false,
        },
        (res: IncomingMessage) => {
          res.resume();
          done({ status: res.statusCode ?? 0, error: null });
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)), DELIVERY_TIMEOUT_MS);
      timer.unref();
      this.requests.add(req);
      req.on("error", (err) => done({ status: null, error: err.message, retry: true }));
      req.end(body);
    });
  }
}

const deliverers = new WeakMap<Emu, Deliverer>();

function delivererOf(emu: Emu): Deliverer {
  let d = deliverers.get(emu);
  if (!d) {
    const created = new Deliverer(emu);
    emu.onClose(() => created.close());
    deliverers.set(emu, created);
    d = created;
  }
  return d;
}

/**
 * Sends an event to every enabled webhook of the project subscribed to it (in the background);
 * sets their `lastTriggeredAt` now (emulator clock).
 */
export function emitEvent(emu: Emu, projectId: string, type: string, data: { messageId: string; recipients: string[]; notification: unknown }): void {
  const hooks = emailState(emu.world).webhooks.filter((w) => w.projectId === projectId && w.enabled && w.events.includes(type));
  if (hooks.length === 0) return;
  const body = JSON.stringify({ type, createdAt: emu.nowIso(), data });
  const d = delivererOf(emu);
  for (const w of hooks) {
    w.lastTriggeredAt = emu.nowIso();
    d.start(w.id, w.url, w.secret, type, data.messageId, body);
  }
}

export function deliveryLog(emu: Emu): { inFlight: number; deliveries: DeliveryLogEntry[] } {
  const d = delivererOf(emu);
  return { inFlight: d.inFlight, deliveries: [...d.log] };
}

export function clearDeliveryLog(emu: Emu): void {
  delivererOf(emu).log.splice(0);
}
