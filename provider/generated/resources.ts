// Written by `npm run docs` from the provider files that export a `ResourceSchema`: add a type by its own file, then run it.
import type { SchemaResource } from "../schema";
import { domain } from "../domains/domain";
import { domainRegistrant } from "../domains/registrant";
import { emailPlan } from "../email/plan";
import { emailSegment } from "../email/segment";
import { emailSuppression } from "../email/suppression";
import { emailTopic } from "../email/topic";
import { mailAlias } from "../email/mail-alias";
import { mailbox } from "../email/mailbox";
import { receivingDomain } from "../email/receiving-domain";
import { sendingDomain } from "../email/sending-domain";
import { sendingDomainVerification } from "../email/sending-domain-verification";
import { template } from "../email/template";
import { vps } from "../vps/vps";
import { vpsBackup } from "../vps/backup";
import { vpsFirewallRule } from "../vps/firewall-rule";
import { vpsPortForward } from "../vps/port-forward";
import { vpsSnapshot } from "../vps/snapshot";
import { vpsSshKey } from "../vps/ssh-key";
import { webhook } from "../email/webhook";

/** Each resource type's behaviour, by the type name in its token `pulumi-nodejs:dynamic/svc:<Type>`. */
export const resources: Record<string, SchemaResource> = {
  Domain: domain,
  DomainRegistrant: domainRegistrant,
  EmailPlan: emailPlan,
  EmailSegment: emailSegment,
  EmailSuppression: emailSuppression,
  EmailTopic: emailTopic,
  MailAlias: mailAlias,
  Mailbox: mailbox,
  ReceivingDomain: receivingDomain,
  SendingDomain: sendingDomain,
  SendingDomainVerification: sendingDomainVerification,
  Template: template,
  Vps: vps,
  VpsBackup: vpsBackup,
  VpsFirewallRule: vpsFirewallRule,
  VpsPortForward: vpsPortForward,
  VpsSnapshot: vpsSnapshot,
  VpsSshKey: vpsSshKey,
  Webhook: webhook,
};
