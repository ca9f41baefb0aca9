/**
 * VPS emulator, server access (issue 25; assumed-routes.md "Server access"): SSH keys (fingerprints
 * as OpenSSH prints them, private keys refused and never kept), port forwards (the port rules,
 * PORT_TAKEN across servers sharing an address), snapshots (limit per plan, busy while made, the
 * job-failure path) and rollback (back to the status before, on failure too), and every code.
 */
import { PLAN, type VpsFixture } from "../support/vps-fixture";
import { useVpsFixture } from "../support/per-file";
import { KEYS, newEd25519PublicKey, privateKeyText, secretLines } from "../../tools/support/ssh-keys";
import { parseSshPublicKey } from "../../contract/ssh-keys";
import { serverRecords } from "../../tools/support/world";

let f: VpsFixture;
useVpsFixture((x) => (f = x));

const shared = () => f.running({ planId: f.planId(PLAN.shared), name: "nat-1" });
const code = (res: { status: number; body: any }) => `${res.status} ${res.body.code ?? ""}`.trim(); // eslint-disable-line @typescript-eslint/no-explicit-any
const record = (id: string) => serverRecords(f.emu.control.state()).find((s) => s.id === id)!;

describe("plans and servers", () => {
  test("the catalogue holds plans that share an address and plans that do not, each with its snapshot limit", async () => {
    const plans = (await f.api("GET", "/vps/plans")).body.data as { name: string; sharedAddress: boolean; snapshotLimit: number }[];
    const by = (name: string) => plans.find((p) => p.name === name)!;
    expect(by(PLAN.small)).toMatchObject({ sharedAddress: false, snapshotLimit: 0 });
    expect(by(PLAN.medium)).toMatchObject({ sharedAddress: false, snapshotLimit: 3 });
    expect(by(PLAN.shared)).toMatchObject({ sharedAddress: true, snapshotLimit: 1 });
    expect(by(PLAN.sharedLarge)).toMatchObject({ sharedAddress: true, snapshotLimit: 2 });
  });

  test("servers of a shared-address plan share the region's address; others get their own", async () => {
    const a = await shared();
    const b = await f.running({ planId: f.planId(PLAN.shared), name: "nat-2" });
    const own = await f.running();
    const [sa, sb, so] = [await f.get(a), await f.get(b), await f.get(own)];
    expect(sa).toMatchObject({ sharedAddress: true, publicIp: sb.publicIp });
    expect(so.sharedAddress).toBe(false);
    expect(so.publicIp).not.toBe(sa.publicIp);
  });
});

