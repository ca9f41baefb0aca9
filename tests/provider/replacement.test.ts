/**
 * A replacement never destroys the object the stack keeps (provider/create-once.ts, runtime.ts): each
 * test drives the provider host with the calls of one `pulumi up` of the real CLI, in its order and
 * with no URN, as pulumi/pulumi v3.274.1 step_generator.go makes them:
 * - a replace the provider's Diff asks for: Check with the old inputs, Diff naming the old id, Check
 *   again with no olds, Create, then Delete of the old (create before delete);
 * - a targeted replace (`--replace`): Check with NO old inputs ("if the resource has been targeted
 *   for replacement, ignore its old state"), no Diff, Create, then Delete of the old — or, with
 *   `deleteBeforeReplace`, Delete first;
 * - a rename without aliases: Check with no olds and Create for the new URN, Delete of the old URN.
 * Before each deployment's calls, `newDeployment` (under the CLI each is a process of its own).
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { catalogue, failure, fresh, PASSWORD, PLAN, runningServer, server, servers, writes, type Props } from "../vps/helpers";

let h: ResourceHarness;
let smallPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "immediate" },
  setup: async (h) => {
    smallPlan = (await catalogue(h)).plan(PLAN.small).id;
  },
  fresh: (h) => fresh(h, 0),
});

/** One deployment's first up of `type`: check with no olds, create. */
async function created(type: string, args: Props): Promise<{ id: string; properties: Props; inputs: Props }> {
  const inputs = await h.checked(type, args);
  const { id, properties } = await h.host.create(type, inputs);
  return { id, properties, inputs };
}

const webArgs = () => ({ planId: smallPlan, osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, defaultName: "web-0a1b2c3" });
/** The host's stderr once it holds `text` (its pipe is read as it comes), or after a second. */
async function stderrOnceItHas(text: string): Promise<string> {
  for (let i = 0; i < 50 && !h.host.stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 20));
  expect(h.host.stderr()).toContain(text);
  return h.host.stderr();
}
const liveServers = () => servers(h).filter((s) => s.status !== "terminated");

describe("a targeted replace (--replace)", () => {
  test("Vps: the create cannot be told from a first one, so it finds the server and keeps it; the delete leaves it (no POST, nothing terminated)", async () => {
    const old = await created("Vps", webArgs());
    await h.newDeployment();
    h.emu.control.clearRequests();

    const replacement = await h.host.create("Vps", await h.checked("Vps", webArgs()));
    await h.host.delete("Vps", old.id, old.properties);

    expect(replacement.id).toBe(old.id);
    expect(writes(h)).toEqual([]);
    expect(liveServers().map((s) => [s.id, s.status])).toEqual([[old.id, "running"]]);
    expect(await stderrOnceItHas(`svc: Vps ${old.id} is kept: a create of this deployment took it over`)).toContain("deleteBeforeReplace: true");
  });

  test("Vps with deleteBeforeReplace: the old server is terminated first, then a new one is made", async () => {
    const old = await created("Vps", webArgs());
    await h.newDeployment();

    await h.host.delete("Vps", old.id, old.properties);
    const replacement = await h.host.create("Vps", await h.checked("Vps", webArgs()));

    expect(replacement.id).not.toBe(old.id);
    expect(liveServers().map((s) => s.id)).toEqual([replacement.id]);
    expect(server(h, old.id).status).toBe("terminated");
  });
});

test("a replace the diff asks for (a server whose provisioning failed): the next up makes a new server though the failed one has the same name", async () => {
  await h.emu.ctl("POST", "/job-failures", { kind: "vps.create", reason: "hypervisor out of capacity" });
  const firstInputs = await h.checked("Vps", webArgs());
  const failed = (await failure<HostError>(h.host.create("Vps", firstInputs))).initFailed!;
  await h.newDeployment();
  h.emu.control.clearRequests();

  const news = await h.checked("Vps", webArgs(), firstInputs);
  expect(await h.host.diff("Vps", failed.id, failed.properties, news)).toMatchObject({ changes: "some", replaces: ["status"] });
  const replacement = await h.host.create("Vps", await h.checked("Vps", webArgs()));
  await h.host.delete("Vps", failed.id, failed.properties);

  expect(replacement.id).not.toBe(failed.id);
  expect(writes(h).filter((w) => w.method === "POST" && w.path === "/api/vps")).toHaveLength(1);
  expect(liveServers().map((s) => [s.id, s.status])).toEqual([[replacement.id, "running"]]);
});

test("a firewall rule renamed without aliases: the new URN's create takes the rule over, the old URN's delete leaves it", async () => {
  const vpsId = (await runningServer(h, smallPlan)).id;
  const ssh = { vpsId, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" };
  const old = await created("VpsFirewallRule", ssh);
  await h.newDeployment();
  h.emu.control.clearRequests();

  const renamed = await created("VpsFirewallRule", ssh);
  await h.host.delete("VpsFirewallRule", old.id, old.properties);

  expect(renamed.id).toBe(old.id);
  expect(server(h, vpsId).firewall.map((r) => r.id)).toEqual([old.id]);
  expect(writes(h)).toEqual([]);
});
