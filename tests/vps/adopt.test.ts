/**
 * Issue 15 for the server resources, through the real dynamic-provider host against the emulator:
 * `adoptId` takes over an object made straight at the API (nothing created, nothing charged, the
 * outputs are the live object's, so the next diff shows where the program differs), and a repeated
 * first create — what the real `pulumi up` runs after a run killed during a create: `check({}, news)`
 * and `create` again, the first answer lost — adopts what the first made when it is provably this
 * stack's (a server of the default name, the rule or add-on of the stack's server), and otherwise
 * stops with the object's id and the `adoptId` line; with that line added it converges.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { api, catalogue, failure, fresh, NEW_PASSWORD, outputsOf, PASSWORD, PLAN, runningServer, server, servers, until, wallet, writes, type BackupPlan, type Plan, type Props } from "./helpers";

const MISSING = "00000000-0000-4000-8000-000000000000";
let h: ResourceHarness;
let plan: (name: string) => Plan;
let backupPlan: (code: string) => BackupPlan;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 0.5 },
  setup: async (h) => {
    ({ plan, backupPlan } = await catalogue(h));
  },
});

/** The program of a server like the one `runningServer` makes (fixture-1, small, ubuntu 22.04). */
const vpsArgs = (overrides: Props = {}): Props => ({ planId: plan(PLAN.small).id, name: "fixture-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, ...overrides });
const creates = () => writes(h).filter((w) => w.method === "POST" && w.path === "/api/vps");

describe("Vps adoptId", () => {
  beforeEach(() => fresh(h, 0.5));

  test("a server made at the API, the program matching it: no POST, wallet unchanged, outputs = the live server; the next diff has no changes, nor when adoptId is removed", async () => {
    const rec = await runningServer(h, plan(PLAN.small).id);
    const w0 = wallet(h);
    h.emu.control.clearRequests();
    const inputs = await h.checked("Vps", vpsArgs({ adoptId: rec.id }));
    const created = await h.host.create("Vps", inputs);

    expect(created.id).toBe(rec.id);
    expect(writes(h)).toEqual([]);
    expect(wallet(h)).toBe(w0);
    expect(outputsOf(created.properties)).toEqual({
      ...outputsOf(inputs),
      status: "running",
      publicIp: rec.publicIp,
      expiresAt: rec.expiresAt,
      lastJobStatus: rec.lastJobStatus,
      lastJobError: null,
      username: "root",
    });
    expect(await h.host.diff("Vps", rec.id, created.properties, await h.checked("Vps", vpsArgs({ adoptId: rec.id }), created.properties))).toMatchObject({ changes: "none", replaces: [] });
    // adoptId only matters to the create: removing or changing it afterwards changes nothing.
    expect(await h.host.diff("Vps", rec.id, created.properties, await h.checked("Vps", vpsArgs(), created.properties))).toMatchObject({ changes: "none", replaces: [] });
    expect(await h.host.diff("Vps", rec.id, created.properties, await h.checked("Vps", vpsArgs({ adoptId: MISSING }), created.properties))).toMatchObject({ changes: "none", replaces: [] });
  });

  test("a program that differs: the outputs keep the live values (the live password included), the diff updates, and the update converges", async () => {
    const rec = await runningServer(h, plan(PLAN.small).id);
    const w0 = wallet(h);
    h.emu.control.clearRequests();
    const program = vpsArgs({ adoptId: rec.id, rootPassword: NEW_PASSWORD, autoRenew: false });
    const inputs = await h.checked("Vps", program);
    const created = await h.host.create("Vps", inputs);

    expect(writes(h)).toEqual([]); // taken as it is: the create changes nothing
    expect(wallet(h)).toBe(w0);
    expect(created.properties).toMatchObject({ rootPassword: PASSWORD, autoRenew: true, adoptId: rec.id });
    expect(server(h, rec.id).autoRenew).toBe(true);

    const news = await h.checked("Vps", program, created.properties);
    expect(await h.host.diff("Vps", rec.id, created.properties, news)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await h.host.update("Vps", rec.id, created.properties, news);
    expect(writes(h).map((w) => w.path)).toEqual([`/api/vps/${rec.id}/reset-password`, `/api/vps/${rec.id}/auto-renew`]);
    expect((await api(h, "GET", `/vps/${rec.id}/credentials`)).password).toBe(NEW_PASSWORD);
    expect(server(h, rec.id).autoRenew).toBe(false);
    expect(await h.host.diff("Vps", rec.id, updated.properties, await h.checked("Vps", program, updated.properties))).toMatchObject({ changes: "none" });

    // Another name than the live server's: a replacement (the API has no rename).
    expect(await h.host.diff("Vps", rec.id, created.properties, await h.checked("Vps", vpsArgs({ adoptId: rec.id, name: "web-9" }), created.properties))).toMatchObject({
      changes: "some",
      replaces: ["name"],
    });
  });

  test("with no name in the program, the adopted server keeps its own name (no replacement)", async () => {
    const rec = await runningServer(h, plan(PLAN.small).id, "legacy-box");
    const { name: _n, ...unnamed } = vpsArgs();
    const program = { ...unnamed, defaultName: "web-0a1b2c3", adoptId: rec.id };
    const created = await h.host.create("Vps", await h.checked("Vps", program));
    expect(created.properties.name).toBe("legacy-box");
    const news = await h.checked("Vps", program, created.properties);
    expect(news.name).toBe("legacy-box");
    expect(await h.host.diff("Vps", rec.id, created.properties, news)).toMatchObject({ changes: "none", replaces: [] });
  });

  test("a server still being provisioned is waited for, then adopted running", async () => {
    const made = await api(h, "POST", "/vps", { ...vpsArgs(), projectId: h.emu.projects[0], billingPeriod: "monthly" });
    expect(server(h, made.id).status).toBe("provisioning");
    h.emu.control.clearRequests();
    const created = await h.host.create("Vps", await h.checked("Vps", vpsArgs({ adoptId: made.id })));
    expect(created.id).toBe(made.id);
    expect(created.properties).toMatchObject({ status: "running", powerState: "running", username: "root" });
    expect(writes(h)).toEqual([]);
  });

  test("a stopped server: adopted stopped (powerState stopped), the program's running shows as an update", async () => {
    const rec = await runningServer(h, plan(PLAN.small).id);
    await api(h, "POST", `/vps/${rec.id}/stop`);
    await until(h, rec.id, (s) => s.status === "stopped", "stopped");
    const inputs = await h.checked("Vps", vpsArgs({ adoptId: rec.id }));
    const created = await h.host.create("Vps", inputs);
    expect(created.properties).toMatchObject({ status: "stopped", powerState: "stopped" });
    expect(server(h, rec.id).status).toBe("stopped");
    expect(await h.host.diff("Vps", rec.id, created.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
  });

  test("an unknown id, a terminated server, a server of another project: a clear error naming the id; nothing created or charged", async () => {
    const unknown = await failure<HostError>(h.host.create("Vps", await h.checked("Vps", vpsArgs({ adoptId: MISSING }))));
    expect(unknown.message).toMatch(new RegExp(`^create failed: GET /vps/${MISSING} 404 INSTANCE_NOT_FOUND — .*adoptId "${MISSING}": no server with this id in reach of this key`));
    expect(unknown.initFailed).toBeUndefined();

    const gone = await runningServer(h, plan(PLAN.small).id, "old-box");
    await api(h, "DELETE", `/vps/${gone.id}`);
    await until(h, gone.id, (s) => s.status === "terminated", "terminated");
    const terminated = await failure<HostError>(h.host.create("Vps", await h.checked("Vps", vpsArgs({ adoptId: gone.id }))));
    expect(terminated.message).toContain(`create failed: adoptId "${gone.id}": server old-box is terminated and cannot be managed`);

    const other = await api(h, "POST", "/vps", { ...vpsArgs({ name: "elsewhere" }), projectId: h.emu.projects[1], billingPeriod: "monthly" });
    const elsewhere = await failure<HostError>(h.host.create("Vps", await h.checked("Vps", vpsArgs({ adoptId: other.id }))));
    expect(elsewhere.message).toContain(`create failed: adoptId "${other.id}": server elsewhere is in project ${h.emu.projects[1]}, not ${h.emu.projects[0]}`);

    // None of them sent a create or charged anything.
    const w1 = wallet(h);
    h.emu.control.clearRequests();
    for (const adoptId of [MISSING, gone.id, other.id]) await failure(h.host.create("Vps", await h.checked("Vps", vpsArgs({ adoptId }))));
    expect(creates()).toEqual([]);
    expect(wallet(h)).toBe(w1);
    for (const err of [unknown, terminated, elsewhere]) expect(err.message).not.toContain(PASSWORD);
  });

  test("check: adoptId must be a server id (UUID)", async () => {
    const result = await h.check("Vps", vpsArgs({ adoptId: "web-1" }));
    expect(result.failures).toEqual([{ property: "adoptId", reason: expect.stringMatching(/server id \(UUID\)/) }]);
  });
});

describe("Vps: a repeated first create (the engine after a kill runs check({}) and create again)", () => {
  beforeEach(() => fresh(h, 0.5));

  test("auto-named: the second create adopts the server of the default name: one server, one POST, one charge", async () => {
    const { name: _n, ...unnamed } = vpsArgs();
    const program = { ...unnamed, defaultName: "web-0a1b2c3" };
    const w0 = wallet(h);
    const first = await h.host.create("Vps", await h.checked("Vps", program)); // its answer is lost
    const second = await h.host.create("Vps", await h.checked("Vps", program));

    expect(second.id).toBe(first.id);
    expect(servers(h).map((s) => s.name)).toEqual(["web-0a1b2c3"]);
    expect(creates()).toHaveLength(1);
    expect(w0 - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(outputsOf(second.properties)).toEqual(outputsOf(first.properties));
    expect(await h.host.diff("Vps", second.id, second.properties, await h.checked("Vps", program, second.properties))).toMatchObject({ changes: "none" });
  });

  test("auto-named, killed while the server was provisioning: the next create waits for it, adopts it and finishes the create's steps (auto-renew off)", async () => {
    const { name: _n, ...unnamed } = vpsArgs();
    const program = { ...unnamed, defaultName: "web-0a1b2c3", autoRenew: false };
    // What the killed create's POST left: the server, provisioning, paid.
    const made = await api(h, "POST", "/vps", { ...vpsArgs({ name: "web-0a1b2c3" }), projectId: h.emu.projects[0], billingPeriod: "monthly" });
    const w0 = wallet(h);
    h.emu.control.clearRequests();
    const created = await h.host.create("Vps", await h.checked("Vps", program));

    expect(created.id).toBe(made.id);
    expect(creates()).toEqual([]);
    expect(wallet(h)).toBe(w0);
    expect(server(h, made.id)).toMatchObject({ status: "running", autoRenew: false });
    expect(created.properties).toMatchObject({ status: "running", autoRenew: false, name: "web-0a1b2c3", rootPassword: PASSWORD });
  });

  test("explicitly named: the second create stops with the server's id and the adoptId line; with adoptId added it converges (one server, one charge)", async () => {
    const w0 = wallet(h);
    const first = await h.host.create("Vps", await h.checked("Vps", vpsArgs({ name: "web-1" })));
    const err = await failure<HostError>(h.host.create("Vps", await h.checked("Vps", vpsArgs({ name: "web-1" }))));
    expect(err.message).toMatch(/^create failed: a server named "web-1" already exists/);
    expect(err.message).toContain(first.id);
    expect(err.message).toContain(`adoptId: "${first.id}"`);
    expect(err.message).not.toMatch(/import/);
    expect(err.initFailed).toBeUndefined();

    const inputs = await h.checked("Vps", vpsArgs({ name: "web-1", adoptId: first.id }));
    const adopted = await h.host.create("Vps", inputs);
    expect(adopted.id).toBe(first.id);
    expect(servers(h).map((s) => s.id)).toEqual([first.id]);
    expect(creates()).toHaveLength(1);
    expect(w0 - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(await h.host.diff("Vps", first.id, adopted.properties, await h.checked("Vps", vpsArgs({ name: "web-1", adoptId: first.id }), adopted.properties))).toMatchObject({
      changes: "none",
    });
  });
});

describe("VpsFirewallRule adoptId and a repeated first create", () => {
  let vpsId: string;
  const ssh = (overrides: Props = {}): Props => ({ vpsId, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24", ...overrides });
  const adds = () => writes(h).filter((w) => w.method === "POST");

  beforeEach(async () => {
    await fresh(h, 0.5);
    vpsId = (await runningServer(h, plan(PLAN.small).id)).id;
    h.emu.control.clearRequests();
  });

  test("a rule added at the API: no POST, outputs = the live rule; the same program has no diff, another port replaces", async () => {
    const [rule] = (await api(h, "POST", `/vps/${vpsId}/firewall`, { rules: [{ protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" }] })) as unknown as Props[];
    h.emu.control.clearRequests();
    const inputs = await h.checked("VpsFirewallRule", ssh({ adoptId: rule.id }));
    const created = await h.host.create("VpsFirewallRule", inputs);
    expect(created.id).toBe(rule.id);
    expect(adds()).toEqual([]);
    expect(outputsOf(created.properties)).toEqual({ ...outputsOf(inputs), ruleId: rule.id });
    expect(await h.host.diff("VpsFirewallRule", rule.id, created.properties, await h.checked("VpsFirewallRule", ssh()))).toMatchObject({ changes: "none", replaces: [] });

    // A program that differs from the rule adopted: the outputs are the rule's values, the diff replaces.
    const [web] = (await api(h, "POST", `/vps/${vpsId}/firewall`, { rules: [{ protocol: "tcp", action: "allow", port: "80", source: "0.0.0.0/0" }] })) as unknown as Props[];
    h.emu.control.clearRequests();
    const other = await h.host.create("VpsFirewallRule", await h.checked("VpsFirewallRule", ssh({ adoptId: web.id, port: "443" })));
    expect(adds()).toEqual([]);
    expect(other.properties).toMatchObject({ port: "80", source: "0.0.0.0/0", ruleId: web.id });
    expect(await h.host.diff("VpsFirewallRule", web.id, other.properties, await h.checked("VpsFirewallRule", ssh({ adoptId: web.id, port: "443" })))).toMatchObject({
      changes: "some",
      replaces: expect.arrayContaining(["port", "source"]),
    });
  });

  test("an unknown rule id: an error naming it and the server; nothing added", async () => {
    const err = await failure<HostError>(h.host.create("VpsFirewallRule", await h.checked("VpsFirewallRule", ssh({ adoptId: MISSING }))));
    expect(err.message).toBe(`create failed: adoptId "${MISSING}": server ${vpsId} has no firewall rule with this id`);
    expect(adds()).toEqual([]);
  });

  test("a repeated first create adopts the identical rule the first added: one rule, one POST", async () => {
    const first = await h.host.create("VpsFirewallRule", await h.checked("VpsFirewallRule", ssh()));
    const second = await h.host.create("VpsFirewallRule", await h.checked("VpsFirewallRule", ssh()));
    expect(second.id).toBe(first.id);
    expect(server(h, vpsId).firewall.map((r) => r.id)).toEqual([first.id]);
    expect(adds()).toHaveLength(1);
    expect(outputsOf(second.properties)).toEqual(outputsOf(first.properties));
  });
});

describe("VpsBackup adoptId and a repeated first create", () => {
  let vpsId: string;
  const activations = () => writes(h).filter((w) => w.method === "POST");

  beforeEach(async () => {
    await fresh(h, 0.5);
    vpsId = (await runningServer(h, plan(PLAN.small).id)).id;
    h.emu.control.clearRequests();
  });

  test("an add-on bought at the API: adoptId = vpsId takes it, no POST, nothing charged; the same plan has no diff, another updates", async () => {
    await api(h, "POST", `/vps/${vpsId}/backup`, { planCode: "backup-10" });
    const w0 = wallet(h);
    h.emu.control.clearRequests();
    const inputs = await h.checked("VpsBackup", { vpsId, planCode: "backup-10", adoptId: vpsId });
    const created = await h.host.create("VpsBackup", inputs);
    const addon = server(h, vpsId).backup!;

    expect(created.id).toBe(vpsId);
    expect(activations()).toEqual([]);
    expect(wallet(h)).toBe(w0);
    expect(outputsOf(created.properties)).toEqual({ vpsId, planCode: "backup-10", adoptId: vpsId, status: "active", quotaGb: 10, usedGb: expect.any(Number), expiresAt: addon.expiresAt });
    expect(await h.host.diff("VpsBackup", vpsId, created.properties, await h.checked("VpsBackup", { vpsId, planCode: "backup-10" }, created.properties))).toMatchObject({
      changes: "none",
    });
    expect(await h.host.diff("VpsBackup", vpsId, created.properties, await h.checked("VpsBackup", { vpsId, planCode: "backup-50", adoptId: vpsId }))).toMatchObject({
      changes: "some",
      replaces: [],
    });
  });

  test("a program on another plan: the add-on is adopted on its live plan (not changed by the create), the next diff updates", async () => {
    await api(h, "POST", `/vps/${vpsId}/backup`, { planCode: "backup-10" });
    h.emu.control.clearRequests();
    const inputs = await h.checked("VpsBackup", { vpsId, planCode: "backup-50", adoptId: vpsId });
    const created = await h.host.create("VpsBackup", inputs);
    expect(writes(h)).toEqual([]);
    expect(server(h, vpsId).backup).toMatchObject({ planCode: "backup-10" });
    expect(created.properties).toMatchObject({ planCode: "backup-10", quotaGb: 10 });
    expect(await h.host.diff("VpsBackup", vpsId, created.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
  });

  test("adoptId other than vpsId: refused at check on adoptId; a server with no add-on: an error naming it, nothing activated", async () => {
    const result = await h.check("VpsBackup", { vpsId, planCode: "backup-10", adoptId: MISSING });
    expect(result.failures).toEqual([{ property: "adoptId", reason: "the id of a VpsBackup is its server's id: adoptId must equal vpsId" }]);

    const w0 = wallet(h);
    const err = await failure<HostError>(h.host.create("VpsBackup", await h.checked("VpsBackup", { vpsId, planCode: "backup-10", adoptId: vpsId })));
    expect(err.message).toBe(`create failed: adoptId "${vpsId}": server ${vpsId} has no backup add-on; remove adoptId to activate one`);
    expect(activations()).toEqual([]);
    expect(wallet(h)).toBe(w0);
  });

  test("a repeated first create adopts the add-on the first bought: one POST, one charge", async () => {
    const w0 = wallet(h);
    const first = await h.host.create("VpsBackup", await h.checked("VpsBackup", { vpsId, planCode: "backup-10" }));
    const second = await h.host.create("VpsBackup", await h.checked("VpsBackup", { vpsId, planCode: "backup-10" }));
    expect(second.id).toBe(first.id);
    // The second activation is refused (ALREADY_SUBSCRIBED, nothing charged) and the add-on adopted.
    expect(activations().map((a) => a.status)).toEqual([201, 409]);
    expect(w0 - wallet(h)).toBe(backupPlan("backup-10").price);
    expect(outputsOf(second.properties)).toMatchObject({ vpsId, planCode: "backup-10", status: "active" });
  });
});
