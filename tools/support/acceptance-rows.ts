/**
 * The acceptance matrix's rows: one per resource class sdk/index.ts exports. A new type joins the
 * matrix with one row here (what a row holds: AcceptanceRow below; README, "The acceptance
 * matrix"). Names of resources are unique across rows. Here, under tools/, so that what else runs
 * every type takes it from its row: the matrix (tests/acceptance/acceptance-matrix.ts) and chaos
 * (tools/chaos/harness.ts, for a type it has no cells of its own for).
 */
import type { World } from "../../emulator";
import type { DomainRec } from "../../emulator/domains/state";
import { domainRecords, emailRecords, liveServers, type Props } from "./world";
import type { TestEmulator } from "./emulator";
import type { ResourceState } from "./stack-state";
import { KEYS, privateKeyText } from "./ssh-keys";
import { accessOf } from "../../emulator/vps/state";

/** Ids by resource name (the program's names). */
export type Ids = Record<string, string>;

/** An API call, as the emulator's fault rules match it (`skip`: matching requests let through first). */
export interface ApiCall {
  method: string;
  path: string;
  skip?: number;
}

/**
 * One resource type's row. The program lines are JavaScript with `pulumi`, `svc`, `config` in scope
 * and: `adopt(name)` (the `adoptId` the matrix gives that resource, else undefined), `planId` (the
 * seeded small plan), `sharedPlanId` (a plan sharing its address: SSH keys, forwards, 1 snapshot), `rootPassword` (a secret every rule accepts). Resource names are unique across
 * rows; a row's own resource is `name`, the rest of its lines are what it needs.
 */
export interface AcceptanceRow {
  /** The class name exported by sdk/index.ts. */
  type: string;
  /** The resource under test (its name in the program). */
  name: string;
  /** Lines declaring what the resource needs (a Vps for a rule), in place before the cells' creates. */
  needs?: string;
  /** Lines declaring the resource; they may use the variables `needs` declares. */
  program: string;
  /** Ids of the type's live objects at the API (CheckDestroy; "no duplicate" compares them with the state). */
  list(w: World): string[];
  /** Problems when what the state holds of the resource disagrees with its object at the API, beyond its id (checked with "no duplicate"). */
  agrees?(w: World, r: ResourceState): string[];
  /** Deletes the object `id` out of band, as someone outside the stack would (the API, or the emulator). */
  deleteOutOfBand?(emu: TestEmulator, id: string, ids: Ids): Promise<void>;
  /** The resources a refresh drops once the object is deleted out of band (default: `[name]`). */
  dropped?: string[];
  /** The `adoptId` of a live object, from its Pulumi id and outputs (default: the id). */
  adoptId?(id: string, outputs: Props): string;
  /** Outputs of an adopting stack that differ from the creating stack's, and why (secrets are never compared). */
  adoptionDiffers?: Record<string, string>;
  /** Why adopting makes the object anew (a new id), when it does. */
  remadeOnAdoption?: string;
  /** Why the object cannot be deleted out of band, when it cannot (the project's email plan: the email API answers nothing
   * without one). Its resources then stay through the out-of-band steps: refresh and up find them unchanged. */
  undeletable?: string;
  /** Why the object stays at the API after destroy, when it does. */
  keptAfterDestroy?: string;
  /** The API call of its create (the 500 and the interrupted-create cells fault it); `ids` of what `needs` made. */
  createCall(ids: Ids): ApiCall;
  /** After an interrupted create, the rerun adopts what it made on its own, or stops and names the `adoptId` line. */
  interrupted: "adopts" | "asks adoptId";
  /** Lines declaring it with one bad input (no `needs`: nothing else may call the API), and the property refused. */
  badInput: { program: string; property: string };
  /** What the world must allow before the row runs (Terraform's PreCheck): a plan setting, made through the control API. Run on every fresh world. */
  preCheck?(emu: TestEmulator): Promise<void>;
  /**
   * The in-place update the row's lines make when the program's `changed` is true (`changed ? a : b`
   * in them), as the examples wire it: `updates` names what the preview must update, every other
   * resource of the row stays the same. Or why the type has no in-place update.
   */
  inPlace: { updates: string[] } | { none: string };
  /** The secret values the row's objects hold (a password given as a plain string, a secret the API made), which no state file or output may hold in clear. */
  secrets?(w: World, ids: Ids): string[];
  /** What `<Type>.get(name, id, state)` needs besides the id, as program text (`{ vpsId: fwServer.id }`); default none. */
  getState?: string;
}

