/**
 * Issue 5 acceptance 6: every input rule of the spec for Vps, VpsFirewallRule and VpsBackup fails
 * at check (through the real provider host) with the property named, and the emulator's request log
 * shows no write call (Vps check may read the plan catalogue, a GET; the other two call nothing).
 * Values the engine does not know yet (preview) are never failed.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { UNKNOWN } from "../../tools/support/provider-host";
import { catalogue, fresh, PASSWORD, PLAN, type Props } from "./helpers";

let h: ResourceHarness;
let smallPlan: string;
let largePlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    await fresh(h);
    const c = await catalogue(h);
    smallPlan = c.plan(PLAN.small).id;
    largePlan = c.plan(PLAN.large).id;
  },
  fresh: (h) => h.emu.control.clearRequests(),
});

const vps = (overrides: Props = {}): Props => ({ planId: smallPlan, name: "web-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, ...overrides });
const rule = (overrides: Props = {}): Props => ({ vpsId: "3f1c2a4e-0000-4000-8000-000000000001", protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24", ...overrides });
const backup = (overrides: Props = {}): Props => ({ vpsId: "3f1c2a4e-0000-4000-8000-000000000001", planCode: "backup-10", ...overrides });
const without = (props: Props, name: string): Props => {
  const { [name]: _drop, ...rest } = props;
  return rest;
};

type Row = [string, string, () => Props, string, RegExp];

const rows: Row[] = [
  // Vps: name, password, billing period, power state, image, plan, unknown property, types, required.
  ["Vps", "name shorter than 3", () => vps({ name: "ab" }), "name", /at least 3 characters/],
  ["Vps", "name of 2 characters padded with spaces", () => vps({ name: "  ab  " }), "name", /at least 3 characters/],
  ["Vps", "name with a line break", () => vps({ name: "web\n1" }), "name", /no control characters/],
  ["Vps", "name not a string", () => vps({ name: 42 }), "name", /expected string/],
  ["Vps", "rootPassword too short (11)", () => vps({ rootPassword: "Abcdefgh1!2" }), "rootPassword", /12 to 30 characters/],
  ["Vps", "rootPassword too long (31)", () => vps({ rootPassword: "Abcdefgh1!".repeat(3) + "x" }), "rootPassword", /12 to 30 characters/],
  ["Vps", "rootPassword with a character outside ! @ # $ % ^ *", () => vps({ rootPassword: "Abcdefgh1&2345" }), "rootPassword", /letters, digits and ! @ # \$ % \^ \*/],
  ["Vps", "rootPassword with a space", () => vps({ rootPassword: "Abcdefgh1 2345" }), "rootPassword", /12 to 30 characters/],
  ["Vps", "rootPassword missing", () => without(vps(), "rootPassword"), "rootPassword", /is required/],
  ["Vps", "billingPeriod not one of the four", () => vps({ billingPeriod: "weekly" }), "billingPeriod", /monthly.*3month.*6month.*yearly/],
  ["Vps", "powerState not running/stopped", () => vps({ powerState: "paused" }), "powerState", /running.*stopped/],
  ["Vps", "autoRenew not a boolean", () => vps({ autoRenew: "yes" }), "autoRenew", /expected boolean/],
  ["Vps", "osType/osVersion not an image of the plan", () => vps({ osType: "windows", osVersion: "2022" }), "osType", /plan s-1vcpu-1gb has no image windows 2022; it offers ubuntu 22\.04/],
  ["Vps", "osVersion unknown for the osType", () => vps({ osVersion: "99.04" }), "osType", /has no image ubuntu 99\.04/],
  ["Vps", "osType missing", () => without(vps(), "osType"), "osType", /is required/],
  ["Vps", "planId unknown", () => vps({ planId: "00000000-0000-4000-8000-000000000000" }), "planId", /no plan 00000000-0000-4000-8000-000000000000; plans: s-1vcpu-1gb/],
  ["Vps", "planId not a string", () => vps({ planId: 5 }), "planId", /expected string/],
  ["Vps", "planId empty", () => vps({ planId: "" }), "planId", /must not be empty/],
  ["Vps", "projectId empty", () => vps({ projectId: "" }), "projectId", /must not be empty/],
  ["Vps", "an unknown property", () => vps({ size: "large" }), "size", /unknown property "size"/],

  // VpsFirewallRule: server, protocol and action enums, port rules, source, unknown property, types.
  ["VpsFirewallRule", "vpsId empty", () => rule({ vpsId: "" }), "vpsId", /must not be empty/],
  ["VpsFirewallRule", "vpsId missing", () => without(rule(), "vpsId"), "vpsId", /is required/],
  ["VpsFirewallRule", "protocol not tcp/udp/icmp", () => rule({ protocol: "sctp" }), "protocol", /tcp.*udp.*icmp/],
  ["VpsFirewallRule", "protocol in upper case", () => rule({ protocol: "TCP" }), "protocol", /tcp.*udp.*icmp/],
  ["VpsFirewallRule", "action not allow/deny", () => rule({ action: "accept" }), "action", /allow.*deny/],
  ["VpsFirewallRule", "port 0", () => rule({ port: "0" }), "port", /1 to 65535/],
  ["VpsFirewallRule", "port 65536", () => rule({ port: "65536" }), "port", /1 to 65535/],
  ["VpsFirewallRule", "range reaching 0", () => rule({ port: "0-80" }), "port", /1 to 65535/],
  ["VpsFirewallRule", "reversed range", () => rule({ port: "8100-8000" }), "port", /must not be reversed/],
  ["VpsFirewallRule", "port not a number", () => rule({ port: "ssh" }), "port", /a port "22" or a range "8000-8100"/],
  ["VpsFirewallRule", "half a range", () => rule({ port: "8000-" }), "port", /a port "22" or a range "8000-8100"/],
  ["VpsFirewallRule", "port given as a number", () => rule({ port: 22 }), "port", /expected string/],
  ["VpsFirewallRule", "icmp with a port", () => rule({ protocol: "icmp", port: "22" }), "port", /icmp has no ports/],
  ["VpsFirewallRule", "tcp without a port", () => without(rule(), "port"), "port", /tcp needs a port/],
  ["VpsFirewallRule", "udp without a port", () => without(rule({ protocol: "udp" }), "port"), "port", /udp needs a port/],
  ["VpsFirewallRule", "source not an IP", () => rule({ source: "example.com" }), "source", /IPv4 or IPv6 address or CIDR/],
  ["VpsFirewallRule", "source IPv4 out of range", () => rule({ source: "300.1.1.1" }), "source", /IPv4 or IPv6 address or CIDR/],
  ["VpsFirewallRule", "IPv4 CIDR prefix over 32", () => rule({ source: "10.0.0.0/33" }), "source", /IPv4 or IPv6 address or CIDR/],
  ["VpsFirewallRule", "IPv6 CIDR prefix over 128", () => rule({ source: "2001:db8::/129" }), "source", /IPv4 or IPv6 address or CIDR/],
  ["VpsFirewallRule", "two prefixes", () => rule({ source: "10.0.0.0/8/8" }), "source", /IPv4 or IPv6 address or CIDR/],
  ["VpsFirewallRule", "an unknown property", () => rule({ comment: "ssh" }), "comment", /unknown property "comment"/],

  // VpsBackup: server and plan code, unknown property, types.
  ["VpsBackup", "vpsId empty", () => backup({ vpsId: "" }), "vpsId", /must not be empty/],
  ["VpsBackup", "planCode empty", () => backup({ planCode: "" }), "planCode", /must not be empty/],
  ["VpsBackup", "planCode missing", () => without(backup(), "planCode"), "planCode", /is required/],
  ["VpsBackup", "planCode not a string", () => backup({ planCode: 50 }), "planCode", /expected string/],
  ["VpsBackup", "an unknown property", () => backup({ retention: 7 }), "retention", /unknown property "retention"/],
];

