/**
 * VPS emulator, every error code of the spec's "VPS API codes" and "Backup codes" tables: each one
 * the emulator's routes can produce is produced by a case below with the spec's status; the others
 * are listed with the reason they cannot be (their routes are not in the route table). The server
 * access codes (SSH keys, port forwards, snapshots: assumed-routes.md "Server access") are
 * produced here once each; tests/emulator/vps-access.test.ts covers their rules.
 */
import type { CallResult } from "../../tools/support/emulator";
import { PLAN, type VpsFixture } from "../support/vps-fixture";
import { KEYS, newEd25519PublicKey, privateKeyText } from "../../tools/support/ssh-keys";
import { useVpsFixture } from "../support/per-file";

/** The codes of the two spec tables, as the spec lists them. */
const VPS_API_CODES = [
  "NO_API_KEY", "INVALID_API_KEY", "API_KEY_EXPIRED", "SCOPE_NOT_ALLOWED", "RATE_LIMITED", "VALIDATION", "PARSE",
  "INSTANCE_NOT_FOUND", "PROJECT_NOT_FOUND", "PROJECT_REQUIRED", "SNAPSHOT_NOT_FOUND", "FIREWALL_RULE_NOT_FOUND", "VPS_BUSY",
  "INVALID_BILLING_PERIOD", "INSUFFICIENT_BALANCE", "INVALID_FIREWALL_RULE", "INVALID_SNAPSHOT_NAME", "REQUEST_ERROR",
  "FEATURE_NOT_AVAILABLE", "INSTANCE_NOT_RUNNING", "INVALID_PORT", "PORT_TAKEN", "PORT_NOT_FOUND", "INVALID_SSH_KEY",
  "PRIVATE_KEY_REJECTED", "SSH_KEY_LIMIT", "SSH_KEY_EXISTS", "SSH_KEY_NOT_FOUND", "INTERNAL_ERROR",
];
const BACKUP_CODES = [
  "INSTANCE_NOT_FOUND", "NOT_FOUND", "NOT_ELIGIBLE", "VPS_NOT_RUNNING", "AGENT_OFFLINE", "NODE_NOT_READY", "PLAN_NOT_FOUND",
  "ALREADY_SUBSCRIBED", "BONUS_IN_USE", "INSUFFICIENT_BALANCE", "NOT_SUBSCRIBED", "OVER_NEW_QUOTA", "NOT_RUNNABLE", "BUSY",
  "LIMIT", "NO_BLUEPRINT", "BACKUP_NOT_CONFIGURED", "BACKUP_ERROR",
];

/** Codes no route of the route table can answer, and why. */
const NOT_PRODUCED: Record<string, string> = {
  NOT_FOUND: "restore points and downloads have no route in the route table (an unknown path answers the core's NOT_FOUND, not this one)",
  AGENT_OFFLINE: "manual backup, restore and download routes are not in the route table",
  BONUS_IN_USE: "bundled backup bonuses have no route in the route table",
  NOT_RUNNABLE: "manual backup routes are not in the route table",
  BUSY: "manual backup and restore routes are not in the route table",
  LIMIT: "manual backup and download routes are not in the route table",
  NO_BLUEPRINT: "restore routes are not in the route table",
};

let f: VpsFixture;
useVpsFixture((x) => (f = x));

type Case = [code: string, status: number, how: string, run: () => Promise<CallResult>];
const backupOn = async (id: string) => {
  await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-50" } });
  await f.settle();
};

/** A running server of a plan that shares the region's address (the one server access works on). */
const shared = () => f.running({ planId: f.planId(PLAN.shared), name: "nat-1" });

