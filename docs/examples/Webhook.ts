// The example of docs/Webhook.md. Written by `npm run docs` from the schema in provider/email/webhook.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

const hook = new svc.Webhook("deliveries", {
  url: "https://hooks.example.com/svc-events",
  events: ["email.delivered", "email.bounced", "email.received"],
});

export const webhookId = hook.webhookId;
// The receiver verifies each delivery with verifyWebhookSignature(rawBody, signature, secret).
export const signingSecret = hook.secret; // a secret output
