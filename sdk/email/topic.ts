import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailTopic");
import { commonInputs, type CommonArgs } from "../common";

export interface EmailTopicArgs extends CommonArgs {
  /** 1 to 100 characters. Changes in place. */
  name: pulumi.Input<string>;
  /** At most 500 characters. Changes in place. */
  description?: pulumi.Input<string>;
  /** Manage an existing topic (its id, from `GET /topics`) instead of creating one; nothing is created. Where it differs
   * from this program, the next `pulumi up` updates it. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** A subscription topic of the project's audience (counts against the plan's topic limit). */
export class EmailTopic extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly topicId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: EmailTopicArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { topicId: undefined, createdAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "EmailTopic");
  }
}
