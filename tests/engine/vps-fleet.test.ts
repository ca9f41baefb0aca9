/**
 * examples/vps-fleet under the real `pulumi` CLI against an emulator: creates, no perpetual diff,
 * scaling down, a larger plan (one update), a rule's port (one replace), a rule removed (one delete),
 * destroy — each confirmed in the emulator (issue 7, acceptance 2, 3, 5, 6).
 */
import { join } from "node:path";
import type { ServerRec } from "../../emulator/vps/state";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers, serverRecords } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(60_000);

const P = "svc-vps-fleet";
const ROOT_PASSWORD = "Fleet!pass2026";

let s: EngineStack;
const servers = () => serverRecords(s.world());
const live = () => liveServers(s.world());
const planId = (name: string) => s.world().catalog.vpsPlans.find((p) => p.name === name)!.id;
const ports = (server: ServerRec) => server.firewall.map((f) => f.port).sort();
const sorted = <T>(a: T[]) => [...a].sort();

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/vps-fleet"), stack: "engine-test-vps-fleet" },
  setup: (s) => {
    s.config(`${P}:plan`, "s-1vcpu-1gb");
    s.config(`${P}:rootPassword`, ROOT_PASSWORD, true);
  },
});

const FLEET = ["web-0", "web-0-ssh", "web-0-https", "web-1", "web-1-ssh", "web-1-https"];

test("preview shows two servers with two rules each, and changes nothing", async () => {
  const r = await s.run("preview");
  expect(sorted(changes(r))).toEqual(sorted(FLEET.map((n) => `create ${n}`)));
  expect(s.writes()).toEqual([]);
});

test("up creates them; a second preview shows no changes and writes nothing", async () => {
  const r = await s.run("up");
  expect(sorted(changes(r))).toEqual(sorted(FLEET.map((n) => `create ${n}`)));
  expect(live()).toHaveLength(2);
  for (const server of live()) {
    expect(server.status).toBe("running");
    expect(ports(server)).toEqual(["22", "443"]);
  }
  expect(sorted(r.outputs.publicIps as string[])).toEqual(sorted(live().map((x) => x.publicIp)));

  s.clearRequests();
  const again = await s.run("preview");
  expect(onlySame(again)).toBe(true);
  expect(again.counts).toEqual({ same: 6 });
  expect(s.writes()).toEqual([]);
});

test("the state file holds no plaintext key or root password; the passphrase recovers the password", () => {
  const text = s.stateText();
  expect(text).toContain(live()[0].id);
  expect(text).not.toContain(ROOT_PASSWORD);
  expect(text).not.toContain(s.emu.keys.account);
  expect(s.state().resources.filter((r) => r.name === "web-0" || r.name === "web-1").map((r) => r.inputs.rootPassword)).toEqual([ROOT_PASSWORD, ROOT_PASSWORD]);
});

test("count 2 → 1 deletes the second server's rules, then the server", async () => {
  const web1 = live().find((x) => x.name.startsWith("web-1-"))!;
  s.config(`${P}:count`, "1");
  s.clearRequests();
  const r = await s.run("up");
  const order = changes(r);
  expect(sorted(order)).toEqual(["delete web-1", "delete web-1-https", "delete web-1-ssh"]);
  expect(order[2]).toBe("delete web-1");
  const log = calls(s.writes());
  expect(log.filter((c) => c.startsWith("DELETE"))).toHaveLength(3);
  expect(log[log.length - 1]).toBe(`DELETE /api/vps/${web1.id}`);
  expect(live().map((x) => x.name)).toEqual([expect.stringMatching(/^web-0-/)]);
});

test("a larger plan upgrades the server in place: one update", async () => {
  const [before] = live();
  s.config(`${P}:plan`, "s-2vcpu-2gb");
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["update web-0"]);
  expect(r.steps.find((x) => x.name === "web-0")!.diffs).toEqual(["planId"]);
  expect(calls(s.writes())).toEqual([`POST /api/vps/${before.id}/upgrade`]);
  expect(live()).toMatchObject([{ id: before.id, planId: planId("s-2vcpu-2gb"), status: "running", publicIp: before.publicIp }]);
});

test("a firewall rule's port change replaces that rule: one replace", async () => {
  const [server] = live();
  const old = server.firewall.find((f) => f.port === "22")!;
  s.config(`${P}:sshPort`, "2222");
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["replace web-0-ssh"]);
  expect(calls(s.writes())).toEqual([`POST /api/vps/${server.id}/firewall`, `DELETE /api/vps/${server.id}/firewall`]);
  expect(ports(live()[0])).toEqual(["2222", "443"]);
});

test("a rule removed from the program: one delete", async () => {
  s.config(`${P}:openHttps`, "false");
  const r = await s.run("up");
  expect(changes(r)).toEqual(["delete web-0-https"]);
  expect(ports(live()[0])).toEqual(["2222"]);
});

test("destroy leaves nothing of the stack in the emulator", async () => {
  const r = await s.run("destroy");
  expect(changes(r)).toEqual(["delete web-0-ssh", "delete web-0"]);
  expect(live()).toEqual([]);
  expect(servers().every((x) => x.firewall.length === 0)).toBe(true);
  expect(s.state().resources).toEqual([]);
});
