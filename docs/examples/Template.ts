// The example of docs/Template.md. Written by `npm run docs` from the schema in provider/email/template.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

const welcome = new svc.Template("welcome", {
  subject: "Welcome, {{firstName}}",
  htmlBody: "<p>Hello {{firstName}}, your account is ready.</p>",
  textBody: "Hello {{firstName}}, your account is ready.",
});

export const templateId = welcome.templateId;
export const variables = welcome.variables; // ["firstName"]
