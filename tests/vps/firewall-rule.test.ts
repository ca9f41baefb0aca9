/**
 * VpsFirewallRule through the real dynamic-provider host against the emulator (`time` mode, 1-second
 * transitions): issue 5 acceptance 3 (ten rules at once, out-of-band removal, deleting a missing
 * rule, the port/CIDR rules at check), VPS_BUSY waited out, an ambiguous add settled by reading.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { api, calls, catalogue, failure, fresh, outputsOf, PLAN, runningServer, server, until, writes, type Props } from "./helpers";

const T = "VpsFirewallRule";
let h: ResourceHarness;
let vpsId: string;
let smallPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    smallPlan = (await catalogue(h)).plan(PLAN.small).id;
    // The serialized provider comes from running a real program once; get it before the concurrent creates.
    await h.inputs(T, {});
  },
  fresh: async (h) => {
    await fresh(h);
    vpsId = (await runningServer(h, smallPlan)).id;
    h.emu.control.clearRequests();
  },
});

const ssh = (overrides: Props = {}): Props => ({ vpsId, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24", ...overrides });
const rulesOf = (id: string) => server(h, id).firewall;

describe("VpsFirewallRule lifecycle", () => {
  test("ten rules on one server created concurrently all succeed: one POST of the ten, ten rules, each with its own id", async () => {
    const inputs = await Promise.all(Array.from({ length: 10 }, (_, i) => h.checked(T, ssh({ port: String(8001 + i) }))));
    const created = await Promise.all(inputs.map((i) => h.host.create(T, i)));

    const ids = created.map((c) => c.id);
    expect(new Set(ids).size).toBe(10);
    // Ten calls at once reach the API in any order: the rules are compared by port.
    const byPort = (rules: { port?: string }[]) => [...rules].sort((a, b) => Number(a.port) - Number(b.port));
    expect(byPort(rulesOf(vpsId))).toEqual(created.map((c, i) => ({ id: c.id, protocol: "tcp", action: "allow", port: String(8001 + i), source: "203.0.113.0/24" })));
    created.forEach((c, i) => expect(outputsOf(c.properties)).toEqual({ ...outputsOf(inputs[i]), ruleId: c.id }));
    // Sent together, they reach the API as one request (the route takes a list).
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${vpsId}/firewall`, status: 201 }]);
  });

  test("a request of several rules that the API refuses is sent again one rule a request: only the refused rule's create fails", async () => {
    // Two resources with the same rule, created together: the API refuses the request that holds both.
    const inputs = await Promise.all([ssh({ port: "80" }), ssh({ port: "443" }), ssh({ port: "443" })].map((i) => h.checked(T, i)));
    const settled = await Promise.allSettled(inputs.map((i) => h.host.create(T, i)));

    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(((settled[2] as PromiseRejectedResult).reason as Error).message).toMatch(/REQUEST_ERROR/);
    expect(rulesOf(vpsId).map((r) => r.port).sort()).toEqual(["443", "80"]);
    expect(writes(h).map((w) => w.status)).toEqual([400, 201, 201, 400]);
  });

  test("read finds the rule; removed out of band it reads as gone; deleting the missing rule succeeds", async () => {
    const inputs = await h.checked(T, ssh());
    const created = await h.host.create(T, inputs);
    const other = await h.host.create(T, await h.checked(T, ssh({ port: "443" })));

    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe(created.id);
    expect(outputsOf(read.properties)).toEqual(outputsOf(created.properties));
    expect(outputsOf(read.inputs)).toEqual(outputsOf(inputs));

    await api(h, "DELETE", `/vps/${vpsId}/firewall`, { ids: [created.id] });
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");

    h.emu.control.clearRequests();
    await h.host.delete(T, created.id, created.properties);
    expect(calls(h)).toEqual([`DELETE /api/vps/${vpsId}/firewall 404 FIREWALL_RULE_NOT_FOUND`]);
    expect(rulesOf(vpsId).map((r) => r.id)).toEqual([other.id]);

    // A rule that is there is removed, and only that one.
    await h.host.delete(T, other.id, other.properties);
    expect(rulesOf(vpsId)).toEqual([]);
  });

  test("an icmp rule has no port: created without one, read back without one, no diff", async () => {
    const inputs = await h.checked(T, { vpsId, protocol: "icmp", action: "deny", source: "2001:db8::/32" });
    const created = await h.host.create(T, inputs);
    expect(rulesOf(vpsId)).toEqual([{ id: created.id, protocol: "icmp", action: "deny", source: "2001:db8::/32" }]);
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.inputs).not.toHaveProperty("port");
    expect(await h.host.diff(T, created.id, read.properties, inputs)).toMatchObject({ changes: "none", replaces: [] });
  });

  test("any change replaces the rule", async () => {
    const created = await h.host.create(T, await h.checked(T, ssh()));
    for (const [property, value] of [
      ["vpsId", "00000000-0000-4000-8000-000000000000"],
      ["protocol", "udp"],
      ["action", "deny"],
      ["port", "2222"],
      ["source", "198.51.100.7"],
    ]) {
      const diff = await h.host.diff(T, created.id, created.properties, await h.checked(T, ssh({ [property]: value })));
      expect(diff).toMatchObject({ changes: "some", replaces: [property] });
    }
  });

  test("rules of a server that was terminated: read answers gone and delete succeeds", async () => {
    const created = await h.host.create(T, await h.checked(T, ssh()));
    await api(h, "DELETE", `/vps/${vpsId}`);
    await until(h, vpsId, (s) => s.status === "terminated", "terminated");
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");
    await h.host.delete(T, created.id, created.properties);
    // And a server that no longer exists at all (404 INSTANCE_NOT_FOUND).
    const gone = { ...created.properties, vpsId: "00000000-0000-4000-8000-000000000000" };
    expect((await h.host.read(T, created.id, gone)).id).toBe("");
    await h.host.delete(T, created.id, gone);
  });
});

describe("VpsFirewallRule waiting and ambiguity", () => {
  test("VPS_BUSY is waited out: a rule added while the server is stopping lands once it has stopped", async () => {
    await api(h, "POST", `/vps/${vpsId}/stop`);
    expect(server(h, vpsId).status).toBe("stopping");
    const created = await h.host.create(T, await h.checked(T, ssh()));

    expect(server(h, vpsId).status).toBe("stopped");
    expect(rulesOf(vpsId).map((r) => r.id)).toEqual([created.id]);
    const adds = calls(h).filter((c) => c.startsWith(`POST /api/vps/${vpsId}/firewall`));
    expect(adds[0]).toBe(`POST /api/vps/${vpsId}/firewall 409 VPS_BUSY`);
    expect(adds[adds.length - 1]).toBe(`POST /api/vps/${vpsId}/firewall 201`);
  });

  test("an add whose answer is dropped after commit is settled by reading the rules: one rule, adopted", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps/*/firewall", drop: true, afterCommit: true, times: 1 });
    const created = await h.host.create(T, await h.checked(T, ssh()));
    expect(rulesOf(vpsId).map((r) => r.id)).toEqual([created.id]);
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${vpsId}/firewall`, status: 0 }]);
    expect(calls(h)).toContain(`GET /api/vps/${vpsId}/firewall 200`);
  });

  test("a server that does not exist: create fails naming the call and the code", async () => {
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, ssh({ vpsId: "00000000-0000-4000-8000-000000000000" }))));
    // Looking first for an identical rule (an earlier attempt's) already tells the server is not there.
    expect(err.message).toMatch(/^create failed: GET \/vps\/0{8}-0000-4000-8000-0{12}\/firewall 404 INSTANCE_NOT_FOUND — .*No server 0{8}-0000-4000-8000-0{12} in reach of this key/);
  });
});

describe("VpsFirewallRule check (acceptance 3): refused with the property named, no call at all", () => {
  test.each([
    ["icmp with a port", { protocol: "icmp", port: "22" }, "port", /icmp has no ports/],
    ["a reversed range", { port: "8100-8000" }, "port", /reversed/],
    ["port 0", { port: "0" }, "port", /1 to 65535/],
    ["a bad CIDR", { source: "10.0.0.0/33" }, "source", /address or CIDR/],
  ])("%s", async (_what, overrides, property, reason) => {
    const result = await h.check(T, ssh(overrides));
    expect(result.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(h)).toEqual([]);
  });
});