describe("SSH keys", () => {
  test("fingerprints are OpenSSH's (ssh-keygen -lf) for every supported type; list and delete by fingerprint", async () => {
    const id = await shared();
    for (const k of [KEYS.ed25519, KEYS.ecdsa256, KEYS.ecdsa384, KEYS.rsa2048]) {
      const res = await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: k.publicKey, label: "laptop" } });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ fingerprint: k.fingerprint, type: k.publicKey.split(" ")[0], label: "laptop", publicKey: k.publicKey, createdAt: expect.any(String) });
      expect(parseSshPublicKey(k.publicKey)).toMatchObject({ fingerprint: k.fingerprint });
    }
    const listed = (await f.api("GET", `/vps/${id}/ssh-keys`)).body.data as { fingerprint: string }[];
    expect(listed.map((k) => k.fingerprint)).toEqual([KEYS.ed25519, KEYS.ecdsa256, KEYS.ecdsa384, KEYS.rsa2048].map((k) => k.fingerprint));
    // The fingerprint holds "/" and "+": URL-encoded in the path.
    const del = await f.api("DELETE", `/vps/${id}/ssh-keys/${encodeURIComponent(KEYS.ed25519.fingerprint)}`);
    expect(del.body.data).toEqual({ deleted: true });
    expect(code(await f.api("DELETE", `/vps/${id}/ssh-keys/${encodeURIComponent(KEYS.ed25519.fingerprint)}`))).toBe("404 SSH_KEY_NOT_FOUND");
    expect(record(id).sshKeys!.map((k) => k.fingerprint)).not.toContain(KEYS.ed25519.fingerprint);
  });

  test.each([
    ["an RSA key of 1024 bits", KEYS.rsa1024.publicKey],
    ["an unsupported type", "ssh-dss AAAAB3NzaC1kc3MAAACBAP1 x@y"],
    ["two lines", `${KEYS.ed25519.publicKey}\n${KEYS.ed25519b.publicKey}`],
    ["base64 of another type", `ssh-rsa ${KEYS.ed25519.publicKey.split(" ")[1]}`],
    ["no key data", "ssh-ed25519"],
  ])("%s answers 400 INVALID_SSH_KEY", async (_what, publicKey) => {
    const id = await shared();
    expect(code(await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey } }))).toBe("400 INVALID_SSH_KEY");
    expect(record(id).sshKeys).toEqual([]);
  });

  test("a private key answers 400 PRIVATE_KEY_REJECTED: not stored, not echoed, not in the world", async () => {
    const id = await shared();
    const text = privateKeyText();
    const res = await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: text } });
    expect(code(res)).toBe("400 PRIVATE_KEY_REJECTED");
    const everything = JSON.stringify(res.body) + JSON.stringify(f.emu.control.state()) + JSON.stringify(f.emu.control.requests());
    for (const line of secretLines(text)) expect(everything).not.toContain(line);
    expect(record(id).sshKeys).toEqual([]);
  });

  test("the same key twice: 409 SSH_KEY_EXISTS (a new comment does not make it another key); the 11th: 400 SSH_KEY_LIMIT", async () => {
    const id = await shared();
    expect((await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } })).status).toBe(201);
    const again = `${KEYS.ed25519.publicKey.split(" ").slice(0, 2).join(" ")} another-comment`;
    expect(code(await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: again } }))).toBe("409 SSH_KEY_EXISTS");
    for (let i = 2; i <= 10; i++) expect((await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: newEd25519PublicKey() } })).status).toBe(201);
    expect(code(await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: newEd25519PublicKey() } }))).toBe("400 SSH_KEY_LIMIT");
    expect(record(id).sshKeys).toHaveLength(10);
  });

  test("a server with its own address: 409 FEATURE_NOT_AVAILABLE; stopped: 409 INSTANCE_NOT_RUNNING; stopping: 409 VPS_BUSY", async () => {
    const own = await f.running();
    expect(code(await f.api("POST", `/vps/${own}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } }))).toBe("409 FEATURE_NOT_AVAILABLE");
    expect(code(await f.api("POST", `/vps/${own}/port-forwards`, { body: { protocol: "tcp", privatePort: 22 } }))).toBe("409 FEATURE_NOT_AVAILABLE");
    const id = await shared();
    await f.mode("manual");
    await f.api("POST", `/vps/${id}/stop`);
    expect(code(await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } }))).toBe("409 VPS_BUSY");
    await f.settle();
    expect(code(await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } }))).toBe("409 INSTANCE_NOT_RUNNING");
    expect(code(await f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "tcp", privatePort: 22 } }))).toBe("409 INSTANCE_NOT_RUNNING");
  });
});

describe("port forwards", () => {
  test("tcp gets an assigned port; http uses 80, https 443 with a domain", async () => {
    const id = await shared();
    const tcp = await f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "tcp", privatePort: 22 } });
    expect(tcp.status).toBe(201);
    expect(tcp.body.data).toEqual({ id: expect.any(String), protocol: "tcp", privatePort: 22, publicPort: 20000, domain: null, createdAt: expect.any(String) });
    const https = await f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "https", privatePort: 8443, domain: "app.example.com" } });
    expect(https.body.data).toMatchObject({ protocol: "https", publicPort: 443, domain: "app.example.com" });
    const http = await f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "http", privatePort: 8080, domain: "app.example.com" } });
    expect(http.body.data).toMatchObject({ protocol: "http", publicPort: 80 });
    expect(((await f.api("GET", `/vps/${id}/port-forwards`)).body.data as unknown[]).length).toBe(3);
    expect((await f.api("DELETE", `/vps/${id}/port-forwards/${tcp.body.data.id}`)).body.data).toEqual({ deleted: true });
    expect(code(await f.api("DELETE", `/vps/${id}/port-forwards/${tcp.body.data.id}`))).toBe("404 PORT_NOT_FOUND");
  });

  test.each([
    ["a tcp public port below 1024", { protocol: "tcp", privatePort: 22, publicPort: 80 }],
    ["a public port above 65535", { protocol: "udp", privatePort: 53, publicPort: 70000 }],
    ["a private port 0", { protocol: "tcp", privatePort: 0 }],
    ["https without a domain", { protocol: "https", privatePort: 443 }],
    ["http on port 8080", { protocol: "http", privatePort: 80, publicPort: 8080, domain: "a.example.com" }],
    ["a domain that is not a name", { protocol: "https", privatePort: 443, domain: "not a domain" }],
    ["a domain on tcp", { protocol: "tcp", privatePort: 22, domain: "a.example.com" }],
    ["an unknown protocol", { protocol: "sctp", privatePort: 22 }],
  ])("%s answers 400 INVALID_PORT", async (_what, body) => {
    const id = await shared();
    expect(code(await f.api("POST", `/vps/${id}/port-forwards`, { body }))).toBe("400 INVALID_PORT");
  });

  test("PORT_TAKEN across servers sharing the address: the same public port, the same domain", async () => {
    const a = await shared();
    const b = await f.running({ planId: f.planId(PLAN.shared), name: "nat-2" });
    expect((await f.api("POST", `/vps/${a}/port-forwards`, { body: { protocol: "tcp", privatePort: 22, publicPort: 2222 } })).status).toBe(201);
    expect(code(await f.api("POST", `/vps/${b}/port-forwards`, { body: { protocol: "tcp", privatePort: 22, publicPort: 2222 } }))).toBe("409 PORT_TAKEN");
    // udp 2222 is another socket; an assigned port skips the ones taken.
    expect((await f.api("POST", `/vps/${b}/port-forwards`, { body: { protocol: "udp", privatePort: 22, publicPort: 2222 } })).status).toBe(201);
    await f.api("POST", `/vps/${a}/port-forwards`, { body: { protocol: "tcp", privatePort: 80 } });
    expect((await f.api("POST", `/vps/${b}/port-forwards`, { body: { protocol: "tcp", privatePort: 80 } })).body.data.publicPort).toBe(20001);
    await f.api("POST", `/vps/${a}/port-forwards`, { body: { protocol: "https", privatePort: 443, domain: "shop.example.com" } });
    expect(code(await f.api("POST", `/vps/${b}/port-forwards`, { body: { protocol: "https", privatePort: 8443, domain: "shop.example.com" } }))).toBe("409 PORT_TAKEN");
  });
});

describe("snapshots", () => {
  test("202 creating, the server busy for every action the spec lists until ready; then free again", async () => {
    const id = await f.running({ planId: f.planId(PLAN.sharedLarge), name: "nat-big" });
    await f.mode("manual");
    const res = await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "before upgrade 1.2" } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ name: "before upgrade 1.2", status: "creating" });
    const busy = [
      ["POST", `/vps/${id}/stop`, undefined],
      ["POST", `/vps/${id}/restart`, undefined],
      ["POST", `/vps/${id}/reinstall`, { osType: "ubuntu", osVersion: "24.04", rootPassword: "An0ther!Passw0rd" }],
      ["POST", `/vps/${id}/reset-password`, { rootPassword: "An0ther!Passw0rd" }],
      ["POST", `/vps/${id}/firewall`, { rules: [{ protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" }] }],
      ["POST", `/vps/${id}/snapshots`, { name: "second" }],
      ["POST", `/vps/${id}/ssh-keys`, { publicKey: KEYS.ed25519.publicKey }],
      ["POST", `/vps/${id}/port-forwards`, { protocol: "tcp", privatePort: 22 }],
      ["POST", `/vps/${id}/backup`, { planCode: "backup-10" }],
      ["DELETE", `/vps/${id}`, undefined],
    ] as const;
    for (const [method, path, body] of busy) expect(`${method} ${path} ${code(await f.api(method, path, { body }))}`).toBe(`${method} ${path} 409 VPS_BUSY`);
    // Reads are never blocked.
    expect((await f.api("GET", `/vps/${id}`)).status).toBe(200);
    await f.settle();
    const [snap] = (await f.api("GET", `/vps/${id}/snapshots`)).body.data;
    expect(snap).toMatchObject({ status: "ready", sizeGb: expect.any(Number) });
    expect(snap.sizeGb).toBeGreaterThan(0);
    expect((await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } })).status).toBe(201);
  });

  test("a snapshot job that fails: status error with the reason on the snapshot and the server; it does not count against the limit", async () => {
    const id = await shared();
    await f.failNext("vps.snapshot", "disk read error");
    await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "one" } });
    await f.settle();
    const [snap] = (await f.api("GET", `/vps/${id}/snapshots`)).body.data;
    expect(snap).toMatchObject({ status: "error", error: "disk read error" });
    expect(await f.get(id)).toMatchObject({ status: "running", lastJobStatus: "error", lastJobError: "disk read error" });
    // Plan limit 1: the failed one holds nothing.
    expect((await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "two" } })).status).toBe(202);
    await f.settle();
    expect(code(await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "three" } }))).toBe("400 REQUEST_ERROR");
  });

  test("names, plans without snapshots, deletes", async () => {
    const id = await shared();
    for (const name of ["", " leading space", "x".repeat(61), "semi;colon"]) {
      expect(code(await f.api("POST", `/vps/${id}/snapshots`, { body: { name } }))).toBe("400 INVALID_SNAPSHOT_NAME");
    }
    const own = await f.running();
    const refused = await f.api("POST", `/vps/${own}/snapshots`, { body: { name: "x" } });
    expect(code(refused)).toBe("400 REQUEST_ERROR");
    expect(refused.body.error).toMatch(/unavailable on plan s-1vcpu-1gb/);
    const made = (await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "x" } })).body.data;
    await f.settle();
    expect((await f.api("DELETE", `/vps/${id}/snapshots/${made.id}`)).body.data).toEqual({ deleted: true });
    expect(code(await f.api("DELETE", `/vps/${id}/snapshots/${made.id}`))).toBe("404 SNAPSHOT_NOT_FOUND");
  });

  test("rollback: restoring, then the status before the call; a failed rollback too, with the job error", async () => {
    const id = await shared();
    const other = await f.running({ planId: f.planId(PLAN.shared), name: "nat-2" });
    await f.mode("manual");
    const snap = (await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "base" } })).body.data;
    expect(code(await f.api("POST", `/vps/${id}/snapshots/${snap.id}/rollback`))).toBe("409 VPS_BUSY");
    await f.settle();
    expect(code(await f.api("POST", `/vps/${other}/snapshots/${snap.id}/rollback`))).toBe("400 REQUEST_ERROR");
    const rolled = await f.api("POST", `/vps/${id}/snapshots/${snap.id}/rollback`);
    expect(rolled.body.data.status).toBe("restoring");
    expect(code(await f.api("POST", `/vps/${id}/stop`))).toBe("409 VPS_BUSY");
    await f.settle();
    expect((await f.get(id)).status).toBe("running");

    await f.api("POST", `/vps/${id}/stop`);
    await f.settle();
    await f.failNext("vps.rollback", "restore failed");
    await f.api("POST", `/vps/${id}/snapshots/${snap.id}/rollback`);
    await f.settle();
    expect(await f.get(id)).toMatchObject({ status: "stopped", lastJobStatus: "error", lastJobError: "restore failed" });
  });

  test("terminating a server removes its keys, forwards and snapshots", async () => {
    const id = await shared();
    await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } });
    await f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "tcp", privatePort: 22 } });
    await f.api("POST", `/vps/${id}/snapshots`, { body: { name: "s" } });
    await f.settle();
    await f.api("DELETE", `/vps/${id}`);
    expect(record(id)).toMatchObject({ sshKeys: [], portForwards: [], snapshots: [] });
  });
});
