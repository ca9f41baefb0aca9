/**
 * VpsPortForward: one port forward of a server that shares a public address (platform-api.md "Port
 * forwarding"; assumed-routes.md "Server access"). The API has no update: any change replaces. A
 * replace that keeps the same public port (or domain) deletes the old forward first, since the
 * address holds each only once (PORT_TAKEN).
 *
 * Rules at preview: tcp/udp forward a public port of 1024–65535 (given, or assigned by the platform:
 * output `publicPort`) and take no domain; http uses public port 80, https 443 and needs a domain;
 * both route by a public fully-qualified domain. Adding goes through createOnce (../create-once.ts):
 * the server is this stack's, so a forward already on it with the same protocol, private port,
 * public port (when given) and domain is this resource's (an interrupted create made it) and is adopted.
 */
import { z } from "zod";
import { isApiError } from "../client/errors";
import { createOnce } from "../create-once";
import { portForwardProtocols, type PortForward, type Vps } from "../../contract/schemas";
import { isFullyQualified, nonPublicTldProblem } from "../validation";
import { isNotFound, isUnknown, operationError, operationFailed, pick, UUID, type CheckFailure, type DiffResult, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema } from "../schema";
import type { CallContext } from "../context";
import { retryWhileBusy } from "./server-waits";
import { busyServerWait, createsObject, declaredServerInput, serverAccessHint, serverAccessRules, VPS_BUSY_ADVICE } from "./server-access";

const port = z.number().int("a whole number").min(1, "1 to 65535").max(65535, "1 to 65535");
const FIXED_PORT: Record<string, number> = { http: 80, https: 443 };

function portRules(inputs: Props): CheckFailure[] {
  const { protocol, publicPort, domain } = inputs;
  if (protocol === undefined || isUnknown(protocol)) return [];
  const failures: CheckFailure[] = [];
  const knownPort = typeof publicPort === "number";
  if (protocol === "tcp" || protocol === "udp") {
    if (typeof publicPort === "number" && publicPort < 1024) failures.push({ property: "publicPort", reason: `${protocol} forwards a public port of 1024 to 65535 (leave it out and the platform assigns one)` });
    if (domain !== undefined) failures.push({ property: "domain", reason: `${protocol} forwards route by port, not by domain: remove domain (domains are for http and https)` });
    return failures;
  }
  const fixed = typeof protocol === "string" ? FIXED_PORT[protocol] : undefined;
  if (knownPort && publicPort !== fixed) failures.push({ property: "publicPort", reason: `${protocol} always uses public port ${fixed}: remove publicPort` });
  if (protocol === "https" && domain === undefined) failures.push({ property: "domain", reason: "https needs a domain: the name the platform routes (and holds the certificate for) to this server" });
  return failures;
}

const SLOT_REPLACED = "replaces the forward; a new forward that keeps the same public port or domain removes the old one first (the shared address holds each once)";

