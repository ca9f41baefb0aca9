/**
 * Template: a stored message with `{{token}}` placeholders. `name` replaces (the API has no rename);
 * subject and bodies update in place. Create waits for the `create_template` job.
 *
 * Create goes through createOnce (../create-once.ts). Without `name`, a template gets the default
 * name the sdk derives from organization, project, stack and resource name: a template of that name
 * can only be this resource's (an interrupted create made it) and is adopted. An explicit name may
 * be anyone's (names may repeat at the API): one that exists stops the create with its id and the
 * `adoptId` line.
 */
import { z } from "zod";
import { createOnce } from "../create-once";
import type { EmailTemplate } from "../../contract/schemas";
import { isNotFound, operationError, operationFailed, PartialFailure, pick, type Props } from "../resource";
import { adoptIdInput, checkSchema, defineResource, defineSchema, type InputsOf } from "../schema";
import type { CallContext } from "../context";
import { waitForJob } from "./jobs";
import { limitValue } from "../foresight";
import { LARGER_PLAN, readEmailStatus } from "./plan-limits";

const BODY_LIMIT = 200_000;
/** The API stores an empty subject or body as none (and reads it back absent): so does check, or a refresh would diff forever. */
const noneIfEmpty = (text: string | undefined) => (text === "" ? undefined : text);
const templateName = z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, "1 to 63 characters: letters, digits, underscore, hyphen");

export const templateSchema = defineSchema({
  type: "Template",
  sdk: { idOutputs: ["templateId"], defaultName: true },
  preview: `**Limit.** A new template counts against the plan's \`templates\` (\`GET /status\`) with those the project holds and those the run adds: past it the preview refuses it on \`name\` with the counts, instead of \`402 TEMPLATE_LIMIT_REACHED\` mid-\`up\`. Only creates count; a template of the same name already in the project (adopted) adds nothing.`,
  service: "email",
  summary: "A stored message with `{{token}}` placeholders, for sends and broadcasts. Its subject and bodies update in place; a new name replaces it (the API has no rename).",
  example: `
import * as svc from "pulumi-svc";

const welcome = new svc.Template("welcome", {
  subject: "Welcome, {{firstName}}",
  htmlBody: "<p>Hello {{firstName}}, your account is ready.</p>",
  textBody: "Hello {{firstName}}, your account is ready.",
});

export const templateId = welcome.templateId;
export const variables = welcome.variables; // ["firstName"]
`,
  inputs: {
    name: {
      schema: templateName.optional(),
      description: "The template's name at the API (names may repeat there).",
      change: "replace",
      default: "the resource name and a suffix derived from organization, project, stack and resource name, the same on every try (so a repeated first create finds the template an interrupted one made)",
    },
    subject: {
      // The subject becomes a message subject: the send rules apply (500 characters, one line).
      schema: z.string().max(500, "at most 500 characters").regex(/^[^\r\n]*$/, "must not contain line breaks").optional().transform(noneIfEmpty),
      description: "The subject of messages sent with it; may hold `{{token}}`s. Empty counts as none.",
      change: "update",
    },
    htmlBody: {
      schema: z.string().max(BODY_LIMIT, "at most 200,000 characters").optional().transform(noneIfEmpty),
      description: "The HTML body; may hold `{{token}}`s. Empty counts as none.",
      change: "update",
    },
    textBody: {
      schema: z.string().max(BODY_LIMIT, "at most 200,000 characters").optional().transform(noneIfEmpty),
      description: "The plain-text body; may hold `{{token}}`s. Empty counts as none.",
      change: "update",
    },
    defaultName: {
      schema: templateName.optional(),
      description: "The name a new template gets when `name` is not given, set by the sdk class (sdk/naming.ts).",
      change: "state",
      internal: true,
    },
    adoptId: adoptIdInput("the id of an existing template"),
  },
  outputs: {
    templateId: { schema: z.string(), description: "The template's id at the API." },
    variables: { schema: z.array(z.string()), description: "The `{{token}}` names used in subject and bodies, sorted, each once: the variables a send must give." },
    createdAt: { schema: z.string(), description: "When the API made it (ISO 8601)." },
    updatedAt: { schema: z.string(), description: "When it last changed at the API (ISO 8601)." },
  },
  rules: [
    {
      text: "at least one of `htmlBody` and `textBody`, not empty",
      check: (inputs) => (inputs.htmlBody === undefined && inputs.textBody === undefined ? [{ property: "htmlBody", reason: "a template needs htmlBody or textBody (or both), not empty" }] : []),
    },
  ],
  waits: [{ what: "create: its `create_template` job", limit: "2 min" }],
  adoption: "`adoptId` is the template's id. The create reads it (nothing is made); the next preview shows where it differs from the program. An unknown id fails the create with `NOT_FOUND`.",
  interrupted:
    "Without `name`, the template an interrupted create made has the default name, which only this resource uses: the next `up` finds it and takes it over, after waiting for its job. With an explicit `name`, a template of that name may be anyone's: the create stops with its id and the `adoptId` line to add.",
  errors: {
    TEMPLATE_LIMIT_REACHED: "The plan holds no more templates: delete unused ones or move to a larger plan (`EmailPlan`).",
    NOT_FOUND: "On update or read: the template was deleted outside Pulumi; `pulumi refresh` drops it and the next `up` makes it again.",
    VALIDATION: "The API refused a value the check let through: the message names it.",
  },
});
const INPUTS = Object.keys(templateSchema.inputs);

