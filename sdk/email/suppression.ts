// Written by `npm run docs` from the schema in provider/email/suppression.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/EmailSuppression");
import { SvcResource, type ClassSpec } from "../common";
import { emailSuppressionOutputs, type EmailSuppressionArgs, type EmailSuppressionOutputs } from "../generated/EmailSuppression";

export type { EmailSuppressionArgs };

const SPEC: ClassSpec = { type: "EmailSuppression", outputs: emailSuppressionOutputs };

/**
 * One address on the project's suppression list: the platform sends nothing to it (a send answers `RECIPIENT_SUPPRESSED`). Destroying the resource takes the address off the list, so mail reaches it again. An address already on the list (a bounce, a complaint, added by hand) is managed with `adoptId`.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * // Nothing is sent to this address while the resource exists; destroying it takes the address off the list.
 * const doNotMail = new svc.EmailSuppression("do-not-mail", {
 *   email: "former-customer@example.org",
 * });
 *
 * export const reason = doNotMail.reason; // "manual"
 * ```
 *
 * Reference: docs/EmailSuppression.md (inputs, outputs, waits, adoption, errors).
 */
export class EmailSuppression extends SvcResource {
  constructor(name: string, args: EmailSuppressionArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/EmailSuppression.ts).
export interface EmailSuppression extends EmailSuppressionOutputs {}
