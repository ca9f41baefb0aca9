/**
 * What the reliability scenarios share (issue 8), without jest so that `npm run chaos` runs it too:
 * one program declaring every resource type (a generated fixture project), its config, the world it
 * must leave in the emulator, the wallet it must leave, and the secrets check.
 *
 * A check answers a list of problems (empty: all good); tests assert the list is empty, chaos counts.
 */
import { domainRecords, emailRecords, liveServers, seededRandom } from "../support/world";
import type { World } from "../../emulator";
import type { FirewallRuleRec, ServerRec } from "../../emulator/vps/state";
import type { AddressRec, ReceivingRec, TemplateRec, WebhookRec, DomainRec as EmailDomainRec } from "../../emulator/email/state";
import type { DomainRec } from "../../emulator/domains/state";
import type { Operation, RunResult, StackState } from "../support/stack-state";
import { declared, rowLines, ROWS, type AcceptanceRow } from "../support/acceptance-rows";
import type { EngineStack, RunOptions } from "../support/engine-harness";
import { running, STACK_LOCKED, type CliOutput } from "../support/real-cli";
import { adoptIdLinesAsked, secretsShown } from "../support/run-findings";

/** The types whose cells are written here: their program lines, config, world checks and charges below, their calls in matrix.ts. */
export const TUNED_TYPES = [
  "SendingDomain", "SendingDomainVerification", "Webhook", "Template", "Vps", "VpsFirewallRule", "VpsBackup", "Domain", "ReceivingDomain", "Mailbox", "MailAlias",
  "DomainRegistrant", "EmailTopic", "EmailSegment", "EmailSuppression",
] as const;
export type TunedType = (typeof TUNED_TYPES)[number];

/**
 * The server-access types (issue 25), whose cells run through the provider host on a server that
 * shares its address (matrix.ts ACCESS_CALLS), and the email plan, whose create and update are one
 * paid purchase (plan-purchase.ts): not part of the matrix's program.
 */
export type AccessType = "VpsSshKey" | "VpsPortForward" | "VpsSnapshot";
export const ACCESS_TYPES: AccessType[] = ["VpsSshKey", "VpsPortForward", "VpsSnapshot"];
const RUN_APART: readonly string[] = [...ACCESS_TYPES, "EmailPlan"];

/**
 * The acceptance matrix's rows of the types with no cells written here (a type added since): each
 * is declared by its row's lines, faulted at its row's create call (matrix.ts `rowCalls`), and
 * checked by its row's list of ids (`rowOnlyProblems`). So a new type runs in chaos from its row.
 */
export function rowOnly(rows: readonly AcceptanceRow[] = ROWS): AcceptanceRow[] {
  return rows.filter((row) => !(TUNED_TYPES as readonly string[]).includes(row.type) && !RUN_APART.includes(row.type));
}
export const ROW_ONLY = rowOnly();

export type ResourceType = string;
export const RESOURCE_TYPES: ResourceType[] = [...TUNED_TYPES, ...ROW_ONLY.map((row) => row.type)];

export const INITIAL_WALLET = 50_000_000;
export const ROOT_PASSWORD = "Chaos!pass2026x";

/**
 * Every type in one program; `declare` (config) lists the types to declare (default all: a type
 * that needs another, the rule and backup their Vps, the verification its domain, is declared only
 * with it). Every value a scenario changes is config.
 */
