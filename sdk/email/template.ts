import * as pulumi from "@pulumi/pulumi";
import { providerShim } from "../shim";

const provider = providerShim("Template");

export interface TemplateArgs {
  /** 1 to 63 letters, digits, `_` or `-`. Changing it replaces the template. */
  name: pulumi.Input<string>;
  /** At most 500 characters, one line. */
  subject?: pulumi.Input<string>;
  /** At most 200,000 characters. At least one of htmlBody and textBody. */
  htmlBody?: pulumi.Input<string>;
  /** At most 200,000 characters. */
  textBody?: pulumi.Input<string>;
}

/** A stored message with `{{token}}` placeholders; subject and bodies update in place. */
export class Template extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly subject: pulumi.Output<string | undefined>;
  declare readonly htmlBody: pulumi.Output<string | undefined>;
  declare readonly textBody: pulumi.Output<string | undefined>;
  declare readonly templateId: pulumi.Output<string>;
  /** The `{{token}}` names used in subject and bodies, sorted. */
  declare readonly variables: pulumi.Output<string[]>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { templateId: undefined, variables: undefined, createdAt: undefined, updatedAt: undefined, ...args }, opts, "svc", "Template");
  }
}
