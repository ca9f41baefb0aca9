// Written by `npm run docs` from the schema in provider/email/segment.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailSegment");
import { SvcResource, type ClassSpec } from "../common";
import { emailSegmentOutputs, type EmailSegmentArgs, type EmailSegmentOutputs } from "../generated/EmailSegment";

export type { EmailSegmentArgs };

/** One of {@link EmailSegmentArgs.rules}: the plain object form of a rule. */
export type EmailSegmentRule = Extract<Extract<EmailSegmentArgs["rules"], readonly unknown[]>[number], { operator: unknown }>;

const SPEC: ClassSpec = { type: "EmailSegment", outputs: emailSegmentOutputs, idOutputs: ["segmentId"] };

/**
 * A saved filter over the project's contacts: a contact is in the segment when it matches all its rules; broadcasts may go to a segment. Its name and rules update in place; it counts against the plan's segment limit.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // Contacts of acme.dev who opted in to the product news.
 * const acme = new svc.EmailSegment("acme", {
 *   name: "Acme customers",
 *   rules: [
 *     { field: "email", operator: "contains", value: "@acme.dev" },
 *     { field: "topic", operator: "equals", value: "Product news" },
 *   ],
 * });
 *
 * export const segmentId = acme.segmentId;
 * ```
 *
 * Reference: docs/EmailSegment.md (inputs, outputs, waits, adoption, errors).
 */
export class EmailSegment extends SvcResource {
  constructor(name: string, args: EmailSegmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/EmailSegment.ts).
export interface EmailSegment extends EmailSegmentOutputs {}