const TUNED_PROGRAM = `
const declared = (config.get("declare") ?? "all").split(",");
const has = (t) => declared.includes("all") || declared.includes(t);
// adoptId per resource, set by a scenario after a create stopped and named the object to adopt.
const adoptId = (name) => config.get("adopt_" + name) || undefined;
if (has("SendingDomain")) {
  const d = new svc.SendingDomain("sd", { domain: config.require("mailDomain"), verificationTimeoutSeconds: config.requireNumber("sdTimeout"), adoptId: adoptId("sd") });
  if (has("SendingDomainVerification")) new svc.SendingDomainVerification("sdv", { domainId: d.domainId, timeoutSeconds: config.requireNumber("sdvTimeout") });
  if (has("ReceivingDomain")) {
    const rcv = new svc.ReceivingDomain("rcv", { domainId: d.domainId, host: config.get("rcvHost") || undefined, adoptId: adoptId("rcv") });
    if (has("Mailbox")) {
      const mbx = new svc.Mailbox("mbx", { domainId: rcv.domainId, localPart: "support", name: config.require("mbxName"), adoptId: adoptId("mbx") });
      if (has("MailAlias")) new svc.MailAlias("als", { mailboxId: mbx.id, localPart: config.require("alsLocal"), adoptId: adoptId("als") });
    }
  }
}
if (has("Webhook")) new svc.Webhook("hook", { url: config.require("hookUrl"), events: ["email.delivered", "email.bounced"], adoptId: adoptId("hook") });
if (has("Template")) new svc.Template("tpl", { name: "chaos-template", subject: "Order {{id}}", textBody: config.require("tplBody"), adoptId: adoptId("tpl") });
if (has("Vps")) {
  const srv = new svc.Vps("srv", { name: config.get("srvName") || undefined, planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword"), powerState: config.get("power") ?? "running", adoptId: adoptId("srv") });
  if (has("VpsFirewallRule")) new svc.VpsFirewallRule("ssh", { vpsId: srv.id, protocol: "tcp", action: "allow", port: config.require("sshPort"), source: "0.0.0.0/0", adoptId: adoptId("ssh") });
  if (has("VpsBackup")) new svc.VpsBackup("bak", { vpsId: srv.id, planCode: config.require("backupPlan"), adoptId: adoptId("bak") });
}
// The owner details: the Domain takes their id, so its registration waits for them.
const owner = has("DomainRegistrant")
  ? new svc.DomainRegistrant("owner", {
      name: "Chaos Owner", email: config.requireSecret("ownerEmail"), phone: config.requireSecret("ownerPhone"), address: config.requireSecret("ownerAddress"), city: "Bandung",
      province: "Jawa Barat", postalCode: config.requireSecret("ownerPostalCode"), country: "ID", adoptId: adoptId("owner"),
    })
  : undefined;
if (has("Domain")) new svc.Domain("dom", { name: config.require("domainName"), whoisProtection: config.requireBoolean("whois"), autoRenew: config.getBoolean("autoRenew") ?? true, registrant: owner ? owner.id : undefined, adoptId: adoptId("dom") });
if (has("EmailTopic")) new svc.EmailTopic("topic", { name: "chaos-topic", description: config.require("topicDescription"), adoptId: adoptId("topic") });
if (has("EmailSegment")) new svc.EmailSegment("seg", { name: "chaos-segment", rules: [{ field: "email", operator: "contains", value: config.require("segValue") }], adoptId: adoptId("seg") });
if (has("EmailSuppression")) new svc.EmailSuppression("sup", { email: config.require("supEmail"), adoptId: adoptId("sup") });
`;

/**
 * The row-only types' lines, each in its block under `has(<type>)`, with what the rows' lines take
 * (AcceptanceRow): `changed` (config `rowsChanged`, true once updated), `adopt`, `planId`,
 * `sharedPlanId`, `rootPassword`. Nothing when every type has its lines here.
 */
export function rowOnlyProgram(rows: readonly AcceptanceRow[]): string {
  if (!rows.length) return "";
  const blocks = rows.map((row) => `  if (has(${JSON.stringify(row.type)})) {\n${rowLines(row, "    ")}\n  }`);
  return [
    "// The types with no lines above: each its acceptance row's lines (tools/support/acceptance-rows.ts).",
    "{",
    '  const changed = config.getBoolean("rowsChanged") ?? false;',
    "  const adopt = adoptId;",
    '  const planId = config.require("planId");',
    '  const sharedPlanId = config.require("sharedPlanId");',
    '  const rootPassword = config.requireSecret("rootPassword");',
    ...blocks,
    "}",
    "",
  ].join("\n");
}

export const PROGRAM = TUNED_PROGRAM + rowOnlyProgram(ROW_ONLY);

/** The resource names of PROGRAM: its own lines', then the row-only types' lines'. */
export const RESOURCE_NAMES: readonly string[] = [
  "sd", "sdv", "hook", "tpl", "srv", "ssh", "bak", "dom", "rcv", "mbx", "als", "owner", "topic", "seg", "sup",
  ...ROW_ONLY.flatMap((row) => declared(row).map((d) => d.name)),
];

