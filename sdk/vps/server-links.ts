/**
 * What a server-access resource (VpsSshKey, VpsPortForward, VpsSnapshot) can know at preview about
 * its server: when its `vpsId` is the `id` of a Vps declared in the same program, that Vps's
 * `planId` and `powerState` (so the check knows, before the server exists, whether it shares a
 * public address, holds snapshots, or will be stopped), and how many objects of its kind the program
 * declares for that server (the 11th key is refused at preview with no call).
 *
 * The program runs once per `preview`/`up`, in one process: these maps see every declaration of the
 * run. A server is recognised by its `id` output itself (the same object every time `server.id` is
 * read) or by a plain id string; an id derived some other way (`server.id.apply(...)`) is not linked,
 * and the API's own refusals (FEATURE_NOT_AVAILABLE, INSTANCE_NOT_RUNNING, SSH_KEY_LIMIT) then come
 * at `up`, with the same advice. Decision of issue 25: the provider cannot count across checks
 * (checks of one run may come from several provider processes, and a preview's checks are not a
 * run's), the sdk class sees the whole program.
 */
import type * as pulumi from "@pulumi/pulumi";

interface ServerDeclared {
  planId: pulumi.Input<string>;
  powerState?: pulumi.Input<"running" | "stopped">;
}

const byOutput = new WeakMap<object, ServerDeclared>();
const counts = { object: new WeakMap<object, Map<string, number>>(), text: new Map<string, Map<string, number>>() };

/** Called for a server (its schema's `sdk.linksServer`: the Vps) with its own `id` output and arguments (../common.ts). */
export function linkServer(id: pulumi.Output<string>, args: ServerDeclared): void {
  byOutput.set(id, { planId: args.planId, powerState: args.powerState });
}

/** The n-th `kind` the program declares for this server (1 for the first). */
function ordinal(vpsId: pulumi.Input<string>, kind: string): number | undefined {
  let perKind: Map<string, number> | undefined;
  if (typeof vpsId === "string") {
    perKind = counts.text.get(vpsId) ?? new Map();
    counts.text.set(vpsId, perKind);
  } else if (vpsId && typeof vpsId === "object") {
    perKind = counts.object.get(vpsId) ?? new Map();
    counts.object.set(vpsId, perKind);
  } else {
    return undefined;
  }
  const n = (perKind.get(kind) ?? 0) + 1;
  perKind.set(kind, n);
  return n;
}

/**
 * The `declaredServer` input of a server-access resource, or undefined when there is nothing to say.
 * `limit`: objects of this kind one server holds; the ordinal is passed only past it.
 */
export function declaredServer(vpsId: pulumi.Input<string>, kind: string, limit = Infinity): Record<string, unknown> | undefined {
  const server = vpsId && typeof vpsId === "object" ? byOutput.get(vpsId) : undefined;
  const n = ordinal(vpsId, kind);
  const out: Record<string, unknown> = {};
  if (server) {
    out.planId = server.planId;
    out.powerState = server.powerState ?? "running";
  }
  if (n !== undefined && n > limit) out.ordinal = n;
  return Object.keys(out).length ? out : undefined;
}
