import * as pulumi from "@pulumi/pulumi";
import { defaultName } from "../naming";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Template");
import { commonInputs, type CommonArgs } from "../common";

export interface TemplateArgs extends CommonArgs {
  /** 1 to 63 letters, digits, `_` or `-`. Changing it replaces the template. Default: the resource name and a
   * suffix derived from organization, project, stack and resource name (a repeated first create then finds the
   * template an interrupted one made; an explicit name that already exists stops the create with an error). */
  name?: pulumi.Input<string>;
  /** At most 500 characters, one line. */
  subject?: pulumi.Input<string>;
  /** At most 200,000 characters. At least one of htmlBody and textBody. */
  htmlBody?: pulumi.Input<string>;
  /** At most 200,000 characters. */
  textBody?: pulumi.Input<string>;
  /** Manage an existing object instead of creating one: the id of an existing template. The create then only reads it (nothing is
   * created or charged); where it differs from this program, the next `pulumi up` updates or replaces it as
   * usual. Changing or removing it afterwards changes nothing. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
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
    super(
      provider,
      name,
      // `defaultName`: the name a new template gets when `name` is not given (see ../naming.ts); not
      // sent beside a name given as a plain value (it would only take room in the state).
      {
        templateId: undefined,
        variables: undefined,
        createdAt: undefined,
        updatedAt: undefined,
        ...args,
        ...commonInputs(opts),
        defaultName: typeof args.name === "string" ? undefined : defaultName("Template", name),
      },
      opts,
      "svc",
      "Template",
    );
  }
}