/** The owner details PROGRAM writes that are secret (DomainRegistrant's email, phone, address, postal code), baseline and updated. */
export const OWNER_SECRETS = {
  ownerEmail: ["owner.chaos@example.com", "owner.chaos.v2@example.com"],
  ownerPhone: ["+62.8223344556677", "+62.8998877665544"],
  ownerAddress: ["Jl. Kacau Raya 36", "Jl. Kacau Raya 3602"],
  ownerPostalCode: ["40115-036", "40115-362"],
} as const;
/** The suppressed addresses PROGRAM declares (baseline, updated: a replace). */
export const SUPPRESSED = ["bounced.chaos@example.com", "bounced.chaos.v2@example.com"] as const;

/** The program's config values, as a scenario sets them (see `apply`). */
export interface Declared {
  types: ResourceType[];
  mailDomain: string;
  sdTimeout: number;
  sdvTimeout: number;
  hookUrl: string;
  tplBody: string;
  planId: string;
  /** The plan whose servers share an address, for the row-only types' lines. */
  sharedPlanId: string;
  power: "running" | "stopped";
  sshPort: string;
  backupPlan: string;
  domainName: string;
  whois: boolean;
  autoRenew: boolean;
  /** The server's explicit name (default: none, the Vps's deterministic default name). */
  srvName?: string;
  /** The receiving host ("": the sending domain itself), the mailbox's name, the alias's local part. */
  rcvHost: string;
  mbxName: string;
  alsLocal: string;
  /** DomainRegistrant's secret details (the others are fixed), the topic's description, the segment's rule value, the suppressed address. */
  owner: { ownerEmail: string; ownerPhone: string; ownerAddress: string; ownerPostalCode: string };
  topicDescription: string;
  segValue: string;
  supEmail: string;
  /** The row-only types' update: their rows' lines with `changed` true. */
  rowsChanged: boolean;
  /** adoptId by resource name. */
  adopt?: Partial<Record<string, string>>;
}

export interface Plans {
  small: { id: string; monthly: number };
  larger: { id: string; monthly: number };
  /** A plan whose servers share an address (the row-only types' lines may declare one: `sharedPlanId`). */
  shared: string;
}

/** The seeded catalogue's first plan and a larger one of its family and region that offers the same image. */
export function plansOf(world: World): Plans {
  const [small, ...rest] = world.catalog.vpsPlans;
  const larger = rest.find(
    (p) =>
      p.family === small.family && p.region === small.region && p.prices.monthly > small.prices.monthly && p.cpu >= small.cpu && p.memoryMb >= small.memoryMb &&
      p.diskGb >= small.diskGb && p.osTemplates.some((t) => t.osType === "ubuntu" && t.osVersion === "24.04"),
  );
  if (!larger) throw new Error("the seeded catalogue has no larger plan to upgrade to");
  const shared = world.catalog.vpsPlans.find((p) => p.sharedAddress);
  if (!shared) throw new Error("the seeded catalogue has no plan whose servers share an address");
  return { small: { id: small.id, monthly: small.prices.monthly }, larger: { id: larger.id, monthly: larger.prices.monthly }, shared: shared.id };
}

export function baseline(plans: Plans, types: ResourceType[] = RESOURCE_TYPES): Declared {
  return {
    types,
    mailDomain: "mail.chaos-example.com",
    sdTimeout: 600,
    sdvTimeout: 600,
    hookUrl: "https://hooks.example.com/chaos/v1",
    tplBody: "Hello {{name}}, version 1",
    planId: plans.small.id,
    sharedPlanId: plans.shared,
    power: "running",
    sshPort: "22",
    backupPlan: "backup-10",
    domainName: "chaos-shop.com",
    whois: false,
    autoRenew: true,
    rcvHost: "",
    mbxName: "Support v1",
    alsLocal: "help",
    owner: { ownerEmail: OWNER_SECRETS.ownerEmail[0], ownerPhone: OWNER_SECRETS.ownerPhone[0], ownerAddress: OWNER_SECRETS.ownerAddress[0], ownerPostalCode: OWNER_SECRETS.ownerPostalCode[0] },
    topicDescription: "Chaos news v1",
    segValue: "@chaos-v1.example.com",
    supEmail: SUPPRESSED[0],
    rowsChanged: false,
  };
}

