/**
 * VpsBackup through the real dynamic-provider host against the emulator (`time` mode, 1-second
 * transitions, so the backup setup is really waited for): issue 5 acceptance 4 — create (one
 * charge), a larger plan (prorated charge), a smaller plan refused with OVER_NEW_QUOTA explained,
 * cancel, out-of-band cancel, a dropped create settled by reading — and the NODE_NOT_READY wait.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { answeredAt, api, calls, catalogue, failure, fresh, outputsOf, PLAN, prorated, runningServer, server, wallet, writes, type BackupPlan } from "./helpers";

const T = "VpsBackup";
let h: ResourceHarness;
let vpsId: string;
let smallPlan: string;
let backupPlan: (code: string) => BackupPlan;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    const c = await catalogue(h);
    smallPlan = c.plan(PLAN.small).id;
    backupPlan = c.backupPlan;
  },
  fresh: async (h) => {
    await fresh(h);
    vpsId = (await runningServer(h, smallPlan)).id;
    h.emu.control.clearRequests();
  },
});

const addonOf = (id: string) => server(h, id).backup;

describe("VpsBackup lifecycle", () => {
  test("create (one charge) → larger plan (prorated charge) → smaller plan refused with OVER_NEW_QUOTA explained → cancel → cancel again", async () => {
    // create: one POST, the plan price once, waits until the setup finished.
    const w0 = wallet(h);
    const inputs = await h.checked(T, { vpsId, planCode: "backup-10" });
    expect(outputsOf(inputs)).toEqual({ vpsId, planCode: "backup-10" });
    const created = await h.host.create(T, inputs);
    expect(created.id).toBe(vpsId);
    expect(addonOf(vpsId)).toMatchObject({ planCode: "backup-10", status: "active" });
    expect(w0 - wallet(h)).toBe(backupPlan("backup-10").price);
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${vpsId}/backup`, status: 201 }]);
    expect(outputsOf(created.properties)).toEqual({ vpsId, planCode: "backup-10", status: "active", quotaGb: 10, usedGb: 0, expiresAt: addonOf(vpsId)!.expiresAt });

    // read: the same outputs and inputs.
    const read = await h.host.read(T, vpsId, created.properties);
    expect(outputsOf(read.properties)).toEqual(outputsOf(created.properties));
    expect(outputsOf(read.inputs)).toEqual(outputsOf(inputs));
    expect(await h.host.diff(T, vpsId, created.properties, inputs)).toMatchObject({ changes: "none", replaces: [] });

    // A larger plan: update in place (PATCH), prorated charge for the time left.
    const larger = await h.checked(T, { vpsId, planCode: "backup-50" });
    expect(await h.host.diff(T, vpsId, created.properties, larger)).toMatchObject({ changes: "some", replaces: [] });
    const w1 = wallet(h);
    h.emu.control.clearRequests();
    const upgraded = await h.host.update(T, vpsId, created.properties, larger);
    expect(addonOf(vpsId)).toMatchObject({ planCode: "backup-50", status: "active" });
    expect(writes(h)).toEqual([{ method: "PATCH", path: `/api/vps/${vpsId}/backup`, status: 200 }]);
    const charge = prorated(backupPlan("backup-50").price, backupPlan("backup-10").price, addonOf(vpsId)!.expiresAt, answeredAt(h, "PATCH", `/api/vps/${vpsId}/backup`));
    expect(charge).toBeGreaterThan(0);
    expect(w1 - wallet(h)).toBe(charge);
    expect(upgraded.properties).toMatchObject({ planCode: "backup-50", quotaGb: 50 });

    // Ten days of backups (1.25 GB a day on a 25 GB disk) no longer fit the 10 GB plan.
    await h.emu.ctl("POST", "/clock/advance", { seconds: 10 * 86_400 });
    const used = (await api(h, "GET", `/vps/${vpsId}/backup`)).usedGb as number;
    expect(used).toBeGreaterThan(10);
    const w2 = wallet(h);
    h.emu.control.clearRequests();
    const smaller = await h.checked(T, { vpsId, planCode: "backup-10" });
    const err = await failure<HostError>(h.host.update(T, vpsId, upgraded.properties, smaller));
    expect(err.message).toMatch(/^update failed: PATCH \/vps\/[0-9a-f-]+\/backup 409 OVER_NEW_QUOTA — Current backups use [\d.]+ GB; plan backup-10 holds 10 GB\. The smaller plan cannot hold the server's current backups/);
    expect(addonOf(vpsId)!.planCode).toBe("backup-50");
    expect(wallet(h)).toBe(w2);

    // cancel, and cancel again (NOT_SUBSCRIBED counts as deleted); read answers gone.
    h.emu.control.clearRequests();
    await h.host.delete(T, vpsId, upgraded.properties);
    expect(addonOf(vpsId)).toBeNull();
    await h.host.delete(T, vpsId, upgraded.properties);
    expect(calls(h).filter((c) => c.startsWith("DELETE"))).toEqual([
      `DELETE /api/vps/${vpsId}/backup 200`,
      `DELETE /api/vps/${vpsId}/backup 404 NOT_SUBSCRIBED`,
    ]);
    expect((await h.host.read(T, vpsId, upgraded.properties)).id).toBe("");
  });

  test("an add-on cancelled out of band reads as gone", async () => {
    const created = await h.host.create(T, await h.checked(T, { vpsId, planCode: "backup-10" }));
    await api(h, "DELETE", `/vps/${vpsId}/backup`);
    const read = await h.host.read(T, vpsId, created.properties);
    expect(read.id).toBe("");
  });

  test("vpsId replaces, planCode updates", async () => {
    const olds = { vpsId, planCode: "backup-10", status: "active", quotaGb: 10, usedGb: 0, expiresAt: new Date().toISOString() };
    expect(await h.host.diff(T, vpsId, olds, await h.checked(T, { vpsId: "00000000-0000-4000-8000-000000000000", planCode: "backup-10" }))).toMatchObject({
      changes: "some",
      replaces: ["vpsId"],
    });
    // An in-place update reads the add-on first: one deleted outside Pulumi stops the preview with `pulumi refresh`.
    const gone = await failure<HostError>(h.host.diff(T, vpsId, olds, await h.checked(T, { vpsId, planCode: "backup-100" })));
    expect(gone.message).toMatch(/was deleted outside Pulumi: run `pulumi refresh`/);
    const created = await h.host.create(T, await h.checked(T, { vpsId, planCode: "backup-10" }));
    expect(await h.host.diff(T, vpsId, created.properties, await h.checked(T, { vpsId, planCode: "backup-100" }))).toMatchObject({ changes: "some", replaces: [] });
    await h.host.delete(T, vpsId, created.properties);
  });
});

describe("VpsBackup: paid create never sent twice", () => {
  test("a create whose answer is dropped after commit is settled by reading: success, one POST, one charge", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps/*/backup", drop: true, afterCommit: true, times: 1 });
    const w0 = wallet(h);
    const created = await h.host.create(T, await h.checked(T, { vpsId, planCode: "backup-50" }));
    expect(created.properties).toMatchObject({ planCode: "backup-50", status: "active" });
    expect(addonOf(vpsId)).toMatchObject({ planCode: "backup-50", status: "active" });
    expect(w0 - wallet(h)).toBe(backupPlan("backup-50").price);
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${vpsId}/backup`, status: 0 }]);
    expect(calls(h)).toContain(`GET /api/vps/${vpsId}/backup 200`);
  });

  test("NODE_NOT_READY is waited out: the activation is sent again once refused, and succeeds", async () => {
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.backup.node" });
    const w0 = wallet(h);
    const created = await h.host.create(T, await h.checked(T, { vpsId, planCode: "backup-10" }));
    expect(created.properties.status).toBe("active");
    expect(writes(h)).toEqual([
      { method: "POST", path: `/api/vps/${vpsId}/backup`, status: 409 },
      { method: "POST", path: `/api/vps/${vpsId}/backup`, status: 201 },
    ]);
    expect(w0 - wallet(h)).toBe(backupPlan("backup-10").price);
  });

  test("an add-on already on the stack's server (an interrupted create bought it) is adopted as it is: no activation, nothing charged; the next diff shows the plan change", async () => {
    await api(h, "POST", `/vps/${vpsId}/backup`, { planCode: "backup-10" });
    const w0 = wallet(h);
    h.emu.control.clearRequests();
    const inputs = await h.checked(T, { vpsId, planCode: "backup-50" });
    const created = await h.host.create(T, inputs);
    expect(created.id).toBe(vpsId);
    // Sent at once and refused (ALREADY_SUBSCRIBED): nothing charged, the add-on adopted.
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${vpsId}/backup`, status: 409 }]);
    expect(wallet(h)).toBe(w0);
    expect(outputsOf(created.properties)).toMatchObject({ vpsId, planCode: "backup-10", status: "active" });
    expect(await h.host.diff(T, vpsId, created.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
  });

  test("a failed setup is refunded and reported; no add-on is left", async () => {
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.backup", reason: "backup node unreachable" });
    const w0 = wallet(h);
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { vpsId, planCode: "backup-10" })));
    expect(err.message).toMatch(/^create failed: the backup setup of server [0-9a-f-]+ failed \(backup node unreachable\) and was refunded/);
    expect(addonOf(vpsId)).toBeNull();
    expect(wallet(h)).toBe(w0);
  });
});
