/**
 * VPS emulator, firewall rules and the backup add-on: CRUD, the rule checks (all or nothing), and
 * each backup rule with its code.
 */
import { PLAN, type VpsFixture } from "../support/vps-fixture";
import { useVpsFixture } from "../support/per-file";

let f: VpsFixture;
useVpsFixture((x) => (f = x));

const ssh = { protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" };
const ping = { protocol: "icmp", action: "allow", source: "0.0.0.0/0" };
const web = { protocol: "tcp", action: "allow", port: "8000-8100", source: "2001:db8::/32" };

describe("firewall", () => {
  test("add answers 201 with ids, list shows them, remove by ids and by rule", async () => {
    const id = await f.running();
    const added = await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [ssh, ping, web] } });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual([
      { id: expect.any(String), ...ssh },
      { id: expect.any(String), ...ping },
      { id: expect.any(String), ...web },
    ]);
    expect((await f.api("GET", `/vps/${id}/firewall`)).body.data).toEqual(added.body.data);

    const byId = await f.api("DELETE", `/vps/${id}/firewall`, { body: { ids: [added.body.data[0].id] } });
    expect(byId.body.data).toEqual({ removed: 1 });
    const byRule = await f.api("DELETE", `/vps/${id}/firewall`, { body: { rules: [ping] } });
    expect(byRule.body.data).toEqual({ removed: 1 });
    expect((await f.api("GET", `/vps/${id}/firewall`)).body.data).toEqual([added.body.data[2]]);
  });

  test.each([
    ["protocol", { ...ssh, protocol: "sctp" }],
    ["action", { ...ssh, action: "drop" }],
    ["port 0", { ...ssh, port: "0" }],
    ["port 65536", { ...ssh, port: "65536" }],
    ["reversed range", { ...ssh, port: "8100-8000" }],
    ["non-numeric port", { ...ssh, port: "ssh" }],
    ["port for icmp", { ...ping, port: "22" }],
    ["no port for tcp", { protocol: "tcp", action: "allow", source: "10.0.0.1" }],
    ["IP", { ...ssh, source: "300.1.1.1" }],
    ["CIDR", { ...ssh, source: "10.0.0.0/33" }],
    ["IPv6 CIDR", { ...ssh, source: "2001:db8::/129" }],
  ])("a bad %s answers 400 INVALID_FIREWALL_RULE and adds nothing", async (_name, rule) => {
    const id = await f.running();
    const res = await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [ssh, rule] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_FIREWALL_RULE");
    expect((await f.api("GET", `/vps/${id}/firewall`)).body.data).toEqual([]);
  });

  test("a remove naming neither ids nor rules answers INVALID_FIREWALL_RULE", async () => {
    const id = await f.running();
    const res = await f.api("DELETE", `/vps/${id}/firewall`, { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_FIREWALL_RULE");
  });

  test("removing a rule that does not exist answers 404 FIREWALL_RULE_NOT_FOUND and removes nothing", async () => {
    const id = await f.running();
    const added = (await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [ssh, ping] } })).body.data;
    for (const body of [{ ids: [added[0].id, "no-such-rule"] }, { rules: [ping, web] }]) {
      const res = await f.api("DELETE", `/vps/${id}/firewall`, { body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("FIREWALL_RULE_NOT_FOUND");
    }
    expect((await f.api("GET", `/vps/${id}/firewall`)).body.data).toEqual(added);
  });

  test("a rule the server already has is refused with REQUEST_ERROR", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [ssh] } });
    const res = await f.api("POST", `/vps/${id}/firewall`, { body: { rules: [ssh] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("REQUEST_ERROR");
  });
});

