/**
 * Issue 25, acceptance 5 (the steps of issue 15's interrupted-create matrix, for the three server
 * access types): the server is deployed, then the type is added and its create's answer is held
 * back (the API has acted) while the provider host is killed (the CLI survives and fails the step);
 * `up` runs again under the real CLI, which checks and creates the resource as a new one, then
 * `refresh --clear-pending-creates`. Each ends with one object at the API, its id in the state, and
 * the create adopted on its own (the fingerprint / the same forward / the snapshot's name on this
 * stack's server tells it is this resource's).
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { run, type HostHandle } from "../../tools/chaos/harness";
import { liveServers, PLAN } from "../../tools/support/world";
import { KEYS } from "../../tools/support/ssh-keys";

jest.setTimeout(120_000);

const HOLD_MS = 3_000;
const project = fixtureProject("interrupted-access");
const P = project.project;
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () =>
    project.program(`
const has = (t) => (config.get("declare") || "").split(",").includes(t);
const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === config.require("plan")).id);
const srv = new svc.Vps("srv", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
if (has("VpsSshKey")) new svc.VpsSshKey("key", { vpsId: srv.id, publicKey: config.require("publicKey"), label: "admin" });
if (has("VpsPortForward")) new svc.VpsPortForward("fwd", { vpsId: srv.id, protocol: "tcp", privatePort: 22 });
if (has("VpsSnapshot")) new svc.VpsSnapshot("snap", { vpsId: srv.id, name: "restore-point" });
`),
  options: { projectDir: project.dir, stack: "reliability-interrupted-access", removeProject: true },
  setup: (s) => {
    s.config(`${P}:rootPassword`, "Interrupt!2026x", true);
    s.config(`${P}:plan`, PLAN.shared);
    s.config(`${P}:publicKey`, KEYS.ed25519.publicKey);
  },
});

const CASES = [
  { type: "VpsSshKey", name: "key", path: "ssh-keys", objects: () => liveServers(s.world())[0].sshKeys ?? [] },
  { type: "VpsPortForward", name: "fwd", path: "port-forwards", objects: () => liveServers(s.world())[0].portForwards ?? [] },
  { type: "VpsSnapshot", name: "snap", path: "snapshots", objects: () => liveServers(s.world())[0].snapshots ?? [] },
];

test.each(CASES.map((c) => [c.type, c] as const))("%s: host killed after the create reached the API → next up adopts it → one object", async (_type, c) => {
  await s.emu.ctl("POST", "/reset");
  s.resetState();
  s.config(`${P}:declare`, "");
  expect((await run(s, "up", undefined, undefined, { skipPreview: true })).ok).toBe(true);

  s.config(`${P}:declare`, c.type);
  await s.emu.ctl("POST", "/faults", { method: "POST", path: `/api/vps/*/${c.path}`, afterCommit: true, delayMs: HOLD_MS, times: 1 });
  s.clearRequests();
  let host: HostHandle | undefined;
  const watch = setInterval(() => {
    if (s.emu.control.requests().some((r) => r.method === "POST" && r.path.endsWith(`/${c.path}`))) host?.kill();
  }, 10);
  const interrupted = await run(s, "up", undefined, (h) => (host = h)).finally(() => clearInterval(watch));
  expect(interrupted.ok).toBe(false);
  expect(c.objects()).toHaveLength(1);
  // The host's death failed the step, which ends its pending operation (as the CLI's snapshot manager does).
  expect(s.state().pendingOperations ?? []).toEqual([]);
  await s.emu.ctl("DELETE", "/faults");

  const next = await run(s, "up");
  expect(next.errors).toEqual([]);
  const objects = c.objects();
  expect(objects).toHaveLength(1);
  const id = "fingerprint" in objects[0] ? objects[0].fingerprint : objects[0].id;
  expect(s.state().resources.find((r) => r.name === c.name)?.id).toBe(id);
  // One create call in all: the second attempt adopted (a key's create is refused SSH_KEY_EXISTS, then listed).
  const posts = s.emu.control.requests().filter((r) => r.method === "POST" && r.path.endsWith(`/${c.path}`));
  expect(posts.filter((r) => r.status < 300)).toHaveLength(1);

  const cleared = await run(s, "refresh", undefined, undefined, { clearPendingCreates: true });
  expect(cleared.ok).toBe(true);
  expect(s.state().pendingOperations ?? []).toEqual([]);
});
