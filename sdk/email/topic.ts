// Written by `npm run docs` from the schema in provider/email/topic.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailTopic");
import { SvcResource, type ClassSpec } from "../common";
import { emailTopicOutputs, type EmailTopicArgs, type EmailTopicOutputs } from "../generated/EmailTopic";

export type { EmailTopicArgs };

const SPEC: ClassSpec = { type: "EmailTopic", outputs: emailTopicOutputs, idOutputs: ["topicId"] };

/**
 * A subscription topic of the project's audience: contacts opt in to it, and a broadcast may go to a topic's subscribers. Its name and description update in place; it counts against the plan's topic limit.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * const news = new svc.EmailTopic("news", {
 *   name: "Product news",
 *   description: "A monthly letter about what is new.",
 * });
 *
 * export const topicId = news.topicId;
 * ```
 *
 * Reference: docs/EmailTopic.md (inputs, outputs, waits, adoption, errors).
 */
export class EmailTopic extends SvcResource {
  constructor(name: string, args: EmailTopicArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/EmailTopic.ts).
export interface EmailTopic extends EmailTopicOutputs {}
