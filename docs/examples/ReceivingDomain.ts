// The example of docs/ReceivingDomain.md. Written by `npm run docs` from the schema in provider/email/receiving-domain.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

const mail = new svc.SendingDomain("mail", { domain: "example.org" });

// Mail for support@in.example.org and the like; publish `mxRecords` with your DNS provider.
const inbound = new svc.ReceivingDomain("inbound", { domainId: mail.domainId, host: "in.example.org" });

export const mxRecords = inbound.mxRecords;
