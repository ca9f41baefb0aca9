/**
 * Firewall rules of a server: list, add (all or nothing), remove by ids or by rule (all or nothing:
 * one unknown rule answers FIREWALL_RULE_NOT_FOUND and nothing is removed).
 */
import { isIP } from "node:net";
import type { HandlerTable, RequestBody } from "../core/module";
import { EmuError } from "../core/errors";
import { findServer, guardAction, userActivity, type FirewallRuleRec } from "./state";

type RuleInput = RequestBody<"vps.firewall.add">["rules"][number];
type RuleFields = Omit<FirewallRuleRec, "id">;

function invalid(message: string): never {
  throw new EmuError(400, "INVALID_FIREWALL_RULE", message);
}

/** "22" or "8000-8100", each port 1 to 65535, range not reversed. */
function validPort(port: string): boolean {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(port);
  if (!m) return false;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  return low >= 1 && high <= 65535 && low <= high;
}

/** An IPv4 or IPv6 address, optionally with a CIDR prefix length. */
function validSource(source: string): boolean {
  const [address, prefix, ...rest] = source.split("/");
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function parseRule(input: RuleInput, where: string): RuleFields {
  if (input.protocol !== "tcp" && input.protocol !== "udp" && input.protocol !== "icmp") {
    invalid(`${where}.protocol must be tcp, udp or icmp`);
  }
  if (input.action !== "allow" && input.action !== "deny") invalid(`${where}.action must be allow or deny`);
  if (input.protocol === "icmp") {
    if (input.port !== undefined) invalid(`${where}.port is not allowed for icmp`);
  } else if (input.port === undefined) {
    invalid(`${where}.port is required for ${input.protocol}`);
  } else if (!validPort(input.port)) {
    invalid(`${where}.port must be a port or range inside 1-65535, not reversed ("22" or "8000-8100")`);
  }
  if (!validSource(input.source)) invalid(`${where}.source must be an IPv4/IPv6 address or CIDR`);
  const rule: RuleFields = { protocol: input.protocol, action: input.action, source: input.source };
  if (input.port !== undefined) rule.port = input.port;
  return rule;
}

function sameRule(a: RuleFields, b: RuleFields): boolean {
  return a.protocol === b.protocol && a.action === b.action && a.port === b.port && a.source === b.source;
}

function ruleView(r: FirewallRuleRec) {
  return { id: r.id, protocol: r.protocol, action: r.action, ...(r.port !== undefined ? { port: r.port } : {}), source: r.source };
}

export const firewallHandlers: HandlerTable = {
  "vps.firewall.list": (ctx) => findServer(ctx).firewall.map(ruleView),

  "vps.firewall.add": (ctx) => {
    const s = findServer(ctx);
    guardAction(s, "firewall");
    const { rules } = ctx.body;
    if (rules.length === 0) invalid("rules must name at least one rule");
    const parsed = rules.map((r, i) => parseRule(r, `rules[${i}]`));
    parsed.forEach((r, i) => {
      if (s.firewall.some((x) => sameRule(x, r)) || parsed.slice(0, i).some((x) => sameRule(x, r))) {
        throw new EmuError(400, "REQUEST_ERROR", `rules[${i}] duplicates a rule the server already has`);
      }
    });
    const created = parsed.map((r) => ({ id: ctx.emu.uuid(), ...r }));
    s.firewall.push(...created);
    userActivity(ctx.emu, s, "vps.firewall.add");
    return created.map(ruleView);
  },

  "vps.firewall.remove": (ctx) => {
    const s = findServer(ctx);
    guardAction(s, "firewall");
    const { ids, rules } = ctx.body;
    if ((ids === undefined) === (rules === undefined)) invalid("name either ids or rules (exactly one)");
    const targets: FirewallRuleRec[] = [];
    if (ids) {
      if (ids.length === 0) invalid("ids must name at least one rule");
      for (const id of new Set(ids)) {
        const found = s.firewall.find((r) => r.id === id);
        if (!found) throw new EmuError(404, "FIREWALL_RULE_NOT_FOUND", `No firewall rule ${id} on this server; nothing removed`);
        targets.push(found);
      }
    } else {
      if (rules!.length === 0) invalid("rules must name at least one rule");
      rules!.forEach((input, i) => {
        const wanted = parseRule(input, `rules[${i}]`);
        const found = s.firewall.find((r) => sameRule(r, wanted) && !targets.includes(r));
        if (!found) throw new EmuError(404, "FIREWALL_RULE_NOT_FOUND", `rules[${i}] is not a rule of this server; nothing removed`);
        targets.push(found);
      });
    }
    s.firewall = s.firewall.filter((r) => !targets.includes(r));
    userActivity(ctx.emu, s, "vps.firewall.remove");
    return { removed: targets.length };
  },
};
