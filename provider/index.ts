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
import { domain } from "./domains/domain";
import type { ResourceImpl } from "./resource";
import { configure } from "./runtime";
import { RESUME_KEY, withResume } from "./resume";
import { vps } from "./vps/vps";
import { vpsBackup } from "./vps/backup";
import { vpsFirewallRule } from "./vps/firewall-rule";

export * from "./client";
export * from "./config";
export { configure } from "./runtime";

/** Each resource type's behaviour, by the type name in its token `pulumi-nodejs:dynamic/svc:<Type>`. */
export const resources: Record<string, ResourceImpl> = {
  SendingDomain: sendingDomain,
  SendingDomainVerification: sendingDomainVerification,
  Webhook: webhook,
  Template: template,
  Domain: domain,
  Vps: vps,
  VpsFirewallRule: vpsFirewallRule,
  VpsBackup: vpsBackup,
};

type Method = "configure" | keyof ResourceImpl;

/** What a serialized shim calls: `run("Webhook", "create", [inputs])`. */
export async function run(type: string, method: Method, args: unknown[]): Promise<unknown> {
  if (method === "configure") {
    configure((args[0] as { config?: ConfigSource } | undefined)?.config);
    return undefined;
  }
  const impl = resources[type];
  if (!impl) throw new Error(`pulumi-svc has no resource type ${type}: the installed pulumi-svc is older than the program that declared it`);
  if (method === "create" && args[0] && typeof args[0] === "object" && RESUME_KEY in (args[0] as object)) {
    return withResume(args[0] as Record<string, unknown>, (inputs) => (type === "VpsBackup" ? resumeBackup(inputs) : impl.create(inputs)));
  }
  return (impl[method] as (...a: unknown[]) => Promise<unknown>).apply(impl, args);
}

/**
 * A resumed VpsBackup create (provider/resume.ts): an add-on already on the server is the one the
 * interrupted attempt bought (the server is this stack's): it is adopted through `update`, which
 * changes its plan only if the program asks for another one and waits until it is active. Only
 * when there is none is the activation sent.
 */
async function resumeBackup(inputs: Record<string, unknown>): Promise<unknown> {
  const found = await vpsBackup.read(inputs.vpsId as string, inputs);
  if (!found.id) return vpsBackup.create(inputs);
  const { outs } = await vpsBackup.update(found.id, { ...inputs, planCode: found.props.planCode }, inputs);
  return { id: found.id, outs };
}
