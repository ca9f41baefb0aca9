// Written by `npm run docs` from the schema in provider/email/template.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link Template}. Reference: docs/Template.md. */
export interface TemplateArgs extends AdoptableArgs {
  /**
   * The template's name at the API (names may repeat there).
   * - Rule: 1 to 63 characters: letters, digits, underscore, hyphen.
   * - Default: the resource name and a suffix derived from organization, project, stack and resource name, the same on every try (so a repeated first create finds the template an interrupted one made).
   * - A change: replaces the object.
   */
  name?: pulumi.Input<string>;
  /**
   * The subject of messages sent with it; may hold `{{token}}`s. Empty counts as none.
   * - Rule: at most 500 characters; must not contain line breaks.
   * - A change: updates in place.
   */
  subject?: pulumi.Input<string>;
  /**
   * The HTML body; may hold `{{token}}`s. Empty counts as none.
   * - Rule: at most 200,000 characters.
   * - A change: updates in place.
   */
  htmlBody?: pulumi.Input<string>;
  /**
   * The plain-text body; may hold `{{token}}`s. Empty counts as none.
   * - Rule: at most 200,000 characters.
   * - A change: updates in place.
   */
  textBody?: pulumi.Input<string>;
}

/** The outputs of {@link Template}: every argument as applied, and what the API makes. */
export interface TemplateOutputs {
  /** The template's name at the API (names may repeat there). */
  readonly name: pulumi.Output<string>;
  /** The subject of messages sent with it; may hold `{{token}}`s. Empty counts as none. */
  readonly subject: pulumi.Output<string | undefined>;
  /** The HTML body; may hold `{{token}}`s. Empty counts as none. */
  readonly htmlBody: pulumi.Output<string | undefined>;
  /** The plain-text body; may hold `{{token}}`s. Empty counts as none. */
  readonly textBody: pulumi.Output<string | undefined>;
  /** The template's id at the API. */
  readonly templateId: pulumi.Output<string>;
  /** The `{{token}}` names used in subject and bodies, sorted, each once: the variables a send must give. */
  readonly variables: pulumi.Output<string[]>;
  /** When the API made it (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
  /** When it last changed at the API (ISO 8601). */
  readonly updatedAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const templateOutputs = {
  computed: { name: undefined, subject: undefined, htmlBody: undefined, textBody: undefined, templateId: undefined, variables: undefined, createdAt: undefined, updatedAt: undefined },
  secret: [] as string[],
};