export const vpsPortForwardSchema = defineSchema({
  type: "VpsPortForward",
  sdk: { idOutputs: ["forwardId"], declaredServer: { kind: "portForward" } },
  service: "platform",
  summary:
    "A port forward of a server that shares a public address: a public port (tcp, udp) or a domain (http, https) of the shared address, forwarded to a port of the server. Any change replaces it (the API has no update).",
  example: `
import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc";

const config = new pulumi.Config();
// Forwards need a plan whose servers share a public address (getVpsPlans: sharedAddress).
const server = new svc.Vps("app", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });

const web = new svc.VpsPortForward("https", { vpsId: server.id, protocol: "https", privatePort: 8443, domain: "app.example.com" });
const ssh = new svc.VpsPortForward("ssh", { vpsId: server.id, protocol: "tcp", privatePort: 22 }); // a free public port is assigned

export const url = web.address; // "https://app.example.com"
export const sshAddress = ssh.address; // "<shared address>:<assigned port>"
`,
  inputs: {
    vpsId: {
      schema: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
      description: "The server the traffic goes to: a `Vps`'s `id`. Its plan must share a public address (`sharedAddress`, see `getVpsPlans`) and it must be running.",
      change: "replace",
    },
    protocol: {
      schema: z.enum(portForwardProtocols),
      description: "`tcp` and `udp` forward a public port; `http` (public port 80) and `https` (public port 443, needs `domain`) route by domain.",
      change: "replace",
    },
    privatePort: { schema: port, description: "The server's port the traffic goes to.", change: "replace" },
    publicPort: {
      schema: port.optional(),
      description: "tcp/udp: the public port of the shared address, 1024 to 65535; http/https: 80/443, may be left out.",
      change: "replace",
      default: "tcp/udp: a free port the platform assigns (output `publicPort`); http: 80; https: 443",
      changeText: SLOT_REPLACED,
    },
    domain: {
      schema: z
        .string()
        .trim()
        .toLowerCase()
        .refine(isFullyQualified, "a public fully-qualified domain name, e.g. app.example.com")
        .refine((name) => !nonPublicTldProblem(name), { error: (issue) => (issue.input === undefined ? "under a public top-level domain" : nonPublicTldProblem(String(issue.input)) ?? "not a public domain name") })
        .optional(),
      description: "http/https: the public fully-qualified name the platform routes (and, for https, holds the certificate for) to the server. Lower-cased.",
      change: "replace",
      changeText: SLOT_REPLACED,
    },
    adoptId: adoptIdInput("the id of a port forward already on the server"),
    declaredServer: declaredServerInput,
  },
  outputs: {
    publicPort: { schema: z.number(), description: "The public port: the one given, or the one the platform assigned." },
    requestedPublicPort: {
      schema: z.number().optional(),
      tsType: "number | undefined",
      description: "The public port the program asked for (`publicPort` as given; absent when left out): what a change of the program is compared with.",
    },
    address: { schema: z.string(), description: "Where the forward is reached: `<server address>:<publicPort>`, or `https://<domain>` (`http://<domain>`)." },
    forwardId: { schema: z.string(), description: "The forward's id at the API: the resource's id and its `adoptId`." },
  },
  rules: [
    {
      text: "tcp and udp forward a public port of 1024 to 65535 and take no `domain`; http uses public port 80 and https 443, and https needs a `domain`",
      check: portRules,
    },
  ],
  waits: [busyServerWait("create")],
  adoption:
    "`adoptId` is the forward's id (`forwardId`). The create finds it on the server (nothing is added) and takes it as it is: where it differs from the program, the next preview replaces it.",
  interrupted:
    "The server is this stack's: a forward already on it with the same protocol, private port, public port (when given) and domain is this resource's (an interrupted create added it), and the next `up` adopts it.",
  errors: {
    PORT_TAKEN: "The public port or domain is already forwarded on the shared address (by this or another server behind it): choose another port (or leave `publicPort` out to get a free one) or another domain.",
    INVALID_PORT: "A port outside its range, the wrong port for http/https, or a missing or invalid domain: the check refuses these at preview; the message says which.",
    FEATURE_NOT_AVAILABLE: "The server has a public address of its own: forwards need a server on a plan that shares one (see `getVpsPlans`, `sharedAddress`).",
    INSTANCE_NOT_RUNNING: "Forwards are applied on the running server: set the Vps's `powerState` to `running`, then run `pulumi up` again.",
    INSTANCE_NOT_FOUND: "No server `vpsId` in reach of this key (on delete: the forward counts as deleted).",
    VPS_BUSY: VPS_BUSY_ADVICE,
  },
  notes:
    "A replace that keeps the same public port or domain removes the old forward first: the shared address holds each once (`PORT_TAKEN`), across every server behind it. The server rules (shared address, running) are checked at preview as for [VpsSshKey](VpsSshKey.md). Delete removes the forward by id; one already gone (or whose server is terminated) counts as deleted.",
});
/** The forward's own values: any change replaces it. */
const FORWARD_INPUTS = changesOf(vpsPortForwardSchema).replace;
const OUTPUT_INPUTS = ["vpsId", "protocol", "privatePort", "domain", "adoptId"];
/** What a forward holds on the shared address: a protocol's domain, a port asked for, or http's port 80; undefined: a port the platform assigns (always a free one). */
function slotOf(props: Props): string | undefined {
  if (props.domain !== undefined) return `${String(props.protocol)} ${String(props.domain)}`;
  if (props.publicPort !== undefined) return `${String(props.protocol)}:${String(props.publicPort)}`;
  return props.protocol === "http" ? "http:80" : undefined;
}

