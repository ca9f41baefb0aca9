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
  Domain: () => {
    const loaded: typeof import("../domains/domain") = require("../domains/domain");
    return loaded.domain;
  },
  DomainRegistrant: () => {
    const loaded: typeof import("../domains/registrant") = require("../domains/registrant");
    return loaded.domainRegistrant;
  },
  EmailPlan: () => {
    const loaded: typeof import("../email/plan") = require("../email/plan");
    return loaded.emailPlan;
  },
  EmailSegment: () => {
    const loaded: typeof import("../email/segment") = require("../email/segment");
    return loaded.emailSegment;
  },
  EmailSuppression: () => {
    const loaded: typeof import("../email/suppression") = require("../email/suppression");
    return loaded.emailSuppression;
  },
  EmailTopic: () => {
    const loaded: typeof import("../email/topic") = require("../email/topic");
    return loaded.emailTopic;
  },
  MailAlias: () => {
    const loaded: typeof import("../email/mail-alias") = require("../email/mail-alias");
    return loaded.mailAlias;
  },
  Mailbox: () => {
    const loaded: typeof import("../email/mailbox") = require("../email/mailbox");
    return loaded.mailbox;
  },
  ReceivingDomain: () => {
    const loaded: typeof import("../email/receiving-domain") = require("../email/receiving-domain");
    return loaded.receivingDomain;
  },
  SendingDomain: () => {
    const loaded: typeof import("../email/sending-domain") = require("../email/sending-domain");
    return loaded.sendingDomain;
  },
  SendingDomainVerification: () => {
    const loaded: typeof import("../email/sending-domain-verification") = require("../email/sending-domain-verification");
    return loaded.sendingDomainVerification;
  },
  Template: () => {
    const loaded: typeof import("../email/template") = require("../email/template");
    return loaded.template;
  },
  Vps: () => {
    const loaded: typeof import("../vps/vps") = require("../vps/vps");
    return loaded.vps;
  },
  VpsBackup: () => {
    const loaded: typeof import("../vps/backup") = require("../vps/backup");
    return loaded.vpsBackup;
  },
  VpsFirewallRule: () => {
    const loaded: typeof import("../vps/firewall-rule") = require("../vps/firewall-rule");
    return loaded.vpsFirewallRule;
  },
  VpsPortForward: () => {
    const loaded: typeof import("../vps/port-forward") = require("../vps/port-forward");
    return loaded.vpsPortForward;
  },
  VpsSnapshot: () => {
    const loaded: typeof import("../vps/snapshot") = require("../vps/snapshot");
    return loaded.vpsSnapshot;
  },
  VpsSshKey: () => {
    const loaded: typeof import("../vps/ssh-key") = require("../vps/ssh-key");
    return loaded.vpsSshKey;
  },
  Webhook: () => {
    const loaded: typeof import("../email/webhook") = require("../email/webhook");
    return loaded.webhook;
  },
});