/** The changes that make every type run its update (or its replace, for the webhook and the rule). */
export function updated(d: Declared, plans: Plans): Declared {
  return {
    ...d,
    sdTimeout: 900,
    sdvTimeout: 900,
    hookUrl: "https://hooks.example.com/chaos/v2",
    tplBody: "Hello {{name}}, version 2",
    planId: plans.larger.id,
    sshPort: "2222",
    backupPlan: "backup-50",
    whois: true,
    rcvHost: `in.${d.mailDomain}`,
    mbxName: "Support v2",
    alsLocal: "info",
    // Every secret detail changes: one PATCH carries them all.
    owner: { ownerEmail: OWNER_SECRETS.ownerEmail[1], ownerPhone: OWNER_SECRETS.ownerPhone[1], ownerAddress: OWNER_SECRETS.ownerAddress[1], ownerPostalCode: OWNER_SECRETS.ownerPostalCode[1] },
    topicDescription: "Chaos news v2",
    segValue: "@chaos-v2.example.com",
    supEmail: SUPPRESSED[1],
    rowsChanged: true,
  };
}

/** Writes the stack config the program reads. */
export function apply(s: EngineStack, project: string, d: Declared): void {
  const set = (key: string, value: string | number | boolean, secret = false) => s.config(`${project}:${key}`, String(value), secret);
  set("declare", d.types.length ? d.types.join(",") : "none");
  set("mailDomain", d.mailDomain);
  set("sdTimeout", d.sdTimeout);
  set("sdvTimeout", d.sdvTimeout);
  set("hookUrl", d.hookUrl);
  set("tplBody", d.tplBody);
  set("planId", d.planId);
  set("power", d.power);
  set("rootPassword", ROOT_PASSWORD, true);
  set("sshPort", d.sshPort);
  set("backupPlan", d.backupPlan);
  set("domainName", d.domainName);
  set("whois", d.whois);
  set("autoRenew", d.autoRenew);
  set("srvName", d.srvName ?? "");
  set("rcvHost", d.rcvHost);
  set("mbxName", d.mbxName);
  set("alsLocal", d.alsLocal);
  // Secret config, as a user must set personal data: the CLI gives a dynamic provider the stack's
  // whole config and keeps it in the state as the provider's inputs, plain values in clear (v3.274.1
  // resource/deploy/target.go `GetPackageConfig`).
  for (const [key, value] of Object.entries(d.owner)) set(key, value, true);
  set("topicDescription", d.topicDescription);
  set("segValue", d.segValue);
  set("supEmail", d.supEmail);
  for (const name of RESOURCE_NAMES) set(`adopt_${name}`, d.adopt?.[name] ?? "");
  if (ROW_ONLY.length) {
    set("rowsChanged", d.rowsChanged);
    set("sharedPlanId", d.sharedPlanId);
  }
}

/** adoptIdLinesAsked for PROGRAM's resources. */
export function adoptIdsAsked(r: RunResult): Partial<Record<string, string>> {
  return Object.fromEntries(Object.entries(adoptIdLinesAsked(r)).filter(([name]) => RESOURCE_NAMES.includes(name)));
}

/** Types declared, with their dependencies honoured (as the program does). */
export function effective(types: ResourceType[]): Set<ResourceType> {
  const out = new Set(types);
  if (!out.has("Vps")) {
    out.delete("VpsFirewallRule");
    out.delete("VpsBackup");
  }
  if (!out.has("SendingDomain")) out.delete("SendingDomainVerification");
  if (!out.has("SendingDomain")) out.delete("ReceivingDomain");
  if (!out.has("ReceivingDomain")) out.delete("Mailbox");
  if (!out.has("Mailbox")) out.delete("MailAlias");
  return out;
}

// ---- the world ----

export const servers: (w: World) => ServerRec[] = liveServers;
export const webhooks = (w: World): WebhookRec[] => emailRecords(w).webhooks;
export const templates = (w: World): TemplateRec[] => emailRecords(w).templates;
export const emailDomains = (w: World): EmailDomainRec[] => emailRecords(w).domains;
export const registered: (w: World) => DomainRec[] = domainRecords;
export const receivingOf = (w: World): ReceivingRec[] => (w.email as { receiving?: ReceivingRec[] }).receiving ?? [];
export const addressesOf = (w: World, type: AddressRec["type"]): AddressRec[] => ((w.email as { addresses?: AddressRec[] }).addresses ?? []).filter((a) => a.type === type);

