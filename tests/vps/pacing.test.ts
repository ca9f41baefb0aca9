/**
 * Calls a fleet does not need to make (issue 9), through the real provider host against the
 * emulator: the checks of many servers share one read of the plan catalogue; firewall rules of a
 * server whose backup is being set up wait for the setup in the provider process instead of
 * collecting VPS_BUSY refusals; the backup create does not read again the add-on its activation
 * just answered.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { startProviderHost, stackConfig } from "../../tools/support/provider-host";
import { calls, catalogue, fresh, PASSWORD, PLAN, runningServer, server } from "./helpers";

let h: ResourceHarness;
let smallPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    smallPlan = (await catalogue(h)).plan(PLAN.small).id;
  },
  fresh,
});

test("ten servers checked at once read the plan catalogue once", async () => {
  // A host of its own: the plan catalogue is cached per provider process.
  const host = await startProviderHost();
  try {
    await host.configure(stackConfig({ apiUrl: h.emu.urls.api, emailUrl: h.emu.urls.email, apiKey: h.emu.keys.account, projectId: h.emu.projects[0] }));
    const inputs = await h.inputs("Vps", { planId: smallPlan, osType: "ubuntu", osVersion: "24.04", rootPassword: PASSWORD, defaultName: "web-0a1b2c3" });
    const results = await Promise.all(Array.from({ length: 10 }, () => host.check("Vps", {}, inputs)));
    expect(results.every((r) => r.failures.length === 0)).toBe(true);
    expect(calls(h).filter((c) => c.startsWith("GET /api/vps/plans"))).toEqual(["GET /api/vps/plans 200"]);
  } finally {
    await host.stop();
  }
});

test("firewall rules of a server whose backup is being set up wait for the setup: no VPS_BUSY refusal", async () => {
  const vpsId = (await runningServer(h, smallPlan)).id;
  h.emu.control.clearRequests();
  const backup = h.host.create("VpsBackup", await h.checked("VpsBackup", { vpsId, planCode: "backup-10" }));
  // The rules arrive once the activation is sent: the server is busy for the setup's 1 s.
  for (let i = 0; i < 100 && !server(h, vpsId).backup; i++) await new Promise((r) => setTimeout(r, 20));
  expect(server(h, vpsId).backup).toMatchObject({ status: "setting_up" });
  const rules = await Promise.all(
    ["22", "80", "443"].map(async (port) => h.host.create("VpsFirewallRule", await h.checked("VpsFirewallRule", { vpsId, protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" }))),
  );
  await backup;
  expect(rules).toHaveLength(3);
  expect(server(h, vpsId).firewall.map((r) => r.port).sort()).toEqual(["22", "443", "80"]);
  const log = calls(h);
  expect(log.filter((c) => c.includes("VPS_BUSY"))).toEqual([]);
  // The rules sent once, together (one request: the route takes a list), after the add-on was seen active.
  const active = log.findIndex((c) => c.startsWith(`GET /api/vps/${vpsId}/backup 200`));
  const adds = log.map((c, i) => (c.startsWith(`POST /api/vps/${vpsId}/firewall`) ? i : -1)).filter((i) => i >= 0);
  expect(adds).toHaveLength(1);
  expect(adds.every((i) => i > active)).toBe(true);
});

test("the backup create does not read at once the add-on its activation just answered", async () => {
  const vpsId = (await runningServer(h, smallPlan)).id;
  // The check reads the add-on (is one already paid for?); the create's own calls are counted.
  const inputs = await h.checked("VpsBackup", { vpsId, planCode: "backup-10" });
  h.emu.control.clearRequests();
  await h.host.create("VpsBackup", inputs);
  const log = h.emu.control.requests().filter((r) => r.status !== 429 && r.path === `/api/vps/${vpsId}/backup`);
  // The paid call goes first: the API refuses a second add-on (ALREADY_SUBSCRIBED), so nothing is
  // read before it (provider/create-once.ts, refusedAsDuplicate).
  expect(log[0]).toMatchObject({ method: "POST", status: 201 });
  // The first read after it comes after a pause (0.5 s), not right after the answer.
  expect(log[1]).toMatchObject({ method: "GET" });
  expect(Date.parse(log[1].time) - Date.parse(log[0].time)).toBeGreaterThanOrEqual(400);
});
