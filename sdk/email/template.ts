import * as pulumi from "@pulumi/pulumi";
import { defaultName } from "../naming";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Template");
import { SvcResource, type ClassSpec } from "../common";
import { templateOutputs, type TemplateArgs, type TemplateOutputs } from "../generated/Template";

export type { TemplateArgs };

const SPEC: ClassSpec = { type: "Template", outputs: templateOutputs, idOutputs: ["templateId"] };

/**
 * A stored message with `{{token}}` placeholders, for sends and broadcasts. Its subject and bodies update in place; a new name replaces it (the API has no rename).
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * const welcome = new svc.Template("welcome", {
 *   subject: "Welcome, {{firstName}}",
 *   htmlBody: "<p>Hello {{firstName}}, your account is ready.</p>",
 *   textBody: "Hello {{firstName}}, your account is ready.",
 * });
 *
 * export const templateId = welcome.templateId;
 * export const variables = welcome.variables; // ["firstName"]
 * ```
 *
 * Reference: docs/Template.md (inputs, outputs, waits, adoption, errors).
 */
export class Template extends SvcResource {
  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    // `defaultName`: the name a new template gets when `name` is not given (see ../naming.ts); not
    // sent beside a name given as a plain value (it would only take room in the state).
    super(provider, SPEC, name, args, opts, { defaultName: typeof args.name === "string" ? undefined : defaultName("Template", name) });
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Template.ts).
export interface Template extends TemplateOutputs {}