interface AudienceRecords {
  topics: { id: string; name: string; description: string | null }[];
  segments: { id: string; name: string; rules: { field: string; operator: string; value?: string }[] }[];
}
export const audienceOf = (w: World): AudienceRecords => (w.email as { audience?: AudienceRecords }).audience ?? { topics: [], segments: [] };
/** PROGRAM's suppressed addresses on the list (seeded bounces and complaints are not its). */
export const suppressedOf = (w: World): string[] =>
  ((w.email as { suppressions?: { email: string }[] }).suppressions ?? []).map((x) => x.email).filter((e) => (SUPPRESSED as readonly string[]).includes(e)).sort();

const ruleText = (r: Pick<FirewallRuleRec, "protocol" | "action" | "port" | "source">) => `${r.protocol}/${r.action}/${r.port ?? "-"}/${r.source}`;

/**
 * Paid actions a scenario has caused, as the spec prices them: the wallet must be the seeded
 * balance less their sum, exactly (one charge per paid action, none twice).
 */
export class Charges {
  readonly items: { what: string; amount: number }[] = [];
  add(what: string, amount: number): void {
    this.items.push({ what, amount });
  }
  total(): number {
    return this.items.reduce((sum, c) => sum + c.amount, 0);
  }
}

const DAY_MS = 86_400_000;
/** The emulator's proration: (new − old) × days left / 30, days rounded up (emulator/vps/state.ts). */
export function prorated(newPrice: number, oldPrice: number, expiresAt: string, world: World): number {
  const now = Date.now() + world.clockOffsetMs;
  const days = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / DAY_MS));
  return Math.round(((newPrice - oldPrice) * days) / 30);
}

export const backupPrice = (w: World, code: string): number => w.catalog.backupPlans.find((p) => p.code === code)!.price;
export const tldOf = (w: World, name: string) => w.catalog.tlds[name.split(".").slice(1).join(".")];

/** The charges of creating what `d` declares (from nothing). */
export function createCharges(charges: Charges, w: World, d: Declared, plans: Plans): void {
  const types = effective(d.types);
  if (types.has("Vps")) charges.add("server", d.planId === plans.small.id ? plans.small.monthly : plans.larger.monthly);
  if (types.has("VpsBackup")) charges.add("backup", backupPrice(w, d.backupPlan));
  if (types.has("Domain")) {
    const tld = tldOf(w, d.domainName);
    charges.add("domain", tld.registration + (d.whois ? tld.whoisProtection : 0));
  }
}

/**
 * The charges of going from `from` to `to` on the live world (before the update runs: the
 * proration counts the days left now).
 */
export function updateCharges(charges: Charges, w: World, from: Declared, to: Declared, plans: Plans): void {
  const types = effective(to.types);
  const [server] = servers(w);
  if (types.has("Vps") && server && from.planId !== to.planId) charges.add("upgrade", prorated(plans.larger.monthly, plans.small.monthly, server.expiresAt, w));
  if (types.has("VpsBackup") && server?.backup && from.backupPlan !== to.backupPlan) {
    charges.add("backup plan change", Math.max(0, prorated(backupPrice(w, to.backupPlan), backupPrice(w, from.backupPlan), server.backup.expiresAt, w)));
  }
  if (types.has("Domain") && !from.whois && to.whois) charges.add("whois", tldOf(w, to.domainName).whoisProtection);
}

/**
 * The world holds exactly what `d` declares: one server (not terminated) per Vps, its one rule and
 * backup add-on as declared, one webhook, template and sending domain each, the registered domains
 * ever declared (a registration is never undone) each once; and the wallet is the seeded balance
 * less `charges`. The state names the same objects.
 */
