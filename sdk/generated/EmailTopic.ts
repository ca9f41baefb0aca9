// Written by `npm run docs` from the schema in provider/email/topic.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link EmailTopic}. Reference: docs/EmailTopic.md. */
export interface EmailTopicArgs extends AdoptableArgs {
  /**
   * The topic's name, as contacts and the dashboard see it (names may repeat at the API). Leading and trailing spaces are trimmed.
   * - Rule: must not be empty; at most 100 characters.
   * - A change: updates in place.
   */
  name: pulumi.Input<string>;
  /**
   * What subscribers get from this topic. Removing it clears it at the API.
   * - Rule: at most 500 characters.
   * - A change: updates in place.
   */
  description?: pulumi.Input<string>;
}

/** The outputs of {@link EmailTopic}: every argument as applied, and what the API makes. */
export interface EmailTopicOutputs {
  /** The topic's name, as contacts and the dashboard see it (names may repeat at the API). Leading and trailing spaces are trimmed. */
  readonly name: pulumi.Output<string>;
  /** What subscribers get from this topic. Removing it clears it at the API. */
  readonly description: pulumi.Output<string | undefined>;
  /** The topic's id at the API (also the Pulumi id). */
  readonly topicId: pulumi.Output<string>;
  /** When the API made it (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const emailTopicOutputs = {
  computed: { name: undefined, description: undefined, topicId: undefined, createdAt: undefined },
  secret: [] as string[],
};
