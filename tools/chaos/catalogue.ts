/**
 * The bad input catalogue of issue 8 (the data table of tests/reliability/bad-inputs.test.ts, shared
 * with `npm run chaos`): invalid inputs taken from the spec's rules (every length, range, format,
 * enumeration and count it states for the resources' inputs), plus wrong types, empty strings,
 * unknown properties, webhook hosts that are not public, credentials in URLs, SQL-ish text and
 * control characters in names. Each must be refused at preview (`check`) with the property named
 * and a clear reason. Add a row to grow it.
 */
import { PASSWORD, type Props } from "../support/world";
import { KEYS, privateKeyText } from "../support/ssh-keys";

export type { Props };

export interface Row {
  type: string;
  /** What is wrong, for the test name. */
  what: string;
  args: Props;
  /** The property the failure must name. */
  property: string;
  /** What the reason must say. */
  reason: RegExp;
}

export const SERVER_ID = "3f1c2a4e-0000-4000-8000-000000000001";
const SQL = "x'; DROP TABLE--";
const HOOK = "https://hooks.example.com/svc/events";
/** Ids of the seeded plan catalogue are not known before the emulator starts: resolved in beforeAll. */
export const SMALL_PLAN = "<small plan id>";
/** A plan whose servers share an address (keys, forwards, snapshots), resolved like SMALL_PLAN; the
 * sdk classes pass it as `declaredServer` when the server is declared in the program. */
export const SHARED_PLAN = "<shared-address plan id>";
const onSharedServer = { declaredServer: { planId: SHARED_PLAN, powerState: "running" } };

/** A row's inputs with the seeded catalogue's plan ids in place of SMALL_PLAN and SHARED_PLAN. */
export function withPlanIds(args: Props, plans: { id: string; name: string }[]): Props {
  const id = (name: string) => plans.find((p) => p.name === name)!.id;
  const out = args.planId === SMALL_PLAN ? { ...args, planId: id("s-1vcpu-1gb") } : args;
  return out.declaredServer?.planId === SHARED_PLAN ? { ...out, declaredServer: { ...out.declaredServer, planId: id("nat-1vcpu-1gb") } } : out;
}

const without = (props: Props, name: string): Props => {
  const { [name]: _drop, ...rest } = props;
  return rest;
};

