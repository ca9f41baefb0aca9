/**
 * The fault cells of the server-access types (issue 25; tools/chaos/matrix.ts ACCESS_CALLS): for
 * VpsSshKey, VpsPortForward and VpsSnapshot, create and delete under a 500 before acting (a), the
 * connection dropped after the API acted (b), a burst of 429s (c) and VPS_BUSY (e, creates), through
 * the real provider host. Each cell: the operation succeeds, or fails with a clear error naming the
 * call and its code (or that the outcome is unknown); the next attempt (what the next `up` runs)
 * succeeds; in the end exactly one object (create) or none (delete) is at the API.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { ACCESS_TYPES, accessRuleOf, FAULT_KINDS, type AccessType, type FaultKind, type Op } from "../../tools/chaos/matrix";
import { KEYS } from "../../tools/support/ssh-keys";
import { catalogue, fresh, PLAN, runningServer, server, type Props } from "../vps/helpers";

jest.setTimeout(60_000);

let h: ResourceHarness;
let vpsId: string;
let sharedPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "immediate" },
  setup: async (h) => {
    sharedPlan = (await catalogue(h)).plan(PLAN.shared).id;
    for (const t of ACCESS_TYPES) await h.inputs(t, {});
  },
  fresh: async (h) => {
    await fresh(h, 0.2);
    vpsId = (await runningServer(h, sharedPlan, "nat-faults")).id;
    h.emu.control.clearRequests();
  },
});

const ARGS: Record<AccessType, () => Props> = {
  VpsSshKey: () => ({ vpsId, publicKey: KEYS.ed25519.publicKey, label: "admin" }),
  VpsPortForward: () => ({ vpsId, protocol: "tcp", privatePort: 22 }),
  VpsSnapshot: () => ({ vpsId, name: "restore-point" }),
};
const objects = (type: AccessType): unknown[] => {
  const s = server(h, vpsId);
  return (type === "VpsSshKey" ? s.sshKeys : type === "VpsPortForward" ? s.portForwards : s.snapshots) ?? [];
};
/** A failed operation's error is clear: the operation, the call and its code, or an unknown outcome. */
const CLEAR = /^(create|delete) failed: ((GET|POST|DELETE) \/\S+ (\d{3} )?[A-Z][A-Z_]{2,}|.*outcome unknown|.*No \w[\w ]* was made)/;

const cells: [AccessType, Op, FaultKind][] = [];
for (const type of ACCESS_TYPES) for (const op of ["create", "delete"] as Op[]) for (const fault of FAULT_KINDS) if (fault !== "d" && accessRuleOf(type, op, fault)) cells.push([type, op, fault]);

test.each(cells)("%s %s under fault %s: clear or fine, the next attempt converges", async (type, op, fault) => {
  const args = ARGS[type]();
  let created = op === "delete" ? await h.host.create(type, await h.checked(type, args)) : undefined;
  await h.emu.ctl("POST", "/faults", accessRuleOf(type, op, fault));
  const attempt = () => (op === "create" ? h.checked(type, args).then((inputs) => h.host.create(type, inputs)) : h.host.delete(type, created!.id, created!.properties));
  const first = await attempt().then(
    (r) => ({ ok: true as const, r }),
    (err: Error) => ({ ok: false as const, err }),
  );
  // The fault was met.
  expect(((await h.emu.ctl("GET", "/faults")).body.data as { used: number }[])[0].used).toBeGreaterThan(0);
  if (!first.ok) {
    expect(first.err.message).toMatch(CLEAR);
    await h.emu.ctl("DELETE", "/faults");
    const again = await attempt();
    if (op === "create") created = again as typeof created;
  } else if (op === "create") {
    created = first.r as typeof created;
  }
  expect(objects(type)).toHaveLength(op === "create" ? 1 : 0);
  await h.emu.ctl("DELETE", "/faults");
});
