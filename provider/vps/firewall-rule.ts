/**
 * VpsFirewallRule: one rule of a server's firewall. The API has no rule update, so any change
 * replaces. Adding goes through createOnce (../create-once.ts): the API refuses a second rule with
 * the same values on a server, and the server is this stack's, so an identical rule already there is
 * this resource's (an interrupted create, or a lost answer, made it) and is adopted.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { apiErrorOf, isApiError, OutcomeUnknownError } from "../client/errors";
import type { ApiClient } from "../client/http";
import { createOnce } from "../create-once";
import { Kept } from "../context";
import { firewallAction, firewallProtocol, type FirewallRule } from "../../contract/schemas";
import { goneIfNotFound, isNotFound, operationError, operationFailed, pick, UUID, type Props } from "../resource";
import { adoptIdInput, defineResource, defineSchema } from "../schema";
import { busyServerWait, VPS_BUSY_ADVICE } from "./server-access";
import { retryWhileBusy } from "./server-waits";

const port = z
  .string()
  .regex(/^\d{1,5}(-\d{1,5})?$/, 'a port "22" or a range "8000-8100"')
  .refine((value) => value.split("-").map(Number).every((p) => p >= 1 && p <= 65535), "ports are 1 to 65535")
  .refine((value) => {
    const [from, to] = value.split("-").map(Number);
    return to === undefined || from <= to;
  }, "a range must not be reversed");

/** An IPv4/IPv6 address, or a CIDR with a prefix that fits the address. */
export function isAddressOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split("/");
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

export const vpsFirewallRuleSchema = defineSchema({
  type: "VpsFirewallRule",
  sdk: { idOutputs: ["ruleId"] },
  service: "platform",
  summary:
    "One rule of a server's firewall. Any change replaces the rule (the API has no rule update). One rule per resource; many rules of one server may be created at once.",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
const server = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

// SSH from the office only; HTTPS from anywhere.
new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" });
const https = new svc.VpsFirewallRule("https", { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });

export const httpsRuleId = https.ruleId;
`,
  inputs: {
    vpsId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
      description: "The server whose firewall holds the rule: a `Vps`'s `id`.",
      change: "replace",
    },
    protocol: { schema: firewallProtocol, description: "The protocol the rule matches.", change: "replace" },
    action: { schema: firewallAction, description: "What the rule does with the traffic it matches.", change: "replace" },
    port: {
      schema: port.optional(),
      description: "The port or port range the rule matches, as a string: `\"22\"` or `\"8000-8100\"`. Required for tcp and udp, absent for icmp.",
      change: "replace",
    },
    source: {
      schema: z.string().refine(isAddressOrCidr, "an IPv4 or IPv6 address or CIDR, e.g. 203.0.113.0/24"),
      description: "Where the traffic comes from: an IPv4 or IPv6 address or CIDR (`0.0.0.0/0`: anywhere).",
      change: "replace",
    },
    adoptId: adoptIdInput("the id of a rule already on the server"),
  },
  outputs: {
    ruleId: { schema: z.string(), description: "The rule's id at the API (also the resource's id)." },
  },
  rules: [
    {
      text: "`port` is required for tcp and udp, and absent for icmp",
      check: (inputs) => {
        if (inputs.protocol === "icmp" && inputs.port !== undefined) return [{ property: "port", reason: "icmp has no ports: remove port" }];
        if (inputs.protocol !== "icmp" && inputs.protocol !== undefined && inputs.port === undefined) {
          return [{ property: "port", reason: `${inputs.protocol} needs a port "22" or a range "8000-8100"` }];
        }
        return [];
      },
    },
  ],
  waits: [busyServerWait("create and delete")],
  adoption: "`adoptId` is the rule's id (the API's `GET /vps/{id}/firewall` lists a server's rules); the rule must be on the server `vpsId` names. The create reads it (nothing is added) and takes it as the API has it: where it differs from the program, the next preview replaces it.",
  interrupted:
    "The API refuses a second rule with the same values on a server, and the server is this stack's: an identical rule already there (an interrupted create, or a lost answer, made it) is this resource's, and the next `up` adopts it.",
  errors: {
    INVALID_FIREWALL_RULE: "The API refused a value the check let through (protocol, action, port, range, address or CIDR): the message names it.",
    INSTANCE_NOT_FOUND: "No server `vpsId` in reach of this key: check the id (a rule whose server is gone counts as deleted).",
    VPS_BUSY: VPS_BUSY_ADVICE,
    REQUEST_ERROR: "Another rule of the API refused it (the message says which); a terminated server refuses firewall changes.",
  },
  notes: "Delete removes the rule by id; a rule already gone, or whose server is terminated, counts as deleted. A refresh reads each server's firewall once for all its rules.",
});
const sameRule = (r: FirewallRule, inputs: Props | RuleBody) =>
  r.protocol === inputs.protocol && r.action === inputs.action && (r.port ?? undefined) === inputs.port && r.source === inputs.source;

