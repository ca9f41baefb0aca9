// Written by `npm run docs` from the schema in provider/email/webhook.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

const hook = new svc.Webhook("deliveries", {
  url: "https://hooks.example.com/svc-events",
  events: ["email.delivered", "email.bounced", "email.received"],
});

export const webhookId = hook.webhookId;
// The receiver verifies each delivery with verifyWebhookSignature(rawBody, signature, secret).
export const signingSecret = hook.secret; // a secret output