export function worldProblems(s: EngineStack, d: Declared, charges: Charges, everRegistered: string[]): string[] {
  const w = s.world();
  const types = effective(d.types);
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const state = s.state();
  const idOf = (type: ResourceType) => state.resources.find((r) => r.type === `pulumi-nodejs:dynamic/svc:${type}`)?.id;

  const live = servers(w);
  expect(live.length === (types.has("Vps") ? 1 : 0), `servers: ${live.length} live (${live.map((x) => `${x.name} ${x.status}`).join(", ")}), ${types.has("Vps") ? 1 : 0} declared`);
  if (types.has("Vps") && live.length === 1) {
    const [server] = live;
    expect(idOf("Vps") === server.id, `the state's server ${idOf("Vps")} is not the live one ${server.id}`);
    expect(server.planId === d.planId, `server on plan ${server.planId}, ${d.planId} declared`);
    expect(server.status === d.power, `server ${server.status}, ${d.power} declared`);
    const rules = server.firewall.map(ruleText);
    const wanted = types.has("VpsFirewallRule") ? [ruleText({ protocol: "tcp", action: "allow", port: d.sshPort, source: "0.0.0.0/0" })] : [];
    expect(JSON.stringify(rules) === JSON.stringify(wanted), `firewall rules ${JSON.stringify(rules)}, ${JSON.stringify(wanted)} declared`);
    const backup = server.backup ? `${server.backup.planCode} ${server.backup.status}` : "none";
    const wantedBackup = types.has("VpsBackup") ? `${d.backupPlan} active` : "none";
    expect(backup === wantedBackup, `backup add-on ${backup}, ${wantedBackup} declared`);
  }
  const hooks = webhooks(w);
  expect(hooks.length === (types.has("Webhook") ? 1 : 0), `webhooks: ${hooks.map((h) => h.url).join(", ") || "none"}`);
  if (types.has("Webhook") && hooks.length === 1) {
    expect(hooks[0].url === d.hookUrl, `webhook url ${hooks[0].url}, ${d.hookUrl} declared`);
    expect(idOf("Webhook") === hooks[0].id, "the state's webhook is not the live one");
    // The secret in the state is the webhook's (the only copy: the API answers it once).
    const stored = state.resources.find((r) => r.id === hooks[0].id)?.outputs.secret;
    expect(stored === hooks[0].secret, "the state does not hold the live webhook's secret");
  }
  const tpls = templates(w);
  expect(tpls.length === (types.has("Template") ? 1 : 0), `templates: ${tpls.map((t) => t.name).join(", ") || "none"}`);
  if (types.has("Template") && tpls.length === 1) expect(tpls[0].textBody === d.tplBody, `template body ${JSON.stringify(tpls[0].textBody)}`);
  const doms = emailDomains(w);
  expect(doms.length === (types.has("SendingDomain") ? 1 : 0), `sending domains: ${doms.map((x) => x.domain).join(", ") || "none"}`);
  if (types.has("SendingDomain") && doms.length === 1) expect(doms[0].status === "verified", `sending domain ${doms[0].status}`);
  const rcv = receivingOf(w);
  expect(rcv.length === (types.has("ReceivingDomain") ? 1 : 0), `receiving hosts: ${rcv.map((r) => r.host).join(", ") || "none"}`);
  if (types.has("ReceivingDomain") && rcv.length === 1) expect(rcv[0].host === (d.rcvHost || d.mailDomain), `receiving host ${rcv[0].host}, ${d.rcvHost || d.mailDomain} declared`);
  const boxes = addressesOf(w, "mailbox");
  expect(boxes.length === (types.has("Mailbox") ? 1 : 0), `mailboxes: ${boxes.map((a) => a.localPart).join(", ") || "none"}`);
  if (types.has("Mailbox") && boxes.length === 1) {
    expect(boxes[0].name === d.mbxName, `mailbox name ${boxes[0].name}, ${d.mbxName} declared`);
    expect(idOf("Mailbox") === boxes[0].id, "the state's mailbox is not the live one");
  }
  const aliases = addressesOf(w, "alias");
  expect(aliases.length === (types.has("MailAlias") ? 1 : 0), `aliases: ${aliases.map((a) => a.localPart).join(", ") || "none"}`);
  if (types.has("MailAlias") && aliases.length === 1) {
    expect(aliases[0].localPart === d.alsLocal, `alias ${aliases[0].localPart}, ${d.alsLocal} declared`);
    expect(idOf("MailAlias") === aliases[0].id, "the state's alias is not the live one");
  }
  if (types.has("DomainRegistrant")) {
    // Nothing clears the details: when no longer declared they stay as last written, so only a declared owner is compared.
    const live = w.account.registrant;
    for (const [key, field] of [["ownerEmail", "email"], ["ownerPhone", "phone"], ["ownerAddress", "address"], ["ownerPostalCode", "postalCode"]] as const) {
      expect(live[field] === d.owner[key], `owner ${field} is not the declared one`);
    }
  }
  const topics = audienceOf(w).topics;
  expect(topics.length === (types.has("EmailTopic") ? 1 : 0), `topics: ${topics.map((x) => x.name).join(", ") || "none"}`);
  if (types.has("EmailTopic") && topics.length === 1) {
    expect(topics[0].description === d.topicDescription, `topic description ${topics[0].description}, ${d.topicDescription} declared`);
    expect(idOf("EmailTopic") === topics[0].id, "the state's topic is not the live one");
  }
  const segments = audienceOf(w).segments;
  expect(segments.length === (types.has("EmailSegment") ? 1 : 0), `segments: ${segments.map((x) => x.name).join(", ") || "none"}`);
  if (types.has("EmailSegment") && segments.length === 1) {
    expect(segments[0].rules[0]?.value === d.segValue, `segment rule value ${segments[0].rules[0]?.value}, ${d.segValue} declared`);
    expect(idOf("EmailSegment") === segments[0].id, "the state's segment is not the live one");
  }
  const suppressed = suppressedOf(w);
  const wantedSuppressed = types.has("EmailSuppression") ? [d.supEmail] : [];
  expect(JSON.stringify(suppressed) === JSON.stringify(wantedSuppressed), `suppressed ${JSON.stringify(suppressed)}, ${JSON.stringify(wantedSuppressed)} declared`);
  if (types.has("EmailSuppression")) expect(idOf("EmailSuppression") === d.supEmail, `the state's suppression is ${idOf("EmailSuppression")}, ${d.supEmail} declared`);
  const regs = registered(w).map((r) => r.name).sort();
  const wantedRegs = [...new Set(types.has("Domain") ? [...everRegistered, d.domainName] : everRegistered)].sort();
  expect(JSON.stringify(regs) === JSON.stringify(wantedRegs), `registered domains ${JSON.stringify(regs)}, ${JSON.stringify(wantedRegs)} expected`);
  if (types.has("Domain")) {
    const rec = registered(w).find((r) => r.name === d.domainName);
    expect(rec?.whoisProtection === d.whois, `domain whois protection ${rec?.whoisProtection}, ${d.whois} declared`);
  }
  problems.push(...rowOnlyProblems(ROW_ONLY, w, state, types));
  const wallet = INITIAL_WALLET - charges.total();
  expect(w.account.wallet === wallet, `wallet ${w.account.wallet}, ${wallet} expected (${charges.items.map((c) => `${c.what} ${c.amount}`).join(", ")}): ${w.account.wallet < wallet ? "charged twice" : "missing a charge"}`);
  return problems;
}

