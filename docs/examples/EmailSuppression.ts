// The example of docs/EmailSuppression.md. Written by `npm run docs` from the schema in provider/email/suppression.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// Nothing is sent to this address while the resource exists; destroying it takes the address off the list.
const doNotMail = new svc.EmailSuppression("do-not-mail", {
  email: "former-customer@example.org",
});

export const reason = doNotMail.reason; // "manual"
