/**
 * VpsSshKey, VpsPortForward, VpsSnapshot through the real dynamic-provider host against the emulator
 * (`time` mode, 1-second transitions), issue 25: check at preview (a private key refused without its
 * text, the 11th key and a server without a shared address with no key call, a stopped server), create
 * (id = fingerprint; an assigned public port and the address; a snapshot waited until ready), a create
 * that meets what an interrupted one made (adopted: one object), read (drift, gone), delete (gone
 * counts as deleted), diff (any change replaces; the same key or port again deletes first), the
 * snapshot's failure kept with its error (replace next), and a snapshot beside the server's other
 * resources in one go (0 VPS_BUSY surfaced).
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { KEYS, newEd25519PublicKey, privateKeyText, secretLines } from "../../tools/support/ssh-keys";
import { api, calls, catalogue, failure, fresh, outputsOf, PLAN, runningServer, server, until, writes, type Props } from "./helpers";

const KEY = "VpsSshKey";
const FWD = "VpsPortForward";
const SNAP = "VpsSnapshot";
let h: ResourceHarness;
let vpsId: string;
let plans: Awaited<ReturnType<typeof catalogue>>;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    plans = await catalogue(h);
    for (const t of [KEY, FWD, SNAP, "VpsFirewallRule", "VpsBackup"]) await h.inputs(t, {});
  },
  fresh: async (h) => {
    await fresh(h);
    vpsId = (await runningServer(h, plans.plan(PLAN.shared).id, "nat-fixture")).id;
    h.emu.control.clearRequests();
  },
});

const key = (overrides: Props = {}): Props => ({ vpsId, publicKey: KEYS.ed25519.publicKey, label: "laptop", ...overrides });
const keysOn = (id: string) => server(h, id).sshKeys ?? [];

describe("VpsSshKey check: refused at preview with the property named", () => {
  test("a private key: no property (the CLI would print the value), the reason names publicKey, no text of the key anywhere, no call", async () => {
    const text = privateKeyText();
    const result = await h.check(KEY, key({ publicKey: text }));
    expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(/^publicKey: this is a private key/) }]);
    const answered = JSON.stringify(result);
    for (const line of secretLines(text)) expect(answered).not.toContain(line);
    expect(calls(h)).toEqual([]);
  });

  test.each([
    ["a key of an unsupported type", "ssh-dss AAAAB3NzaC1kc3MAAACBAP1 x@y", /not an OpenSSH public key of a supported type/],
    ["an RSA key of 1024 bits", KEYS.rsa1024.publicKey, /at least 2048 bits; this one has 1024/],
    ["two lines", `${KEYS.ed25519.publicKey}\n${KEYS.ed25519b.publicKey}`, /single line/],
  ])("%s: property publicKey, no call", async (_what, publicKey, reason) => {
    expect((await h.check(KEY, key({ publicKey }))).failures).toEqual([{ property: "publicKey", reason: expect.stringMatching(reason) }]);
    expect(calls(h)).toEqual([]);
  });

  test("the 11th key the program declares for one server: property vpsId, no call at all", async () => {
    const result = await h.check(KEY, key({ declaredServer: { planId: plans.plan(PLAN.shared).id, powerState: "running", ordinal: 11 } }));
    expect(result.failures).toEqual([{ property: "vpsId", reason: expect.stringMatching(/declares 11 SSH keys for this server; a server holds at most 10/) }]);
    expect(calls(h)).toEqual([]);
  });

  test("a server with an address of its own: refused with the reason, from the program's plan (no server call) or from the server", async () => {
    const own = plans.plan(PLAN.small).id;
    const declared = await h.check(KEY, key({ vpsId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", declaredServer: { planId: own, powerState: "running" } }));
    expect(declared.failures).toEqual([{ property: "vpsId", reason: expect.stringMatching(/SSH keys need a server that shares a public address.*plan s-1vcpu-1gb.*nat-1vcpu-1gb/) }]);
    expect(calls(h).filter((c) => !c.startsWith("GET /api/vps/plans"))).toEqual([]);

    const ownServer = (await runningServer(h, own, "own-address")).id;
    const live = await h.check(FWD, { vpsId: ownServer, protocol: "tcp", privatePort: 22 });
    expect(live.failures).toEqual([{ property: "vpsId", reason: expect.stringMatching(/port forwards need a server that shares a public address/) }]);
  });

  test("a server the program stops: a clear message instead of INSTANCE_NOT_RUNNING; a key already made is not refused again", async () => {
    const stopped = await h.check(KEY, key({ declaredServer: { planId: plans.plan(PLAN.shared).id, powerState: "stopped" } }));
    expect(stopped.failures).toEqual([{ property: "vpsId", reason: expect.stringMatching(/applied on a running server \(INSTANCE_NOT_RUNNING\).*powerState "stopped".*set powerState: "running"/) }]);
    const olds = await h.checked(KEY, key());
    expect((await h.check(KEY, key({ declaredServer: { planId: plans.plan(PLAN.shared).id, powerState: "stopped" } }), olds)).failures).toEqual([]);
  });
});

describe("VpsSshKey lifecycle", () => {
  test("create: the id is OpenSSH's fingerprint; read; a label change replaces, deleting the old key first; delete twice", async () => {
    const inputs = await h.checked(KEY, key());
    const created = await h.host.create(KEY, inputs);
    expect(created.id).toBe(KEYS.ed25519.fingerprint);
    expect(outputsOf(created.properties)).toEqual({ vpsId, publicKey: KEYS.ed25519.publicKey, label: "laptop", fingerprint: KEYS.ed25519.fingerprint, type: "ssh-ed25519" });
    expect(keysOn(vpsId).map((k) => k.label)).toEqual(["laptop"]);

    const read = await h.host.read(KEY, created.id, created.properties);
    expect(outputsOf(read.properties)).toEqual(outputsOf(created.properties));
    expect(await h.host.diff(KEY, created.id, read.properties, inputs)).toMatchObject({ changes: "none" });
    expect(await h.host.diff(KEY, created.id, created.properties, await h.checked(KEY, key({ label: "desk" }), inputs))).toEqual({ changes: "some", replaces: ["label"], deleteBeforeReplace: true });
    expect(await h.host.diff(KEY, created.id, created.properties, await h.checked(KEY, key({ publicKey: KEYS.ecdsa256.publicKey }), inputs))).toEqual({
      changes: "some",
      replaces: ["publicKey"],
      deleteBeforeReplace: false,
    });

    await h.host.delete(KEY, created.id, created.properties);
    expect(keysOn(vpsId)).toEqual([]);
    expect((await h.host.read(KEY, created.id, created.properties)).id).toBe("");
    h.emu.control.clearRequests();
    await h.host.delete(KEY, created.id, created.properties);
    expect(calls(h)).toEqual([`DELETE /api/vps/${vpsId}/ssh-keys/${encodeURIComponent(KEYS.ed25519.fingerprint)} 404 SSH_KEY_NOT_FOUND`]);
  });

  test("a create that meets the key an interrupted create added: one POST refused SSH_KEY_EXISTS, one list, adopted — one key", async () => {
    await api(h, "POST", `/vps/${vpsId}/ssh-keys`, { publicKey: KEYS.ed25519.publicKey, label: "laptop" });
    const inputs = await h.checked(KEY, key());
    h.emu.control.clearRequests();
    const created = await h.host.create(KEY, inputs);
    expect(created.id).toBe(KEYS.ed25519.fingerprint);
    expect(calls(h)).toEqual([`POST /api/vps/${vpsId}/ssh-keys 409 SSH_KEY_EXISTS`, `GET /api/vps/${vpsId}/ssh-keys 200`]);
    expect(keysOn(vpsId)).toHaveLength(1);
  });

  test("a server stopped out of band after the preview: the error names the code and says to start it", async () => {
    const inputs = await h.checked(KEY, key());
    await api(h, "POST", `/vps/${vpsId}/stop`);
    await until(h, vpsId, (s) => s.status === "stopped", "stopped");
    const err = await failure<HostError>(h.host.create(KEY, inputs));
    expect(err.message).toMatch(/create failed: POST \/vps\/.*\/ssh-keys 409 INSTANCE_NOT_RUNNING — .*Set the Vps's powerState to "running"/);
  });

  test("the key limit reached at the API (keys added out of band): SSH_KEY_LIMIT with what to do", async () => {
    for (let i = 0; i < 10; i++) {
      h.emu.control.advanceClock(0.1);
      await api(h, "POST", `/vps/${vpsId}/ssh-keys`, { publicKey: newEd25519PublicKey() });
    }
    const err = await failure<HostError>(h.host.create(KEY, await h.checked(KEY, key())));
    expect(err.message).toMatch(/400 SSH_KEY_LIMIT — .*already holds 10 keys: remove one/);
  });
});

describe("VpsPortForward", () => {
  test("tcp without a public port: the assigned one and the address are outputs; no diff afterwards; read; delete", async () => {
    const inputs = await h.checked(FWD, { vpsId, protocol: "tcp", privatePort: 22 });
    const created = await h.host.create(FWD, inputs);
    const ip = server(h, vpsId).publicIp;
    expect(outputsOf(created.properties)).toEqual({ vpsId, protocol: "tcp", privatePort: 22, publicPort: 20000, forwardId: created.id, address: `${ip}:20000` });
    expect(await h.host.diff(FWD, created.id, created.properties, inputs)).toMatchObject({ changes: "none" });
    const read = await h.host.read(FWD, created.id, created.properties);
    expect(outputsOf(read.properties)).toEqual(outputsOf(created.properties));
    expect(read.inputs).not.toHaveProperty("publicPort");
    await h.host.delete(FWD, created.id, created.properties);
    await h.host.delete(FWD, created.id, created.properties);
    expect(server(h, vpsId).portForwards).toEqual([]);
  });

  test("https with a domain: public port 443, address https://<domain>; the same domain again replaces deleting first", async () => {
    const inputs = await h.checked(FWD, { vpsId, protocol: "https", privatePort: 8443, domain: "App.Example.com" });
    expect(inputs.domain).toBe("app.example.com");
    const created = await h.host.create(FWD, inputs);
    expect(outputsOf(created.properties)).toMatchObject({ publicPort: 443, address: "https://app.example.com" });
    const moved = await h.checked(FWD, { vpsId, protocol: "https", privatePort: 9443, domain: "app.example.com" }, inputs);
    expect(await h.host.diff(FWD, created.id, created.properties, moved)).toEqual({ changes: "some", replaces: ["privatePort"], deleteBeforeReplace: true });
  });

  test.each([
    ["https without a domain", { protocol: "https", privatePort: 443 }, "domain", /https needs a domain/],
    ["http on port 8080", { protocol: "http", privatePort: 80, publicPort: 8080, domain: "a.example.com" }, "publicPort", /always uses public port 80/],
    ["a tcp public port below 1024", { protocol: "tcp", privatePort: 22, publicPort: 22 }, "publicPort", /1024 to 65535/],
    ["a domain on udp", { protocol: "udp", privatePort: 53, domain: "a.example.com" }, "domain", /route by port/],
    ["a private port of 0", { protocol: "tcp", privatePort: 0 }, "privatePort", /1 to 65535/],
    ["a reserved top-level name", { protocol: "https", privatePort: 443, domain: "app.test" }, "domain", /reserved or private top-level name/],
  ])("%s: refused naming %s, no call", async (_what, args, property, reason) => {
    expect((await h.check(FWD, { vpsId, ...args })).failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(h)).toEqual([]);
  });

  test("a public port another server behind the address forwards: PORT_TAKEN with what to do", async () => {
    const other = (await runningServer(h, plans.plan(PLAN.shared).id, "nat-other")).id;
    await api(h, "POST", `/vps/${other}/port-forwards`, { protocol: "tcp", privatePort: 22, publicPort: 2222 });
    const err = await failure<HostError>(h.host.create(FWD, await h.checked(FWD, { vpsId, protocol: "tcp", privatePort: 22, publicPort: 2222 })));
    expect(err.message).toMatch(/409 PORT_TAKEN — .*public tcp port 2222 is already forwarded on the address .* leave publicPort out to get a free one/);
  });
});

describe("VpsSnapshot", () => {
  test("create waits until ready; read; a name change replaces; delete twice", async () => {
    const inputs = await h.checked(SNAP, { vpsId, name: "before-upgrade" });
    const created = await h.host.create(SNAP, inputs);
    expect(outputsOf(created.properties)).toMatchObject({ vpsId, name: "before-upgrade", status: "ready", error: null });
    expect(created.properties.sizeGb).toBeGreaterThan(0);
    const read = await h.host.read(SNAP, created.id, created.properties);
    expect(outputsOf(read.properties)).toEqual(outputsOf(created.properties));
    expect(await h.host.diff(SNAP, created.id, created.properties, await h.checked(SNAP, { vpsId, name: "other" }, inputs))).toMatchObject({ changes: "some", replaces: ["name"] });
    await h.host.delete(SNAP, created.id, created.properties);
    await h.host.delete(SNAP, created.id, created.properties);
    expect(server(h, vpsId).snapshots).toEqual([]);
  });

  test("a snapshot job that fails: a partial failure keeping the id and the error; the next diff replaces", async () => {
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.snapshot", reason: "disk read error" });
    const inputs = await h.checked(SNAP, { vpsId, name: "nightly" });
    const err = await failure<HostError>(h.host.create(SNAP, inputs));
    expect(err.initFailed).toBeDefined();
    expect(err.message).toMatch(/snapshot "nightly" of server .* ended in status error: disk read error\. The next `pulumi up` replaces it/);
    expect(outputsOf(err.initFailed!.properties)).toMatchObject({ status: "error", error: "disk read error", name: "nightly" });
    expect(await h.host.diff(SNAP, err.initFailed!.id, err.initFailed!.properties, inputs)).toMatchObject({ changes: "some", replaces: ["status"] });
  });

  test("a plan without snapshots: refused at preview naming vpsId", async () => {
    const own = (await runningServer(h, plans.plan(PLAN.small).id, "no-snapshots")).id;
    expect((await h.check(SNAP, { vpsId: own, name: "x" })).failures).toEqual([{ property: "vpsId", reason: expect.stringMatching(/snapshots are unavailable on this server's plan s-1vcpu-1gb/) }]);
  });

  test("a snapshot, three firewall rules, a key and a backup of one server at once: all succeed, no VPS_BUSY surfaced", async () => {
    const snapInputs = await h.checked(SNAP, { vpsId, name: "restore-point" });
    const rules = await Promise.all(["22", "80", "443"].map((port) => h.checked("VpsFirewallRule", { vpsId, protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" })));
    const keyInputs = await h.checked(KEY, key());
    const backupInputs = await h.checked("VpsBackup", { vpsId, planCode: "backup-10" });
    const snapshot = h.host.create(SNAP, snapInputs);
    // The others start once the snapshot is under way: the server is busy.
    await until(h, vpsId, (s) => (s.snapshots ?? []).length > 0, "snapshotting");
    const results = await Promise.all([snapshot, ...rules.map((r) => h.host.create("VpsFirewallRule", r)), h.host.create(KEY, keyInputs), h.host.create("VpsBackup", backupInputs)]);
    expect(results).toHaveLength(6);
    expect(server(h, vpsId).firewall).toHaveLength(3);
    expect(keysOn(vpsId)).toHaveLength(1);
    expect(server(h, vpsId).backup).toMatchObject({ status: "active" });
    expect(server(h, vpsId).snapshots).toMatchObject([{ status: "ready" }]);
    // Once the snapshot is made the backup setup starts and keeps the server busy in turn: a rule sent
    // in that moment may be refused VPS_BUSY and is retried, never surfaced.
    expect(writes(h).filter((w) => w.status >= 300 && w.status !== 409)).toEqual([]);
    // While the snapshot was made (1 s here) they waited in the provider, without a call.
    const madeAt = Date.parse(server(h, vpsId).snapshots![0].createdAt) + 1_000;
    const others = h.emu.control.requests().filter((r) => r.method === "POST" && /\/(firewall|ssh-keys|backup)$/.test(r.path));
    // The three rules, sent together, are one request (the route takes a list).
    expect(others.filter((r) => r.status < 300)).toHaveLength(3);
    for (const r of others) expect(Date.parse(r.time)).toBeGreaterThanOrEqual(madeAt);
  });
});
