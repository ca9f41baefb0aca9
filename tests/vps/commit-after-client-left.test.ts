/**
 * The API commits after the client gave up: `POST /vps` gets no answer, the provider's request
 * times out (svc:requestTimeoutSeconds 1.5 here), and the server is made only once the client has
 * left (fault `commit: "after-client-left"`). The spec: "A repeated POST /vps creates and charges a
 * second server; the caller lists servers before retrying a create that timed out." Whatever the
 * timing, the stack ends with one server and one charge.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { stackConfig, type HostError } from "../../tools/support/provider-host";
import { useResourceHarness } from "../support/per-file";
import { catalogue, failure, fresh, PASSWORD, PLAN, servers, wallet, writes, type Plan, type Props } from "./helpers";

const T = "Vps";
let h: ResourceHarness;
let plan: (name: string) => Plan;

useResourceHarness((x) => (h = x), {
  options: {
    transitions: "time",
    transitionSeconds: 1,
    config: (emu) => ({
      ...stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] }),
      "svc:requestTimeoutSeconds": "1.5",
    }),
  },
  setup: async (h) => {
    plan = (await catalogue(h)).plan;
  },
});
beforeEach(() => fresh(h, 0.5));

const args = (overrides: Props = {}): Props => ({ planId: plan(PLAN.small).id, name: "web-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, ...overrides });

/** Polls the world until `ok` holds (at most 5 s). */
async function eventually(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not within 5 s: ${what}`);
}

const createBody = () => ({ ...args(), projectId: h.emu.projects[0], billingPeriod: "monthly" });

describe("the emulator's fault", () => {
  test("no answer; nothing is made while the client waits; carried out once the client leaves, logged as dropped", async () => {
    const rule = (await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", commit: "after-client-left", times: 1 })).body.data;
    const before = wallet(h);
    const controller = new AbortController();
    const sent = fetch(`${h.emu.urls.api}/vps`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.emu.keys.account}`, "content-type": "application/json" },
      body: JSON.stringify(createBody()),
      signal: controller.signal,
    }).catch((err: Error) => err);
    await eventually(() => h.emu.control.state().vps !== undefined, "world readable");
    await new Promise((r) => setTimeout(r, 300));
    expect(servers(h)).toEqual([]);
    expect(wallet(h)).toBe(before);

    controller.abort();
    expect(((await sent) as { name?: string }).name).toBe("AbortError");
    await eventually(() => servers(h).length === 1, "the server made after the client left");
    expect(servers(h)[0].name).toBe("web-1");
    expect(before - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    const logged = h.emu.control.requests().filter((r) => r.method === "POST" && r.path === "/api/vps");
    expect(logged).toEqual([expect.objectContaining({ status: 0, dropped: true, fault: rule.id, route: "vps.create", code: null })]);
  });

  test("the control API refuses it with an answer to give (status, drop, afterCommit)", async () => {
    for (const extra of [{ status: 500 }, { drop: true }, { afterCommit: true }]) {
      const res = await h.emu.ctl("POST", "/faults", { path: "/api/vps", commit: "after-client-left", ...extra });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION" });
    }
  });
});

describe("Vps create when the API commits after the provider's request timed out", () => {
  test("committed as the client leaves: the create settles by listing, adopts the server it made: one server, one charge, one POST", async () => {
    // The check lists servers too (its preview's foresight): done first, so that the two slowed
    // lists below are the create's own.
    const inputs = await h.checked(T, args());
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", commit: "after-client-left", times: 1 });
    // The look that follows the time-out comes on another connection: slowed a little, it is served
    // after the emulator has seen the first connection close (however loaded the machine). The
    // create's look before sending is slowed too (the first of the two).
    await h.emu.ctl("POST", "/faults", { method: "GET", path: "/api/vps", delayMs: 1_000, times: 2 });
    const before = wallet(h);
    const created = await h.host.create(T, inputs);
    const [made] = servers(h);
    expect(servers(h).map((s) => s.id)).toEqual([created.id]);
    expect(before - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(writes(h)).toEqual([{ method: "POST", path: "/api/vps", status: 0 }]);
    expect(created.properties).toMatchObject({ name: "web-1", status: "running", publicIp: made.publicIp });
  });

  test("committed a while after the client left (the list after the time-out sees nothing yet): the create fails; the next up finds the server and adopts it: one server, one charge", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", commit: "after-client-left", delayMs: 2500, times: 1 });
    const before = wallet(h);
    const inputs = await h.checked(T, args());
    const err = await failure<HostError>(h.host.create(T, inputs));
    // The provider cannot know the request will still be carried out, and must not claim it will not.
    expect(err.message).toMatch(/^create failed: POST \/vps TIMEOUT — .*outcome unknown.*No server had appeared .*may still carry the request out late/);
    expect(err.message).not.toMatch(/nothing was charged/);
    await eventually(() => servers(h).length === 1, "the late server");

    // The next `up` runs Check and Create again (no olds): it lists before sending and finds the
    // server; its explicit name proves nothing, so it stops naming the id and the adoptId line.
    const [late] = servers(h);
    const again = await failure<HostError>(h.host.create(T, inputs));
    expect(again.message).toContain(`adoptId: "${late.id}"`);
    const adopted = await h.host.create(T, await h.checked(T, args({ adoptId: late.id })));
    expect(adopted.id).toBe(late.id);
    expect(servers(h).map((s) => s.id)).toEqual([late.id]);
    expect(before - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(writes(h).filter((w) => w.method === "POST")).toEqual([{ method: "POST", path: "/api/vps", status: 0 }]);
  });
});
