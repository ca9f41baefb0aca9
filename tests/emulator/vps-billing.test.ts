/**
 * VPS emulator, billing: renewal and its options, upgrade rules and the prorated charge, failed
 * renew/upgrade jobs (refunded once, expiry or plan restored), and auto-renewal from the wallet.
 */
import { PLAN, type VpsFixture } from "../support/vps-fixture";
import { useVpsFixture } from "../support/per-file";

const DAY = 86_400_000;

let f: VpsFixture;
useVpsFixture((x) => (f = x));

function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
}

describe("renew", () => {
  test("renewal options list the four periods with the plan's prices in IDR", async () => {
    const id = await f.running();
    const res = await f.api("GET", `/vps/${id}/renewal-options`);
    expect(res.body.data).toEqual(
      (["monthly", "3month", "6month", "yearly"] as const).map((billingPeriod) => ({ billingPeriod, price: f.planPrice(PLAN.small, billingPeriod), currency: "IDR" })),
    );
  });

  test("charges the period's price and extends the expiry by that period", async () => {
    const id = await f.running();
    const { expiresAt } = await f.get(id);
    const before = f.wallet();
    const res = await f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "yearly" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, charged: f.planPrice(PLAN.small, "yearly"), expiresAt: addMonths(expiresAt, 12) });
    expect(f.wallet()).toBe(before - f.planPrice(PLAN.small, "yearly"));
    expect(await f.get(id)).toMatchObject({ expiresAt: addMonths(expiresAt, 12), lastJobStatus: "success" });
  });

  test("a failed renew job refunds once and restores the previous expiry; the status is unchanged", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/stop`);
    const { expiresAt } = await f.get(id);
    const before = f.wallet();
    await f.failNext("vps.renew", "billing node down");
    const res = await f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "6month" } });
    expect(res.body.data.expiresAt).toBe(addMonths(expiresAt, 6));
    expect(await f.get(id)).toMatchObject({ status: "stopped", expiresAt, lastJobStatus: "error", lastJobError: "billing node down" });
    expect(f.wallet()).toBe(before);
    await f.settle();
    await f.get(id);
    expect(f.wallet()).toBe(before);
  });

  test("a bad billing period answers 400 INVALID_BILLING_PERIOD and charges nothing", async () => {
    const id = await f.running();
    const before = f.wallet();
    const res = await f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "2month" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_BILLING_PERIOD");
    expect(f.wallet()).toBe(before);
  });
});

describe("upgrade", () => {
  test("charges (new − old monthly) × days left / 30, goes upgrading, and settles on the larger plan", async () => {
    const id = await f.running();
    const { expiresAt, createdAt } = await f.get(id);
    f.emu.control.advanceClock(10.5 * 86_400);
    const daysLeft = Math.round((Date.parse(expiresAt) - Date.parse(createdAt)) / DAY) - 10;
    const expected = Math.round(((f.planPrice(PLAN.medium) - f.planPrice(PLAN.small)) * daysLeft) / 30);
    const before = f.wallet();
    await f.mode("manual");
    const res = await f.api("POST", `/vps/${id}/upgrade`, { body: { planId: f.planId(PLAN.medium) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "upgrading", planId: f.planId(PLAN.medium), charged: expected });
    expect(f.wallet()).toBe(before - expected);
    await f.settle();
    expect(await f.get(id)).toMatchObject({ status: "running", planId: f.planId(PLAN.medium) });
  });

  test("a failed upgrade job refunds, restores the old plan and the status before the call", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/stop`);
    const before = f.wallet();
    await f.failNext("vps.upgrade", "host full");
    const res = await f.api("POST", `/vps/${id}/upgrade`, { body: { planId: f.planId(PLAN.large) } });
    expect(res.body.data.charged).toBeGreaterThan(0);
    expect(await f.get(id)).toMatchObject({ status: "stopped", planId: f.planId(PLAN.small), lastJobStatus: "error", lastJobError: "host full" });
    expect(f.wallet()).toBe(before);
  });

  test.each([
    ["another region", PLAN.sgp, /region/],
    ["another family", PLAN.cpu, /family/],
    ["the same plan", PLAN.medium, /not larger/],
    ["a smaller plan", PLAN.small, /not larger/],
    ["an unknown plan", "unknown", /Unknown plan/],
  ])("to %s answers 400 REQUEST_ERROR and charges nothing", async (_name, planName, message) => {
    const id = await f.running({ planId: f.planId(PLAN.medium) });
    const before = f.wallet();
    const planId = planName === "unknown" ? "11111111-1111-4111-8111-111111111111" : f.planId(planName);
    const res = await f.api("POST", `/vps/${id}/upgrade`, { body: { planId } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("REQUEST_ERROR");
    expect(res.body.error).toMatch(message);
    expect(f.wallet()).toBe(before);
  });

  test("an expired server has nothing to pay for: 400 REQUEST_ERROR", async () => {
    const id = await f.running();
    await f.api("PATCH", `/vps/${id}/auto-renew`, { body: { enabled: false } });
    f.emu.control.advanceClock(40 * 86_400);
    const res = await f.api("POST", `/vps/${id}/upgrade`, { body: { planId: f.planId(PLAN.medium) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Nothing to pay/);
  });
});

describe("auto-renew", () => {
  test("renews from the wallet a day before expiry, as the system, once per period", async () => {
    const id = await f.running();
    const { expiresAt } = await f.get(id);
    const before = f.wallet();
    f.emu.control.advanceClock((Date.parse(expiresAt) - f.emu.control.emu.nowMs()) / 1000 - 12 * 3600);
    expect((await f.get(id)).expiresAt).toBe(addMonths(expiresAt, 1));
    await f.get(id);
    expect(f.wallet()).toBe(before - f.planPrice(PLAN.small));
    const activity = (await f.api("GET", `/account/projects/${f.emu.projects[0]}/activity`)).body.data;
    expect(activity).toContainEqual(expect.objectContaining({ action: "vps.autoRenew", actor: "system", entityId: id }));
  });

  test("PATCH auto-renew with billingPeriod sets the next renewals' period, charges nothing now; the renewal then charges it", async () => {
    const id = await f.running();
    const { expiresAt } = await f.get(id);
    const before = f.wallet();
    const res = await f.api("PATCH", `/vps/${id}/auto-renew`, { body: { billingPeriod: "yearly" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, billingPeriod: "yearly", autoRenew: true, expiresAt });
    expect(f.wallet()).toBe(before);
    f.emu.control.advanceClock((Date.parse(expiresAt) - f.emu.control.emu.nowMs()) / 1000 - 12 * 3600);
    expect((await f.get(id)).expiresAt).toBe(addMonths(expiresAt, 12));
    expect(f.wallet()).toBe(before - f.planPrice(PLAN.small, "yearly"));
  });

  test("both fields at once; a bad period is 400 INVALID_BILLING_PERIOD and changes nothing; an empty body is 422 VALIDATION", async () => {
    const id = await f.running();
    const res = await f.api("PATCH", `/vps/${id}/auto-renew`, { body: { enabled: false, billingPeriod: "3month" } });
    expect(res.body.data).toMatchObject({ autoRenew: false, billingPeriod: "3month" });
    const bad = await f.api("PATCH", `/vps/${id}/auto-renew`, { body: { enabled: true, billingPeriod: "weekly" } });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: "INVALID_BILLING_PERIOD" });
    expect(await f.get(id)).toMatchObject({ autoRenew: false, billingPeriod: "3month" });
    const empty = await f.api("PATCH", `/vps/${id}/auto-renew`, { body: {} });
    expect({ status: empty.status, code: empty.body.code }).toEqual({ status: 422, code: "VALIDATION" });
  });

  test("POST /vps/{id}/renew (paid now) leaves the renewal period as it is", async () => {
    const id = await f.running();
    await f.api("POST", `/vps/${id}/renew`, { body: { billingPeriod: "yearly" } });
    expect((await f.get(id)).billingPeriod).toBe("monthly");
  });

  test("turned off, nothing is charged; an empty wallet is notified once", async () => {
    const off = await f.running({ name: "manual-renew" });
    expect((await f.api("PATCH", `/vps/${off}/auto-renew`, { body: { enabled: false } })).body.data.autoRenew).toBe(false);
    const on = await f.running({ name: "auto-renew" });
    await f.emu.ctl("PATCH", "/wallet", { balance: 10 });
    f.emu.control.advanceClock(32 * 86_400);
    await f.api("GET", "/vps");
    await f.api("GET", "/vps");
    expect(f.wallet()).toBe(10);
    const notes = (await f.api("GET", "/account/notifications")).body.data;
    expect(notes.filter((n: { link: string }) => n.link === `/vps/${on}`)).toHaveLength(1);
    expect(notes.filter((n: { link: string }) => n.link === `/vps/${off}`)).toHaveLength(0);
  });
});
