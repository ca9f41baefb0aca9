/**
 * A server's renewal period under the real CLI against an emulator (issue 36, acceptance 2):
 * `billingPeriod` monthly → yearly is one in-place update (`PATCH /vps/{id}/auto-renew`, nothing
 * charged); the clock moved past expiry, the automatic renewal charges the yearly price and extends
 * the server by a year; a period changed out of band shows as drift on refresh, and the next `up`
 * writes the program's back.
 */
import { calls, changes, fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(120_000);

const PLAN = "s-1vcpu-1gb";
let s: EngineStack;
const project = fixtureProject("renewal-period");
const server = () => liveServers(s.world())[0];
const prices = () => s.world().catalog.vpsPlans.find((p) => p.name === PLAN)!.prices;

useEngineStack((x) => (s = x), {
  before: () =>
    project.program(`const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === ${JSON.stringify(PLAN)}).id);
new svc.Vps("web", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword"), billingPeriod: config.get("billingPeriod") || "monthly" });
`),
  options: { projectDir: project.dir, stack: "engine-test-renewal-period", removeProject: true },
  setup: (s) => s.config(`${project.project}:rootPassword`, "Renew!pass2026", true),
});

test("monthly → yearly: one in-place update, one PATCH /vps/{id}/auto-renew, nothing charged now", async () => {
  await s.run("up", true, { skipPreview: true });
  expect(server().billingPeriod).toBe("monthly");
  const before = walletOf(s.emu);
  s.config(`${project.project}:billingPeriod`, "yearly");
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["update web"]);
  expect(calls(s.writes())).toEqual([`PATCH /api/vps/${server().id}/auto-renew`]);
  expect(server().billingPeriod).toBe("yearly");
  expect(walletOf(s.emu)).toBe(before);
});

test("the clock moved past expiry: the automatic renewal charges the yearly price and extends the server by a year", async () => {
  const before = walletOf(s.emu);
  const expiresAt = new Date(server().expiresAt);
  const seconds = Math.ceil((expiresAt.getTime() - Date.parse((await s.emu.ctl("POST", "/clock/advance", { seconds: 0 })).body.data.now)) / 1000) + 60;
  await s.emu.ctl("POST", "/clock/advance", { seconds });
  // The platform's renewal run happens before any server route is answered (emulator/vps/billing.ts).
  expect((await s.emu.call("GET", `/api/vps/${server().id}`, { key: s.emu.keys.account })).status).toBe(200);
  expect(before - walletOf(s.emu)).toBe(prices().yearly);
  const next = new Date(expiresAt);
  next.setUTCMonth(next.getUTCMonth() + 12);
  expect(server().expiresAt).toBe(next.toISOString());
});

test("a period changed out of band shows as drift on refresh; the next up writes the program's back", async () => {
  const id = server().id;
  expect((await s.emu.call("PATCH", `/api/vps/${id}/auto-renew`, { key: s.emu.keys.account, body: { billingPeriod: "6month" } })).status).toBe(200);
  const refreshed = await s.run("refresh");
  // The CLI reports a refresh whose Diff finds a change as an update of the resource (pulumi/pulumi
  // v3.274.1 resource/deploy/step.go RefreshStep.ResultOp: OpUpdate unless the diff is DiffNone).
  expect(changes(refreshed)).toEqual(["update web"]);
  expect(s.state().resources.find((r) => r.name === "web")!.outputs.billingPeriod).toBe("6month");
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["update web"]);
  expect(calls(s.writes())).toEqual([`PATCH /api/vps/${id}/auto-renew`]);
  expect(server().billingPeriod).toBe("yearly");
});
