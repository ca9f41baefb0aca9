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
import { checkInputs, isNotFound, isUnknown, operationError, pick, UUID, type CheckFailure, type DiffResult, type Props, type ResourceImpl } from "../resource";
import type { CallContext } from "../context";
import { retryWhileBusy } from "./server-waits";
import { createsObject, serverAccessHint, serverAccessRules } from "./server-access";

const port = z.number().int("a whole number").min(1, "1 to 65535").max(65535, "1 to 65535");
const fields = {
  vpsId: z.string().min(1, "must not be empty").regex(UUID, "a server id (UUID): the Vps's id"),
  protocol: z.enum(portForwardProtocols),
  privatePort: port,
  publicPort: port.optional(),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .refine(isFullyQualified, "a public fully-qualified domain name, e.g. app.example.com")
    .refine((name) => !nonPublicTldProblem(name), { error: (issue) => nonPublicTldProblem(String(issue.input)) ?? "not a public domain name" })
    .optional(),
  /** A forward already on the server to manage: its id. */
  adoptId: z.string().min(1, "must not be empty").optional(),
  /** What the program declares about the server (set by the sdk class, see server-access.ts). */
  declaredServer: z.looseObject({}).optional(),
};
/** The forward's own values: any change replaces it. */
const FORWARD_INPUTS = ["vpsId", "protocol", "privatePort", "publicPort", "domain"];
const OUTPUT_INPUTS = ["vpsId", "protocol", "privatePort", "domain", "adoptId"];
const FIXED_PORT: Record<string, number> = { http: 80, https: 443 };

function portRules(inputs: Props): CheckFailure[] {
  const { protocol, publicPort, domain } = inputs;
  if (protocol === undefined || isUnknown(protocol)) return [];
  const failures: CheckFailure[] = [];
  const knownPort = typeof publicPort === "number";
  if (protocol === "tcp" || protocol === "udp") {
    if (knownPort && (publicPort as number) < 1024) failures.push({ property: "publicPort", reason: `${protocol} forwards a public port of 1024 to 65535 (leave it out and the platform assigns one)` });
    if (domain !== undefined) failures.push({ property: "domain", reason: `${protocol} forwards route by port, not by domain: remove domain (domains are for http and https)` });
    return failures;
  }
  const fixed = FIXED_PORT[protocol as string];
  if (knownPort && publicPort !== fixed) failures.push({ property: "publicPort", reason: `${protocol} always uses public port ${fixed}: remove publicPort` });
  if (protocol === "https" && domain === undefined) failures.push({ property: "domain", reason: "https needs a domain: the name the platform routes (and holds the certificate for) to this server" });
  return failures;
}

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

export const vpsPortForward: ResourceImpl = {
  async check(olds, news, ctx) {
    const result = checkInputs(news, fields, portRules);
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
    const vpsId = inputs.vpsId as string;
    const forwards = () => ctx.api.portForwardsOf(vpsId).fresh();
    const body = {
      protocol: inputs.protocol as string,
      privatePort: inputs.privatePort as number,
      ...(inputs.publicPort !== undefined ? { publicPort: inputs.publicPort as number } : {}),
      ...(inputs.domain !== undefined ? { domain: inputs.domain as string } : {}),
    };
    try {
      const { object, adopted } = await createOnce<PortForward>(inputs, {
        noun: "port forward",
        idOf: (f) => f.id,
        describe: (f) => `${f.protocol} ${f.domain ?? f.publicPort} → ${f.privatePort} on server ${vpsId}`,
        adopt: async (adoptId) => {
          const found = (await forwards()).find((f) => f.id === adoptId);
          if (!found) throw new Error(`create failed: adoptId "${adoptId}": server ${vpsId} has no port forward with this id`);
          return found;
        },
        find: async () => ({ objects: (await forwards()).filter((f) => sameForward(f, inputs)), provablyMine: true }),
        send: () => retryWhileBusy(ctx, vpsId, () => api.call("vps.portForwards.add", { params: { id: vpsId }, body })),
        otherwise: "remove it from the server",
      });
      const values = adopted && inputs.adoptId !== undefined ? liveInputs(object, inputs) : inputs;
      return { id: object.id, outs: outputs(values, object, await serverOf(ctx, vpsId)) };
    } catch (err) {
      throw operationError("create", err, hintFor(err, vpsId, inputs));
    }
  },

  async update(_id, _olds, news) {
    // Unreachable in practice (every input replaces); answer complete outputs all the same.
    return { outs: news };
  },

  async read(id, props, ctx) {
    const vpsId = props.vpsId as string;
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
    const server = typeof props.address === "string" && !forward.domain ? { publicIp: props.address.replace(/:\d+$/, "") } : undefined;
    return { id, props: outputs(inputs, forward, server), inputs };
  },

  async delete(id, props, ctx) {
    const vpsId = props.vpsId as string;
    try {
      await ctx.api.platform.call("vps.portForwards.delete", { params: { id: vpsId, portId: id } });
    } catch (err) {
      // PORT_NOT_FOUND or INSTANCE_NOT_FOUND: already gone (a terminated server keeps no forwards).
      if (!isNotFound(err)) throw operationError("delete", err);
    }
  },
};
