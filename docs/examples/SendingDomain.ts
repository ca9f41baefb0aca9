// Written by `npm run docs` from the schema in provider/email/sending-domain.ts: edit its `example` there, then run it.
import * as svc from "pulumi-svc";

// `up` waits until the domain is verified (publish the records it lists, or see SendingDomainVerification).
const mail = new svc.SendingDomain("mail", {
  domain: "mail.example.com",
  verificationTimeoutSeconds: 1800,
});

export const domainId = mail.domainId;
export const recordsToPublish = mail.dnsRecords;