const cases: Case[] = [
  ["NO_API_KEY", 401, "no Authorization header", () => f.api("GET", "/vps", { key: null })],
  ["INVALID_API_KEY", 401, "revoked key", () => f.api("GET", "/vps", { key: f.emu.keys.revoked })],
  ["API_KEY_EXPIRED", 401, "expired key", () => f.api("GET", "/vps", { key: f.emu.keys.expired })],
  ["SCOPE_NOT_ALLOWED", 403, "key without the VPS product", () => f.api("GET", "/vps", { key: f.emu.keys.noVps })],
  [
    "RATE_LIMITED",
    429,
    "15 calls at once on one key",
    async () => {
      const all = await Promise.all(Array.from({ length: 15 }, () => f.emu.call("GET", "/api/vps/plans", { key: f.emu.keys.vpsOnly })));
      return all.find((r) => r.status === 429) ?? all[0];
    },
  ],
  ["VALIDATION", 422, "create without planId", () => f.api("POST", "/vps", { body: { projectId: f.emu.projects[0] } })],
  ["PARSE", 400, "body that is not JSON", () => f.api("POST", "/vps", { rawBody: "{not json" })],
  ["INSTANCE_NOT_FOUND", 404, "unknown server id", () => f.api("GET", "/vps/00000000-0000-4000-8000-000000000000")],
  ["INSTANCE_NOT_FOUND", 404, "backup of an unknown server", () => f.api("GET", "/vps/00000000-0000-4000-8000-000000000000/backup")],
  ["PROJECT_NOT_FOUND", 404, "create in an unknown project", () => f.create({ projectId: "00000000-0000-4000-8000-000000000000" })],
  ["PROJECT_REQUIRED", 400, "create with an empty projectId", () => f.create({ projectId: "" })],
  [
    "FIREWALL_RULE_NOT_FOUND",
    404,
    "remove an unknown rule id",
    async () => f.api("DELETE", `/vps/${await f.running()}/firewall`, { body: { ids: ["no-such-rule"] } }),
  ],
  [
    "VPS_BUSY",
    409,
    "start while provisioning",
    async () => {
      await f.mode("manual");
      return f.api("POST", `/vps/${(await f.create()).body.data.id}/start`);
    },
  ],
  ["INVALID_BILLING_PERIOD", 400, "create with billingPeriod weekly", () => f.create({ billingPeriod: "weekly" })],
  [
    "INSUFFICIENT_BALANCE",
    402,
    "renew with an empty wallet",
    async () => {
      const id = await f.running();
      await f.emu.ctl("PATCH", "/wallet", { balance: 0 });
      return f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "monthly" } });
    },
  ],
  [
    "INSUFFICIENT_BALANCE",
    402,
    "backup activation with an empty wallet",
    async () => {
      const id = await f.running();
      await f.emu.ctl("PATCH", "/wallet", { balance: 0 });
      return f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  [
    "INVALID_FIREWALL_RULE",
    400,
    "rule with port 70000",
    async () => f.api("POST", `/vps/${await f.running()}/firewall`, { body: { rules: [{ protocol: "tcp", action: "allow", port: "70000", source: "1.2.3.4" }] } }),
  ],
  ["REQUEST_ERROR", 400, "create with a 2-character name", () => f.create({ name: "ab" })],
  ["REQUEST_ERROR", 400, "create with a name holding a line break", () => f.create({ name: "web\n1" })],
  [
    "INTERNAL_ERROR",
    500,
    "injected fault (the emulator itself answers 500 only when a handler breaks its schema)",
    async () => {
      await f.emu.ctl("POST", "/faults", { path: "/api/vps", status: 500, code: "INTERNAL_ERROR", times: 1 });
      return f.api("GET", "/vps");
    },
  ],
  [
    "NOT_ELIGIBLE",
    400,
    "backup on a windows server",
    async () =>
      f.api("POST", `/vps/${await f.running({ planId: f.planId(PLAN.large), osType: "windows", osVersion: "2022" })}/backup`, { body: { planCode: "backup-10" } }),
  ],
  [
    "VPS_NOT_RUNNING",
    409,
    "backup on a stopped server",
    async () => {
      const id = await f.running();
      await f.api("POST", `/vps/${id}/stop`);
      return f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  [
    "NODE_NOT_READY",
    409,
    "job-failures kind vps.backup.node",
    async () => {
      const id = await f.running();
      await f.failNext("vps.backup.node");
      return f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  ["PLAN_NOT_FOUND", 404, "retired backup plan", async () => f.api("POST", `/vps/${await f.running()}/backup`, { body: { planCode: "backup-legacy" } })],
  [
    "ALREADY_SUBSCRIBED",
    409,
    "second activation",
    async () => {
      const id = await f.running();
      await backupOn(id);
      return f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  ["NOT_SUBSCRIBED", 404, "read the add-on of a server without one", async () => f.api("GET", `/vps/${await f.running()}/backup`)],
  [
    "OVER_NEW_QUOTA",
    409,
    "smaller plan after 9 days of backups",
    async () => {
      const id = await f.running();
      await backupOn(id);
      f.emu.control.advanceClock(9 * 86_400);
      return f.api("PATCH", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  [
    "BACKUP_NOT_CONFIGURED",
    503,
    "job-failures kind vps.backup.unavailable",
    async () => {
      const id = await f.running();
      await f.failNext("vps.backup.unavailable");
      return f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    },
  ],
  ["FEATURE_NOT_AVAILABLE", 409, "SSH key on a server with its own address", async () => f.api("POST", `/vps/${await f.running()}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } })],
  [
    "INSTANCE_NOT_RUNNING",
    409,
    "port forward on a stopped server",
    async () => {
      const id = await shared();
      await f.api("POST", `/vps/${id}/stop`);
      await f.settle();
      return f.api("POST", `/vps/${id}/port-forwards`, { body: { protocol: "tcp", privatePort: 22 } });
    },
  ],
  ["INVALID_PORT", 400, "tcp public port below 1024", async () => f.api("POST", `/vps/${await shared()}/port-forwards`, { body: { protocol: "tcp", privatePort: 22, publicPort: 80 } })],
  [
    "PORT_TAKEN",
    409,
    "the same public port on two servers sharing the address",
    async () => {
      const a = await shared();
      const b = await f.running({ planId: f.planId(PLAN.shared), name: "nat-2" });
      await f.api("POST", `/vps/${a}/port-forwards`, { body: { protocol: "tcp", privatePort: 22, publicPort: 2222 } });
      return f.api("POST", `/vps/${b}/port-forwards`, { body: { protocol: "tcp", privatePort: 22, publicPort: 2222 } });
    },
  ],
  ["PORT_NOT_FOUND", 404, "remove an unknown port forward", async () => f.api("DELETE", `/vps/${await shared()}/port-forwards/no-such-forward`)],
  ["INVALID_SSH_KEY", 400, "an unsupported key type", async () => f.api("POST", `/vps/${await shared()}/ssh-keys`, { body: { publicKey: "ssh-dss AAAAB3NzaC1kc3MAAACBAP1 x@y" } })],
  ["PRIVATE_KEY_REJECTED", 400, "a private key", async () => f.api("POST", `/vps/${await shared()}/ssh-keys`, { body: { publicKey: privateKeyText() } })],
  [
    "SSH_KEY_EXISTS",
    409,
    "the same key twice",
    async () => {
      const id = await shared();
      await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } });
      return f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: KEYS.ed25519.publicKey } });
    },
  ],
  [
    "SSH_KEY_LIMIT",
    400,
    "an 11th key",
    async () => {
      const id = await shared();
      for (let i = 0; i < 10; i++) await f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: newEd25519PublicKey() } });
      return f.api("POST", `/vps/${id}/ssh-keys`, { body: { publicKey: newEd25519PublicKey() } });
    },
  ],
  ["SSH_KEY_NOT_FOUND", 404, "remove a key the server does not have", async () => f.api("DELETE", `/vps/${await shared()}/ssh-keys/${encodeURIComponent(KEYS.ed25519.fingerprint)}`)],
  ["INVALID_SNAPSHOT_NAME", 400, "a snapshot name with a semicolon", async () => f.api("POST", `/vps/${await shared()}/snapshots`, { body: { name: "semi;colon" } })],
  ["SNAPSHOT_NOT_FOUND", 404, "delete an unknown snapshot", async () => f.api("DELETE", `/vps/${await shared()}/snapshots/no-such-snapshot`)],
  [
    "BACKUP_ERROR",
    400,
    "change to the plan the add-on already has",
    async () => {
      const id = await f.running();
      await backupOn(id);
      return f.api("PATCH", `/vps/${id}/backup`, { body: { planCode: "backup-50" } });
    },
  ],
];

test.each(cases)("%s (%i): %s", async (code, status, _how, run) => {
  const res = await run();
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ success: false, code, error: expect.any(String) }));
});

test("every code of both spec tables is produced above or listed as not produced, never both", () => {
  const produced = new Set(cases.map((c) => c[0]));
  for (const code of [...VPS_API_CODES, ...BACKUP_CODES]) {
    expect([code, produced.has(code) || code in NOT_PRODUCED]).toEqual([code, true]);
    expect([code, produced.has(code) && code in NOT_PRODUCED]).toEqual([code, false]);
  }
});

test("INSUFFICIENT_BALANCE states the required and available amounts", async () => {
  await f.emu.ctl("PATCH", "/wallet", { balance: 1000 });
  const res = await f.create();
  expect(res.body).toMatchObject({ code: "INSUFFICIENT_BALANCE", required: f.planPrice(PLAN.small), available: 1000 });
  expect(res.body.error).toContain("1,000");
});