/** An existing forward is this resource's when its values are the program's (an assigned port matches any). */
const sameForward = (f: PortForward, inputs: Props) =>
  f.protocol === inputs.protocol &&
  f.privatePort === inputs.privatePort &&
  (inputs.publicPort === undefined || f.publicPort === inputs.publicPort) &&
  (f.domain ?? undefined) === inputs.domain;

/** Where the forward is reached: `https://<domain>`, `http://<domain>`, or `<server address>:<public port>`. */
function addressOf(forward: PortForward, server: Pick<Vps, "publicIp"> | undefined): string {
  if (forward.domain) return `${forward.protocol}://${forward.domain}`;
  return `${server?.publicIp ?? "(no address yet)"}:${forward.publicPort}`;
}

/** The forward as the program's inputs: a port the platform assigned stays out of them (no diff). */
function liveInputs(forward: PortForward, inputs: Props): Props {
  const assigned = inputs.publicPort === undefined && (forward.protocol === "tcp" || forward.protocol === "udp" || forward.publicPort === FIXED_PORT[forward.protocol]);
  return {
    ...pick(inputs, ["vpsId", "adoptId"]),
    protocol: forward.protocol,
    privatePort: forward.privatePort,
    ...(assigned ? {} : { publicPort: forward.publicPort }),
    ...(forward.domain !== null ? { domain: forward.domain } : {}),
  };
}

function outputs(inputs: Props, forward: PortForward, server: Pick<Vps, "publicIp"> | undefined): Props {
  return { ...pick(inputs, OUTPUT_INPUTS), ...(inputs.publicPort !== undefined ? { requestedPublicPort: inputs.publicPort } : {}), publicPort: forward.publicPort, forwardId: forward.id, address: addressOf(forward, server) };
}

async function serverOf(ctx: CallContext, vpsId: string): Promise<Vps | undefined> {
  return ctx.api.platform.call("vps.get", { params: { id: vpsId } }).catch(() => undefined);
}

function hintFor(err: unknown, vpsId: string, inputs: Props): string | undefined {
  if (isApiError(err, "PORT_TAKEN")) {
    const what = inputs.domain !== undefined ? `${inputs.protocol} for ${String(inputs.domain)}` : `public ${String(inputs.protocol)} port ${String(inputs.publicPort)}`;
    return `${what} is already forwarded on the address server ${vpsId} shares (by this or another server behind it): choose another${inputs.domain !== undefined ? " domain" : " port, or leave publicPort out to get a free one"}`;
  }
  return serverAccessHint(err, vpsId, "port forwards");
}

