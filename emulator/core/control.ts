/**
 * Control API under `/_emulator`: loopback only, no auth. Lets tests and users reset the world,
 * read it, inject faults, move the clock, drive transitions and DNS, and set the wallet.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Emu, TransitionMode } from "./emu";
import type { ServiceModule } from "./module";
import { faultRuleInput, type FaultBook, type RequestLog } from "./faults";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

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

export function registerControl(app: FastifyInstance, emu: Emu, faults: FaultBook, log: RequestLog, modules: ServiceModule[]): void {
  const publishDns = modules.find((m) => m.publishDns)?.publishDns;
  app.register(
    async (control) => {
      control.addHook("onRequest", async (request, reply) => {
        if (!LOOPBACK.test(request.socket.remoteAddress ?? "")) {
          return reply.code(403).send({ success: false, error: "The control API answers loopback callers only", code: "FORBIDDEN" });
        }
      });
      control.addHook("onSend", async (request, _reply, payload) => {
        if (request.method !== "GET") emu.save();
        return payload;
      });

      control.post("/reset", async () => {
        emu.reset();
        faults.clear();
        log.clear();
        return { success: true, data: { reset: true } };
      });
      control.get("/state", async () => {
        emu.settleDue();
        return { success: true, data: emu.world };
      });
      control.get("/requests", async () => ({ success: true, data: log.all() }));
      control.delete("/requests", async () => {
        log.clear();
        return { success: true, data: { cleared: true } };
      });
      control.get("/faults", async () => ({ success: true, data: faults.list() }));
      control.post("/faults", async (request, reply) => {
        const input = parseControlBody(faultRuleInput, request, reply);
        if (!input) return reply;
        if (!input.drop && input.status === undefined && input.delayMs === undefined) return bad(reply, "a fault needs status, drop or delayMs");
        const { matcher: _m, ...rule } = faults.add(input);
        return { success: true, data: rule };
      });
      control.delete("/faults", async () => {
        faults.clear();
        return { success: true, data: { cleared: true } };
      });
      control.post("/clock/advance", async (request, reply) => {
        const input = parseControlBody(z.object({ seconds: z.number().min(0) }), request, reply);
        if (!input) return reply;
        emu.advanceClock(input.seconds);
        return { success: true, data: { now: emu.nowIso() } };
      });
      control.post("/transitions", async (request, reply) => {
        const input = parseControlBody(z.object({ mode: z.enum(["immediate", "time", "manual"]), seconds: z.number().min(0).optional() }), request, reply);
        if (!input) return reply;
        emu.options.transitions = input.mode as TransitionMode;
        emu.options.transitionSeconds = input.seconds;
        return { success: true, data: { mode: input.mode, seconds: input.seconds ?? null } };
      });
      control.post("/transitions/settle", async () => {
        const settled = emu.settleDue(true);
        return { success: true, data: { settled } };
      });
      control.post("/job-failures", async (request, reply) => {
        const input = parseControlBody(z.object({ kind: z.string().min(1), times: z.number().int().min(1).default(1), reason: z.string().default("Injected job failure") }), request, reply);
        if (!input) return reply;
        emu.world.jobFailures.push(input);
        return { success: true, data: input };
      });
      control.post("/dns/publish", async (request, reply) => {
        const input = parseControlBody(z.object({ domain: z.string().min(1) }), request, reply);
        if (!input) return reply;
        if (!publishDns?.(emu, input.domain.toLowerCase())) {
          return reply.code(404).send({ success: false, error: `no sending domain ${input.domain}`, code: "DOMAIN_NOT_FOUND" });
        }
        return { success: true, data: { domain: input.domain.toLowerCase(), published: true } };
      });
      control.patch("/wallet", async (request, reply) => {
        const input = parseControlBody(z.object({ balance: z.number().min(0) }), request, reply);
        if (!input) return reply;
        emu.world.account.wallet = input.balance;
        return { success: true, data: { balance: input.balance, currency: "IDR" } };
      });
      for (const m of modules) m.control?.(control, emu);
    },
    { prefix: "/_emulator" },
  );
}
