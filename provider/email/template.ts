/**
 * Template: a stored message with `{{token}}` placeholders. `name` replaces (the API has no rename);
 * subject and bodies update in place. Create waits for the `create_template` job.
 */
import { z } from "zod";
import { OutcomeUnknownError } from "../client/errors";
import type { ApiClient } from "../client/http";
import type { EmailTemplate } from "../client/schemas";
import { checkInputs, diffInputs, isNotFound, operationError, PartialFailure, pick, type Props, type ResourceImpl } from "../resource";
import { resumedCreate } from "../resume";
import { emailApi } from "../runtime";
import { waitForJob } from "./jobs";

const BODY_LIMIT = 200_000;
/** The API stores an empty subject or body as none (and reads it back absent): so does check, or a refresh would diff forever. */
const noneIfEmpty = (text: string | undefined) => (text === "" ? undefined : text);
const fields = {
  name: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/, "1 to 63 characters: letters, digits, underscore, hyphen"),
  // The subject becomes a message subject: the send rules apply (500 characters, one line).
  subject: z.string().max(500, "at most 500 characters").regex(/^[^\r\n]*$/, "must not contain line breaks").optional().transform(noneIfEmpty),
  htmlBody: z.string().max(BODY_LIMIT, "at most 200,000 characters").optional().transform(noneIfEmpty),
  textBody: z.string().max(BODY_LIMIT, "at most 200,000 characters").optional().transform(noneIfEmpty),
};
const INPUTS = Object.keys(fields);

/** The `{{token}}` names a template uses, sorted and de-duplicated. */
export function templateVariables(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const m of (text ?? "").matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)) names.add(m[1]);
  return [...names].sort();
}

function outputs(inputs: Props, t: EmailTemplate): Props {
  return {
    ...pick(inputs, INPUTS),
    templateId: t.id,
    variables: templateVariables(t.subject, t.htmlBody, t.textBody),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

async function createTemplate(api: ApiClient, inputs: Props): Promise<{ templateId: string; jobId?: string }> {
  const body = pick(inputs, INPUTS) as { name: string; subject?: string; htmlBody?: string; textBody?: string };
  const resumed = resumedCreate();
  if (resumed) {
    // An interrupted create of this resource: the template it made (same name, made since) is adopted.
    const found = (await api.call("email.templates.list").catch((err) => {
      throw operationError("create", err);
    }))
      .filter((t) => t.name === body.name && Date.parse(t.createdAt) >= resumed.since)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    if (found) return { templateId: found.id };
  }
  try {
    return await api.call("email.templates.create", { body });
  } catch (err) {
    if (err instanceof OutcomeUnknownError) {
      const found = (await api.call("email.templates.list"))
        .filter((t) => t.name === body.name)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
      if (found) return { templateId: found.id };
    }
    throw operationError("create", err);
  }
}

export const template: ResourceImpl = {
  async check(_olds, news) {
    return checkInputs(news, fields, (inputs) =>
      inputs.htmlBody === undefined && inputs.textBody === undefined
        ? [{ property: "htmlBody", reason: "a template needs htmlBody or textBody (or both), not empty" }]
        : [],
    );
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replace: ["name"], update: ["subject", "htmlBody", "textBody"] });
  },

  async create(inputs) {
    const api = emailApi();
    const { templateId, jobId } = await createTemplate(api, inputs);
    const partial = (err: unknown) => new PartialFailure(templateId, { ...pick(inputs, INPUTS), templateId }, inputs, operationError("create", err).message);
    if (jobId) {
      const job = await waitForJob(jobId, "create_template").catch((err) => {
        throw partial(err);
      });
      if (job.status === "failed") throw new Error(`create failed: job ${job.jobId} (create_template) failed: ${job.errorMessage ?? "no reason given"}`);
    }
    const t = await api.call("email.templates.get", { params: { templateId } }).catch((err) => {
      throw partial(err);
    });
    return { id: t.id, outs: outputs(inputs, t) };
  },

  async update(id, _olds, news) {
    try {
      const t = await emailApi().call("email.templates.update", {
        params: { templateId: id },
        // An input removed from the program is cleared at the API.
        body: { subject: (news.subject as string) ?? null, htmlBody: (news.htmlBody as string) ?? null, textBody: (news.textBody as string) ?? null },
      });
      return { outs: outputs(news, t) };
    } catch (err) {
      throw operationError("update", err);
    }
  },

  async read(id) {
    let t: EmailTemplate;
    try {
      t = await emailApi().call("email.templates.get", { params: { templateId: id } });
    } catch (err) {
      if (isNotFound(err)) return { id: "", props: {} };
      throw operationError("read", err);
    }
    const inputs: Props = { name: t.name };
    if (t.subject !== null) inputs.subject = t.subject;
    if (t.htmlBody !== null) inputs.htmlBody = t.htmlBody;
    if (t.textBody !== null) inputs.textBody = t.textBody;
    return { id, props: outputs(inputs, t), inputs };
  },

  async delete(id) {
    try {
      await emailApi().call("email.templates.delete", { params: { templateId: id } });
    } catch (err) {
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