/** A row's lines (what it needs, then its own), each line indented by `indent`: a block of a program built from rows. */
export function rowLines(row: AcceptanceRow, indent: string): string {
  return [row.needs, row.program].filter(Boolean).join("\n").replace(/^/gm, indent);
}

/** (type, name) of every resource a row's lines declare. */
export function declared(row: AcceptanceRow): { type: string; name: string }[] {
  return [...`${row.needs ?? ""}\n${row.program}`.matchAll(/new svc\.(\w+)\(\s*"([\w-]+)"/g)].map((m) => ({ type: m[1], name: m[2] }));
}


/** A call of the API that must succeed (an out-of-band change a test makes). */
async function call(emu: TestEmulator, method: string, path: string, key: string, body?: unknown): Promise<void> {
  // Every row's delete comes at once: past the key's 10 requests a second, wait as a client would.
  const r = await emu.call(method, path, { key, body, waitOutRateLimit: true });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
}
const platform = (emu: TestEmulator, method: string, path: string, body?: unknown) => call(emu, method, `/api${path}`, emu.keys.account, body);
const email = (emu: TestEmulator, method: string, path: string) => call(emu, method, `/email${path}`, emu.keys.email);

const SERVER_ID = "3f1c2a4e-0000-4000-8000-000000000001";
const DOMAIN_ID = "dom_0123456789abcdef";

/** Receiving rows: each needs its own verified sending domain with receiving on (rows share no resource). */
const receivingDomain = (prefix: string) =>
  `const ${prefix}Domain = new svc.SendingDomain("${prefix}Domain", { domain: "${prefix}.acceptance-example.com", verificationTimeoutSeconds: changed ? 900 : undefined, adoptId: adopt("${prefix}Domain") });`;
const receivingOn = (prefix: string) =>
  `${receivingDomain(prefix)}\nconst ${prefix}Rcv = new svc.ReceivingDomain("${prefix}Rcv", { domainId: ${prefix}Domain.domainId, adoptId: adopt("${prefix}Rcv") });`;
/** The Mailbox and MailAlias rows hold two mailboxes: more than the free plan's one (emulator/email/plans.ts). */
const twoMailboxes = async (emu: TestEmulator) => {
  const r = await emu.ctl("PATCH", "/email/plan-limits", { mailboxes: 2 });
  if (r.status !== 200) throw new Error(`plan-limits: ${r.status} ${JSON.stringify(r.body)}`);
};
/** A server on a plan that shares its public address (keys and forwards need one; it holds one snapshot). */
const sharedServer = (name: string) =>
  `const ${name} = new svc.Vps("${name}", { planId: sharedPlanId, osType: "ubuntu", osVersion: "24.04", rootPassword, autoRenew: changed ? false : undefined, adoptId: adopt("${name}") });`;
/** A server on the small plan: its auto-renew turned off when the program is `changed` (an update in place). */
const server = (name: string) =>
  `const ${name} = new svc.Vps("${name}", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword, autoRenew: changed ? false : undefined, adoptId: adopt("${name}") });`;
/** The root password the Vps row gives as a plain string: the class must make it a secret. */
export const PLAIN_ROOT_PASSWORD = "Plain!string2026";
const access = (w: World) => liveServers(w).map((s) => accessOf(s));
/** The first project's email subscription: an object as long as the project has a plan other than the seeded free one. */
const paidPlanOf = (w: World): string[] =>
  w.projects.filter((p) => p.email.plan && (p.email.plan.code ?? "free") !== "free").map((p) => p.id).slice(0, 1);
const audienceOf = (w: World) => {
  const audience = (w.email as { audience?: { topics: { id: string }[]; segments: { id: string }[] } }).audience;
  return { topics: audience?.topics ?? [], segments: audience?.segments ?? [] };
};
const addresses = (w: World, type: "mailbox" | "alias") =>
  emailRecords(w).addresses.filter((a) => a.type === type).map((a) => a.id);
const SDV_DOMAIN = "verify.acceptance-example.com";
const OWNER_PHONE = "+62.8111111111";
const OWNER_STREET = "Jl. Uji 1";
const OWNER = `name: "Acceptance Owner", email: "owner@acceptance-example.com", phone: "${OWNER_PHONE}", address: "${OWNER_STREET}", province: "Jawa Barat", postalCode: "40111", country: "ID"`;

export const ROWS: AcceptanceRow[] = [
  {
    type: "SendingDomain",
    name: "sd",
    program: `new svc.SendingDomain("sd", { domain: "mail.acceptance-example.com", verificationTimeoutSeconds: changed ? 900 : undefined, adoptId: adopt("sd") });`,
    inPlace: { updates: ["sd"] },
    list: (w) => emailRecords(w).domains.map((d) => d.id),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/domains/${id}`),
    createCall: () => ({ method: "POST", path: "/email/domains" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.SendingDomain("sd", { domain: "mail_out.example.com" });`, property: "domain" },
  },
  {
    // Verification is a state of a sending domain, not an object: it has no adoptId (the adopting
    // stack declares it over the adopted domain), and its object is gone when its domain is.
    type: "SendingDomainVerification",
    name: "sdv",
    needs: `const sdvDomain = new svc.SendingDomain("sdvDomain", { domain: "${SDV_DOMAIN}", waitForVerification: false, verificationTimeoutSeconds: changed ? 900 : undefined, adoptId: adopt("sdvDomain") });`,
    inPlace: { updates: ["sdvDomain"] },
    program: `new svc.SendingDomainVerification("sdv", { domainId: sdvDomain.domainId });`,
    list: (w) => emailRecords(w).domains.filter((d) => d.domain === SDV_DOMAIN && d.status === "verified").map((d) => d.id),
    deleteOutOfBand: (emu, _id, ids) => email(emu, "DELETE", `/domains/${ids.sdvDomain}`),
    dropped: ["sdvDomain", "sdv"],
    createCall: (ids) => ({ method: "GET", path: `/email/domains/${ids.sdvDomain}` }),
    interrupted: "adopts",
    badInput: { program: `new svc.SendingDomainVerification("sdv", { domainId: "dom_0123456789abcdef", timeoutSeconds: 0 });`, property: "timeoutSeconds" },
  },
  {
    type: "Webhook",
    name: "hook",
    program: `new svc.Webhook("hook", { url: "https://hooks.example.com/acceptance/v1", events: ["email.delivered", "email.bounced"], adoptId: adopt("hook") });`,
    list: (w) => emailRecords(w).webhooks.map((h) => h.id),
    // The secret is answered once, at create: the state must hold the live webhook's.
    agrees: (w, r) => (emailRecords(w).webhooks.find((h) => h.id === r.id)?.secret === r.outputs.secret ? [] : [`the state's secret is not webhook ${r.id}'s`]),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/webhooks/${id}`),
    remadeOnAdoption: "the API answers a webhook's secret only when it creates it: an adopted webhook is made anew (README, adoptId)",
    inPlace: { none: "the API cannot change a webhook: any change replaces it" },
    secrets: (w) => emailRecords(w).webhooks.map((h) => h.secret),
    adoptionDiffers: { webhookId: "made anew on adoption", createdAt: "made anew on adoption" },
    createCall: () => ({ method: "POST", path: "/email/webhooks" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.Webhook("hook", { url: "http://hooks.example.com/acceptance", events: ["email.delivered"] });`, property: "url" },
  },
  {
    type: "Template",
    name: "tpl",
    program: `new svc.Template("tpl", { name: "acceptance-template", subject: changed ? "Order {{id}} shipped" : "Order {{id}}", textBody: "Hello {{name}}", adoptId: adopt("tpl") });`,
    inPlace: { updates: ["tpl"] },
    list: (w) => emailRecords(w).templates.map((t) => t.id),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/templates/${id}`),
    createCall: () => ({ method: "POST", path: "/email/templates" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.Template("tpl", { name: "order shipped", textBody: "Shipped" });`, property: "name" },
  },
  {
    type: "Domain",
    name: "dom",
    program: `new svc.Domain("dom", { name: "acceptance-shop.com", autoRenew: changed ? false : undefined, adoptId: adopt("dom") });`,
    inPlace: { updates: ["dom"] },
    list: (w) => domainRecords(w).map((d) => d.name),
    // The API has no call that removes a registration: it leaves the account when transferred away,
    // which the emulator's world shows by its record being gone.
    deleteOutOfBand: async (emu, id) => {
      const records = (emu.control.emu.world.domains as { records: DomainRec[] }).records;
      records.splice(records.findIndex((d) => d.name === id), 1);
    },
    adoptionDiffers: { billing: "what the registration charged: answered only by the call that registered it, so an adopting stack cannot know it" },
    keptAfterDestroy: "a registration cannot be undone: destroy removes it from the stack only (README, Domain)",
    // check prices the name with a dry-run POST first: the registration is the second POST.
    createCall: () => ({ method: "POST", path: "/api/domains", skip: 1 }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.Domain("dom", { name: "acceptance-shop" });`, property: "name" },
  },
  {
    type: "Vps",
    name: "vps",
    // The root password as a plain string, as many programs give it: the class makes it a secret.
    program: `new svc.Vps("vps", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: ${JSON.stringify(PLAIN_ROOT_PASSWORD)}, autoRenew: changed ? false : undefined, adoptId: adopt("vps") });`,
    inPlace: { updates: ["vps"] },
    secrets: () => [PLAIN_ROOT_PASSWORD],
    list: (w: World) => liveServers(w).map((s) => s.id),
    deleteOutOfBand: (emu, id) => platform(emu, "DELETE", `/vps/${id}`),
    createCall: () => ({ method: "POST", path: "/api/vps" }),
    interrupted: "adopts",
    badInput: { program: `new svc.Vps("vps", { planId: "plan", name: "ab", osType: "ubuntu", osVersion: "24.04", rootPassword: "Sup3rSecret!23" });`, property: "name" },
  },
  {
    type: "VpsFirewallRule",
    name: "fw",
    needs: server("fwServer"),
    // A rule cannot change in place (every input replaces it): its server's update must leave it alone.
    inPlace: { updates: ["fwServer"] },
    getState: "{ vpsId: fwServer.id }",
    program: `new svc.VpsFirewallRule("fw", { vpsId: fwServer.id, protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0", adoptId: adopt("fw") });`,
    list: (w) => liveServers(w).flatMap((s) => s.firewall.map((f) => f.id)),
    deleteOutOfBand: (emu, id, ids) => platform(emu, "DELETE", `/vps/${ids.fwServer}/firewall`, { ids: [id] }),
    createCall: (ids) => ({ method: "POST", path: `/api/vps/${ids.fwServer}/firewall` }),
    interrupted: "adopts",
    badInput: { program: `new svc.VpsFirewallRule("fw", { vpsId: "${SERVER_ID}", protocol: "tcp", action: "allow", port: "70000", source: "0.0.0.0/0" });`, property: "port" },
  },
  {
    type: "VpsBackup",
    name: "bak",
    needs: server("bakServer"),
    inPlace: { updates: ["bakServer"] },
    program: `new svc.VpsBackup("bak", { vpsId: bakServer.id, planCode: "backup-10", adoptId: adopt("bak") });`,
    list: (w) => liveServers(w).filter((s) => s.backup).map((s) => s.id),
    deleteOutOfBand: (emu, id) => platform(emu, "DELETE", `/vps/${id}/backup`),
    createCall: (ids) => ({ method: "POST", path: `/api/vps/${ids.bakServer}/backup` }),
    interrupted: "adopts",
    badInput: { program: `new svc.VpsBackup("bak", { vpsId: "srv-1", planCode: "backup-10" });`, property: "vpsId" },
  },
  {
    type: "ReceivingDomain",
    name: "rcv",
    needs: receivingDomain("rcv"),
    // examples/mail-setup's wiring: the sending domain's wait setting changed, receiving stays.
    inPlace: { updates: ["rcvDomain"] },
    program: `new svc.ReceivingDomain("rcv", { domainId: rcvDomain.domainId, adoptId: adopt("rcv") });`,
    list: (w) => emailRecords(w).receiving.map((r) => r.domainId),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/domains/${id}/receiving`),
    createCall: (ids) => ({ method: "PUT", path: `/email/domains/${ids.rcvDomain}/receiving` }),
    interrupted: "adopts",
    badInput: { program: `new svc.ReceivingDomain("rcv", { domainId: "${DOMAIN_ID}", host: "not a host" });`, property: "host" },
  },
  {
    type: "Mailbox",
    name: "mbx",
    needs: receivingOn("mbx"),
    // The sending domain updated: receiving and the mailbox down the chain stay.
    inPlace: { updates: ["mbxDomain"] },
    program: `new svc.Mailbox("mbx", { domainId: mbxRcv.domainId, localPart: "support", adoptId: adopt("mbx") });`,
    list: (w) => addresses(w, "mailbox"),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/inbound/addresses/${id}`),
    createCall: () => ({ method: "POST", path: "/email/inbound/addresses" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.Mailbox("mbx", { domainId: "${DOMAIN_ID}", localPart: "support", forwardTo: ["a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com", "f@example.com"] });`, property: "forwardTo" },
    preCheck: twoMailboxes,
  },
  {
    type: "MailAlias",
    name: "als",
    needs: `${receivingOn("als")}\nconst alsMailbox = new svc.Mailbox("alsMailbox", { domainId: alsRcv.domainId, localPart: "team", name: changed ? "Team" : undefined, adoptId: adopt("alsMailbox") });`,
    // The sending domain and the mailbox updated in place: receiving and the alias wired by the mailbox's id stay.
    inPlace: { updates: ["alsDomain", "alsMailbox"] },
    program: `new svc.MailAlias("als", { mailboxId: alsMailbox.id, localPart: "help", adoptId: adopt("als") });`,
    list: (w) => addresses(w, "alias"),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/inbound/addresses/${id}`),
    // The same route as the Mailbox row's create: a fault rule takes the first request no earlier
    // rule took, so the two rows' rules share that route's two creates (whichever comes first).
    createCall: () => ({ method: "POST", path: "/email/inbound/addresses" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.MailAlias("als", { mailboxId: "${SERVER_ID}", localPart: "bad local part" });`, property: "localPart" },
    preCheck: twoMailboxes,
  },
  {
    type: "VpsSshKey",
    name: "key",
    needs: sharedServer("keyServer"),
    inPlace: { updates: ["keyServer"] },
    getState: "{ vpsId: keyServer.id }",
    program: `new svc.VpsSshKey("key", { vpsId: keyServer.id, publicKey: ${JSON.stringify(KEYS.ed25519.publicKey)}, label: "admin", adoptId: adopt("key") });`,
    list: (w) => access(w).flatMap((a) => a.sshKeys.map((k) => k.fingerprint)),
    deleteOutOfBand: (emu, id, ids) => platform(emu, "DELETE", `/vps/${ids.keyServer}/ssh-keys/${encodeURIComponent(id)}`),
    createCall: (ids) => ({ method: "POST", path: `/api/vps/${ids.keyServer}/ssh-keys` }),
    interrupted: "adopts",
    // A private key pasted as the public one: refused without its text (the failure names the property in its reason).
    badInput: { program: `new svc.VpsSshKey("key", { vpsId: "${SERVER_ID}", publicKey: ${JSON.stringify(privateKeyText())} });`, property: "publicKey" },
  },
  {
    type: "VpsPortForward",
    name: "fwd",
    needs: sharedServer("fwdServer"),
    inPlace: { updates: ["fwdServer"] },
    getState: "{ vpsId: fwdServer.id }",
    program: `new svc.VpsPortForward("fwd", { vpsId: fwdServer.id, protocol: "tcp", privatePort: 22, adoptId: adopt("fwd") });`,
    list: (w) => access(w).flatMap((a) => a.portForwards.map((f) => f.id)),
    deleteOutOfBand: (emu, id, ids) => platform(emu, "DELETE", `/vps/${ids.fwdServer}/port-forwards/${id}`),
    createCall: (ids) => ({ method: "POST", path: `/api/vps/${ids.fwdServer}/port-forwards` }),
    interrupted: "adopts",
    badInput: { program: `new svc.VpsPortForward("fwd", { vpsId: "${SERVER_ID}", protocol: "https", privatePort: 8443 });`, property: "domain" },
  },
  {
    type: "VpsSnapshot",
    name: "snap",
    needs: sharedServer("snapServer"),
    inPlace: { updates: ["snapServer"] },
    getState: "{ vpsId: snapServer.id }",
    program: `new svc.VpsSnapshot("snap", { vpsId: snapServer.id, name: "restore-point", adoptId: adopt("snap") });`,
    list: (w) => access(w).flatMap((a) => a.snapshots.map((x) => x.id)),
    deleteOutOfBand: (emu, id, ids) => platform(emu, "DELETE", `/vps/${ids.snapServer}/snapshots/${id}`),
    createCall: (ids) => ({ method: "POST", path: `/api/vps/${ids.snapServer}/snapshots` }),
    interrupted: "adopts",
    badInput: { program: `new svc.VpsSnapshot("snap", { vpsId: "${SERVER_ID}", name: "-nightly" });`, property: "name" },
  },
  {
    type: "EmailPlan",
    name: "plan",
    program: `new svc.EmailPlan("plan", { planCode: changed ? "business" : "starter", months: 1, adoptId: adopt("plan") });`,
    inPlace: { updates: ["plan"] },
    list: paidPlanOf,
    undeletable: "a project always has its plan, and the email API answers nothing without one (NO_PLAN); cancelling is dashboard-only",
    keptAfterDestroy: "cancelling a plan is dashboard-only: destroy removes it from the stack and says so (README, EmailPlan)",
    adoptionDiffers: {
      billing: "what the purchase charged: answered only by the call that bought it",
      changes: "the purchases this resource made (part of its Idempotency-Key): an adopting resource made none",
      idempotencyScope: "derived from the stack and the resource (the sdk class): another stack has its own",
    },
    // check prices the purchase with a dry-run POST first: the purchase is the second POST.
    createCall: () => ({ method: "POST", path: "/email/plan", skip: 1 }),
    interrupted: "adopts",
    badInput: { program: `new svc.EmailPlan("plan", { planCode: "starter", months: 3 });`, property: "months" },
  },
  {
    type: "EmailTopic",
    name: "topic",
    program: `new svc.EmailTopic("topic", { name: "Product news", description: changed ? "Weekly" : "Monthly", adoptId: adopt("topic") });`,
    inPlace: { updates: ["topic"] },
    list: (w) => audienceOf(w).topics.map((t) => t.id),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/topics/${id}`),
    createCall: () => ({ method: "POST", path: "/email/topics" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.EmailTopic("topic", { name: "" });`, property: "name" },
  },
  {
    type: "EmailSegment",
    name: "seg",
    program: `new svc.EmailSegment("seg", { name: changed ? "Acme customers" : "Acme", rules: [{ field: "email", operator: "contains", value: "@acme.dev" }], adoptId: adopt("seg") });`,
    inPlace: { updates: ["seg"] },
    list: (w) => audienceOf(w).segments.map((x) => x.id),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/segments/${id}`),
    createCall: () => ({ method: "POST", path: "/email/segments" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.EmailSegment("seg", { name: "Acme", rules: [] });`, property: "rules" },
  },
  {
    type: "DomainRegistrant",
    name: "owner",
    // Other details than the seeded ones, so the create writes them (its PATCH is the faulted call).
    program: `new svc.DomainRegistrant("owner", { ${OWNER}, city: changed ? "Bogor" : "Bandung", adoptId: adopt("owner") });`,
    inPlace: { updates: ["owner"] },
    // Given as plain strings: the class makes them secret.
    secrets: () => [OWNER_PHONE, OWNER_STREET],
    list: () => ["registrant"],
    undeletable: "an account always has its one set of owner details, and no call clears them",
    keptAfterDestroy: "the platform cannot clear the owner details: destroy removes the resource from the stack only and says so (docs/DomainRegistrant.md)",
    createCall: () => ({ method: "PATCH", path: "/api/domains/registrant" }),
    interrupted: "adopts",
    badInput: { program: `new svc.DomainRegistrant("owner", { ${OWNER}, city: "Bandung", country: "IDN" });`, property: "country" },
  },
  {
    type: "EmailSuppression",
    name: "supp",
    program: `new svc.EmailSuppression("supp", { email: "acceptance@example.org", adoptId: adopt("supp") });`,
    inPlace: { none: "an entry of the list is its address and reason: every change is a new entry (replace)" },
    list: (w) => ((w.email as { suppressions?: { email: string }[] }).suppressions ?? []).map((x) => x.email),
    deleteOutOfBand: (emu, id) => email(emu, "DELETE", `/suppressions/${encodeURIComponent(id)}`),
    createCall: () => ({ method: "POST", path: "/email/suppressions" }),
    interrupted: "asks adoptId",
    badInput: { program: `new svc.EmailSuppression("supp", { email: "not-an-address" });`, property: "email" },
  },
];
