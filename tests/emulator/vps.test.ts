/**
 * VPS emulator, servers: create and its checks, the States table (every failure path, refunds
 * once), power actions, reinstall, password reset, VPS_BUSY, terminate, reach, and a create whose
 * answer is lost after it was committed.
 */
import { PASSWORD, PLAN, type VpsFixture } from "../support/vps-fixture";
import { useVpsFixture } from "../support/per-file";

let f: VpsFixture;
useVpsFixture((x) => (f = x));

const SERVER_FIELDS = [
  "autoRenew",
  "billingPeriod",
  "createdAt",
  "expiresAt",
  "id",
  "lastJobError",
  "lastJobStatus",
  "name",
  "osType",
  "osVersion",
  "planId",
  "projectId",
  "publicIp",
  "sharedAddress",
  "status",
];

describe("create", () => {
  test("answers 201 provisioning, charges exactly the plan price, then runs with a public address", async () => {
    const before = f.wallet();
    const res = await f.create({ billingPeriod: "3month" });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({
      status: "provisioning",
      publicIp: null,
      autoRenew: true,
      lastJobStatus: null,
      lastJobError: null,
      billingPeriod: "3month",
      charged: f.planPrice(PLAN.small, "3month"),
    });
    expect(Object.keys(created).sort()).toEqual([...SERVER_FIELDS, "charged"].sort());
    expect(f.wallet()).toBe(before - f.planPrice(PLAN.small, "3month"));
    const months = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 86_400_000;
    expect(months).toBeGreaterThanOrEqual(89);
    expect(months).toBeLessThanOrEqual(92);

    const settled = await f.get(created.id);
    expect(settled.status).toBe("running");
    expect(settled.publicIp).toMatch(/^203\.0\.113\.\d+$/);
    expect(Object.keys(settled).sort()).toEqual(SERVER_FIELDS);
    expect(JSON.stringify(settled)).not.toContain(PASSWORD);

    const creds = await f.api("GET", `/vps/${created.id}/credentials`);
    expect(creds.body.data).toEqual({ address: settled.publicIp, user: "root", password: PASSWORD });
  });

  test("in time mode the server stays provisioning for about 8 seconds", async () => {
    await f.mode("time");
    const id = (await f.create()).body.data.id;
    f.emu.control.advanceClock(6);
    expect((await f.get(id)).status).toBe("provisioning");
    f.emu.control.advanceClock(3);
    expect((await f.get(id)).status).toBe("running");
  });

  test("each server gets its own address", async () => {
    const a = await f.running();
    const b = await f.running({ name: "web-2" });
    expect((await f.get(a)).publicIp).not.toBe((await f.get(b)).publicIp);
  });

  test("the account server limit refuses one more server, free of charge; terminated servers do not count", async () => {
    const limit = f.emu.control.state().account.serverLimit;
    const ids: string[] = [];
    for (let i = 0; i < limit; i++) ids.push((await f.create({ name: `node-${i}` })).body.data.id);
    const before = f.wallet();
    const refused = await f.create({ name: "one-too-many" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("REQUEST_ERROR");
    expect(refused.body.error).toMatch(/limit/i);
    expect(f.wallet()).toBe(before);

    await f.mode("manual");
    expect((await f.api("DELETE", `/vps/${ids[0]}`)).status).toBe(200);
    expect((await f.create({ name: "still-too-many" })).status).toBe(400); // terminating still counts
    await f.settle();
    expect((await f.create({ name: "fits-now" })).status).toBe(201);
  });

  test("a create refused by any rule charges nothing", async () => {
    const before = f.wallet();
    const refusals = [
      { planId: "00000000-0000-4000-8000-000000000000" },
      { osType: "windows", osVersion: "2022" },
      { name: "ab" },
      { rootPassword: "short1!" },
      { rootPassword: "has space in it 123" },
      { billingPeriod: "weekly" },
      { projectId: "" },
    ];
    for (const overrides of refusals) {
      const res = await f.create(overrides);
      expect([400, 404]).toContain(res.status);
    }
    await f.emu.ctl("PATCH", "/wallet", { balance: 1000 });
    expect((await f.create()).body.code).toBe("INSUFFICIENT_BALANCE");
    await f.emu.ctl("PATCH", "/wallet", { balance: before });
    expect(f.wallet()).toBe(before);
    expect((await f.api("GET", "/vps")).body.data).toEqual([]);
  });

  test("the user's actions are in the project's activity, by the key owner", async () => {
    const id = await f.running();
    const activity = (await f.api("GET", `/account/projects/${f.emu.projects[0]}/activity`)).body.data;
    expect(activity).toContainEqual(expect.objectContaining({ action: "vps.create", entityType: "vps", entityId: id, entityName: "web-1", actor: "user", byKeyOwner: true }));
  });
});

describe("States table: failed jobs", () => {
  test("a failed create job: status error, refunded exactly once, reason recorded, notified", async () => {
    const before = f.wallet();
    await f.failNext("vps.create", "no capacity in jkt");
    const id = (await f.create()).body.data.id;
    const failed = await f.get(id);
    expect(failed).toMatchObject({ status: "error", lastJobStatus: "error", lastJobError: "no capacity in jkt", publicIp: null });
    expect(f.wallet()).toBe(before);
    await f.settle();
    await f.get(id);
    expect(f.wallet()).toBe(before);

    const notes = (await f.api("GET", "/account/notifications")).body.data;
    expect(notes).toContainEqual(expect.objectContaining({ message: "no capacity in jkt", projectId: f.emu.projects[0], link: `/vps/${id}` }));
    const activity = (await f.api("GET", `/account/projects/${f.emu.projects[0]}/activity`)).body.data;
    expect(activity).toContainEqual(expect.objectContaining({ action: "vps.create.failed", actor: "system", byKeyOwner: false, entityId: id }));
    // A failed server accepts nothing but termination.
    expect((await f.api("POST", `/vps/${id}/start`)).body.code).toBe("REQUEST_ERROR");
    expect((await f.api("DELETE", `/vps/${id}`)).status).toBe(200);
  });

  test.each([
    ["start", "stopped", "starting"],
    ["stop", "running", "stopping"],
    ["restart", "running", "restarting"],
  ] as const)("a failed %s job goes back to %s", async (action, before, during) => {
    const id = await f.running();
    if (before === "stopped") {
      await f.api("POST", `/vps/${id}/stop`);
      await f.settle();
    }
    await f.mode("manual");
    await f.failNext(`vps.${action}`, `${action} timed out`);
    const res = await f.api("POST", `/vps/${id}/${action}`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe(during);
    await f.settle();
    expect(await f.get(id)).toMatchObject({ status: before, lastJobStatus: "error", lastJobError: `${action} timed out` });
    const notes = (await f.api("GET", "/account/notifications")).body.data;
    expect(notes).toContainEqual(expect.objectContaining({ message: `${action} timed out` }));
  });

  test("a failed reinstall keeps the old system and the old password", async () => {
    const id = await f.running();
    await f.failNext("vps.reinstall");
    const res = await f.api("POST", `/vps/${id}/reinstall`, { body: { osType: "debian", osVersion: "12", rootPassword: "N3wPassword!!" } });
    expect(res.body.data).toMatchObject({ status: "reinstalling", osType: "debian" });
    expect(await f.get(id)).toMatchObject({ status: "running", osType: "ubuntu", osVersion: "22.04", lastJobStatus: "error" });
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe(PASSWORD);
  });

  test("a failed password reset leaves the old password valid", async () => {
    const id = await f.running();
    await f.failNext("vps.resetPassword");
    expect((await f.api("POST", `/vps/${id}/reset-password`, { body: { rootPassword: "An0therOne!!" } })).status).toBe(200);
    expect(await f.get(id)).toMatchObject({ status: "running", lastJobStatus: "error" });
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe(PASSWORD);
  });
});

describe("power, reinstall, password", () => {
  test("stop, start and restart pass through their transitional status and settle", async () => {
    const id = await f.running();
    await f.mode("manual");
    for (const [action, during, after] of [
      ["stop", "stopping", "stopped"],
      ["start", "starting", "running"],
      ["restart", "restarting", "running"],
    ]) {
      const res = await f.api("POST", `/vps/${id}/${action}`);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(during);
      await f.settle();
      expect(await f.get(id)).toMatchObject({ status: after, lastJobStatus: "success" });
    }
  });

  test.each([
    ["start", "running", "already running"],
    ["stop", "stopped", "already stopped"],
    ["restart", "stopped", "does not accept restart"],
  ] as const)("%s on a %s server answers 400 REQUEST_ERROR", async (action, status, message) => {
    const id = await f.running();
    if (status === "stopped") await f.api("POST", `/vps/${id}/stop`);
    const res = await f.api("POST", `/vps/${id}/${action}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("REQUEST_ERROR");
    expect(res.body.error).toContain(message);
  });

  test("reinstall changes system and password once its job settles, and returns to the status before", async () => {
    const id = await f.running();
    await f.mode("manual");
    await f.api("POST", `/vps/${id}/reinstall`, { body: { osType: "almalinux", osVersion: "9", rootPassword: "N3wPassword!!" } });
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe(PASSWORD);
    await f.settle();
    expect(await f.get(id)).toMatchObject({ status: "running", osType: "almalinux", osVersion: "9" });
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe("N3wPassword!!");
  });

  test.each([
    [{ osType: "windows", osVersion: "2022", rootPassword: PASSWORD }, /No image/],
    [{ osType: "ubuntu", osVersion: "24.04", rootPassword: "tooshort" }, /rootPassword/],
  ])("reinstall refuses %o with REQUEST_ERROR", async (body, message) => {
    const id = await f.running();
    const res = await f.api("POST", `/vps/${id}/reinstall`, { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("REQUEST_ERROR");
    expect(res.body.error).toMatch(message);
  });

  test("reset password answers the server; the new password holds once its job settles", async () => {
    const id = await f.running();
    await f.mode("manual");
    const res = await f.api("POST", `/vps/${id}/reset-password`, { body: { rootPassword: "Fr3shPass^word" } });
    expect(res.body.data).toMatchObject({ id, status: "running" });
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe(PASSWORD);
    await f.settle();
    expect((await f.api("GET", `/vps/${id}/credentials`)).body.data.password).toBe("Fr3shPass^word");
  });
});

describe("VPS_BUSY", () => {
  const blocked: [string, string, (id: string) => unknown][] = [
    ["start", "POST", () => undefined],
    ["stop", "POST", () => undefined],
    ["restart", "POST", () => undefined],
    ["terminate", "DELETE", () => undefined],
    ["reinstall", "POST", () => ({ osType: "debian", osVersion: "12", rootPassword: PASSWORD })],
    ["reset-password", "POST", () => ({ rootPassword: PASSWORD })],
    ["upgrade", "POST", () => ({ planId: f.planId(PLAN.medium) })],
    ["firewall add", "POST", () => ({ rules: [{ protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" }] })],
    ["firewall remove", "DELETE", () => ({ ids: ["x"] })],
  ];
  const pathOf = (id: string, name: string) =>
    name === "terminate" ? `/vps/${id}` : name.startsWith("firewall") ? `/vps/${id}/firewall` : `/vps/${id}/${name}`;

  test.each(["provisioning", "stopping", "backup setup"])("while %s, every changing action answers 409 and reads, renew and auto-renew work", async (busy) => {
    let id: string;
    if (busy === "provisioning") {
      await f.mode("manual");
      id = (await f.create()).body.data.id;
    } else {
      id = await f.running();
      await f.mode("manual");
      if (busy === "stopping") await f.api("POST", `/vps/${id}/stop`);
      else expect((await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } })).status).toBe(201);
    }
    for (const [name, method, body] of blocked) {
      const res = await f.api(method, pathOf(id, name), { body: body(id) });
      expect([name, res.status, res.body.code]).toEqual([name, 409, "VPS_BUSY"]);
    }
    for (const path of [`/vps/${id}`, `/vps/${id}/credentials`, `/vps/${id}/firewall`, `/vps/${id}/renewal-options`, "/vps"]) {
      expect([path, (await f.api("GET", path)).status]).toEqual([path, 200]);
    }
    expect((await f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "monthly" } })).status).toBe(200);
    expect((await f.api("PATCH", `/vps/${id}/auto-renew`, { body: { enabled: false } })).body.data.autoRenew).toBe(false);
    await f.settle();
    expect((await f.get(id)).status).toMatch(/running|stopped/);
  });
});

describe("terminate", () => {
  test("goes terminating then terminated, stays listed, cancels firewall and backups; a repeat answers 200", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [{ protocol: "tcp", action: "allow", port: "22", source: "10.0.0.0/8" }] } });
    await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    await f.settle();
    await f.mode("manual");
    const res = await f.api("DELETE", `/vps/${id}`);
    expect(res.body.data.status).toBe("terminating");
    expect((await f.api("DELETE", `/vps/${id}`)).body.data.status).toBe("terminating");
    await f.settle();
    const gone = await f.get(id);
    expect(gone).toMatchObject({ status: "terminated", publicIp: null });
    expect((await f.api("GET", "/vps")).body.data.map((s: { id: string }) => s.id)).toContain(id);
    expect((await f.api("GET", `/vps/${id}/firewall`)).body.data).toEqual([]);
    expect((await f.api("GET", `/vps/${id}/backup`)).body.code).toBe("NOT_SUBSCRIBED");
    const again = await f.api("DELETE", `/vps/${id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe("terminated");
    expect((await f.api("POST", `/vps/${id}/start`)).body.code).toBe("REQUEST_ERROR");
  });
});

describe("reach", () => {
  test("a project key sees only its project's servers; others answer 404 INSTANCE_NOT_FOUND", async () => {
    const own = await f.running({ name: "mine" });
    const other = await f.running({ name: "theirs", projectId: f.emu.projects[1] });
    const key = f.emu.keys.project;
    expect((await f.api("GET", "/vps", { key })).body.data.map((s: { id: string }) => s.id)).toEqual([own]);
    expect((await f.api("GET", "/vps")).body.data.map((s: { id: string }) => s.id)).toEqual([own, other]);
    for (const [method, path] of [
      ["GET", `/vps/${other}`],
      ["GET", `/vps/${other}/credentials`],
      ["POST", `/vps/${other}/stop`],
      ["DELETE", `/vps/${other}`],
    ]) {
      const res = await f.api(method, path, { key });
      expect([path, res.status, res.body.code]).toEqual([path, 404, "INSTANCE_NOT_FOUND"]);
    }
    expect((await f.get(other)).status).toBe("running");
  });

  test("a project key cannot create in another project: 404 PROJECT_NOT_FOUND, nothing charged", async () => {
    const before = f.wallet();
    const res = await f.create({ projectId: f.emu.projects[1] }, f.emu.keys.project);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("PROJECT_NOT_FOUND");
    expect(f.wallet()).toBe(before);
  });
});

test("a create whose answer is dropped after commit: the server exists and was charged exactly once", async () => {
  const before = f.wallet();
  await f.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", drop: true, afterCommit: true, times: 1 });
  await expect(f.create()).rejects.toThrow();
  const servers = (await f.api("GET", "/vps")).body.data;
  expect(servers).toHaveLength(1);
  expect(servers[0]).toMatchObject({ name: "web-1", status: "running" });
  expect(f.wallet()).toBe(before - f.planPrice(PLAN.small));
});
