/**
 * Vps through the real dynamic-provider host against the emulator in `time` mode (every transition
 * takes 1 s, so each wait is really exercised): issue 5 acceptance 1 (lifecycle, every row of the
 * change table), 2 (ambiguous create, provisioning failure) and 5 (rootPassword secret), and the
 * INSUFFICIENT_BALANCE / INSTANCE_NOT_RUNNING messages.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, programRegistrations, providerFor } from "../../tools/support/provider-host";
import {
  answeredAt,
  api,
  catalogue,
  calls,
  failure,
  fresh,
  NEW_PASSWORD,
  outputsOf,
  PASSWORD,
  PLAN,
  prorated,
  server,
  servers,
  until,
  wallet,
  writes,
  type Plan,
  type Props,
} from "./helpers";

const T = "Vps";
let h: ResourceHarness;
let plan: (name: string) => Plan;

useResourceHarness((x) => (h = x), {
  options: { transitions: "time", transitionSeconds: 1 },
  setup: async (h) => {
    plan = (await catalogue(h)).plan;
  },
});

/** Program inputs of a small ubuntu server named web-1 (overridable). */
const args = (overrides: Props = {}): Props => ({ planId: plan(PLAN.small).id, name: "web-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, ...overrides });

describe("Vps lifecycle: create, every row of the change table, read, delete", () => {
  // One server goes through every step in order (each step builds on the state the last one left).
  let id: string;
  let state: Props; // the outputs the engine holds after the last step
  let inputs: Props; // the program's checked inputs of the last step
  let ip: string;

  beforeAll(() => fresh(h));
  beforeEach(() => h.emu.control.clearRequests());

  test("check fills the defaults (configured project, monthly, autoRenew, running) and makes reads only (the plan catalogue; the servers and the wallet for the price)", async () => {
    inputs = await h.checked(T, args());
    expect(outputsOf(inputs)).toEqual({
      ...args(),
      projectId: h.emu.projects[0],
      billingPeriod: "monthly",
      autoRenew: true,
      powerState: "running",
    });
    // Reads only: the plan catalogue, and for the price at preview the project's servers (one of this
    // name was paid for already) and the wallet (provider/foresight.ts).
    expect(calls(h)).toEqual(["GET /api/vps/plans 200", "GET /api/vps 200", "GET /api/account/wallet 200"]);
  });

  test("auto-naming: the default name the sdk derived (the same on every first check), kept on later checks", async () => {
    const { name: _n, ...unnamed } = args();
    // What the sdk class passes: sdk/naming.ts derives it from organization, project, stack and name.
    const [registered] = await programRegistrations('new svc.Vps("web", { planId: "p", osType: "ubuntu", osVersion: "24.04", rootPassword: "Sup3rSecret!23" });');
    const defaultName = registered.inputs.defaultName as string;
    expect(defaultName).toMatch(/^web-[0-9a-f]{7}$/);
    const first = await h.checked(T, { ...unnamed, defaultName });
    expect(first.name).toBe(defaultName);
    const again = await h.checked(T, { ...unnamed, defaultName }, first);
    expect(again.name).toBe(first.name);
    // A repeated first check (no olds, as after an interrupted create) names it the same.
    expect((await h.checked(T, { ...unnamed, defaultName })).name).toBe(first.name);
    // A state of 0.1.0 (a random suffix, no defaultName) keeps its name.
    const old: Props = { ...first, name: "web-1a2b3c4" };
    delete old.defaultName;
    expect((await h.checked(T, { ...unnamed, defaultName }, old)).name).toBe("web-1a2b3c4");
  });

  test("create: one POST /vps, waits for running, answers publicIp and username; the wallet drops by the plan price once", async () => {
    const before = wallet(h);
    const created = await h.host.create(T, inputs);
    id = created.id;
    state = created.properties;
    const rec = server(h, id);
    ip = rec.publicIp!;

    expect(rec).toMatchObject({ status: "running", name: "web-1", projectId: h.emu.projects[0], planId: plan(PLAN.small).id, osType: "ubuntu", osVersion: "22.04" });
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(outputsOf(state)).toEqual({
      ...outputsOf(inputs),
      status: "running",
      publicIp: ip,
      expiresAt: rec.expiresAt,
      lastJobStatus: "success",
      lastJobError: null,
      username: "root",
    });
    expect(state.__provider).toBe(inputs.__provider);
    expect(before - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(writes(h)).toEqual([{ method: "POST", path: "/api/vps", status: 201 }]);
    // It polled while the server was provisioning (1 s in this mode), so it really waited.
    expect(calls(h).filter((c) => c === `GET /api/vps/${id} 200`).length).toBeGreaterThan(1);
  });

  test("read answers the same outputs, and the live values as inputs", async () => {
    const read = await h.host.read(T, id, state);
    expect(read.id).toBe(id);
    expect(outputsOf(read.properties)).toEqual(outputsOf(state));
    expect(outputsOf(read.inputs)).toEqual(outputsOf(inputs));
    expect(writes(h)).toEqual([]);
  });

  test("diff of the same inputs: no change", async () => {
    expect(await h.host.diff(T, id, state, await h.checked(T, args(), inputs))).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  });

  test("planId to a larger plan of the same family: update, POST upgrade, waits, wallet drops by the prorated difference", async () => {
    const news = await h.checked(T, args({ planId: plan(PLAN.medium).id }), inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: [] });
    const before = wallet(h);
    const expiresAt = server(h, id).expiresAt;
    h.emu.control.clearRequests();

    const updated = await h.host.update(T, id, state, news);
    const rec = server(h, id);
    expect(rec).toMatchObject({ planId: plan(PLAN.medium).id, status: "running", publicIp: ip });
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${id}/upgrade`, status: 200 }]);
    const expected = prorated(plan(PLAN.medium).prices.monthly, plan(PLAN.small).prices.monthly, expiresAt, answeredAt(h, "POST", `/api/vps/${id}/upgrade`));
    expect(expected).toBeGreaterThan(0);
    expect(before - wallet(h)).toBe(expected);
    expect(updated.properties).toMatchObject({ planId: plan(PLAN.medium).id, status: "running", publicIp: ip });
    state = updated.properties;
    inputs = news;
  });

  test.each([
    ["a smaller plan", PLAN.small, /not larger than s-2vcpu-2gb/],
    ["another family", PLAN.cpu, /family cpu-optimized/],
    ["another region", PLAN.sgp, /region sgp/],
  ])("planId to %s: refused at check, on planId, with the reason, and no write call", async (_what, name, reason) => {
    h.emu.control.clearRequests();
    const result = await h.check(T, args({ planId: plan(name).id }), inputs);
    expect(result.failures).toEqual([{ property: "planId", reason: expect.stringMatching(reason) }]);
    expect(writes(h)).toEqual([]);
  });

  test("a smaller plan together with a new name is a replacement, not a downgrade: accepted at check, the diff replaces", async () => {
    h.emu.control.clearRequests();
    const news = await h.checked(T, args({ planId: plan(PLAN.small).id, name: "web-2" }), inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: ["name"] });
    expect(writes(h)).toEqual([]);
  });

  test("osType/osVersion: update, reinstalled in place (same server, same IP, new OS)", async () => {
    const news = await h.checked(T, args({ planId: plan(PLAN.medium).id, osType: "debian", osVersion: "12" }), inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await h.host.update(T, id, state, news);
    expect(server(h, id)).toMatchObject({ id, publicIp: ip, osType: "debian", osVersion: "12", status: "running", lastJobStatus: "success" });
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${id}/reinstall`, status: 200 }]);
    expect(updated.properties).toMatchObject({ osType: "debian", osVersion: "12", publicIp: ip, status: "running" });
    state = updated.properties;
    inputs = news;
  });

  test("rootPassword: update, reset in place; the credentials answer the new password", async () => {
    const news = await h.checked(T, { ...outputsOf(inputs), rootPassword: NEW_PASSWORD }, inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await h.host.update(T, id, state, news);
    expect((await api(h, "GET", `/vps/${id}/credentials`)).password).toBe(NEW_PASSWORD);
    expect(writes(h)).toEqual([{ method: "POST", path: `/api/vps/${id}/reset-password`, status: 200 }]);
    expect(updated.properties.rootPassword).toBe(NEW_PASSWORD);
    state = updated.properties;
    inputs = news;
  });

  test("autoRenew: update, the server record says so", async () => {
    const news = await h.checked(T, { ...outputsOf(inputs), autoRenew: false }, inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await h.host.update(T, id, state, news);
    expect(server(h, id).autoRenew).toBe(false);
    expect(writes(h)).toEqual([{ method: "PATCH", path: `/api/vps/${id}/auto-renew`, status: 200 }]);
    expect(updated.properties.autoRenew).toBe(false);
    state = updated.properties;
    inputs = news;
  });

  test("powerState: update, stops and starts the server, waiting until settled", async () => {
    const stopped = await h.checked(T, { ...outputsOf(inputs), powerState: "stopped" }, inputs);
    expect(await h.host.diff(T, id, state, stopped)).toMatchObject({ changes: "some", replaces: [] });
    const afterStop = await h.host.update(T, id, state, stopped);
    expect(server(h, id).status).toBe("stopped");
    expect(afterStop.properties).toMatchObject({ powerState: "stopped", status: "stopped" });

    const running = await h.checked(T, { ...outputsOf(inputs), powerState: "running" }, stopped);
    const afterStart = await h.host.update(T, id, afterStop.properties, running);
    expect(server(h, id)).toMatchObject({ status: "running", publicIp: ip });
    expect(afterStart.properties).toMatchObject({ powerState: "running", status: "running" });
    expect(writes(h)).toEqual([
      { method: "POST", path: `/api/vps/${id}/stop`, status: 200 },
      { method: "POST", path: `/api/vps/${id}/start`, status: 200 },
    ]);
    state = afterStart.properties;
    inputs = running;
  });

  test("billingPeriod: one PATCH /vps/{id}/auto-renew, nothing charged; a period changed elsewhere shows as drift", async () => {
    const before = wallet(h);
    const news = await h.checked(T, { ...outputsOf(inputs), billingPeriod: "yearly" }, inputs);
    expect(await h.host.diff(T, id, state, news)).toMatchObject({ changes: "some", replaces: [] });
    const updated = await h.host.update(T, id, state, news);
    expect(writes(h)).toEqual([{ method: "PATCH", path: `/api/vps/${id}/auto-renew`, status: 200 }]);
    expect(server(h, id).billingPeriod).toBe("yearly");
    expect(wallet(h)).toBe(before);
    expect(updated.properties.billingPeriod).toBe("yearly");
    state = updated.properties;
    inputs = news;
    const read = await h.host.read(T, id, state);
    expect(read.inputs.billingPeriod).toBe("yearly");
    expect(await h.host.diff(T, id, read.properties, await h.checked(T, outputsOf(inputs), read.inputs))).toMatchObject({ changes: "none" });

    // Changed elsewhere (the dashboard, another tool): the refresh reads the server's period, the program's differs.
    const outOfBand = (billingPeriod: string) => h.emu.call("PATCH", `/api/vps/${id}/auto-renew`, { key: h.emu.keys.account, body: { billingPeriod }, waitOutRateLimit: true });
    expect((await outOfBand("3month")).status).toBe(200);
    const drifted = await h.host.read(T, id, state);
    expect(drifted.inputs.billingPeriod).toBe("3month");
    expect(await h.host.diff(T, id, drifted.properties, await h.checked(T, outputsOf(inputs), drifted.inputs))).toMatchObject({ changes: "some", replaces: [] });
    expect((await outOfBand("yearly")).status).toBe(200);
  });

  test("name and projectId: replace (the API has no rename or move)", async () => {
    expect(await h.host.diff(T, id, state, await h.checked(T, { ...outputsOf(inputs), name: "web-2" }, inputs))).toMatchObject({
      changes: "some",
      replaces: ["name"],
    });
    expect(await h.host.diff(T, id, state, await h.checked(T, { ...outputsOf(inputs), projectId: h.emu.projects[1] }, inputs))).toMatchObject({
      changes: "some",
      replaces: ["projectId"],
    });
    expect(writes(h)).toEqual([]);
  });

  test("read after a change made out of band (server stopped at the API): powerState stopped comes back as an input, and the next diff updates", async () => {
    await api(h, "POST", `/vps/${id}/stop`);
    await until(h, id, (s) => s.status === "stopped", "stopped");
    const read = await h.host.read(T, id, state);
    expect(read.id).toBe(id);
    expect(read.inputs.powerState).toBe("stopped");
    expect(read.properties).toMatchObject({ powerState: "stopped", status: "stopped" });
    expect(await h.host.diff(T, id, read.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
    state = read.properties;
  });

  test("delete terminates and waits; a second delete succeeds; read then answers gone", async () => {
    await h.host.delete(T, id, state);
    expect(server(h, id).status).toBe("terminated");
    await h.host.delete(T, id, state);
    expect(writes(h)).toEqual([
      { method: "DELETE", path: `/api/vps/${id}`, status: 200 },
      { method: "DELETE", path: `/api/vps/${id}`, status: 200 },
    ]);
    expect((await h.host.read(T, id, state)).id).toBe("");
  });

  test("read of a server that does not exist (404) answers gone", async () => {
    const read = await h.host.read(T, "00000000-0000-4000-8000-000000000000", state);
    expect(read.id).toBe("");
    // A read reads the list (its answer serves the reads of a refresh that follow); an id not in it
    // is asked for by id, as it may have been made since.
    expect(calls(h)).toEqual(["GET /api/vps 200", "GET /api/vps/00000000-0000-4000-8000-000000000000 404 INSTANCE_NOT_FOUND"]);
  });
});

describe("Vps create: outcome unknown and failures", () => {
  beforeEach(() => fresh(h, 0.5));

  test("an answer dropped after commit: create adopts the server it made; one server, one charge, one POST", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", drop: true, afterCommit: true, times: 1 });
    const before = wallet(h);
    const inputs = await h.checked(T, args());
    const created = await h.host.create(T, inputs);

    const named = servers(h).filter((s) => s.name === "web-1");
    expect(named.map((s) => s.id)).toEqual([created.id]);
    expect(named[0].status).toBe("running");
    expect(before - wallet(h)).toBe(plan(PLAN.small).prices.monthly);
    expect(writes(h)).toEqual([{ method: "POST", path: "/api/vps", status: 0 }]);
    expect(calls(h)).toContain("GET /api/vps 200");
    expect(created.properties).toMatchObject({ status: "running", publicIp: named[0].publicIp, username: "root" });
  });

  test("an answer dropped after commit and the list failing too: the error says the server may exist and how not to pay twice", async () => {
    const checked = await h.checked(T, args());
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", drop: true, afterCommit: true, times: 1 });
    // The first list (before the create is sent) answers; the one after the dropped answer does not.
    await h.emu.ctl("POST", "/faults", { method: "GET", path: "/api/vps", status: 403, code: "SCOPE_NOT_ALLOWED", skip: 1, times: 1 });
    const err = await failure<HostError>(h.host.create(T, checked));
    expect(err.message).toMatch(/^create failed: POST \/vps NETWORK_ERROR — .*outcome unknown.*list failed: GET \/vps 403 SCOPE_NOT_ALLOWED — .*look for the server and add its id as `adoptId`/);
    expect(servers(h)).toHaveLength(1); // it was created: the message was right to warn
    expect(writes(h)).toEqual([{ method: "POST", path: "/api/vps", status: 0 }]);
  });

  test("a request dropped before it was carried out: create fails, saying nothing was created or charged", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", drop: true, times: 1 });
    const before = wallet(h);
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, args())));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toMatch(/^create failed: POST \/vps NETWORK_ERROR — .*No server had appeared .*may still carry the request out late.*looks for the server before sending another create/);
    expect(servers(h)).toEqual([]);
    expect(wallet(h)).toBe(before);
  });

  test("a provisioning failure: partial failure keeping the id, refunded; the next diff of the same inputs replaces it", async () => {
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.create", reason: "hypervisor out of capacity" });
    const before = wallet(h);
    const inputs = await h.checked(T, args());
    const err = await failure<HostError>(h.host.create(T, inputs));

    const [rec] = servers(h);
    expect(rec).toMatchObject({ status: "error", lastJobStatus: "error", lastJobError: "hypervisor out of capacity" });
    expect(err.initFailed).toBeDefined();
    expect(err.initFailed!.id).toBe(rec.id);
    expect(err.initFailed!.properties).toMatchObject({ ...outputsOf(inputs), status: "error", lastJobError: "hypervisor out of capacity", __provider: inputs.__provider });
    expect(err.message).toContain("hypervisor out of capacity");
    expect(wallet(h)).toBe(before); // charged, then refunded once

    const diff = await h.host.diff(T, rec.id, err.initFailed!.properties, inputs);
    expect(diff.changes).toBe("some");
    expect(diff.replaces.length).toBeGreaterThan(0);
  });

  test("INSUFFICIENT_BALANCE: `create failed: POST /vps 402 INSUFFICIENT_BALANCE — …` with what to do; nothing created", async () => {
    const inputs = await h.checked(T, args());
    // The wallet empties after the check (which prices the run against it): the API's refusal is what the create meets.
    await h.emu.ctl("PATCH", "/wallet", { balance: 1000 });
    const err = await failure<HostError>(h.host.create(T, inputs));
    expect(err.message).toMatch(/^create failed: POST \/vps 402 INSUFFICIENT_BALANCE — Saldo tidak cukup .*required IDR 75,000, available IDR 1,000\. The wallet cannot cover the create, upgrade or renewal .*: top up the wallet, then run `pulumi up` again/);
    expect(err.initFailed).toBeUndefined();
    expect(servers(h)).toEqual([]);
    expect(wallet(h)).toBe(1000);
  });

  test("autoRenew false and powerState stopped on create: the server ends stopped with auto-renew off", async () => {
    const created = await h.host.create(T, await h.checked(T, args({ autoRenew: false, powerState: "stopped" })));
    expect(server(h, created.id)).toMatchObject({ status: "stopped", autoRenew: false });
    expect(created.properties).toMatchObject({ status: "stopped", powerState: "stopped", autoRenew: false });
  });
});

