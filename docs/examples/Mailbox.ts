import * as svc from "pulumi-svc";

const mail = new svc.SendingDomain("mail", { domain: "example.org" });
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId });

// Pass the ReceivingDomain's domainId: the mailbox is made once receiving is on.
const support = new svc.Mailbox("support", {
  domainId: inbound.domainId,
  localPart: "support",
  name: "Support desk",
  forwardTo: ["oncall@example.net"],
});

export const address = support.address; // support@example.org
