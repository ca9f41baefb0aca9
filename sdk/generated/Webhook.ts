// Written by `npm run docs` from the schema in provider/email/webhook.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link Webhook}. Reference: docs/Webhook.md. */
export interface WebhookArgs extends AdoptableArgs {
  /**
   * The endpoint the API posts the events to.
   * - Rule: at most 2,000 characters; must be an https URL with a public fully-qualified host name (no IP address, no `localhost` or reserved top-level name), no credentials, no whitespace or control characters.
   * - A change: replaces the object.
   */
  url: pulumi.Input<string>;
  /**
   * The events delivered to it. Order and duplicates do not matter (the outputs list each once, sorted).
   * - Rule: at least one event; at most 20 entries; each: one of `email.sent`, `email.delivered`, `email.bounced`, `email.complained`, `email.opened`, `email.clicked`, `email.rejected`, `email.failed`, `email.received`.
   * - A change: replaces the object.
   */
  events: pulumi.Input<pulumi.Input<"email.sent" | "email.delivered" | "email.bounced" | "email.complained" | "email.opened" | "email.clicked" | "email.rejected" | "email.failed" | "email.received">[]>;
}

/** The outputs of {@link Webhook}: every argument as applied, and what the API makes. */
export interface WebhookOutputs {
  /** The endpoint the API posts the events to. */
  readonly url: pulumi.Output<string>;
  /** The events delivered to it. Order and duplicates do not matter (the outputs list each once, sorted). */
  readonly events: pulumi.Output<("email.sent" | "email.delivered" | "email.bounced" | "email.complained" | "email.opened" | "email.clicked" | "email.rejected" | "email.failed" | "email.received")[]>;
  /** The webhook's id at the API (the resource's id too). */
  readonly webhookId: pulumi.Output<string>;
  /** The signing secret: verify each delivery with `verifyWebhookSignature(rawBody, req.headers["svc-signature"], secret)`. The API answers it only when it creates the webhook, so a refresh keeps the one in the state. A secret output. */
  readonly secret: pulumi.Output<string>;
  /** Whether the API delivers to it (it may disable an endpoint that keeps failing). */
  readonly enabled: pulumi.Output<boolean>;
  /** Deliveries that failed in a row, as the API counts them. */
  readonly failCount: pulumi.Output<number>;
  /** When the API made the webhook (ISO 8601). */
  readonly createdAt: pulumi.Output<string>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const webhookOutputs = {
  computed: { url: undefined, events: undefined, webhookId: undefined, secret: undefined, enabled: undefined, failCount: undefined, createdAt: undefined },
  secret: ["secret"] as string[],
};