describe("Vps update: failed jobs are reported, never taken for success", () => {
  // Half-second transitions: these tests wait for many jobs.
  beforeEach(() => fresh(h, 0.5));

  test("a failed upgrade, reinstall, password reset or stop fails the update with the job's reason; the server and wallet stay as they were", async () => {
    const inputs = await h.checked(T, args());
    const created = await h.host.create(T, inputs);
    const id = created.id;
    const w0 = wallet(h);
    const attempt = async (kind: string, overrides: Props) => {
      await h.emu.ctl("POST", "/job-failures", { kind, reason: `${kind} broke on the host` });
      const started = Date.now();
      const err = await failure<HostError>(h.host.update(T, id, created.properties, await h.checked(T, args(overrides), inputs)));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(err.initFailed).toBeUndefined();
      return err.message;
    };

    expect(await attempt("vps.upgrade", { planId: plan(PLAN.medium).id })).toMatch(/^update failed: .*upgrade.* vps\.upgrade broke on the host/);
    expect(server(h, id)).toMatchObject({ planId: plan(PLAN.small).id, status: "running" });
    expect(wallet(h)).toBe(w0); // charged, then refunded

    expect(await attempt("vps.reinstall", { osType: "debian", osVersion: "12" })).toMatch(/^update failed: .*reinstall.* vps\.reinstall broke on the host/);
    expect(server(h, id)).toMatchObject({ osType: "ubuntu", osVersion: "22.04", status: "running" });

    expect(await attempt("vps.resetPassword", { rootPassword: NEW_PASSWORD })).toMatch(/^update failed: .*password.* vps\.resetPassword broke on the host/);
    expect((await api(h, "GET", `/vps/${id}/credentials`)).password).toBe(PASSWORD);

    expect(await attempt("vps.stop", { powerState: "stopped" })).toMatch(/^update failed: .*stopped.* vps\.stop broke on the host/);
    expect(server(h, id).status).toBe("running");
  });

  test("an update that failed half-way (upgraded, reinstall failed) is finished by the next one without a second upgrade or charge", async () => {
    const inputs = await h.checked(T, args());
    const created = await h.host.create(T, inputs);
    const news = await h.checked(T, args({ planId: plan(PLAN.medium).id, osType: "debian", osVersion: "12" }), inputs);
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.reinstall", reason: "image mirror down" });
    const w0 = wallet(h);
    h.emu.control.clearRequests();

    const err = await failure<HostError>(h.host.update(T, created.id, created.properties, news));
    expect(err.message).toContain("image mirror down");
    expect(server(h, created.id)).toMatchObject({ planId: plan(PLAN.medium).id, osType: "ubuntu" });
    const charged = w0 - wallet(h);
    expect(charged).toBeGreaterThan(0);

    // The engine kept the old state: the next `pulumi up` runs the same update again.
    const updated = await h.host.update(T, created.id, created.properties, news);
    expect(server(h, created.id)).toMatchObject({ planId: plan(PLAN.medium).id, osType: "debian", osVersion: "12", status: "running" });
    expect(updated.properties).toMatchObject({ planId: plan(PLAN.medium).id, osType: "debian", osVersion: "12" });
    expect(w0 - wallet(h)).toBe(charged);
    expect(writes(h).map((w) => `${w.method} ${w.path.replace(created.id, "{id}")} ${w.status}`)).toEqual([
      "POST /api/vps/{id}/upgrade 200",
      "POST /api/vps/{id}/reinstall 200",
      "POST /api/vps/{id}/reinstall 200",
    ]);
  });
});

