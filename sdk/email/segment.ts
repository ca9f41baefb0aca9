import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailSegment");
import { commonInputs, type CommonArgs } from "../common";

export interface EmailSegmentRule {
  /** `email`, `topic` or a custom contact property name. */
  field: pulumi.Input<string>;
  operator: pulumi.Input<"equals" | "not_equals" | "contains" | "exists">;
  /** Required except with `exists`. */
  value?: pulumi.Input<string>;
}

export interface EmailSegmentArgs extends CommonArgs {
  /** 1 to 100 characters. Changes in place. */
  name: pulumi.Input<string>;
  /** 1 to 20 rules; a contact is in the segment when it matches them all. Changes in place. */
  rules: pulumi.Input<pulumi.Input<EmailSegmentRule>[]>;
  /** Manage an existing segment (its id, from `GET /segments`) instead of creating one; nothing is created. Where it
   * differs from this program, the next `pulumi up` updates it. See the README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/** A saved filter over the project's contacts (counts against the plan's segment limit). */
export class EmailSegment extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly rules: pulumi.Output<{ field: string; operator: string; value?: string }[]>;
  declare readonly segmentId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: EmailSegmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { segmentId: undefined, createdAt: undefined, updatedAt: undefined, ...args, ...commonInputs(opts) }, opts, "svc", "EmailSegment");
  }
}