export const vpsPortForward = defineResource(vpsPortForwardSchema, {
  async check(olds, news, ctx) {
    const result = checkSchema(vpsPortForwardSchema, news);
    if (result.failures.length === 0) result.failures.push(...(await serverAccessRules(ctx, result.inputs, "port forwards", createsObject(olds, result.inputs, FORWARD_INPUTS))));
    return result;
  },

  async diff(_id, olds, news): Promise<DiffResult> {
    // `publicPort` in the outputs is the assigned one: the program's request is `requestedPublicPort`.
    const old = (name: string) => (name === "publicPort" ? olds.requestedPublicPort : olds[name]);
    const changed = (name: string) => isUnknown(news[name]) || JSON.stringify(old(name) ?? null) !== JSON.stringify(news[name] ?? null);
    const replaces = FORWARD_INPUTS.filter(changed);
    // The same public port or domain again: the address holds it once, so the old forward goes first.
    const oldSlot = slotOf({ ...olds, publicPort: olds.requestedPublicPort });
    const sameSlot = !changed("vpsId") && oldSlot !== undefined && oldSlot === slotOf(news);
    return { changes: replaces.length > 0, replaces, ...(replaces.length && sameSlot ? { deleteBeforeReplace: true } : {}) };
  },

  async create(inputs, ctx) {
    const api = ctx.api.platform;
    const vpsId = inputs.vpsId;
    const forwards = () => ctx.api.portForwardsOf(vpsId).fresh();
    const body = {
      protocol: inputs.protocol,
      privatePort: inputs.privatePort,
      ...(inputs.publicPort !== undefined ? { publicPort: inputs.publicPort } : {}),
      ...(inputs.domain !== undefined ? { domain: inputs.domain } : {}),
    };
    const { object, adopted } = await createOnce<PortForward>(ctx, inputs, {
      noun: "port forward",
      idOf: (f) => f.id,
      describe: (f) => `${f.protocol} ${f.domain ?? f.publicPort} → ${f.privatePort} on server ${vpsId}`,
      adopt: async (adoptId) => {
        const found = (await forwards()).find((f) => f.id === adoptId);
        if (!found) throw operationFailed("create", `adoptId "${adoptId}": server ${vpsId} has no port forward with this id`);
        return found;
      },
      find: async () => ({ objects: (await forwards()).filter((f) => sameForward(f, inputs)), provablyMine: true }),
      send: () => retryWhileBusy(ctx, vpsId, () => api.call("vps.portForwards.add", { params: { id: vpsId }, body })),
      otherwise: "remove it from the server",
    });
    const values = adopted && inputs.adoptId !== undefined ? liveInputs(object, inputs) : inputs;
    return { id: object.id, outs: outputs(values, object, await serverOf(ctx, vpsId)) };
  },
  hintFor: (err, inputs) => hintFor(err, inputs.vpsId, inputs),

  async read(id, props, ctx) {
    const vpsId = props.vpsId;
    // An import has no state to name the server.
    if (vpsId === undefined) return { id: "", props: {} };
    let forwards: PortForward[];
    try {
      forwards = await ctx.api.portForwardsOf(vpsId).snapshot();
    } catch (err) {
      if (isNotFound(err)) return { id: "", props: {} };
      throw operationError("read", err);
    }
    const forward = forwards.find((f) => f.id === id);
    if (!forward) return { id: "", props: {} };
    const inputs = liveInputs(forward, { ...props, publicPort: props.requestedPublicPort });
    // The address: the server's, unchanged since the create unless the server was replaced (then the forward is gone).
    let server = typeof props.address === "string" && !forward.domain ? { publicIp: props.address.replace(/:\d+$/, "") } : undefined;
    // A read with no state (a `get`) asks the server for its address once.
    if (!server && props.address === undefined && !forward.domain) {
      const live = await ctx.api.servers.read(vpsId).catch((err: unknown) => {
        throw operationError("read", err);
      });
      server = live?.publicIp ? { publicIp: live.publicIp } : undefined;
    }
    return { id, props: outputs(inputs, forward, server), inputs };
  },

  // PORT_NOT_FOUND or INSTANCE_NOT_FOUND: already gone (a terminated server keeps no forwards).
  remove: async (id, { vpsId }, ctx) => {
    // An import has no state to name the server: nothing to delete.
    if (vpsId !== undefined) await ctx.api.platform.call("vps.portForwards.delete", { params: { id: vpsId, portId: id } });
  },
});
