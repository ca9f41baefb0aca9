// Written by `npm run docs` from the schema in provider/email/template.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

const welcome = new svc.Template("welcome", {
  subject: "Welcome, {{firstName}}",
  htmlBody: "<p>Hello {{firstName}}, your account is ready.</p>",
  textBody: "Hello {{firstName}}, your account is ready.",
});

export const templateId = welcome.templateId;
export const variables = welcome.variables; // ["firstName"]