/** The `{{token}}` names a template uses, sorted and de-duplicated. */
export function templateVariables(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const m of (text ?? "").matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)) names.add(m[1]);
  return [...names].sort();
}

/**
 * The one mapper from an API template to the resource's properties: create's outputs, adoption, read
 * and drift. `kept`: pulumi-svc's own inputs (defaultName, adoptId). The API stores an empty subject
 * or body as none: absent here, as check makes it.
 */
export function templateProperties(t: EmailTemplate, kept: Props): { inputs: Props; outputs: Props } {
  const inputs: Props = { ...pick(kept, ["defaultName", "adoptId"]), name: t.name };
  if (t.subject !== null) inputs.subject = t.subject;
  if (t.htmlBody !== null) inputs.htmlBody = t.htmlBody;
  if (t.textBody !== null) inputs.textBody = t.textBody;
  // `defaultName` is the program's every time: not repeated in the state.
  const { defaultName: _defaultName, ...own } = inputs;
  return { inputs, outputs: { ...own, templateId: t.id, variables: templateVariables(t.subject, t.htmlBody, t.textBody), createdAt: t.createdAt, updatedAt: t.updatedAt } };
}

type TemplateInputs = InputsOf<typeof templateSchema>;

/** Creates the template at most once (createOnce); answers its id and, when this call made it, the job. */
async function createTemplate(ctx: CallContext, inputs: TemplateInputs, name: string): Promise<{ templateId: string; jobId?: string; adopted: boolean }> {
  const api = ctx.api.email;
  const body = { name, subject: inputs.subject, htmlBody: inputs.htmlBody, textBody: inputs.textBody };
  try {
    const { object, adopted } = await createOnce<{ templateId: string; jobId?: string }>(ctx, inputs, {
      noun: "template",
      idOf: (t) => t.templateId,
      describe: () => `named "${body.name}"`,
      adopt: async (adoptId) => {
        // Read on its own, not through the poller: an unknown id's error carries the API's own answer.
        try {
          return { templateId: (await api.call("email.templates.get", { params: { templateId: adoptId } })).id };
        } catch (err) {
          throw operationError("create", err, isNotFound(err) ? `adoptId "${adoptId}": no template with this id in the project of this key` : undefined);
        }
      },
      find: async (joinInFlight) => ({
        objects: (await (joinInFlight ? ctx.api.templateList.lookup() : ctx.api.templateList.fresh())).filter((t) => t.name === body.name).map((t) => ({ templateId: t.id })),
        provablyMine: inputs.defaultName !== undefined && body.name === inputs.defaultName,
      }),
      send: () => api.call("email.templates.create", { body }),
      otherwise: "give this template another name",
    });
    return { ...object, adopted };
  } catch (err) {
    throw operationError("create", err);
  }
}