/** Duplicates (a second server for one Vps, a second registration) and double charges, for chaos's table. */
export function duplicateCount(s: EngineStack, d: Declared): number {
  const w = s.world();
  const types = effective(d.types);
  const names = registered(w).map((r) => r.name);
  return Math.max(0, servers(w).length - (types.has("Vps") ? 1 : 0)) + (names.length - new Set(names).size) + Math.max(0, webhooks(w).length - (types.has("Webhook") ? 1 : 0)) +
    Math.max(0, templates(w).length - (types.has("Template") ? 1 : 0)) +
    Math.max(0, addressesOf(w, "mailbox").length - (types.has("Mailbox") ? 1 : 0)) +
    Math.max(0, addressesOf(w, "alias").length - (types.has("MailAlias") ? 1 : 0)) +
    Math.max(0, audienceOf(w).topics.length - (types.has("EmailTopic") ? 1 : 0)) +
    Math.max(0, audienceOf(w).segments.length - (types.has("EmailSegment") ? 1 : 0)) +
    ROW_ONLY.reduce((n, row) => n + Math.max(0, row.list(w).length - (types.has(row.type) ? 1 : 0)), 0);
}

/**
 * The world check of the row-only types: as many objects at the API as declared (its row's `list`),
 * the state naming the live one, and what the row's `agrees` compares. Their lines' `needs` are
 * counted by the checks above when they are of a type written here (a new type that needs a server
 * must say so in those checks), and they are free: a paid one needs its charge in `createCharges`.
 */
export function rowOnlyProblems(rows: readonly AcceptanceRow[], w: World, state: Pick<StackState, "resources">, types: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    const live = row.list(w);
    const wanted = types.has(row.type) ? 1 : 0;
    if (live.length !== wanted) problems.push(`${row.type}: ${live.length} at the API (${live.join(", ") || "none"}), ${wanted} declared`);
    const stored = state.resources.find((r) => r.type === `pulumi-nodejs:dynamic/svc:${row.type}` && r.name === row.name);
    if (wanted && live.length === 1) {
      if (stored?.id !== live[0]) problems.push(`the state's ${row.type} is ${stored?.id ?? "missing"}, not the live one ${live[0]}`);
      else if (row.agrees) problems.push(...row.agrees(w, stored));
    }
  }
  return problems;
}