describe("Vps update refusals", () => {
  beforeEach(() => fresh(h, 0.5));

  test("INSTANCE_NOT_RUNNING: the message says to set powerState: running first", async () => {
    const inputs = await h.checked(T, args());
    const created = await h.host.create(T, inputs);
    await h.emu.ctl("POST", "/faults", { method: "POST", path: `/api/vps/${created.id}/reset-password`, status: 409, code: "INSTANCE_NOT_RUNNING", times: 1 });
    const news = await h.checked(T, args({ rootPassword: NEW_PASSWORD }), inputs);
    const err = await failure<HostError>(h.host.update(T, created.id, created.properties, news));
    expect(err.message).toMatch(/^update failed: POST \/vps\/[0-9a-f-]+\/reset-password 409 INSTANCE_NOT_RUNNING — .*The change is applied on a running server: set `powerState: "running"` first/);
    expect(err.message).not.toContain(NEW_PASSWORD);
  });
});

describe("rootPassword stays secret", () => {
  beforeEach(() => fresh(h, 0.5));

  test("it is an additional secret output of the Vps class, even given as a plain string", async () => {
    const registration = await providerFor(T, { planId: "p", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD });
    expect(registration.type).toBe("pulumi-nodejs:dynamic/svc:Vps");
    expect(registration.additionalSecretOutputs).toContain("rootPassword");
  });

  test("it appears in no error, no host log line and not in the emulator's request log", async () => {
    const secret = "Le4k^Me#Never1";
    // An error after the password was given (the wallet emptied after the check).
    const inputs = await h.checked(T, args({ rootPassword: secret }));
    await h.emu.ctl("PATCH", "/wallet", { balance: 0 });
    const balance = await failure<HostError>(h.host.create(T, inputs));
    expect(balance.message).toContain("INSUFFICIENT_BALANCE");

    // An API that echoes the password in a job error (the worst case the redaction is for).
    await h.emu.ctl("PATCH", "/wallet", { balance: 10_000_000 });
    await h.emu.ctl("POST", "/job-failures", { kind: "vps.create", reason: `cloud-init rejected password ${secret}` });
    const partial = await failure<HostError>(h.host.create(T, await h.checked(T, args({ rootPassword: secret, name: "web-2" }))));
    expect(partial.initFailed).toBeDefined();
    expect(partial.message).toContain("cloud-init rejected password [redacted]");
    expect(partial.initFailed!.properties.lastJobError).toBe("cloud-init rejected password [redacted]");

    // A refused password at check.
    const refused = await h.check(T, args({ rootPassword: `${secret}&` }));
    // Reported without `property`, so the CLI cannot print the value beside it (sensitiveFailure).
    expect(refused.failures).toEqual([{ property: "", reason: expect.stringMatching(/^rootPassword: /) }]);
    expect(refused.failures[0].reason).not.toContain(secret);

    // Delete and read errors are what the host prints on stderr: make both fail.
    await h.emu.ctl("POST", "/faults", { path: `/api/vps/${partial.initFailed!.id}`, status: 400, code: "REQUEST_ERROR", times: 1 });
    // A read reads the servers' list.
    await h.emu.ctl("POST", "/faults", { method: "GET", path: "/api/vps", status: 400, code: "REQUEST_ERROR", times: 1 });
    const deleteErr = await failure<HostError>(h.host.delete(T, partial.initFailed!.id, partial.initFailed!.properties));
    const readErr = await failure<HostError>(h.host.read(T, partial.initFailed!.id, partial.initFailed!.properties));

    for (const text of [balance.message, partial.message, ...partial.initFailed!.reasons, JSON.stringify(refused), deleteErr.message, readErr.message]) {
      expect(text).not.toContain(secret);
    }
    // The host ran every test of this file: none of the passwords used in any of them is in its log.
    expect(h.host.stderr()).toContain("delete failed: DELETE /vps/"); // the log is really captured
    for (const password of [secret, PASSWORD, NEW_PASSWORD]) expect(h.host.stderr()).not.toContain(password);
    expect(JSON.stringify(h.emu.control.requests())).not.toContain(secret);
  });
});
