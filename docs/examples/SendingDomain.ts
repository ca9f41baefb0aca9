// The example of docs/SendingDomain.md. Written by `npm run docs` from the schema in provider/email/sending-domain.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

// `up` waits until the domain is verified (publish the records it lists, or see SendingDomainVerification).
const mail = new svc.SendingDomain("mail", {
  domain: "mail.example.com",
  verificationTimeoutSeconds: 1800,
});

export const domainId = mail.domainId;
export const recordsToPublish = mail.dnsRecords;
