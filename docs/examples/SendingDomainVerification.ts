// The example of docs/SendingDomainVerification.md. Written by `npm run docs` from the schema in provider/email/sending-domain-verification.ts of the pulumi-svc repository: edit its `example` there.
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

// This program publishes the records itself, so the SendingDomain does not wait...
const mail = new svc.SendingDomain("mail", { domain: "mail.example.com", waitForVerification: false });

// ...one record resource per entry of mail.dnsRecords, with your DNS provider's package:
const published: pulumi.Resource[] = [];

// ...and the wait comes after them.
const verified = new svc.SendingDomainVerification("mail-verified", { domainId: mail.domainId, timeoutSeconds: 900 }, { dependsOn: published });

export const verifiedAt = verified.verifiedAt;
