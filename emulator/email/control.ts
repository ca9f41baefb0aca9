/**
 * The email service's control routes (loopback-only `/_emulator` scope, envelope `{ success, data }`):
 *   POST   /_emulator/dns/publish                    { domain } a sending domain's DNS records count as published
 *   GET    /_emulator/email/deliveries[?webhookId=]  webhook delivery log (one entry per attempt) and
 *                                                    the number of deliveries still in flight
 *   DELETE /_emulator/email/deliveries                clears the log
 *   GET    /_emulator/email/switches[?projectId=]     the switches below, for a project (default: first)
 *   POST   /_emulator/email/switches                  { projectId?, platformPaused?, platformPausedReason?,
 *                                                    tenantPaused?, sendingDisabled?, planMissing?, walletMissing?,
 *                                                    paygEnabled?, failNextBatchMessages? }
 *   GET    /_emulator/email/suppressions[?projectId=] suppression list of a project
 *   POST   /_emulator/email/suppressions              { projectId?, email, reason? } adds an address
 *   GET    /_emulator/email/undeliverable-domains     recipient domains without MX
 *   POST   /_emulator/email/undeliverable-domains     { domain } adds one
 *   POST   /_emulator/email/inbound                    { from, fromName?, to, cc?, subject?, text?, html?, attachments?,
 *                                                    spamVerdict?, virusVerdict? } a message arrives from outside
 *                                                    (inbox.ts deliverInbound): stored, forwarded, `email.received` sent
 *   PATCH  /_emulator/email/plan-limits               { projectId?, domains?, templates?, webhooks?, topics?,
 *                                                    segments?, contacts?, mailboxes?, aliases?, receiving?,
 *                                                    forwarding? } sets values of a project's plan (a stack
 *                                                    larger than its plan holds: the bench; the inbox values
 *                                                    of tests); buying a plan is the API's
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { parseControlBody } from "../core/control";
import { EmuError } from "../core/errors";
import type { Emu } from "../core/emu";
import { clearDeliveryLog, deliveryLog } from "./delivery";
import { deliverInbound, inboxPlanOf } from "./inbox";
import { publishDns } from "./domains";
import { addressOf } from "./send";
import { emailState, listSuppression } from "./state";


function projectOf(emu: Emu, id: string | undefined, reply: FastifyReply) {
  const project = id === undefined ? emu.world.projects[0] : emu.world.projects.find((p) => p.id === id);
  if (!project) void reply.code(404).send({ success: false, error: `no project ${id}`, code: "PROJECT_NOT_FOUND" });
  return project;
}

function switchesView(emu: Emu, projectId: string) {
  const project = emu.world.projects.find((p) => p.id === projectId)!;
  const s = emailState(emu.world).switches;
  return {
    projectId,
    platformPaused: s.platformPaused,
    platformPausedReason: s.platformPausedReason,
    tenantPaused: project.email.tenantPaused === true,
    sendingDisabled: !project.email.sendingEnabled,
    planMissing: s.planMissing.includes(projectId),
    walletMissing: s.walletMissing,
    paygEnabled: project.email.paygEnabled === true,
    failNextBatchMessages: s.failNextBatchMessages,
  };
}

export function emailControl(control: FastifyInstance, emu: Emu): void {
  control.post("/dns/publish", async (request, reply) => {
    const input = parseControlBody(z.object({ domain: z.string().min(1) }), request, reply);
    if (!input) return reply;
    if (!publishDns(emu, input.domain.toLowerCase())) {
      return reply.code(404).send({ success: false, error: `no sending domain ${input.domain}`, code: "DOMAIN_NOT_FOUND" });
    }
    return { success: true, data: { domain: input.domain.toLowerCase(), published: true } };
  });
  control.get("/email/deliveries", async (request) => {
    const { webhookId } = (request.query ?? {}) as { webhookId?: string };
    const log = deliveryLog(emu);
    return { success: true, data: { inFlight: log.inFlight, deliveries: webhookId ? log.deliveries.filter((d) => d.webhookId === webhookId) : log.deliveries } };
  });
  control.delete("/email/deliveries", async () => {
    clearDeliveryLog(emu);
    return { success: true, data: { cleared: true } };
  });

  control.get("/email/switches", async (request, reply) => {
    const project = projectOf(emu, ((request.query ?? {}) as { projectId?: string }).projectId, reply);
    if (!project) return reply;
    return { success: true, data: switchesView(emu, project.id) };
  });
  control.post("/email/switches", async (request, reply) => {
    const input = parseControlBody(
      z.strictObject({
        projectId: z.string().optional(),
        platformPaused: z.boolean().optional(),
        platformPausedReason: z.string().nullable().optional(),
        tenantPaused: z.boolean().optional(),
        sendingDisabled: z.boolean().optional(),
        planMissing: z.boolean().optional(),
        walletMissing: z.boolean().optional(),
        paygEnabled: z.boolean().optional(),
        failNextBatchMessages: z.number().int().min(0).optional(),
      }),
      request,
      reply,
    );
    if (!input) return reply;
    const project = projectOf(emu, input.projectId, reply);
    if (!project) return reply;
    const s = emailState(emu.world).switches;
    if (input.platformPaused !== undefined) s.platformPaused = input.platformPaused;
    if (input.platformPausedReason !== undefined) s.platformPausedReason = input.platformPausedReason;
    if (input.tenantPaused !== undefined) project.email.tenantPaused = input.tenantPaused;
    if (input.sendingDisabled !== undefined) project.email.sendingEnabled = !input.sendingDisabled;
    if (input.planMissing !== undefined) {
      s.planMissing = s.planMissing.filter((id) => id !== project.id);
      if (input.planMissing) s.planMissing.push(project.id);
    }
    if (input.walletMissing !== undefined) s.walletMissing = input.walletMissing;
    if (input.paygEnabled !== undefined) project.email.paygEnabled = input.paygEnabled;
    if (input.failNextBatchMessages !== undefined) s.failNextBatchMessages = input.failNextBatchMessages;
    return { success: true, data: switchesView(emu, project.id) };
  });

  control.get("/email/suppressions", async (request, reply) => {
    const project = projectOf(emu, ((request.query ?? {}) as { projectId?: string }).projectId, reply);
    if (!project) return reply;
    return { success: true, data: emailState(emu.world).suppressions.filter((s) => s.projectId === project.id) };
  });
  control.post("/email/suppressions", async (request, reply) => {
    const input = parseControlBody(z.strictObject({ projectId: z.string().optional(), email: z.string(), reason: z.enum(["bounce", "complaint", "manual"]).default("manual") }), request, reply);
    if (!input) return reply;
    const project = projectOf(emu, input.projectId, reply);
    if (!project) return reply;
    const address = addressOf(input.email)?.toLowerCase();
    if (!address) return reply.code(400).send({ success: false, error: `email: "${input.email}" is not an address`, code: "VALIDATION" });
    return { success: true, data: listSuppression(emu, project.id, address, input.reason).entry };
  });

  control.post("/email/inbound", async (request, reply) => {
    const input = parseControlBody(
      z.strictObject({
        from: z.string().min(1),
        fromName: z.string().optional(),
        to: z.union([z.string().min(1).transform((t) => [t]), z.array(z.string()).min(1)]),
        cc: z.array(z.string()).optional(),
        subject: z.string().optional(),
        text: z.string().optional(),
        html: z.string().optional(),
        attachments: z.array(z.strictObject({ filename: z.string().min(1), contentType: z.string().optional(), size: z.number().int().min(0).optional(), content: z.string().optional() })).optional(),
        spamVerdict: z.string().optional(),
        virusVerdict: z.string().optional(),
      }),
      request,
      reply,
    );
    if (!input) return reply;
    try {
      const messages = deliverInbound(emu, input);
      emu.save();
      return { success: true, data: { messages } };
    } catch (err) {
      if (!(err instanceof EmuError)) throw err;
      return reply.code(err.status).send({ success: false, error: err.message, code: err.code });
    }
  });

  control.get("/email/undeliverable-domains", async () => ({ success: true, data: [...emailState(emu.world).undeliverableDomains] }));
  control.post("/email/undeliverable-domains", async (request, reply) => {
    const input = parseControlBody(z.strictObject({ domain: z.string().min(1) }), request, reply);
    if (!input) return reply;
    const state = emailState(emu.world);
    const domain = input.domain.toLowerCase();
    if (!state.undeliverableDomains.includes(domain)) state.undeliverableDomains.push(domain);
    return { success: true, data: [...state.undeliverableDomains] };
  });

  control.patch("/email/plan-limits", async (request, reply) => {
    const limit = z.number().int().min(0).optional();
    const input = parseControlBody(
      z.strictObject({
        projectId: z.string().optional(),
        domains: limit, templates: limit, webhooks: limit, topics: limit, segments: limit, contacts: limit, mailboxes: limit, aliases: limit,
        receiving: z.boolean().optional(),
        forwarding: z.boolean().optional(),
      }),
      request,
      reply,
    );
    if (!input) return reply;
    const project = projectOf(emu, input.projectId, reply);
    if (!project) return reply;
    const plan = project.email.plan;
    if (!plan) return reply.code(409).send({ success: false, error: `project ${project.id} has no email plan`, code: "NO_PLAN" });
    const { projectId: _projectId, ...values } = input;
    project.email.plan = { ...plan, ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) };
    emu.save();
    return { success: true, data: { ...project.email.plan, ...inboxPlanOf(project.email.plan) } };
  });
}