/** Secret-bearing inputs are refused without `property` (else the CLI prints the value), the property named first in the reason. */
const SENSITIVE = ["rootPassword"];

test.each(rows)("%s: %s → refused on the property, no write call", async (type, _what, args, property, reason) => {
  const result = await h.check(type, args());
  if (SENSITIVE.includes(property)) expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(new RegExp(`^${property}: .*${reason.source}`)) }]);
  else expect(result.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  const requests = h.emu.control.requests().map((r) => `${r.method} ${r.path}`);
  if (type === "Vps") expect(requests.filter((r) => r !== "GET /api/vps/plans")).toEqual([]);
  else expect(requests).toEqual([]);
});

test.each([
  ["Vps", () => vps()],
  ["Vps", () => vps({ osType: "windows", osVersion: "2022", planId: largePlan, billingPeriod: "yearly", autoRenew: false, powerState: "stopped" })],
  // The spec's only name rule is "at least 3 characters": a space, an accent, a long name are the user's to choose.
  ["Vps", () => vps({ name: "web server" })],
  ["Vps", () => vps({ name: "Café Ünïcode 1" })],
  ["Vps", () => vps({ name: "w".repeat(200) })],
  ["VpsFirewallRule", () => rule()],
  ["VpsFirewallRule", () => without(rule({ protocol: "icmp", source: "2001:db8::1" }), "port")],
  ["VpsFirewallRule", () => rule({ protocol: "udp", port: "8000-8100", action: "deny", source: "0.0.0.0/0" })],
  ["VpsBackup", () => backup()],
])("%s: valid inputs pass (control case)", async (type, args) => {
  const result = await h.check(type, args());
  expect(result.failures).toEqual([]);
});

test.each([
  ["Vps planId", "Vps", () => vps({ planId: UNKNOWN })],
  ["Vps osType", "Vps", () => vps({ osType: UNKNOWN })],
  ["Vps rootPassword", "Vps", () => vps({ rootPassword: UNKNOWN })],
  ["VpsFirewallRule port", "VpsFirewallRule", () => rule({ port: UNKNOWN })],
  ["VpsFirewallRule protocol with a port", "VpsFirewallRule", () => rule({ protocol: UNKNOWN })],
  ["VpsFirewallRule source", "VpsFirewallRule", () => rule({ source: UNKNOWN })],
  ["VpsBackup vpsId", "VpsBackup", () => backup({ vpsId: UNKNOWN })],
])("preview: an unknown %s is not failed, and no write call", async (_what, type, args) => {
  const result = await h.check(type, args());
  expect(result.failures).toEqual([]);
  expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
});