type RuleBody = { protocol: string; action: string; source: string; port?: string };

/** How long a rule add waits for the server's other rule adds to join its request. */
const BATCH_WINDOW_MS = 50;

/**
 * The rule adds of one server that come within BATCH_WINDOW_MS of each other go in one
 * `POST /vps/{id}/firewall` (the route takes a list and answers the rules it made, in order): a
 * server's rules, created together once it is ready, cost the key one write, not one each. Each add
 * still goes through its own createOnce; a lost answer leaves each of them to look for its own rule.
 * A refused batch of several rules (400) is sent again one rule a request, so that one rule the API
 * refuses fails its own resource only. assumed-routes.md does not say whether a refused request
 * added any of its rules; the emulator checks every rule before adding any. Were a real API to keep
 * some, their repeat is refused as a duplicate (a server holds one rule with given values), that
 * resource's create fails, and the next `up`'s look finds and adopts the rule: never a second rule.
 * VPS_BUSY reaches every add (retryWhileBusy).
 */
class RuleAdds {
  private batch?: { rules: RuleBody[]; answers: { resolve(rule: FirewallRule): void; reject(err: unknown): void }[] };

  constructor(
    private readonly api: ApiClient,
    private readonly vpsId: string,
  ) {}

  add(rule: RuleBody): Promise<FirewallRule> {
    return new Promise((resolve, reject) => {
      if (!this.batch) {
        this.batch = { rules: [], answers: [] };
        setTimeout(() => void this.send(), BATCH_WINDOW_MS);
      }
      this.batch.rules.push(rule);
      this.batch.answers.push({ resolve, reject });
    });
  }

  private async send(): Promise<void> {
    const { rules, answers } = this.batch!;
    this.batch = undefined;
    const post = (list: RuleBody[]) => this.api.call("vps.firewall.add", { params: { id: this.vpsId }, body: { rules: list } });
    try {
      const made = await post(rules);
      // Each add takes the rule made with its values (a request holds no two alike: the API refuses it).
      answers.forEach((a, i) => {
        const own = made.find((r) => sameRule(r, rules[i]));
        if (own) a.resolve(own);
        else a.reject(operationFailed("create", `the answer of POST /vps/${this.vpsId}/firewall lists no rule ${JSON.stringify(rules[i])}`));
      });
    } catch (err) {
      // Refused as a request (400: REQUEST_ERROR, INVALID_FIREWALL_RULE), so nothing was added: one by one.
      const refusedWhole = rules.length > 1 && !(err instanceof OutcomeUnknownError) && apiErrorOf(err)?.status === 400;
      if (!refusedWhole) return answers.forEach((a) => a.reject(err));
      answers.forEach((a, i) => post([rules[i]]).then((made) => a.resolve(made[0]), a.reject));
    }
  }
}

/** Each server's rule adds, kept by the profile's context. */
const RULE_ADDS = new Kept((api, vpsId) => new RuleAdds(api.platform, vpsId));

