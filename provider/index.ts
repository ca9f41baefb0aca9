/**
 * Runtime entry of the resource providers (`pulumi-svc/provider`). Serialized provider shims
 * `require` this module by package name at call time, so the provider host always runs the
 * installed version and no closure captures code or credentials.
 */
import type { ConfigSource } from "./config";
import { sendingDomain } from "./email/sending-domain";
import { sendingDomainVerification } from "./email/sending-domain-verification";
import { template } from "./email/template";
import { webhook } from "./email/webhook";
import { receivingDomain } from "./email/receiving-domain";
import { mailbox } from "./email/mailbox";
import { mailAlias } from "./email/mail-alias";
import { domain } from "./domains/domain";
import { isMethod, methods } from "./dispatch";
import type { SchemaResource } from "./schema";
import { ProviderRuntime } from "./runtime";
import { vps } from "./vps/vps";
import { vpsBackup } from "./vps/backup";
import { vpsFirewallRule } from "./vps/firewall-rule";
import { emailPlan } from "./email/plan";
import { emailTopic } from "./email/topic";
import { emailSegment } from "./email/segment";
import { vpsSshKey } from "./vps/ssh-key";
import { vpsPortForward } from "./vps/port-forward";
import { vpsSnapshot } from "./vps/snapshot";
import { domainRegistrant } from "./domains/registrant";
import { emailSuppression } from "./email/suppression";

export * from "./client";
export * from "./config";

/** Each resource type's behaviour, by the type name in its token `pulumi-nodejs:dynamic/svc:<Type>`. */
export const resources: Record<string, SchemaResource> = {
  SendingDomain: sendingDomain,
  SendingDomainVerification: sendingDomainVerification,
  Webhook: webhook,
  Template: template,
  Domain: domain,
  Vps: vps,
  VpsFirewallRule: vpsFirewallRule,
  VpsBackup: vpsBackup,
  ReceivingDomain: receivingDomain,
  Mailbox: mailbox,
  MailAlias: mailAlias,
  EmailPlan: emailPlan,
  EmailTopic: emailTopic,
  EmailSegment: emailSegment,
  VpsSshKey: vpsSshKey,
  VpsPortForward: vpsPortForward,
  VpsSnapshot: vpsSnapshot,
  DomainRegistrant: domainRegistrant,
  EmailSuppression: emailSuppression,
};

/**
 * The provider process's one root of state (runtime.ts): the stack's config, each profile's clients,
 * the ids its creates answered. Every call gets it from here, as a parameter.
 */
const providerProcess = new ProviderRuntime();

/** The stack's config, as the host hands it to each serialized provider's `configure`. */
export function configure(config: ConfigSource | undefined): void {
  providerProcess.configure(config);
}

/** What a serialized shim calls: `run("Webhook", "create", [inputs])`. */
export async function run(type: string, method: string, args: unknown[]): Promise<unknown> {
  if (method === "configure") {
    configure((args[0] as { config?: ConfigSource } | undefined)?.config);
    return undefined;
  }
  const impl = resources[type];
  if (!impl) throw new Error(`pulumi-svc has no resource type ${type}: the installed pulumi-svc is older than the program that declared it`);
  // Every method's own handling around the resource's, the common inputs included (dispatch.ts).
  return isMethod(method) ? methods[method](providerProcess, type, impl, args) : undefined;
}
