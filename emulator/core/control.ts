/**
 * Control API under `/_emulator`: loopback only, no auth. Lets tests and users reset the world,
 * read it, inject faults, move the clock, drive transitions, and set the wallet; each service module
 * adds its own (DNS publishing, email switches, AI limits, …).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Emu, TransitionMode } from "./emu";
import type { ServiceModule } from "./module";
import { faultRuleInput, REQUEST_PAGE_DEFAULT, REQUEST_PAGE_MAX, type FaultBook, type FaultRule, type FaultRuleInput, type RequestLog, type RequestLogEntry, type RequestLogPage } from "./faults";
import type { World } from "./world";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** A host name a browser page on another site cannot be served from: loopback names and IP literals. */
function isLocalHostName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || /^\d+\.\d+\.\d+\.\d+$/.test(h) || h.startsWith("[");
}

/**
 * Why a request to the control API may come from a web page of another site, or null. The control
 * API has no key (it is for the user's own tests and tools), so a page open in the user's browser
 * must not reach it:
 * - an `Origin` (browsers send it on cross-origin requests and on every POST) must be the emulator's
 *   own loopback origin: a page elsewhere cannot wipe or read the world;
 * - `Sec-Fetch-Site` other than same-origin or none (a navigation typed by the user) is refused;
 * - the `Host` must be a loopback name or an IP literal: a page that rebinds its DNS name to
 *   127.0.0.1 arrives with its own name there;
 * - a body must be JSON: the content types a page can send without a preflight (text/plain, forms)
 *   are refused.
 */
export function crossSiteProblem(request: FastifyRequest): string | null {
  const header = (name: string) => {
    const v = request.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const origin = header("origin");
  if (origin !== undefined) {
    let hostname: string | null = null;
    try {
      hostname = origin === "null" ? null : new URL(origin).hostname;
    } catch {
      hostname = null;
    }
    if (!hostname || !isLocalHostName(hostname)) return `requests from the web origin ${origin} are refused`;
  }
  const site = header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return `cross-site requests (Sec-Fetch-Site: ${site}) are refused`;
  const host = header("host");
  if (host !== undefined) {
    const hostname = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
    if (!isLocalHostName(hostname)) return `Host ${host} is not a loopback name or address`;
  }
  const type = header("content-type");
  const hasBody = Number(header("content-length") ?? 0) > 0 || header("transfer-encoding") !== undefined;
  if (hasBody && !/^application\/json\s*(;|$)/i.test(type ?? "")) return "the body must be application/json";
  return null;
}

function bad(reply: FastifyReply, message: string) {
  return reply.code(400).send({ success: false, error: message, code: "VALIDATION" });
}

/** A control route's JSON body checked against `schema`; on a refusal, 400 VALIDATION is sent and undefined answered. */
export function parseControlBody<T extends z.ZodType>(schema: T, request: FastifyRequest, reply: FastifyReply): z.infer<T> | undefined {
  const result = schema.safeParse(request.body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    bad(reply, `${issue.path.join(".") || "body"}: ${issue.message}`);
    return undefined;
  }
  return result.data;
}

/** The control operations, without HTTP: `/_emulator` and `startEmulator().control` both run these. */
export interface EmulatorControl {
  emu: Emu;
  reset(): void;
  /** A copy of the whole world. */
  state(): World;
  /** Every entry the request log holds, oldest first (bounded: see RequestLog). */
  requests(): RequestLogEntry[];
  /** Up to `limit` entries after position `after`: what `GET /_emulator/requests` answers. */
  requestPage(after?: number, limit?: number): RequestLogPage;
  clearRequests(): void;
  addFault(rule: FaultRuleInput): FaultRule;
  clearFaults(): void;
  advanceClock(seconds: number): void;
  setTransitions(mode: TransitionMode, seconds?: number): void;
  /** Settles every pending transition; answers how many. */
  settle(): number;
  failNextJob(kind: string, times?: number, reason?: string): void;
  /** The first account's wallet. */
  setWallet(balance: number): void;
}

/** Each operation that changes the world saves it (the state file, when there is one). */
export function controlOperations(emu: Emu, faults: FaultBook, log: RequestLog): EmulatorControl {
  const saving =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const result = fn(...args);
      emu.saveNow();
      return result;
    };
  return {
    emu,
    reset: saving(() => {
      emu.reset();
      faults.clear();
      log.clear();
    }),
    state: () => {
      emu.settleDue();
      return structuredClone(emu.world);
    },
    requests: () => log.all(),
    requestPage: (after, limit = REQUEST_PAGE_DEFAULT) => log.page(after, limit),
    clearRequests: () => log.clear(),
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    advanceClock: saving((seconds: number) => emu.advanceClock(seconds)),
    setTransitions: (mode, seconds) => {
      emu.options.transitions = mode;
      emu.options.transitionSeconds = seconds;
    },
    settle: saving(() => emu.settleDue(true)),
    failNextJob: saving((kind: string, times = 1, reason = "Injected job failure") => void emu.world.jobFailures.push({ kind, times, reason })),
    setWallet: saving((balance: number) => void (emu.world.account.wallet = balance)),
  };
}