/** Waits for the project's open create_template jobs to end (best effort: a wait that fails leaves the read to tell). */
async function settleCreateJobs(ctx: CallContext): Promise<void> {
  const jobs = await ctx.api.email.call("email.jobs.list").catch(() => []);
  const open = jobs.filter((j) => j.type === "create_template" && (j.status === "queued" || j.status === "running"));
  await Promise.allSettled(open.map((j) => waitForJob(ctx, j.jobId, "create_template")));
}

export const template = defineResource(templateSchema, {
  // Each failure is worded here: a wait's or a read's as a partial failure that keeps the object.
  ownCreateErrors: true,
  async check(olds, news) {
    const result = checkSchema(templateSchema, news);
    // Without `name`: the name already chosen, else the default name the sdk derived.
    if (news.name === undefined) {
      const name = olds.name ?? result.inputs.defaultName;
      if (name !== undefined) result.inputs.name = name;
      else result.failures.push({ property: "name", reason: "name is required (1 to 63 letters, digits, underscore, hyphen)" });
    }
    return result;
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    // The check sets it (from the default name the sdk derived).
    const name = inputs.name;
    if (name === undefined) throw operationFailed("create", "the checked inputs lack name");
    const { templateId, jobId, adopted } = await createTemplate(ctx, inputs, name);
    const partial = (err: unknown) => new PartialFailure(templateId, { ...pick(inputs, INPUTS), templateId }, inputs, operationError("create", err));
    if (jobId) {
      const job = await waitForJob(ctx, jobId, "create_template").catch((err) => {
        throw partial(err);
      });
      if (job.status === "failed") throw operationFailed("create", `job ${job.jobId} (create_template) failed: ${job.errorMessage ?? "no reason given"}`);
      if (!adopted) {
        // Made by this call from the program's values: the answers already carry the template, so it
        // is not read back (issue 16). Its timestamps are the job's creation, which is the template's
        // (the POST made both); a later refresh reads the API's own.
        const made: EmailTemplate = {
          id: templateId,
          name,
          subject: (inputs.subject) ?? null,
          htmlBody: (inputs.htmlBody) ?? null,
          textBody: (inputs.textBody) ?? null,
          createdAt: job.createdAt,
          updatedAt: job.createdAt,
        };
        return { id: templateId, outs: templateProperties(made, inputs).outputs };
      }
    }
    // A template taken over may still be in its create_template job (an interrupted create's), and a
    // failed job removes it. Jobs name their template only once done, so the open ones are waited for.
    if (adopted) await settleCreateJobs(ctx);
    const t = await api.call("email.templates.get", { params: { templateId } }).catch((err) => {
      if (adopted && isNotFound(err)) throw operationError("create", err, `Template ${templateId} is gone (its create_template job failed, or it was deleted meanwhile): remove adoptId, if any, and run \`pulumi up\` again`);
      throw partial(err);
    });
    // An adopted template is taken as it is: the next preview shows where it differs from the program.
    return { id: t.id, outs: templateProperties(t, inputs).outputs };
  },

  async update(id, _olds, news, ctx) {
    try {
      const t = await ctx.api.email.call("email.templates.update", {
        params: { templateId: id },
        // An input removed from the program is cleared at the API.
        body: { subject: (news.subject) ?? null, htmlBody: (news.htmlBody) ?? null, textBody: (news.textBody) ?? null },
      });
      return { outs: templateProperties(t, news).outputs };
    } catch (err) {
      throw operationError("update", err);
    }
  },

  find: (id, _props, ctx) => ctx.api.templates.read(id),
  properties: (t, props) => templateProperties(t, props),

  remove: (id, _props, ctx) => ctx.api.email.call("email.templates.delete", { params: { templateId: id } }),

  counted: {
    kind: () => "templates",
    identity: (inputs) => String(inputs.name ?? inputs.defaultName),
    what: "templates",
    property: "name",
    limit: async (ctx) => limitValue((await readEmailStatus(ctx)).plan?.templates),
    existing: async (ctx) => (await ctx.api.templateList.lookup()).map((t) => t.name),
    fix: LARGER_PLAN,
  },
});