// ---- runs ----

export interface Run extends RunResult {
  output: string[];
}

/** A handle on the run's dynamic-provider host: `kill()` ends it as a crash of the plugin would. */
export interface HostHandle {
  kill(): void;
}

/** Options of one scenario run: the flags it takes and, once `pulumi` runs, the process's id (`onStart`). */
export type ScenarioRunOptions = Omit<RunOptions, "signal" | "onProviderHost">;

/** One operation, whatever its outcome. */
export function run(s: EngineStack, op: Operation, signal?: AbortSignal, onProviderHost?: (host: HostHandle) => void, extra: ScenarioRunOptions = {}): Promise<Run> {
  return s.execute(op, { ...extra, signal, onProviderHost });
}

/** What `runPastLock` did: the operation's runs (the last is its outcome) and, when the stack was locked, what `pulumi cancel` printed. */
export interface PastLock {
  runs: Run[];
  cancel?: CliOutput;
}

/**
 * README.md "After an interrupted `up`", step 1, for the first operation after `pulumi` was killed:
 * the file backend still holds the killed CLI's lock, so the operation stops naming the lock's pid;
 * with that process gone (checked: it throws otherwise), `pulumi cancel`, then the operation again.
 */
export async function runPastLock(s: EngineStack, op: Operation, extra: ScenarioRunOptions = {}): Promise<PastLock> {
  const first = await run(s, op, undefined, undefined, extra);
  const locked = first.ok ? null : STACK_LOCKED.exec(first.output.join("\n"));
  if (!locked) return { runs: [first] };
  const pid = Number(locked[1]);
  if (running(pid)) throw new Error(`${op}: the stack is locked by pid ${pid}, which still runs: not cancelling another process's update`);
  const cancel = await s.cli!.command(["cancel", "--yes"]);
  if (cancel.code !== 0) return { runs: [first], cancel };
  return { runs: [first, await run(s, op, undefined, undefined, extra)], cancel };
}

/** A resource's error: a failed step (`svc:Type name: …`) or a check failure as the CLI words it (`pulumi-nodejs:dynamic/svc:Type resource 'name'…`). */
const RESOURCE_ERROR = /^(?:svc:\w+ [\w-]+: |pulumi-nodejs:dynamic\/svc:\w+ resource '[\w-]+')/;
/** A check failure, naming the property (`: property p value {…} has a problem:`) or, for a secret-bearing one, in its reason (`has a problem: p: …`); under the resource's name as the CLI lists it. */
const CHECK_FAILURE = /^(?:svc:\w+ [\w-]+: )?pulumi-nodejs:dynamic\/svc:\w+ resource '[\w-]+'(?:: property \w+ value \{.*?\})? has a problem: /s;

/**
 * A failed run's errors are clear: each names the resource, the operation that failed and the call
 * (`METHOD /path`) with its code, or says the outcome is unknown, or is a check refusal naming the
 * property.
 */
export function unclearErrors(r: RunResult): string[] {
  return r.errors.filter(
    (e) =>
      !RESOURCE_ERROR.test(e) ||
      !(/\b[\w ]+ failed: (GET|POST|PUT|PATCH|DELETE) \/\S+ (\d{3} )?[A-Z][A-Z_]{2,}/.test(e) || /outcome unknown/.test(e) || CHECK_FAILURE.test(e)),
  );
}

// ---- secrets ----

/** The secret values a scenario must never show: the API keys, the root password, every webhook secret the emulator holds, the owner's secret details. */
export function secretValues(s: EngineStack): string[] {
  const owner = Object.values(OWNER_SECRETS).flat();
  return [s.emu.keys.account, s.emu.keys.email, ROOT_PASSWORD, ...webhooks(s.world()).map((h) => h.secret), ...Object.values(s.emu.keys), ...owner].filter(
    (v, i, all): v is string => typeof v === "string" && v.length >= 8 && all.indexOf(v) === i,
  );
}

/** The secret values of `secretValues` shown in the state file, the runs' output or the request log. */
export function leaks(s: EngineStack, runs: Run[], printed: string[] = []): string[] {
  return secretsShown(s, secretValues(s), runs, printed);
}

/** Small and seeded: the same seed draws the same every run. */
export const seeded = seededRandom;