/**
 * The one mapper from an API rule to the resource's properties: create's outputs, adoption, read and
 * drift. `kept`: what the rule does not say (its server, adoptId).
 */
export function firewallRuleProperties(rule: FirewallRule, kept: Props): { inputs: Props; outputs: Props } {
  const inputs = { ...pick(kept, ["vpsId", "adoptId"]), protocol: rule.protocol, action: rule.action, source: rule.source, ...(rule.port ? { port: rule.port } : {}) };
  return { inputs, outputs: { ...inputs, ruleId: rule.id } };
}

export const vpsFirewallRule = defineResource(vpsFirewallRuleSchema, {
  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId;
    const rule = { protocol: inputs.protocol, action: inputs.action, source: inputs.source, ...(inputs.port ? { port: inputs.port } : {}) };
    // A server's rules are created together: their looks before sending share one list.
    const listing = ctx.api.firewallOf(vpsId);
    const rules = (joinInFlight: boolean) => (joinInFlight ? listing.lookup() : listing.fresh());
    const { object } = await createOnce<FirewallRule>(ctx, inputs, {
      noun: "firewall rule",
      idOf: (r) => r.id,
      describe: (r) => `${r.protocol} ${r.action} ${r.port ?? ""} from ${r.source} on server ${vpsId}`.replace("  ", " "),
      adopt: async (adoptId) => {
        const found = (await rules(true)).find((r) => r.id === adoptId);
        if (!found) throw operationFailed("create", `adoptId "${adoptId}": server ${vpsId} has no firewall rule with this id`);
        return found;
      },
      // The look before sending, on a server this process made, needs no call (ApiContext.rulesMadeHere).
      find: async (joinInFlight) => ({
        objects: ((joinInFlight && ctx.api.rulesMadeHere(vpsId)) || (await rules(joinInFlight))).filter((r) => sameRule(r, inputs)),
        provablyMine: true,
      }),
      send: async () => {
        try {
          const adds = RULE_ADDS.of(ctx.api, vpsId);
          const added = await retryWhileBusy(ctx, vpsId, () => adds.add(rule));
          ctx.api.ruleAdded(vpsId, added);
          return added;
        } catch (err) {
          ctx.api.ruleAdded(vpsId, undefined);
          throw err;
        }
      },
      otherwise: "remove it from the server",
    });
    // Made or found, the rule is taken as the API has it: where an adopted one differs from the
    // program, the next preview replaces it.
    return { id: object.id, outs: firewallRuleProperties(object, inputs).outputs };
  },
  hintFor: (err, inputs) => (isApiError(err, "INSTANCE_NOT_FOUND") ? `No server ${inputs.vpsId} in reach of this key` : undefined),

  // An import has no state to name the server: nothing found.
  find: async (id, { vpsId }, ctx) => (vpsId === undefined ? undefined : (await ctx.api.firewallOf(vpsId).snapshot().catch(goneIfNotFound)).find((r) => r.id === id)),
  properties: (rule, props) => firewallRuleProperties(rule, props),

  async delete(id, props, ctx) {
    const api = ctx.api.platform;
    const vpsId = props.vpsId;
    if (vpsId === undefined) return;
    // The rules this process knows of on the server no longer hold: its looks read the list again.
    ctx.api.ruleAdded(vpsId, undefined);
    try {
      await retryWhileBusy(ctx, vpsId, () => api.call("vps.firewall.remove", { params: { id: vpsId }, body: { ids: [id] } }));
    } catch (err) {
      // FIREWALL_RULE_NOT_FOUND or INSTANCE_NOT_FOUND: already gone.
      if (isNotFound(err)) return;
      // A terminated server refuses firewall changes (REQUEST_ERROR) but has no rules left: a rule
      // that is not listed any more is deleted all the same.
      const listed = await ctx.api.firewallOf(vpsId).fresh().then(
        (rules) => rules.some((r) => r.id === id),
        (listErr) => !isNotFound(listErr),
      );
      if (listed) throw operationError("delete", err);
    }
  },
});
