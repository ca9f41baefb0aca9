/**
 * Templates: created at once and readable right away; the `create_template` job only confirms the
 * creation (an injected failure of that job removes the template again). Names need not be unique:
 * the spec has no code for a duplicate name, and templates are addressed by id.
 */
import type { Ctx, Handlers } from "../core/module";
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import { cancelJobs, enqueueJob, type JobWorker } from "./jobs";
import { callerPlan, callerProject, emailState, ownRow, recordUserActivity, type TemplateRec } from "./state";

const ENTITY = "email_template";
const NAME = /^[A-Za-z0-9_-]{1,63}$/;
const MAX_BODY_CHARS = 200_000;
const BODY_FIELDS = ["htmlBody", "textBody"] as const;

export function templateView(t: TemplateRec) {
  return {
    id: t.id,
    name: t.name,
    subject: t.subject,
    htmlBody: t.htmlBody,
    textBody: t.textBody,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** An empty string stores as "no value", so an empty body never counts as a body. */
function valueOf(text: string | null | undefined): string | null {
  return text === undefined || text === null || text === "" ? null : text;
}

function checkBodySizes(body: Record<string, unknown>): void {
  for (const field of BODY_FIELDS) {
    const value = body[field];
    if (typeof value === "string" && value.length > MAX_BODY_CHARS) {
      throw new EmuError(422, "VALIDATION", `${field}: at most ${MAX_BODY_CHARS.toLocaleString("en-US")} characters (got ${value.length.toLocaleString("en-US")})`);
    }
  }
}

function requireBody(t: Pick<TemplateRec, "htmlBody" | "textBody">): void {
  if (t.htmlBody === null && t.textBody === null) throw new EmuError(400, "EMPTY_TEMPLATE", "A template needs htmlBody or textBody");
}

function findTemplate(ctx: Ctx): TemplateRec {
  return ownRow(ctx, emailState(ctx.world).templates, ctx.params.templateId, "TEMPLATE_NOT_FOUND", "Template not found");
}

function templateOfJob(emu: Emu, targetId: string): TemplateRec | undefined {
  return emailState(emu.world).templates.find((t) => t.id === targetId);
}

export const createTemplateWorker: JobWorker = {
  workSeconds: 1,
  failureTitle: "Email template could not be created",
  targetName: (emu, job) => templateOfJob(emu, job.targetId)?.name ?? job.targetId,
  run: (_emu, job) => ({ templateId: job.targetId }),
  // The creation did not happen: the template is removed again.
  onFailure: (emu, job) => {
    const state = emailState(emu.world);
    const t = templateOfJob(emu, job.targetId);
    if (!t) return;
    state.templates = state.templates.filter((x) => x !== t);
    emu.recordActivity({ projectId: t.projectId, action: "email.template.create_failed", entityType: ENTITY, entityId: t.id, entityName: t.name, actor: "system", byKeyOwner: false });
  },
};

export const templateHandlers: Handlers<"email.templates.list" | "email.templates.create" | "email.templates.get" | "email.templates.update" | "email.templates.delete"> = {
  "email.templates.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    return emailState(ctx.world).templates.filter((t) => t.projectId === projectId).map(templateView);
  },

  "email.templates.create": (ctx) => {
    const body = ctx.body;
    checkBodySizes(body);
    if (!NAME.test(body.name)) {
      throw new EmuError(400, "INVALID_TEMPLATE_NAME", "Template name: 1 to 63 characters, letters, digits, underscore and hyphen only");
    }
    const fields = { htmlBody: valueOf(body.htmlBody), textBody: valueOf(body.textBody) };
    requireBody(fields);
    const state = emailState(ctx.world);
    const projectId = callerProject(ctx).id;
    const limit = callerPlan(ctx).templates;
    if (state.templates.filter((t) => t.projectId === projectId).length >= limit) {
      throw new EmuError(402, "TEMPLATE_LIMIT_REACHED", `Your plan allows ${limit} templates`);
    }
    const now = ctx.emu.nowIso();
    const template: TemplateRec = {
      id: ctx.emu.uuid(),
      projectId,
      name: body.name,
      subject: valueOf(body.subject),
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    state.templates.push(template);
    const job = enqueueJob(ctx, "create_template", template.id, now);
    recordUserActivity(ctx, "email.template.created", ENTITY, template.id, template.name);
    return { jobId: job.jobId, templateId: template.id };
  },

  "email.templates.get": (ctx) => templateView(findTemplate(ctx)),

  "email.templates.update": (ctx) => {
    const template = findTemplate(ctx);
    const body = ctx.body;
    checkBodySizes(body);
    const fields = (["subject", ...BODY_FIELDS] as const).filter((f) => body[f] !== undefined);
    const next = { ...template };
    for (const f of fields) next[f] = valueOf(body[f]);
    requireBody(next);
    if (fields.length === 0) return templateView(template);
    for (const f of fields) template[f] = next[f];
    template.updatedAt = ctx.emu.nowIso();
    recordUserActivity(ctx, "email.template.updated", ENTITY, template.id, template.name);
    return templateView(template);
  },

  "email.templates.delete": (ctx) => {
    const template = findTemplate(ctx);
    const state = emailState(ctx.world);
    state.templates = state.templates.filter((t) => t !== template);
    cancelJobs(ctx.emu, template.id, "Template was deleted");
    recordUserActivity(ctx, "email.template.deleted", ENTITY, template.id, template.name);
    return { deleted: true as const };
  },
};
