// Written by `npm run docs` from the schema in provider/email/template.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Template");
import { SvcResource, type ClassSpec } from "../common";
import { templateOutputs, type TemplateArgs, type TemplateOutputs } from "../generated/Template";

export type { TemplateArgs };

const SPEC: ClassSpec = { type: "Template", outputs: templateOutputs, idOutputs: ["templateId"], defaultName: true };

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
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Template.ts).
export interface Template extends TemplateOutputs {}