// Valid inputs of each type; a row changes one property, so the failure must be on that one.
export const base: Record<string, Props> = {
  SendingDomain: { domain: "mail.example.com" },
  SendingDomainVerification: { domainId: "dom_0123456789abcdef" },
  Webhook: { url: HOOK, events: ["email.delivered", "email.bounced"] },
  Template: { name: "order-shipped", subject: "Your order {{order_id}}", htmlBody: "<p>Shipped</p>", textBody: "Shipped" },
  Vps: { planId: SMALL_PLAN, name: "web-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD },
  VpsFirewallRule: { vpsId: SERVER_ID, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" },
  VpsBackup: { vpsId: SERVER_ID, planCode: "backup-10" },
  Domain: { name: "my-shop.com" },
  ReceivingDomain: { domainId: "dom_0123456789abcdef" },
  Mailbox: { domainId: "dom_0123456789abcdef", localPart: "support" },
  MailAlias: { mailboxId: "3f1c2a4e-0000-4000-8000-0000000000a1", localPart: "help" },
  EmailPlan: { planCode: "starter", months: 1 },
  EmailTopic: { name: "Product news", description: "Monthly" },
  EmailSegment: { name: "Acme", rules: [{ field: "email", operator: "contains", value: "@acme.dev" }] },
  VpsSshKey: { vpsId: SERVER_ID, publicKey: KEYS.ed25519.publicKey, label: "laptop", ...onSharedServer },
  VpsPortForward: { vpsId: SERVER_ID, protocol: "https", privatePort: 8443, domain: "app.example.com", ...onSharedServer },
  VpsSnapshot: { vpsId: SERVER_ID, name: "before-upgrade", ...onSharedServer },
  DomainRegistrant: {
    name: "Budi Santoso", email: "budi@example.com", phone: "+62.8123456789", address: "Jl. Merdeka 1", city: "Jakarta",
    province: "DKI Jakarta", postalCode: "10110", country: "ID",
  },
  EmailSuppression: { email: "former-customer@example.org" },
};

/** A row of `type`: the base inputs with `changes` (a property set to `undefined` is removed). */
function row(type: string, what: string, changes: Props, property: string, reason: RegExp): Row {
  let args: Props = { ...base[type] };
  for (const [name, value] of Object.entries(changes)) args = value === undefined ? without(args, name) : { ...args, [name]: value };
  return { type, what, args, property, reason };
}

const TYPE = /expected (string|number|boolean|array)/;
const REQUIRED = /is required/;
const unknown = (name: string) => new RegExp(`unknown property "${name}"`);

// ---- SendingDomain: a public fully-qualified domain name (INVALID_DOMAIN); the wait settings ----
const FQDN = /must be a fully-qualified domain name/;
const sendingDomain: Row[] = [
  row("SendingDomain", "domain empty", { domain: "" }, "domain", FQDN),
  row("SendingDomain", "domain only spaces", { domain: "   " }, "domain", FQDN),
  row("SendingDomain", "domain without a dot", { domain: "mail" }, "domain", FQDN),
  row("SendingDomain", "domain with an underscore", { domain: "mail_out.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain label starting with a hyphen", { domain: "-mail.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain label of 64 characters", { domain: `${"a".repeat(64)}.example.com` }, "domain", FQDN),
  row("SendingDomain", "domain over 253 characters", { domain: `${"abcdefghi.".repeat(25)}example.com` }, "domain", /at most 253 characters/),
  row("SendingDomain", "domain under .local", { domain: "mail.example.local" }, "domain", /\.local is a reserved or private top-level name/),
  row("SendingDomain", "domain under .localhost", { domain: "mail.localhost" }, "domain", /\.localhost is a reserved or private top-level name/),
  row("SendingDomain", "domain an IPv4 address", { domain: "10.0.0.1" }, "domain", FQDN),
  row("SendingDomain", "domain a URL", { domain: "https://mail.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain SQL-ish", { domain: `${SQL}.example.com` }, "domain", FQDN),
  row("SendingDomain", "domain with \\u0000", { domain: "mail\u0000.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain with \\n inside", { domain: "mail\n.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain with \\t inside", { domain: "mail\t.example.com" }, "domain", FQDN),
  row("SendingDomain", "domain not a string", { domain: 42 }, "domain", TYPE),
  row("SendingDomain", "domain missing", { domain: undefined }, "domain", REQUIRED),
  row("SendingDomain", "waitForVerification not a boolean", { waitForVerification: "yes" }, "waitForVerification", TYPE),
  row("SendingDomain", "verificationTimeoutSeconds 0", { verificationTimeoutSeconds: 0 }, "verificationTimeoutSeconds", />=1/),
  row("SendingDomain", "verificationTimeoutSeconds over 86,400", { verificationTimeoutSeconds: 86_401 }, "verificationTimeoutSeconds", /<=86400/),
  row("SendingDomain", "verificationTimeoutSeconds not whole", { verificationTimeoutSeconds: 1.5 }, "verificationTimeoutSeconds", /expected int/),
  row("SendingDomain", "verificationTimeoutSeconds a string", { verificationTimeoutSeconds: "600" }, "verificationTimeoutSeconds", TYPE),
  row("SendingDomain", "an unknown property", { dkim: true }, "dkim", unknown("dkim")),
];

// ---- SendingDomainVerification ----
const sendingDomainVerification: Row[] = [
  row("SendingDomainVerification", "domainId empty", { domainId: "" }, "domainId", /must not be empty/),
  row("SendingDomainVerification", "domainId missing", { domainId: undefined }, "domainId", REQUIRED),
  row("SendingDomainVerification", "domainId not a string", { domainId: 42 }, "domainId", TYPE),
  row("SendingDomainVerification", "timeoutSeconds 0", { timeoutSeconds: 0 }, "timeoutSeconds", />=1/),
  row("SendingDomainVerification", "timeoutSeconds negative", { timeoutSeconds: -5 }, "timeoutSeconds", />=1/),
  row("SendingDomainVerification", "timeoutSeconds over 86,400", { timeoutSeconds: 86_401 }, "timeoutSeconds", /<=86400/),
  row("SendingDomainVerification", "timeoutSeconds a string", { timeoutSeconds: "60" }, "timeoutSeconds", TYPE),
  row("SendingDomainVerification", "an unknown property", { domain: "mail.example.com" }, "domain", unknown("domain")),
];

// ---- Webhook: https, a public fully-qualified host, no credentials, at most 2,000 characters; 1 to 20 event names ----
const NOT_PUBLIC_IP = /is an IP address: use a public fully-qualified host name/;
const NOT_PUBLIC_NAME = /not a public fully-qualified host name|reserved or private top-level name/;
const CREDENTIALS = /must not contain credentials/;
const EVENT_NAMES = /each event must be one of email\.sent, .*email\.received/;
const webhook: Row[] = [
  row("Webhook", "url empty", { url: "" }, "url", /not a URL/),
  row("Webhook", "url http://", { url: "http://hooks.example.com/in" }, "url", /must use https \(got http\)/),
  row("Webhook", "url ftp://", { url: "ftp://hooks.example.com/in" }, "url", /must use https \(got ftp\)/),
  row("Webhook", "url without a scheme", { url: "hooks.example.com/in" }, "url", /not a URL/),
  row("Webhook", "url host localhost", { url: "https://localhost/in" }, "url", NOT_PUBLIC_NAME),
  row("Webhook", "url host localhost with a port", { url: "https://localhost:8443/in" }, "url", NOT_PUBLIC_NAME),
  row("Webhook", "url host a single label", { url: "https://hooks/in" }, "url", NOT_PUBLIC_NAME),
  row("Webhook", "url host under .internal", { url: "https://hooks.svc.internal/in" }, "url", NOT_PUBLIC_NAME),
  row("Webhook", "url host under .local", { url: "https://printer.local/in" }, "url", NOT_PUBLIC_NAME),
  row("Webhook", "url host 127.0.0.1", { url: "https://127.0.0.1/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host 10.x", { url: "https://10.1.2.3/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host 172.16.x", { url: "https://172.16.0.1/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host 192.168.x", { url: "https://192.168.1.10/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host 169.254.x (cloud metadata)", { url: "https://169.254.169.254/latest/meta-data" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host 0.0.0.0", { url: "https://0.0.0.0/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host a decimal IPv4 (2130706433)", { url: "https://2130706433/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host [::1]", { url: "https://[::1]/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host [fc00::1]", { url: "https://[fc00::1]/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url host [::ffff:10.0.0.1]", { url: "https://[::ffff:10.0.0.1]/in" }, "url", NOT_PUBLIC_IP),
  row("Webhook", "url with user:pass@", { url: "https://user:pass@hooks.example.com/in" }, "url", CREDENTIALS),
  row("Webhook", "url with user@", { url: "https://user@hooks.example.com/in" }, "url", CREDENTIALS),
  row("Webhook", "url over 2,000 characters", { url: `https://hooks.example.com/${"p".repeat(2000 - 26 + 1)}` }, "url", /at most 2,000 characters/),
  row("Webhook", "url with \\n inside", { url: "https://hooks.exam\nple.com/in" }, "url", /whitespace or control characters/),
  row("Webhook", "url with \\t inside", { url: "https://hooks.example.com/in\tx" }, "url", /whitespace or control characters/),
  row("Webhook", "url with \\u0000 in the host", { url: "https://hooks\u0000.example.com/in" }, "url", /whitespace or control characters/),
  row("Webhook", "url SQL-ish host", { url: `https://${SQL}.example.com/in` }, "url", /whitespace or control characters|not a URL|not a valid fully-qualified host name/),
  row("Webhook", "url not a string", { url: 42 }, "url", TYPE),
  row("Webhook", "url missing", { url: undefined }, "url", REQUIRED),
  row("Webhook", "events missing", { events: undefined }, "events", REQUIRED),
  row("Webhook", "events empty", { events: [] }, "events", /at least one event/),
  row("Webhook", "events with an unknown name", { events: ["email.sent", "email.exploded"] }, "events", EVENT_NAMES),
  row("Webhook", "events in upper case", { events: ["EMAIL.SENT"] }, "events", EVENT_NAMES),
  row("Webhook", "events with an empty name", { events: [""] }, "events", EVENT_NAMES),
  row("Webhook", "events with an SQL-ish name", { events: [SQL] }, "events", EVENT_NAMES),
  row("Webhook", "events over 20 entries", { events: Array<string>(21).fill("email.sent") }, "events", /at most 20 entries/),
  row("Webhook", "events a string, not a list", { events: "email.sent" }, "events", TYPE),
  row("Webhook", "events with a number", { events: [1] }, "events", EVENT_NAMES),
  row("Webhook", "an unknown property (secret)", { secret: "whsec_mine" }, "secret", unknown("secret")),
];

// ---- Template: name of 1 to 63 letters, digits, underscore, hyphen; bodies at most 200,000, at least one; subject one line, at most 500 ----
const TEMPLATE_NAME = /1 to 63 characters: letters, digits, underscore, hyphen/;
const template: Row[] = [
  row("Template", "name empty", { name: "" }, "name", TEMPLATE_NAME),
  row("Template", "name of 64 characters", { name: "n".repeat(64) }, "name", TEMPLATE_NAME),
  row("Template", "name with a space", { name: "order shipped" }, "name", TEMPLATE_NAME),
  row("Template", "name with a dot", { name: "order.shipped" }, "name", TEMPLATE_NAME),
  row("Template", "name with a slash", { name: "orders/shipped" }, "name", TEMPLATE_NAME),
  row("Template", "name SQL-ish", { name: SQL }, "name", TEMPLATE_NAME),
  row("Template", "name with \\u0000", { name: "order\u0000shipped" }, "name", TEMPLATE_NAME),
  row("Template", "name with \\n", { name: "order\nshipped" }, "name", TEMPLATE_NAME),
  row("Template", "name ending in \\n", { name: "order-shipped\n" }, "name", TEMPLATE_NAME),
  row("Template", "name with \\t", { name: "order\tshipped" }, "name", TEMPLATE_NAME),
  row("Template", "name with a non-ASCII letter", { name: "bestellung-verschickt-ä" }, "name", TEMPLATE_NAME),
  row("Template", "name not a string", { name: 42 }, "name", TYPE),
  row("Template", "name missing", { name: undefined }, "name", REQUIRED),
  row("Template", "subject over 500 characters", { subject: "s".repeat(501) }, "subject", /at most 500 characters/),
  row("Template", "subject with \\n", { subject: "Your order\nBcc: victim@example.com" }, "subject", /must not contain line breaks/),
  row("Template", "subject with \\r", { subject: "Your order\r" }, "subject", /must not contain line breaks/),
  row("Template", "subject not a string", { subject: ["Your order"] }, "subject", TYPE),
  row("Template", "htmlBody over 200,000 characters", { htmlBody: "h".repeat(200_001) }, "htmlBody", /at most 200,000 characters/),
  row("Template", "textBody over 200,000 characters", { textBody: "t".repeat(200_001) }, "textBody", /at most 200,000 characters/),
  row("Template", "neither htmlBody nor textBody", { htmlBody: undefined, textBody: undefined }, "htmlBody", /needs htmlBody or textBody/),
  row("Template", "htmlBody and textBody both empty", { htmlBody: "", textBody: "" }, "htmlBody", /needs htmlBody or textBody/),
  row("Template", "htmlBody not a string", { htmlBody: 42 }, "htmlBody", TYPE),
  row("Template", "an unknown property", { from: "shop@example.com" }, "from", unknown("from")),
];

// ---- Vps: the create request fields (name, rootPassword, billingPeriod, plan and image) and the resource's own ----
const PASSWORD_RULE = /12 to 30 characters: letters, digits and ! @ # \$ % \^ \*/;
const NAME_CHARS = /no control characters/;
const PERIODS = /monthly.*3month.*6month.*yearly/;
const vps: Row[] = [
  row("Vps", "name of 2 characters", { name: "ab" }, "name", /at least 3 characters/),
  row("Vps", "name empty", { name: "" }, "name", /at least 3 characters/),
  row("Vps", "name of 2 characters padded with spaces", { name: "  ab  " }, "name", /at least 3 characters/),
  row("Vps", "name with \\u0000", { name: "web\u00001" }, "name", NAME_CHARS),
  row("Vps", "name with \\n", { name: "web\n1" }, "name", NAME_CHARS),
  row("Vps", "name with \\t", { name: "web\t1" }, "name", NAME_CHARS),
  row("Vps", "name not a string", { name: 42 }, "name", TYPE),
  row("Vps", "rootPassword of 11 characters", { rootPassword: "Abcdefgh1!2" }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword of 31 characters", { rootPassword: `${"Abcdefgh1!".repeat(3)}x` }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword with & (not one of ! @ # $ % ^ *)", { rootPassword: "Abcdefgh1&2345" }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword with a space", { rootPassword: "Abcdefgh1 2345" }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword SQL-ish", { rootPassword: `${SQL}Abc123` }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword with \\n", { rootPassword: "Abcdefgh1!23\n45" }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword empty", { rootPassword: "" }, "rootPassword", PASSWORD_RULE),
  row("Vps", "rootPassword missing", { rootPassword: undefined }, "rootPassword", REQUIRED),
  row("Vps", "rootPassword not a string", { rootPassword: 123456789012 }, "rootPassword", TYPE),
  row("Vps", "billingPeriod weekly", { billingPeriod: "weekly" }, "billingPeriod", PERIODS),
  row("Vps", "billingPeriod in another case", { billingPeriod: "Monthly" }, "billingPeriod", PERIODS),
  row("Vps", "billingPeriod empty", { billingPeriod: "" }, "billingPeriod", PERIODS),
  row("Vps", "billingPeriod a number of months", { billingPeriod: 12 }, "billingPeriod", PERIODS),
  row("Vps", "powerState not running/stopped", { powerState: "paused" }, "powerState", /running.*stopped/),
  row("Vps", "autoRenew not a boolean", { autoRenew: "yes" }, "autoRenew", TYPE),
  row("Vps", "osType/osVersion not an image of the plan", { osType: "windows", osVersion: "2022" }, "osType", /has no image windows 2022; it offers ubuntu 22\.04/),
  row("Vps", "osType empty", { osType: "" }, "osType", /must not be empty/),
  row("Vps", "osVersion missing", { osVersion: undefined }, "osVersion", REQUIRED),
  row("Vps", "planId unknown", { planId: "00000000-0000-4000-8000-000000000000" }, "planId", /no plan 00000000-0000-4000-8000-000000000000; plans: s-1vcpu-1gb/),
  row("Vps", "planId empty", { planId: "" }, "planId", /must not be empty/),
  row("Vps", "planId not a string", { planId: 5 }, "planId", TYPE),
  row("Vps", "projectId empty", { projectId: "" }, "projectId", /must not be empty/),
  row("Vps", "projectId not a UUID", { projectId: "production" }, "projectId", /a project id \(UUID\)/),
  row("Vps", "an unknown property", { size: "large" }, "size", unknown("size")),
];

// ---- VpsFirewallRule: protocol, action, a port or range inside 1 to 65535 (not reversed), an IP or CIDR ----
const PORT_SHAPE = /a port "22" or a range "8000-8100"/;
const SOURCE = /an IPv4 or IPv6 address or CIDR/;
const firewallRule: Row[] = [
  row("VpsFirewallRule", "vpsId empty", { vpsId: "" }, "vpsId", /must not be empty/),
  row("VpsFirewallRule", "vpsId missing", { vpsId: undefined }, "vpsId", REQUIRED),
  row("VpsFirewallRule", "vpsId not a UUID", { vpsId: "web-1" }, "vpsId", /a server id \(UUID\)/),
  row("VpsFirewallRule", "protocol sctp", { protocol: "sctp" }, "protocol", /tcp.*udp.*icmp/),
  row("VpsFirewallRule", "protocol in upper case", { protocol: "TCP" }, "protocol", /tcp.*udp.*icmp/),
  row("VpsFirewallRule", "protocol empty", { protocol: "" }, "protocol", /tcp.*udp.*icmp/),
  row("VpsFirewallRule", "action accept", { action: "accept" }, "action", /allow.*deny/),
  row("VpsFirewallRule", "action in upper case", { action: "ALLOW" }, "action", /allow.*deny/),
  row("VpsFirewallRule", "port 0", { port: "0" }, "port", /1 to 65535/),
  row("VpsFirewallRule", "port 65536", { port: "65536" }, "port", /1 to 65535/),
  row("VpsFirewallRule", "range reaching 0", { port: "0-80" }, "port", /1 to 65535/),
  row("VpsFirewallRule", "range past 65535", { port: "65000-70000" }, "port", /1 to 65535/),
  row("VpsFirewallRule", "reversed range", { port: "8100-8000" }, "port", /must not be reversed/),
  row("VpsFirewallRule", "port a service name", { port: "ssh" }, "port", PORT_SHAPE),
  row("VpsFirewallRule", "port list", { port: "22,80" }, "port", PORT_SHAPE),
  row("VpsFirewallRule", "half a range", { port: "8000-" }, "port", PORT_SHAPE),
  row("VpsFirewallRule", "port negative", { port: "-22" }, "port", PORT_SHAPE),
  row("VpsFirewallRule", "port empty", { port: "" }, "port", PORT_SHAPE),
  row("VpsFirewallRule", "port a number", { port: 22 }, "port", TYPE),
  row("VpsFirewallRule", "icmp with a port", { protocol: "icmp" }, "port", /icmp has no ports/),
  row("VpsFirewallRule", "tcp without a port", { port: undefined }, "port", /tcp needs a port/),
  row("VpsFirewallRule", "source a host name", { source: "example.com" }, "source", SOURCE),
  row("VpsFirewallRule", "source IPv4 out of range", { source: "300.1.1.1" }, "source", SOURCE),
  row("VpsFirewallRule", "IPv4 prefix over 32", { source: "10.0.0.0/33" }, "source", SOURCE),
  row("VpsFirewallRule", "IPv6 prefix over 128", { source: "2001:db8::/129" }, "source", SOURCE),
  row("VpsFirewallRule", "negative prefix", { source: "10.0.0.0/-1" }, "source", SOURCE),
  row("VpsFirewallRule", "two prefixes", { source: "10.0.0.0/8/8" }, "source", SOURCE),
  row("VpsFirewallRule", "source empty", { source: "" }, "source", SOURCE),
  row("VpsFirewallRule", "source SQL-ish", { source: SQL }, "source", SOURCE),
  row("VpsFirewallRule", "an unknown property", { comment: "ssh" }, "comment", unknown("comment")),
];

// ---- VpsBackup: the server and a backup plan code of the catalogue (PLAN_NOT_FOUND: unknown or retired) ----
const backup: Row[] = [
  row("VpsBackup", "vpsId empty", { vpsId: "" }, "vpsId", /must not be empty/),
  row("VpsBackup", "vpsId not a string", { vpsId: 42 }, "vpsId", TYPE),
  row("VpsBackup", "vpsId not a UUID", { vpsId: "srv-1" }, "vpsId", /a server id \(UUID\)/),
  row("VpsBackup", "planCode empty", { planCode: "" }, "planCode", /must not be empty/),
  row("VpsBackup", "planCode missing", { planCode: undefined }, "planCode", REQUIRED),
  row("VpsBackup", "planCode not a string", { planCode: 50 }, "planCode", TYPE),
  row("VpsBackup", "planCode unknown", { planCode: "backup-999" }, "planCode", /no backup plan backup-999 \(unknown or retired\); plans: backup-10, backup-50, backup-100$/),
  row("VpsBackup", "planCode retired", { planCode: "backup-legacy" }, "planCode", /no backup plan backup-legacy \(unknown or retired\); plans: backup-10, backup-50, backup-100$/),
  row("VpsBackup", "an unknown property", { retention: 7 }, "retention", unknown("retention")),
];

// ---- Domain: a registrable name (checked locally, before the dry run), period 1 only ----
const domain: Row[] = [
  row("Domain", "name empty", { name: "" }, "name", /must not be empty/),
  row("Domain", "name only spaces", { name: "   " }, "name", /must not be empty/),
  row("Domain", "name without an extension", { name: "localhost" }, "name", /has no extension/),
  row("Domain", "name with an underscore", { name: "my_shop.com" }, "name", /"my_shop" is not a valid label/),
  row("Domain", "name with an empty label", { name: "my..shop.com" }, "name", /empty label/),
  row("Domain", "name with a trailing dot", { name: "my-shop.com." }, "name", /empty label/),
  row("Domain", "name label starting with a hyphen", { name: "-shop.com" }, "name", /"-shop" is not a valid label/),
  row("Domain", "name label ending with a hyphen", { name: "shop-.com" }, "name", /"shop-" is not a valid label/),
  row("Domain", "name label of 64 characters", { name: `${"a".repeat(64)}.com` }, "name", /not a valid label: 1 to 63/),
  row("Domain", "name over 253 characters", { name: `${"abcdefghi.".repeat(26)}com` }, "name", /at most 253 characters/),
  row("Domain", "name with a numeric extension", { name: "shop.123" }, "name", /"\.123" is not a domain extension/),
  row("Domain", "name a URL", { name: "https://my-shop.com" }, "name", /is not a valid label/),
  row("Domain", "name SQL-ish", { name: `${SQL}.com` }, "name", /is not a valid label/),
  row("Domain", "name with \\u0000", { name: "my\u0000shop.com" }, "name", /is not a valid label/),
  row("Domain", "name with \\n inside", { name: "my\nshop.com" }, "name", /is not a valid label/),
  row("Domain", "name with \\t inside", { name: "my\tshop.com" }, "name", /is not a valid label/),
  row("Domain", "name not a string", { name: 42 }, "name", TYPE),
  row("Domain", "name missing", { name: undefined }, "name", REQUIRED),
  row("Domain", "period 2 (PERIOD_NOT_SUPPORTED)", { period: 2 }, "period", /only 1 is accepted/),
  row("Domain", "period 0", { period: 0 }, "period", /only 1 is accepted/),
  row("Domain", "period a string", { period: "1" }, "period", /only 1 is accepted/),
  row("Domain", "whoisProtection not a boolean", { whoisProtection: "yes" }, "whoisProtection", TYPE),
  row("Domain", "autoRenew not a boolean", { autoRenew: 1 }, "autoRenew", TYPE),
  row("Domain", "an unknown property", { years: 2 }, "years", unknown("years")),
];

// ---- ReceivingDomain: a sending domain, a host that is a public name (the API checks it is the domain or under it) ----
const receivingDomain: Row[] = [
  row("ReceivingDomain", "domainId empty", { domainId: "" }, "domainId", /must not be empty/),
  row("ReceivingDomain", "domainId missing", { domainId: undefined }, "domainId", REQUIRED),
  row("ReceivingDomain", "domainId not a string", { domainId: 7 }, "domainId", TYPE),
  row("ReceivingDomain", "host without a dot", { host: "inbound" }, "host", FQDN),
  row("ReceivingDomain", "host under .local", { host: "in.example.local" }, "host", /\.local is a reserved or private top-level name/),
  row("ReceivingDomain", "host a URL", { host: "https://in.example.com" }, "host", FQDN),
  row("ReceivingDomain", "host an IPv4 address", { host: "203.0.113.7" }, "host", FQDN),
  row("ReceivingDomain", "host with \\n inside", { host: "in\n.example.com" }, "host", FQDN),
  row("ReceivingDomain", "host over 253 characters", { host: `${"abcdefghi.".repeat(25)}example.com` }, "host", /at most 253 characters/),
  row("ReceivingDomain", "host not a string", { host: true }, "host", TYPE),
  row("ReceivingDomain", "adoptId another domain's id", { adoptId: "dom_fedcba9876543210" }, "adoptId", /adoptId must equal domainId/),
  row("ReceivingDomain", "an unknown property", { catchAll: true }, "catchAll", unknown("catchAll")),
];

// ---- Mailbox: a local part (INVALID_ADDRESS), up to 5 forwarding addresses, mailbox settings; no password (dashboard-only) ----
const LOCAL = /1 to 64 letters, digits, dots/;
const ADDRESS = /must be an email address/;
const mailbox: Row[] = [
  row("Mailbox", "domainId empty", { domainId: "" }, "domainId", /must not be empty/),
  row("Mailbox", "localPart empty", { localPart: "" }, "localPart", LOCAL),
  row("Mailbox", "localPart with a space", { localPart: "sup port" }, "localPart", LOCAL),
  row("Mailbox", "localPart starting with a dot", { localPart: ".support" }, "localPart", LOCAL),
  row("Mailbox", "localPart with two dots in a row", { localPart: "sup..port" }, "localPart", LOCAL),
  row("Mailbox", "localPart of 65 characters", { localPart: "a".repeat(65) }, "localPart", LOCAL),
  row("Mailbox", "localPart a whole address", { localPart: "support@example.com" }, "localPart", LOCAL),
  row("Mailbox", "localPart SQL-ish", { localPart: SQL }, "localPart", LOCAL),
  row("Mailbox", "localPart with \\u0000", { localPart: "sup\u0000port" }, "localPart", LOCAL),
  row("Mailbox", "localPart not a string", { localPart: 5 }, "localPart", TYPE),
  row("Mailbox", "localPart missing", { localPart: undefined }, "localPart", REQUIRED),
  row("Mailbox", "name with \\n inside", { name: "Support\ndesk" }, "name", /must not contain line breaks/),
  row("Mailbox", "name over 200 characters", { name: "n".repeat(201) }, "name", /at most 200 characters/),
  row("Mailbox", "forwardTo a 6th address", { forwardTo: [1, 2, 3, 4, 5, 6].map((n) => `desk${n}@example.org`) }, "forwardTo", /at most 5 forwarding addresses per mailbox/),
  row("Mailbox", "forwardTo not an address", { forwardTo: ["desk"] }, "forwardTo", ADDRESS),
  row("Mailbox", "forwardTo with a display name", { forwardTo: ["Desk <desk@example.org>"] }, "forwardTo", ADDRESS),
  row("Mailbox", "forwardTo a host without a dot", { forwardTo: ["desk@localhost"] }, "forwardTo", ADDRESS),
  row("Mailbox", "forwardTo a string, not a list", { forwardTo: "desk@example.org" }, "forwardTo", TYPE),
  row("Mailbox", "notifications not a boolean", { notifications: "yes" }, "notifications", TYPE),
  row("Mailbox", "adoptId not a UUID", { adoptId: "mbx-1" }, "adoptId", /an address id \(UUID\)/),
  row("Mailbox", "a webmail password (dashboard-only; named without its value)", { password: "Webmail-pass-2026" }, "", /^password: webmail passwords are set in the dashboard only/),
  row("Mailbox", "an unknown property", { quotaMb: 100 }, "quotaMb", unknown("quotaMb")),
];

// ---- MailAlias: a mailbox and a local part; the mailbox's settings are refused (ALIAS_SETTINGS) ----
const mailAlias: Row[] = [
  row("MailAlias", "mailboxId not a UUID", { mailboxId: "support" }, "mailboxId", /a mailbox id \(UUID\)/),
  row("MailAlias", "mailboxId missing", { mailboxId: undefined }, "mailboxId", REQUIRED),
  row("MailAlias", "localPart with a space", { localPart: "he lp" }, "localPart", LOCAL),
  row("MailAlias", "localPart ending with a dot", { localPart: "help." }, "localPart", LOCAL),
  row("MailAlias", "localPart missing", { localPart: undefined }, "localPart", REQUIRED),
  row("MailAlias", "forwardTo on an alias (ALIAS_SETTINGS)", { forwardTo: ["desk@example.org"] }, "forwardTo", /forwardTo is a mailbox setting: .+Set forwardTo on the Mailbox/),
  row("MailAlias", "name on an alias (ALIAS_SETTINGS)", { name: "Help" }, "name", /name is a mailbox setting/),
  row("MailAlias", "notifications on an alias (ALIAS_SETTINGS)", { notifications: true }, "notifications", /notifications is a mailbox setting/),
  row("MailAlias", "a password on an alias (named without its value)", { password: "Webmail-pass-2026" }, "", /^password: an alias has no password/),
  row("MailAlias", "an unknown property", { catchAll: true }, "catchAll", unknown("catchAll")),
];


// ---- EmailPlan, EmailTopic, EmailSegment: plan code, months 1 or 12, add-on quantities; names; 1–20 rules ----
const emailPlan: Row[] = [
  row("EmailPlan", "planCode empty", { planCode: "" }, "planCode", /must not be empty/),
  row("EmailPlan", "planCode not a string", { planCode: 3 }, "planCode", TYPE),
  row("EmailPlan", "planCode missing", { planCode: undefined }, "planCode", REQUIRED),
  row("EmailPlan", "months 3", { months: 3 }, "months", /1 or 12/),
  row("EmailPlan", "months a string", { months: "12" }, "months", /1 or 12/),
  row("EmailPlan", "an add-on quantity negative", { addons: { "extra-mailboxes": -1 } }, "addons", /at least 0/),
  row("EmailPlan", "an add-on quantity fractional", { addons: { "extra-mailboxes": 1.5 } }, "addons", /whole number/),
  row("EmailPlan", "an unknown property", { autoRenew: false }, "autoRenew", unknown("autoRenew")),
];
const emailTopic: Row[] = [
  row("EmailTopic", "name empty", { name: "" }, "name", /must not be empty/),
  row("EmailTopic", "name over 100 characters", { name: "n".repeat(101) }, "name", /at most 100 characters/),
  row("EmailTopic", "name missing", { name: undefined }, "name", REQUIRED),
  row("EmailTopic", "description over 500 characters", { description: "d".repeat(501) }, "description", /at most 500 characters/),
  row("EmailTopic", "adoptId not a UUID", { adoptId: `${SQL}` }, "adoptId", /a topic id \(UUID\)/),
];
const RULE = { field: "email", operator: "contains", value: "@acme.dev" };
const emailSegment: Row[] = [
  row("EmailSegment", "no rules", { rules: [] }, "rules", /at least 1 rule/),
  row("EmailSegment", "21 rules", { rules: Array(21).fill(RULE) }, "rules", /at most 20 rules/),
  row("EmailSegment", "an unknown operator", { rules: [{ ...RULE, operator: "like" }] }, "rules", /one of equals, not_equals, contains, exists/),
  row("EmailSegment", "a rule without value", { rules: [{ field: "email", operator: "equals" }] }, "rules", /required with operator equals/),
  row("EmailSegment", "a rule with an empty field", { rules: [{ ...RULE, field: "" }] }, "rules", /must not be empty/),
  row("EmailSegment", "name missing", { name: undefined }, "name", REQUIRED),
];

// ---- VpsSshKey: a single-line OpenSSH public key of a supported type; a private key refused without its text ----
const KEY_SHAPE = /not an OpenSSH public key of a supported type/;
const sshKey: Row[] = [
  row("VpsSshKey", "vpsId not a UUID", { vpsId: "web-1" }, "vpsId", /a server id \(UUID\)/),
  row("VpsSshKey", "vpsId missing", { vpsId: undefined }, "vpsId", REQUIRED),
  row("VpsSshKey", "publicKey missing", { publicKey: undefined }, "publicKey", REQUIRED),
  row("VpsSshKey", "publicKey empty", { publicKey: "" }, "publicKey", KEY_SHAPE),
  row("VpsSshKey", "publicKey ssh-dss (unsupported)", { publicKey: "ssh-dss AAAAB3NzaC1kc3MAAACBAP1 x@y" }, "publicKey", KEY_SHAPE),
  row("VpsSshKey", "publicKey RSA of 1024 bits", { publicKey: KEYS.rsa1024.publicKey }, "publicKey", /at least 2048 bits/),
  row("VpsSshKey", "publicKey on two lines", { publicKey: `${KEYS.ed25519.publicKey}\n${KEYS.ed25519b.publicKey}` }, "publicKey", /single line/),
  row("VpsSshKey", "publicKey with broken base64", { publicKey: "ssh-ed25519 AAAA$$$$ x@y" }, "publicKey", /no valid base64/),
  row("VpsSshKey", "publicKey type and data disagree", { publicKey: `ssh-rsa ${KEYS.ed25519.publicKey.split(" ")[1]}` }, "publicKey", /not a ssh-rsa key/),
  row("VpsSshKey", "publicKey SQL-ish", { publicKey: SQL }, "publicKey", KEY_SHAPE),
  row("VpsSshKey", "publicKey not a string", { publicKey: 42 }, "publicKey", TYPE),
  // The CLI prints a failing property's value: a private key's failure names none (sensitiveFailure).
  row("VpsSshKey", "publicKey a private key", { publicKey: privateKeyText() }, "", /^publicKey: this is a private key/),
  row("VpsSshKey", "label not a string", { label: 7 }, "label", TYPE),
  row("VpsSshKey", "adoptId not a fingerprint", { adoptId: "laptop" }, "adoptId", /a key fingerprint as OpenSSH prints it/),
  row("VpsSshKey", "adoptId of another key", { adoptId: KEYS.ecdsa256.fingerprint }, "adoptId", /adoptId must be that key's fingerprint/),
  row("VpsSshKey", "an unknown property", { comment: "x" }, "comment", unknown("comment")),
];

// ---- VpsPortForward: tcp/udp public ports 1024–65535, http 80 / https 443 by domain (https needs one) ----
const portForward: Row[] = [
  row("VpsPortForward", "vpsId not a UUID", { vpsId: "web-1" }, "vpsId", /a server id \(UUID\)/),
  row("VpsPortForward", "protocol sctp", { protocol: "sctp" }, "protocol", /tcp.*udp.*http.*https/),
  row("VpsPortForward", "protocol in upper case", { protocol: "HTTPS" }, "protocol", /tcp.*udp.*http.*https/),
  row("VpsPortForward", "privatePort 0", { privatePort: 0 }, "privatePort", /1 to 65535/),
  row("VpsPortForward", "privatePort 65536", { privatePort: 65536 }, "privatePort", /1 to 65535/),
  row("VpsPortForward", "privatePort not whole", { privatePort: 22.5 }, "privatePort", /whole number/),
  row("VpsPortForward", "privatePort a string", { privatePort: "22" }, "privatePort", TYPE),
  row("VpsPortForward", "privatePort missing", { privatePort: undefined }, "privatePort", REQUIRED),
  row("VpsPortForward", "https without a domain", { domain: undefined }, "domain", /https needs a domain/),
  row("VpsPortForward", "https on port 8443", { publicPort: 8443 }, "publicPort", /always uses public port 443/),
  row("VpsPortForward", "tcp public port below 1024", { protocol: "tcp", domain: undefined, publicPort: 80 }, "publicPort", /1024 to 65535/),
  row("VpsPortForward", "udp public port past 65535", { protocol: "udp", domain: undefined, publicPort: 70000 }, "publicPort", /1 to 65535/),
  row("VpsPortForward", "a domain on tcp", { protocol: "tcp" }, "domain", /route by port/),
  row("VpsPortForward", "domain not a name", { domain: "not a domain" }, "domain", /fully-qualified domain name/),
  row("VpsPortForward", "domain with an underscore", { domain: "my_app.example.com" }, "domain", /fully-qualified domain name/),
  row("VpsPortForward", "domain a URL", { domain: "https://app.example.com" }, "domain", /fully-qualified domain name/),
  row("VpsPortForward", "domain on a reserved top level", { domain: "app.test" }, "domain", /reserved or private top-level name/),
  row("VpsPortForward", "an unknown property", { target: "10.0.0.2" }, "target", unknown("target")),
];

// ---- VpsSnapshot: 1–60 letters, digits, spaces, dots, dashes, underscores, starting with a letter or digit ----
const SNAPSHOT_NAME = /1 to 60 letters, digits, spaces, dots, dashes or underscores/;
const snapshot: Row[] = [
  row("VpsSnapshot", "vpsId not a UUID", { vpsId: "web-1" }, "vpsId", /a server id \(UUID\)/),
  row("VpsSnapshot", "name empty", { name: "" }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name of 61 characters", { name: "a".repeat(61) }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name starting with a space", { name: " nightly" }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name starting with a dash", { name: "-nightly" }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name SQL-ish", { name: SQL }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name with \n", { name: "night\nly" }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name with a slash", { name: "2026/11/24" }, "name", SNAPSHOT_NAME),
  row("VpsSnapshot", "name not a string", { name: 2026 }, "name", TYPE),
  row("VpsSnapshot", "name missing", { name: undefined }, "name", REQUIRED),
  row("VpsSnapshot", "adoptId not a UUID", { adoptId: "nightly" }, "adoptId", /a snapshot id \(UUID\)/),
  row("VpsSnapshot", "an unknown property", { retention: 7 }, "retention", unknown("retention")),
];

// ---- DomainRegistrant: every detail but organization required; the personal ones (secret) refused without their value ----
const registrant: Row[] = [
  row("DomainRegistrant", "name empty", { name: "" }, "name", /must not be empty: name is required for a registration/),
  row("DomainRegistrant", "name only spaces", { name: "   " }, "name", /must not be empty/),
  row("DomainRegistrant", "name missing", { name: undefined }, "name", REQUIRED),
  row("DomainRegistrant", "name over 255 characters", { name: "B".repeat(256) }, "name", /at most 255 characters/),
  row("DomainRegistrant", "city not a string", { city: 5 }, "city", TYPE),
  row("DomainRegistrant", "province missing", { province: undefined }, "province", REQUIRED),
  row("DomainRegistrant", "country of 3 letters", { country: "IDN" }, "country", /a 2-letter country code/),
  row("DomainRegistrant", "country SQL-ish", { country: SQL }, "country", /a 2-letter country code/),
  row("DomainRegistrant", "organization over 255 characters", { organization: "O".repeat(256) }, "organization", /at most 255 characters/),
  // Personal data (secret outputs): the CLI prints a failing property's value, so these are named in the reason only (tests/reliability/bad-inputs.test.ts SENSITIVE).
  row("DomainRegistrant", "email without @", { email: "budi.example.com" }, "email", /must be an email address/),
  row("DomainRegistrant", "email missing", { email: undefined }, "email", /email is required/),
  row("DomainRegistrant", "phone without the country code", { phone: "08123456789" }, "phone", /\+<country code>\.<number>/),
  row("DomainRegistrant", "address empty", { address: "" }, "address", /must not be empty/),
  row("DomainRegistrant", "postalCode missing", { postalCode: undefined }, "postalCode", /postalCode is required/),
  row("DomainRegistrant", "adoptId not registrant", { adoptId: "budi" }, "adoptId", /its id is "registrant"/),
  row("DomainRegistrant", "an unknown property", { fax: "+62.21000000" }, "fax", unknown("fax")),
];

// ---- EmailSuppression: one address (INVALID_EMAIL); adoptId is the address ----
const suppression: Row[] = [
  row("EmailSuppression", "email empty", { email: "" }, "email", /must be an email address/),
  row("EmailSuppression", "email without @", { email: "former-customer.example.org" }, "email", /must be an email address/),
  row("EmailSuppression", "email with a display name", { email: "Ana <ana@example.org>" }, "email", /must be an email address/),
  row("EmailSuppression", "email host without a dot", { email: "ana@localhost" }, "email", /must be an email address/),
  row("EmailSuppression", "email over 320 characters", { email: `${"a".repeat(64)}@${Array.from({ length: 5 }, () => "b".repeat(63)).join(".")}.example.org` }, "email", /at most 320 characters/),
  row("EmailSuppression", "email SQL-ish", { email: SQL }, "email", /must be an email address/),
  row("EmailSuppression", "email not a string", { email: 42 }, "email", TYPE),
  row("EmailSuppression", "email missing", { email: undefined }, "email", REQUIRED),
  row("EmailSuppression", "adoptId another address", { adoptId: "someone@example.org" }, "adoptId", /adoptId must equal email/),
  row("EmailSuppression", "an unknown property", { reason: "bounce" }, "reason", unknown("reason")),
];

export const rows: Row[] = [
  ...sendingDomain, ...sendingDomainVerification, ...webhook, ...template, ...vps, ...firewallRule, ...backup, ...domain,
  ...receivingDomain, ...mailbox, ...mailAlias, ...emailPlan, ...emailTopic, ...emailSegment, ...sshKey, ...portForward, ...snapshot,
  ...registrant, ...suppression,
];

/** The only calls a check may make, by type: reading a catalogue. Every other check calls nothing. */
export const ALLOWED_READS: Record<string, string[]> = {
  Vps: ["GET /api/vps/plans"],
  VpsBackup: ["GET /api/backup/plans"],
  // Whether the declared server's plan shares an address and holds snapshots.
  VpsSshKey: ["GET /api/vps/plans"],
  VpsPortForward: ["GET /api/vps/plans"],
  VpsSnapshot: ["GET /api/vps/plans"],
};