describe("backup add-on", () => {
  test("the catalogue leaves retired plans out", async () => {
    const plans = (await f.api("GET", "/backup/plans")).body.data;
    expect(plans.map((p: { code: string }) => p.code)).toEqual(["backup-10", "backup-50", "backup-100"]);
    expect(plans[0]).toEqual({ code: "backup-10", name: "Backup 10 GB", quotaGb: 10, price: 15_000 });
  });

  test("activation charges the plan price, sets up (server busy), then is active; cancel ends it", async () => {
    const id = await f.running();
    const before = f.wallet();
    await f.mode("manual");
    const res = await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-50" } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ planCode: "backup-50", status: "setting_up", quotaGb: 50, usedGb: 0, charged: 50_000 });
    expect(f.wallet()).toBe(before - 50_000);
    expect((await f.api("POST", `/vps/${id}/restart`)).body.code).toBe("VPS_BUSY");
    await f.settle();
    expect((await f.api("GET", `/vps/${id}/backup`)).body.data).toMatchObject({ planCode: "backup-50", status: "active" });
    expect((await f.api("POST", `/vps/${id}/restart`)).status).toBe(200);

    expect((await f.api("DELETE", `/vps/${id}/backup`)).body.data).toEqual({ cancelled: true });
    expect((await f.api("GET", `/vps/${id}/backup`)).body.code).toBe("NOT_SUBSCRIBED");
    expect((await f.api("DELETE", `/vps/${id}/backup`)).body.code).toBe("NOT_SUBSCRIBED");
  });

  test("a failed setup job refunds the charge and leaves no add-on", async () => {
    const id = await f.running();
    const before = f.wallet();
    await f.failNext("vps.backup", "backup node unreachable");
    expect((await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } })).status).toBe(201);
    expect(await f.get(id)).toMatchObject({ lastJobStatus: "error", lastJobError: "backup node unreachable" });
    expect((await f.api("GET", `/vps/${id}/backup`)).body.code).toBe("NOT_SUBSCRIBED");
    expect(f.wallet()).toBe(before);
  });

  test("a larger plan charges the prorated difference; a smaller one is free unless backups overflow it", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-50" } });
    const addon = (await f.api("GET", `/vps/${id}/backup`)).body.data;
    f.emu.control.advanceClock(9 * 86_400 + 3600);
    // Daily backups of a 25 GB disk keep 5% of it a day: 9 days = 11.3 GB.
    expect((await f.api("GET", `/vps/${id}/backup`)).body.data.usedGb).toBe(11.3);

    const daysLeft = Math.ceil((Date.parse(addon.expiresAt) - f.emu.control.emu.nowMs()) / 86_400_000);
    const before = f.wallet();
    const up = await f.api("PATCH", `/vps/${id}/backup`, { body: { planCode: "backup-100" } });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ planCode: "backup-100", quotaGb: 100, charged: Math.round(((90_000 - 50_000) * daysLeft) / 30) });
    expect(f.wallet()).toBe(before - up.body.data.charged);

    const over = await f.api("PATCH", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("OVER_NEW_QUOTA");
    const down = await f.api("PATCH", `/vps/${id}/backup`, { body: { planCode: "backup-50" } });
    expect(down.body.data).toMatchObject({ planCode: "backup-50", charged: 0 });
    expect(f.wallet()).toBe(before - up.body.data.charged);
  });

  test.each([
    ["a windows server", "NOT_ELIGIBLE", 400],
    ["a server still provisioning", "NOT_ELIGIBLE", 400],
    ["a terminated server", "NOT_ELIGIBLE", 400],
    ["a stopped server", "VPS_NOT_RUNNING", 409],
    ["a server with the add-on", "ALREADY_SUBSCRIBED", 409],
  ] as const)("activation on %s answers %s, free of charge", async (name, code, status) => {
    let id: string;
    if (name === "a windows server") id = await f.running({ planId: f.planId(PLAN.large), osType: "windows", osVersion: "2022" });
    else if (name === "a server still provisioning") {
      await f.mode("manual");
      id = (await f.create()).body.data.id;
    } else {
      id = await f.running();
      if (name === "a terminated server") await f.api("DELETE", `/vps/${id}`);
      if (name === "a stopped server") await f.api("POST", `/vps/${id}/stop`);
      if (name === "a server with the add-on") await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    }
    const before = f.wallet();
    const res = await f.api("POST", `/vps/${id}/backup`, { body: { planCode: "backup-10" } });
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(f.wallet()).toBe(before);
  });
});
