/**
 * Coalesced polling against the emulator: several waiters of one kind share one list call per tick;
 * a lone waiter reads its own object; an object missing from the list is read by id; with
 * coalescing off every waiter reads its own object.
 */
import { ApiClient, Deadline, listOrGet, Listing, Poller, WaitTimeoutError, type schemas } from "../../provider/client";
import type { TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

type Vps = import("zod").infer<typeof schemas.vps>;
let emu: TestEmulator;
let api: ApiClient;

useEmulator((e) => (emu = e), {
  options: { transitions: "manual" },
  setup: (emu) => {
    api = new ApiClient({ service: "platform", baseUrl: emu.urls.api, apiKey: emu.keys.account });
  },
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  },
  beforeClose: () => api.close(),
});

const kind = () => ({ list: new Listing<Vps>(api, "vps.list"), get: "vps.get", param: "id", idOf: (s: Vps) => s.id }) as const;

async function createServers(n: number): Promise<string[]> {
  const plan = (await api.call("vps.plans.list"))[0];
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = { planId: plan.id, projectId: emu.projects[0], name: `poll-${i}`, osType: "ubuntu", osVersion: "24.04", rootPassword: "Sup3r!secret#pw", billingPeriod: "monthly" };
    ids.push((await api.call("vps.create", { body })).id);
  }
  return ids;
}

const reads = () => emu.control.requests().filter((r) => r.method === "GET" && r.path.startsWith("/api/vps") && r.route !== "vps.plans.list");

test("five servers settling: one GET /vps per tick serves them all", async () => {
  const ids = await createServers(5);
  emu.control.clearRequests();
  const poller = new Poller<Vps>(listOrGet(api, kind(), true));
  const waits = ids.map((id) => poller.waitFor(id, (s) => s?.status === "running", { what: `server ${id}`, deadline: Deadline.after(10_000) }));
  await new Promise((r) => setTimeout(r, 1_200)); // two ticks with everyone still provisioning
  emu.control.settle();
  const settled = await Promise.all(waits);
  expect(settled.map((s) => s?.status)).toEqual(Array(5).fill("running"));
  const seen = reads();
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen.every((r) => r.route === "vps.list")).toBe(true);
});

test("a lone waiter reads its own object; an object missing from the list is read by id", async () => {
  const [id] = await createServers(1);
  emu.control.clearRequests();
  const poller = new Poller<Vps>(listOrGet(api, kind(), true));
  emu.control.settle();
  await poller.waitFor(id, (s) => s?.status === "running", { what: "one", deadline: Deadline.after(5_000) });
  expect(reads().map((r) => r.route)).toEqual(["vps.get"]);

  emu.control.clearRequests();
  const missing = "00000000-0000-4000-8000-000000000000";
  const [gone, here] = await Promise.all([
    poller.waitFor(missing, () => true, { what: "missing", deadline: Deadline.after(5_000) }),
    poller.waitFor(id, () => true, { what: "present", deadline: Deadline.after(5_000) }),
  ]);
  expect(gone).toBeUndefined(); // 404: gone
  expect(here?.id).toBe(id);
  expect(reads().map((r) => r.route).sort()).toEqual(["vps.get", "vps.list"]);
});

test("with coalescing off every waiter reads its own object", async () => {
  const ids = await createServers(3);
  emu.control.settle();
  emu.control.clearRequests();
  const poller = new Poller<Vps>(listOrGet(api, kind(), false));
  await Promise.all(ids.map((id) => poller.waitFor(id, (s) => s?.status === "running", { what: id, deadline: Deadline.after(5_000) })));
  expect(reads().map((r) => r.route)).toEqual(["vps.get", "vps.get", "vps.get"]);
});

test("a waiter that does not finish in time gets WaitTimeoutError naming what, the last state and how long", async () => {
  const [id] = await createServers(1);
  const poller = new Poller<Vps>(listOrGet(api, kind(), true));
  const err = await poller.waitFor(id, (s) => s?.status === "running", { what: `server ${id} to settle`, deadline: Deadline.after(700), describe: (s) => `status ${s?.status}` }).catch((e) => e);
  expect(err).toBeInstanceOf(WaitTimeoutError);
  expect(err.message).toMatch(new RegExp(`^timed out after \\d+ s waiting for server ${id} to settle; last state seen: status provisioning`));
});

test("a create's look (lookup) reuses a recent list after writes that made objects, not after a delete of this client", async () => {
  const [made] = await createServers(1);
  emu.control.settle();
  const list = new Listing<Vps>(api, "vps.list", { reuseForMs: 60_000 });
  expect((await list.lookup()).map((s) => s.id)).toEqual([made]);
  await createServers(1);
  emu.control.settle();
  emu.control.clearRequests();
  // Another object made since: the look for an earlier attempt's object may use the list it has.
  expect((await list.lookup()).map((s) => s.id)).toEqual([made]);
  expect(reads()).toEqual([]);
  // The server deleted (a replacement's old one, deleted first): the look asks again and sees it go.
  await api.call("vps.terminate", { params: { id: made } });
  emu.control.clearRequests();
  expect((await list.lookup()).find((s) => s.id === made)?.status).toMatch(/^terminat/);
  expect(reads().map((r) => r.route)).toEqual(["vps.list"]);
});
