// The example of docs/EmailSegment.md. Written by `npm run docs` from the schema in provider/email/segment.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// Contacts of acme.dev who opted in to the product news.
const acme = new svc.EmailSegment("acme", {
  name: "Acme customers",
  rules: [
    { field: "email", operator: "contains", value: "@acme.dev" },
    { field: "topic", operator: "equals", value: "Product news" },
  ],
});

export const segmentId = acme.segmentId;
