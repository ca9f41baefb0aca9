/**
 * examples/server-access under the real `pulumi` CLI against an emulator (issue 25, acceptance 1): up
 * (a shared-address server, two keys, an https forward with a domain, a snapshot) → a preview with no
 * changes → a key's label changed (one replace, the old key removed first) → refresh after objects
 * were deleted out of band → destroy, nothing left at the API. Each step confirmed in the emulator and the request log.
 */
import { join } from "node:path";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers, serverRecords } from "../../tools/support/world";
import { KEYS } from "../../tools/support/ssh-keys";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(60_000);

const P = "svc-server-access";
const ROOT_PASSWORD = "Access!pass2026";
const NAMES = ["app", "admin-key", "deploy-key", "https", "baseline"];
const sorted = (a: string[]) => [...a].sort();

let s: EngineStack;
const server = () => liveServers(s.world())[0];

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/server-access"), stack: "engine-test-server-access" },
  setup: (s) => {
    s.config(`${P}:rootPassword`, ROOT_PASSWORD, true);
    s.config(`${P}:adminKey`, KEYS.ed25519.publicKey);
    s.config(`${P}:deployKey`, KEYS.ecdsa256.publicKey);
  },
});

test("up makes the server, its two keys, the https forward and the snapshot; outputs name them", async () => {
  const r = await s.run("up");
  expect(sorted(changes(r))).toEqual(sorted(NAMES.map((n) => `create ${n}`)));
  const srv = server();
  expect(srv).toMatchObject({ status: "running", publicIp: "203.0.113.1" });
  expect(srv.sshKeys!.map((k) => [k.fingerprint, k.label])).toEqual(
    expect.arrayContaining([
      [KEYS.ed25519.fingerprint, "admin"],
      [KEYS.ecdsa256.fingerprint, "deploy"],
    ]),
  );
  expect(srv.portForwards).toMatchObject([{ protocol: "https", privatePort: 8443, publicPort: 443, domain: "app.example.com" }]);
  expect(srv.snapshots).toMatchObject([{ name: "baseline", status: "ready" }]);
  expect(r.outputs).toMatchObject({ address: "203.0.113.1", url: "https://app.example.com", adminFingerprint: KEYS.ed25519.fingerprint, snapshotStatus: "ready" });
  // The keys' ids are their fingerprints.
  expect(s.state().resources.find((x) => x.name === "admin-key")!.id).toBe(KEYS.ed25519.fingerprint);
});

test("a second preview shows no changes and writes nothing", async () => {
  s.clearRequests();
  const r = await s.run("preview");
  expect(onlySame(r)).toBe(true);
  expect(r.counts).toEqual({ same: NAMES.length });
  expect(s.writes()).toEqual([]);
});

test("a key's label changed: one replace, the old key removed before the new one is added", async () => {
  const vpsId = server().id;
  s.config(`${P}:deployLabel`, "ci-deploy");
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["replace deploy-key"]);
  expect(calls(s.writes())).toEqual([`DELETE /api/vps/${vpsId}/ssh-keys/${encodeURIComponent(KEYS.ecdsa256.fingerprint)}`, `POST /api/vps/${vpsId}/ssh-keys`]);
  expect(server().sshKeys!.find((k) => k.fingerprint === KEYS.ecdsa256.fingerprint)!.label).toBe("ci-deploy");
  expect(server().sshKeys).toHaveLength(2);
});

test("refresh shows drift: a key and the snapshot deleted out of band leave the state; the next up makes them again", async () => {
  const vpsId = server().id;
  const snapshotId = server().snapshots![0].id;
  const key = (method: string, path: string) => s.emu.call(method, `/api${path}`, { key: s.emu.keys.account });
  await key("DELETE", `/vps/${vpsId}/ssh-keys/${encodeURIComponent(KEYS.ed25519.fingerprint)}`);
  await key("DELETE", `/vps/${vpsId}/snapshots/${snapshotId}`);
  const refreshed = await s.run("refresh");
  expect(sorted(changes(refreshed))).toEqual(["delete admin-key", "delete baseline"]);
  const r = await s.run("up");
  expect(sorted(changes(r))).toEqual(["create admin-key", "create baseline"]);
  expect(server().sshKeys).toHaveLength(2);
  expect(server().snapshots).toMatchObject([{ name: "baseline", status: "ready" }]);
});

test("destroy leaves nothing of the stack at the API", async () => {
  const r = await s.run("destroy");
  expect(sorted(changes(r))).toEqual(sorted(NAMES.map((n) => `delete ${n}`)));
  expect(changes(r)[NAMES.length - 1]).toBe("delete app");
  expect(liveServers(s.world())).toEqual([]);
  expect(serverRecords(s.world()).every((x) => !x.sshKeys?.length && !x.portForwards?.length && !x.snapshots?.length)).toBe(true);
  expect(s.state().resources).toEqual([]);
});
