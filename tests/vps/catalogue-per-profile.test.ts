/**
 * A profile may set its own `apiUrl` (another platform, or another region's API): the plan catalogue
 * its checks read is its own, not the one another profile read first in the same provider process.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { startResourceHarness, type ResourceHarness } from "../../tools/support/resource-harness";
import { stackConfig } from "../../tools/support/provider-host";
import { PASSWORD } from "../../tools/support/world";

jest.setTimeout(120_000);

let other: TestEmulator;
let h: ResourceHarness;
beforeAll(async () => {
  // Another seed: other plan ids.
  other = await startTestEmulator({ seed: 2 });
  h = await startResourceHarness({
    config: (emu) => ({
      ...stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] }),
      "svc:profiles": JSON.stringify({ elsewhere: { apiUrl: other.urls.api, apiKey: other.keys.account, projectId: other.projects[0] } }),
    }),
  });
});
afterAll(async () => {
  await h?.close();
  await other?.close();
});

const planOf = (emu: TestEmulator) => emu.control.state().catalog.vpsPlans.find((p) => p.name === "s-1vcpu-1gb")!.id;
const server = (planId: string, profile?: string) => ({ planId, name: "web-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, ...(profile ? { profile } : {}) });

test("two profiles with different apiUrls: each check reads its own platform's plans", async () => {
  expect(planOf(other)).not.toBe(planOf(h.emu));
  // The default profile reads its catalogue first; the other profile's check must not reuse it.
  expect((await h.check("Vps", server(planOf(h.emu)))).failures).toEqual([]);
  other.control.clearRequests();
  expect((await h.check("Vps", server(planOf(other), "elsewhere"))).failures).toEqual([]);
  expect(other.control.requests().map((r) => `${r.method} ${r.path}`)).toContain("GET /api/vps/plans");
  // And a plan of the first platform is unknown to the second.
  const wrong = await h.check("Vps", server(planOf(h.emu), "elsewhere"));
  expect(wrong.failures.map((f) => f.property)).toEqual(["planId"]);
});
