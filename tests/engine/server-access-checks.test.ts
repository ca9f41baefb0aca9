/**
 * Issue 25 under the real CLI (a real program, the real dynamic-provider host), acceptance 2–4:
 * a private key given as `publicKey` refused at preview naming publicKey with no line of it in the
 * state, the engine's output or the provider host's stderr; 11 keys for one server refused at preview
 * with no call about keys; a key on a server without a shared address refused at preview with the
 * reason; a snapshot, three firewall rules and a key of one server
 * in one `up` all succeed (the server is busy while the snapshot is made); a snapshot whose job fails
 * stays in the state with its error and the next preview shows its replace.
 */
import { fixtureProject, changes, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers } from "../../tools/support/world";
import { KEYS, newEd25519PublicKey, privateKeyText, secretLines } from "../../tools/support/ssh-keys";
import { PLAN } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

const project = fixtureProject("server-access");
const P = project.project;
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () =>
    project.program(`
const planName = config.require("plan");
const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === planName).id);
const srv = new svc.Vps("srv", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword"), powerState: config.get("power") || "running" });
JSON.parse(config.get("keys") || "[]").forEach((publicKey, i) => new svc.VpsSshKey("key-" + i, { vpsId: srv.id, publicKey }));
JSON.parse(config.get("rules") || "[]").forEach((port) => new svc.VpsFirewallRule("rule-" + port, { vpsId: srv.id, protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" }));
if (config.getBoolean("snapshot")) new svc.VpsSnapshot("snap", { vpsId: srv.id, name: "restore-point" });
`),
  options: { projectDir: project.dir, stack: "engine-test-server-access-checks", removeProject: true },
  setup: (s) => s.config(`${P}:rootPassword`, "Access!pass2026", true),
  fresh: async (s) => {
    await s.emu.ctl("POST", "/reset");
    await s.emu.ctl("POST", "/transitions", { mode: "immediate" });
    s.resetState();
    for (const [k, v] of Object.entries({ plan: PLAN.shared, power: "running", keys: "[]", rules: "[]", snapshot: "false" })) s.config(`${P}:${k}`, v);
    s.clearRequests();
  },
});

const set = (values: Record<string, unknown>) => {
  for (const [k, v] of Object.entries(values)) s.config(`${P}:${k}`, typeof v === "string" ? v : JSON.stringify(v));
};
/** Every request the emulator answered, as `METHOD /path`. */
const requests = () => s.emu.control.requests().map((r) => `${r.method} ${r.path}`);

test("a private key as publicKey: refused at preview and at up naming publicKey; no line of it in the state, the output or the host's stderr", async () => {
  const text = privateKeyText();
  set({ keys: [text] });
  const preview = await s.run("preview", false);
  const up = await s.run("up", false);
  for (const r of [preview, up]) {
    // The failure has no property (else the CLI prints the value): the reason starts with "publicKey:".
    // (Each error of a resource is listed after its type and name, as the CLI's diagnostic names it.)
    expect(r.errors).toEqual([expect.stringMatching(/^svc:VpsSshKey key-0: pulumi-nodejs:dynamic\/svc:VpsSshKey resource 'key-0' has a problem: publicKey: this is a private key/)]);
  }
  const state = s.stateText();
  const everything = [state, ...preview.output, ...up.output, ...preview.messages, ...up.messages].join("\n");
  for (const line of secretLines(text)) expect(everything).not.toContain(line);
  expect(requests().filter((r) => r.includes("ssh-keys"))).toEqual([]);
  // The up's preview pass refuses it, as the CLI's: nothing is made, the server neither.
  expect(s.writes()).toEqual([]);
});

test("11 keys for one server in the program: refused at preview naming the 11th, no call about keys, nothing made", async () => {
  set({ keys: Array.from({ length: 11 }, (_, i) => newEd25519PublicKey(`k${i}@example`)) });
  const r = await s.run("preview", false);
  // The server's id is not known at preview: the CLI prints it as `output<string>{}` (pulumi/pulumi
  // v3.274.1 sdk/go/common/resource/properties.go PropertyValue.String, in diag/errors.go's
  // "property %v value %v has a problem").
  expect(r.errors).toEqual([expect.stringMatching(/^svc:VpsSshKey key-10: pulumi-nodejs:dynamic\/svc:VpsSshKey resource 'key-10': property vpsId value output<string>\{\} has a problem: this program declares 11 SSH keys for this server; a server holds at most 10/)]);
  // Reads only: the plan catalogue (the program's getVpsPlans and the Vps's check) and the Vps's price (its project's servers, the wallet).
  expect(requests().filter((x) => !["GET /api/vps/plans", "GET /api/vps", "GET /api/account/wallet"].includes(x))).toEqual([]);
  expect(s.writes()).toEqual([]);
});

// A server the program stops is refused the same way (tests/vps/server-access.test.ts).
test("a key on a server with an address of its own: refused at preview with the reason, nothing made", async () => {
  set({ plan: PLAN.small, keys: [KEYS.ed25519.publicKey] });
  const r = await s.run("preview", false);
  expect(r.errors).toEqual([expect.stringMatching(/property vpsId value output<string>\{\} has a problem: SSH keys need a server that shares a public address \(FEATURE_NOT_AVAILABLE\); this server's plan s-1vcpu-1gb/)]);
  expect(s.writes()).toEqual([]);
});

test("a snapshot, three firewall rules and a key of one server in one up: all succeed, no VPS_BUSY surfaced", async () => {
  // Transitions that take time: the snapshot keeps the server busy for a second.
  await s.emu.ctl("POST", "/transitions", { mode: "time", seconds: 1 });
  set({ keys: [KEYS.ed25519.publicKey], rules: ["22", "80", "443"], snapshot: true });
  const r = await s.run("up");
  expect(r.errors).toEqual([]);
  expect(changes(r).sort()).toEqual(["create key-0", "create rule-22", "create rule-443", "create rule-80", "create snap", "create srv"]);
  const [srv] = liveServers(s.world());
  expect(srv.firewall).toHaveLength(3);
  expect(srv.sshKeys).toHaveLength(1);
  expect(srv.snapshots).toMatchObject([{ status: "ready" }]);
});

test("a snapshot job that fails: kept in the state with its error; the next preview shows its replace; up takes it again", async () => {
  set({ snapshot: true });
  await s.emu.ctl("POST", "/job-failures", { kind: "vps.snapshot", reason: "disk read error" });
  const failed = await s.run("up", false);
  expect(failed.errors).toEqual([expect.stringMatching(/^svc:VpsSnapshot snap: 1 error occurred:\n\t\* create failed: snapshot "restore-point" of server .* ended in status error: disk read error/)]);
  const kept = s.state().resources.find((x) => x.name === "snap")!;
  expect(kept.outputs).toMatchObject({ status: "error", error: "disk read error" });

  const preview = await s.run("preview");
  expect(changes(preview)).toEqual(["replace snap"]);
  // The preview just asserted is this up's preview pass: skipped (it proves nothing more).
  const again = await s.run("up", true, { skipPreview: true });
  expect(changes(again)).toEqual(["replace snap"]);
  expect(liveServers(s.world())[0].snapshots).toMatchObject([{ status: "ready" }]);
  expect(s.state().resources.find((x) => x.name === "snap")!.outputs).toMatchObject({ status: "ready", error: null });
});
