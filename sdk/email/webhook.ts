// Written by `npm run docs` from the schema in provider/email/webhook.ts: edit the schema there, then run it.
import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Webhook");
import { SvcResource, type ClassSpec } from "../common";
import { webhookOutputs, type WebhookArgs, type WebhookOutputs } from "../generated/Webhook";
import type { WebhookEvent } from "../generated/data-types";

export type { WebhookArgs, WebhookEvent };

const SPEC: ClassSpec = { type: "Webhook", outputs: webhookOutputs, idOutputs: ["webhookId"] };

/**
 * An https endpoint that receives the project's email events, each delivery signed with `secret`. The API cannot change a webhook: any change replaces it, and the new one has a new secret.
 *
 * @example
 * ```typescript
 * import * as svc from "pulumi-svc";
 *
 * const hook = new svc.Webhook("deliveries", {
 *   url: "https://hooks.example.com/svc-events",
 *   events: ["email.delivered", "email.bounced", "email.received"],
 * });
 *
 * export const webhookId = hook.webhookId;
 * // The receiver verifies each delivery with verifyWebhookSignature(rawBody, signature, secret).
 * export const signingSecret = hook.secret; // a secret output
 * ```
 *
 * Reference: docs/Webhook.md (inputs, outputs, waits, adoption, errors).
 */
export class Webhook extends SvcResource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, SPEC, name, args, opts);
  }
}
// The outputs, with their TSDoc, from the schema (../generated/Webhook.ts).
export interface Webhook extends WebhookOutputs {}
