// Written by `npm run docs` from the provider files that export a `ResourceSchema`: add a type by its own file, then run it.
import type { SchemaResource } from "../schema";

/** The table's entries, each loading its type's module at its first read. */
function loadedOnFirstUse(loaders: Record<string, () => SchemaResource>): Record<string, SchemaResource> {
  const table: Record<string, SchemaResource> = {};
  for (const [type, load] of Object.entries(loaders)) {
    Object.defineProperty(table, type, {
      enumerable: true,
      configurable: true,
      get: () => {
        const impl = load();
        Object.defineProperty(table, type, { enumerable: true, value: impl });
        return impl;
      },
    });
  }
  return table;
}

/**
 * Each resource type's behaviour, by the type name in its token `pulumi-nodejs:dynamic/svc:<Type>`.
 * A provider process loads the modules of the types its stack holds, at their first call (issue 43:
 * the provider host's start).
 */
export const resources: Record<string, SchemaResource> = loadedOnFirstUse({
  Domain: () => (require("../domains/domain") as typeof import("../domains/domain")).domain,
  DomainRegistrant: () => (require("../domains/registrant") as typeof import("../domains/registrant")).domainRegistrant,
  EmailPlan: () => (require("../email/plan") as typeof import("../email/plan")).emailPlan,
  EmailSegment: () => (require("../email/segment") as typeof import("../email/segment")).emailSegment,
  EmailSuppression: () => (require("../email/suppression") as typeof import("../email/suppression")).emailSuppression,
  EmailTopic: () => (require("../email/topic") as typeof import("../email/topic")).emailTopic,
  MailAlias: () => (require("../email/mail-alias") as typeof import("../email/mail-alias")).mailAlias,
  Mailbox: () => (require("../email/mailbox") as typeof import("../email/mailbox")).mailbox,
  ReceivingDomain: () => (require("../email/receiving-domain") as typeof import("../email/receiving-domain")).receivingDomain,
  SendingDomain: () => (require("../email/sending-domain") as typeof import("../email/sending-domain")).sendingDomain,
  SendingDomainVerification: () => (require("../email/sending-domain-verification") as typeof import("../email/sending-domain-verification")).sendingDomainVerification,
  Template: () => (require("../email/template") as typeof import("../email/template")).template,
  Vps: () => (require("../vps/vps") as typeof import("../vps/vps")).vps,
  VpsBackup: () => (require("../vps/backup") as typeof import("../vps/backup")).vpsBackup,
  VpsFirewallRule: () => (require("../vps/firewall-rule") as typeof import("../vps/firewall-rule")).vpsFirewallRule,
  VpsPortForward: () => (require("../vps/port-forward") as typeof import("../vps/port-forward")).vpsPortForward,
  VpsSnapshot: () => (require("../vps/snapshot") as typeof import("../vps/snapshot")).vpsSnapshot,
  VpsSshKey: () => (require("../vps/ssh-key") as typeof import("../vps/ssh-key")).vpsSshKey,
  Webhook: () => (require("../email/webhook") as typeof import("../email/webhook")).webhook,
});
