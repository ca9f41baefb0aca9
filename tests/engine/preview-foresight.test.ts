/**
 * A preview that knows what the `up` will cost and where it will fail (issue 35), under the real CLI
 * against the emulator: the run's paid steps against the wallet, before any is made
 * (acceptance 2, 3), the disk wipe of a reinstall said at preview (acceptance 4).
 */
import { calls, changes, fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers, PLAN, serverRecords, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(120_000);

const PASSWORD = "Foresight!pass26";
// s-1vcpu-1gb's monthly price in the emulator's catalogue (emulator/core/seed.ts).
const PRICE = 75_000;

const project = fixtureProject("foresight");
let s: EngineStack;
useEngineStack((x) => (s = x), {
  options: { projectDir: project.dir, stack: "engine-test-foresight", removeProject: true },
  setup: (s) => s.config(`${project.project}:rootPassword`, PASSWORD, true),
});

const planId = (name: string) => s.world().catalog.vpsPlans.find((p) => p.name === name)!.id;
async function setWallet(balance: number): Promise<void> {
  expect((await s.emu.ctl("PATCH", "/wallet", { balance })).status).toBe(200);
}

function fleet(plan: string, osVersion = "22.04", count = 5): void {
  project.program(
    `const ids = [];\nfor (let i = 0; i < ${count}; i++) {\n` +
      `  const server = new svc.Vps("web-" + i, { planId: "${planId(plan)}", osType: "ubuntu", osVersion: "${osVersion}", rootPassword: config.requireSecret("rootPassword") });\n` +
      `  ids.push(server.id);\n}\nexports.ids = ids;\n`,
  );
}

test("the catalogue price is the one the test assumes", () => {
  expect(s.world().catalog.vpsPlans.find((p) => p.name === PLAN.small)!.prices.monthly).toBe(PRICE);
});

test("5 servers whose total exceeds the wallet by less than one server's price: the preview fails naming the total and the wallet; nothing is made", async () => {
  fleet(PLAN.small);
  await setWallet(5 * PRICE - PRICE / 2);
  s.clearRequests();
  const r = await s.run("preview", false);
  const failure = r.errors.join("\n");
  expect(failure).toContain("IDR 375,000 in total");
  expect(failure).toContain("the wallet holds IDR 337,500");
  expect(failure).toContain("Top up at least IDR 37,500");
  expect(failure).toMatch(/planId/);
  // The first four priced at preview, each on its line.
  expect(r.messages.filter((m) => /^Vps: server "web-\d-[0-9a-f]{7}" \(plan s-1vcpu-1gb, monthly\) costs IDR 75,000 now/.test(m))).toHaveLength(4);
  expect(calls(s.writes())).toEqual([]);
  expect(serverRecords(s.world())).toEqual([]);
  expect(walletOf(s.emu)).toBe(337_500);

});

test("topped up: the preview shows each price, `up` succeeds and pays each once", async () => {
  await setWallet(5 * PRICE);
  const preview = await s.run("preview");
  const priced = preview.messages.filter((m) => /^Vps: server "web-\d-[0-9a-f]{7}" \(plan s-1vcpu-1gb, monthly\) costs IDR 75,000 now/.test(m));
  expect(priced).toHaveLength(5);
  expect(preview.messages.join("\n")).toContain("this run's 5 paid steps come to IDR 375,000");
  expect(s.writes()).toEqual([]);

  // The preview just asserted is this up's preview pass: skipped (it proves nothing more).
  const up = await s.run("up", true, { skipPreview: true });
  expect(changes(up).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `create web-${i}`));
  expect(liveServers(s.world())).toHaveLength(5);
  expect(walletOf(s.emu)).toBe(0);
});

test("an upgrade shows its prorated amount at preview, and a wallet that cannot pay it stops the preview", async () => {
  const days = Math.ceil((Date.parse(liveServers(s.world())[0].expiresAt) - Date.now()) / 86_400_000);
  const medium = s.world().catalog.vpsPlans.find((p) => p.name === PLAN.medium)!.prices.monthly;
  const each = Math.round(((medium - PRICE) * days) / 30);
  fleet(PLAN.medium);
  await setWallet(5 * each - 1);
  s.clearRequests();
  const r = await s.run("preview", false);
  expect(r.messages.join("\n")).toContain(`from s-1vcpu-1gb to s-2vcpu-2gb (prorated for the ${days} days left; IDR ${medium.toLocaleString("en-US")} − IDR 75,000 a month) costs IDR ${each.toLocaleString("en-US")} now`);
  expect(r.errors.join("\n")).toContain(`IDR ${(5 * each).toLocaleString("en-US")} in total`);
  expect(s.writes()).toEqual([]);

  await setWallet(5 * each);
  // Its preview pass would be the preview above with the wallet now enough: skipped.
  await s.run("up", true, { skipPreview: true });
  expect(liveServers(s.world()).map((x) => x.planId)).toEqual(Array(5).fill(planId(PLAN.medium)));
  expect(walletOf(s.emu)).toBe(0);
});

test("osVersion changed: the preview warns that the disk is wiped; `up` then reinstalls", async () => {
  fleet(PLAN.medium, "24.04");
  s.clearRequests();
  const r = await s.run("preview");
  expect(changes(r).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `update web-${i}`));
  const warnings = r.messages.filter((m) => m.includes("will be REINSTALLED with ubuntu 24.04 (was ubuntu 22.04): its disk is wiped"));
  expect(warnings).toHaveLength(5);
  expect(s.writes()).toEqual([]);

  // The preview just asserted is this up's preview pass: skipped (it proves nothing more).
  await s.run("up", true, { skipPreview: true });
  expect(calls(s.writes()).filter((c) => c.endsWith("/reinstall"))).toHaveLength(5);
  expect(liveServers(s.world()).map((x) => x.osVersion)).toEqual(Array(5).fill("24.04"));
});