/** `/_emulator`, loopback only: the control operations over HTTP, then each module's own control routes. */
export function registerControl(app: FastifyInstance, ops: EmulatorControl, faults: FaultBook, modules: ServiceModule[]): void {
  const { emu } = ops;
  app.register(
    async (control) => {
      control.addHook("onRequest", async (request, reply) => {
        if (!LOOPBACK.test(request.socket.remoteAddress ?? "")) {
          return reply.code(403).send({ success: false, error: "The control API answers loopback callers only", code: "FORBIDDEN" });
        }
        const crossSite = crossSiteProblem(request);
        if (crossSite) return reply.code(403).send({ success: false, error: `The control API answers local tools only: ${crossSite}`, code: "FORBIDDEN" });
      });
      control.addHook("onSend", async (request, _reply, payload) => {
        // A control change (a test or tool set the world up) is written at once, not behind.
        if (request.method !== "GET") emu.saveNow();
        return payload;
      });

      control.post("/reset", async () => {
        ops.reset();
        return { success: true, data: { reset: true } };
      });
      control.get("/state", async () => ({ success: true, data: ops.state() }));
      control.get("/requests", async (request, reply) => {
        const query = z.object({
          after: z.coerce.number().int().min(-1).optional(),
          limit: z.coerce.number().int().min(1).max(REQUEST_PAGE_MAX).default(REQUEST_PAGE_DEFAULT),
        });
        const parsed = query.safeParse(request.query ?? {});
        if (!parsed.success) return bad(reply, `${parsed.error.issues[0].path.join(".")}: ${parsed.error.issues[0].message}`);
        const page = ops.requestPage(parsed.data.after, parsed.data.limit);
        return { success: true, data: page.entries, next: page.next, evicted: page.evicted };
      });
      control.delete("/requests", async () => {
        ops.clearRequests();
        return { success: true, data: { cleared: true } };
      });
      control.get("/faults", async () => ({ success: true, data: faults.list() }));
      control.post("/faults", async (request, reply) => {
        const input = parseControlBody(faultRuleInput, request, reply);
        if (!input) return reply;
        if (!input.drop && input.status === undefined && input.delayMs === undefined && !input.commit) return bad(reply, "a fault needs status, drop, delayMs or commit");
        if (input.commit && (input.drop || input.status !== undefined || input.afterCommit)) {
          return bad(reply, `commit "${input.commit}" answers nothing: it takes no status, drop or afterCommit`);
        }
        const { matcher: _m, ...rule } = ops.addFault(input);
        return { success: true, data: rule };
      });
      control.delete("/faults", async () => {
        ops.clearFaults();
        return { success: true, data: { cleared: true } };
      });
      control.post("/clock/advance", async (request, reply) => {
        const input = parseControlBody(z.object({ seconds: z.number().min(0) }), request, reply);
        if (!input) return reply;
        ops.advanceClock(input.seconds);
        return { success: true, data: { now: emu.nowIso() } };
      });
      control.post("/transitions", async (request, reply) => {
        const input = parseControlBody(z.object({ mode: z.enum(["immediate", "time", "manual"]), seconds: z.number().min(0).optional() }), request, reply);
        if (!input) return reply;
        ops.setTransitions(input.mode as TransitionMode, input.seconds);
        return { success: true, data: { mode: input.mode, seconds: input.seconds ?? null } };
      });
      control.post("/transitions/settle", async () => ({ success: true, data: { settled: ops.settle() } }));
      control.post("/job-failures", async (request, reply) => {
        const input = parseControlBody(z.object({ kind: z.string().min(1), times: z.number().int().min(1).default(1), reason: z.string().default("Injected job failure") }), request, reply);
        if (!input) return reply;
        ops.failNextJob(input.kind, input.times, input.reason);
        return { success: true, data: input };
      });
      control.patch("/wallet", async (request, reply) => {
        const input = parseControlBody(z.object({ balance: z.number().min(0) }), request, reply);
        if (!input) return reply;
        ops.setWallet(input.balance);
        return { success: true, data: { balance: input.balance, currency: "IDR" } };
      });
      for (const m of modules) m.control?.(control, emu);
    },
    { prefix: "/_emulator" },
  );
}
