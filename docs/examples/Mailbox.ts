// The example of docs/Mailbox.md. Written by `npm run docs` from the schema in provider/email/mailbox.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// Forwarding needs a plan that includes it (getEmailPlans(): forwarding true). A project has one
// EmailPlan: declare it once, and make the mailbox depend on it so the plan is bought first.
const plan = new svc.EmailPlan("plan", { planCode: "business" });

const mail = new svc.SendingDomain("mail", { domain: "example.org" });
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });

// Pass the ReceivingDomain's domainId: the mailbox is made once receiving is on.
const support = new svc.Mailbox(
  "support",
  {
    domainId: inbound.domainId,
    localPart: "support",
    name: "Support desk",
    forwardTo: ["oncall@example.net"],
  },
  { dependsOn: [plan] },
);

export const address = support.address; // support@example.org
