// Written by `npm run docs` from the schema in provider/email/segment.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link EmailSegment}. Reference: docs/EmailSegment.md. */
export interface EmailSegmentArgs extends AdoptableArgs {
  /**
   * The segment's name, as the dashboard lists it (names may repeat at the API). Leading and trailing spaces are trimmed.
   * - Rule: must not be empty; at most 100 characters.
   * - A change: updates in place.
   */
  name: pulumi.Input<string>;
  /**
   * The rules a contact must all match. `field`: `email`, `topic` or a custom contact property's name; `operator`: how the field is compared; `value`: what it is compared with (required except with `exists`).
   * - Rule: at least 1 rule; at most 20 rules; each: `field`: must not be empty; `operator`: one of `equals`, `not_equals`, `contains`, `exists`.
   * - A change: updates in place.
   */
  rules: pulumi.Input<pulumi.Input<{ field: pulumi.Input<string>; operator: pulumi.Input<"equals" | "not_equals" | "contains" | "exists">; value?: pulumi.Input<string> }>[]>;
}

/** The outputs of {@link EmailSegment}: every argument as applied, and what the API makes. */
export interface EmailSegmentOutputs {
  /** The segment's name, as the dashboard lists it (names may repeat at the API). Leading and trailing spaces are trimmed. */
  readonly name: pulumi.Output<string>;
  /** The rules a contact must all match. `field`: `email`, `topic` or a custom contact property's name; `operator`: how the field is compared; `value`: what it is compared with (required except with `exists`). */
  readonly rules: pulumi.Output<{ field: string; operator: "equals" | "not_equals" | "contains" | "exists"; value?: string }[]>;
  /** The segment's id at the API (also the Pulumi id). */
  readonly segmentId: pulumi.Output<string>;
  /** When the API made it (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
  /** When it last changed at the API (ISO 8601). */
  readonly updatedAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const emailSegmentOutputs = {
  computed: { name: undefined, rules: undefined, segmentId: undefined, createdAt: undefined, updatedAt: undefined },
  secret: [] as string[],
};
