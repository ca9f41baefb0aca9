/**
 * Domain registration API of the emulator, over real HTTP: registration and its dry run, the
 * registry outcomes (refunded failures, DOMAIN_SAVE_PENDING, activation pending), renewals, WHOIS
 * protection, auto-renew, owner details, and every code of the spec's "Domain API codes" table.
 * Every refusal and every refunded outcome is checked against the wallet.
 */
import { notification } from "../../contract/schemas";
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { DAY_MS, SEEDED_WALLET, walletOf } from "../../tools/support/world";
import { useEmulator } from "../support/per-file";

const PRICES = {
  com: { registration: 165_000, whoisProtection: 50_000, renewal: 175_000 },
  coId: { registration: 120_000 },
};
const YEAR_MS = 365 * 24 * 3600 * 1000;

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/transitions", { mode: "immediate" });
    await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  },
});

let callsSinceRefill = 0;
/** A platform call with the whole-account key; refills the rate limiter before the burst runs out. */
async function api(method: string, path: string, body?: unknown, key: string | null = emu.keys.account): Promise<CallResult> {
  if (++callsSinceRefill >= 8) {
    callsSinceRefill = 0;
    await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  }
  return emu.call(method, `/api${path}`, { key, body });
}
const wallet = () => walletOf(emu);
const failNext = (kind: string, reason?: string) => emu.ctl("POST", "/job-failures", reason ? { kind, reason } : { kind });
const manualTransitions = () => emu.ctl("POST", "/transitions", { mode: "manual" });
const settle = () => emu.ctl("POST", "/transitions/settle");

async function register(name: string, extra: Record<string, unknown> = {}): Promise<CallResult> {
  return api("POST", "/domains", { name, period: 1, ...extra });
}
/** Registers a domain and answers its id (the test fails here if registration does not succeed). */
async function registered(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await register(name, extra);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

function expectFailure(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.body.success).toBe(false);
  expect(typeof res.body.error).toBe("string");
}

describe("register", () => {
  test("charges exactly the registration price and answers the record with billing (201)", async () => {
    const before = emu.control.emu.nowMs();
    const res = await register("my-shop.com");
    const after = emu.control.emu.nowMs();

    const bill = { registration: PRICES.com.registration, whoisProtection: 0, total: PRICES.com.registration, depositCharged: PRICES.com.registration };
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      billing: bill,
      data: {
        id: 1001,
        name: "my-shop.com",
        status: 1,
        status_label: "active",
        expiresAt: expect.any(String),
        whoisProtection: false,
        autoRenew: true,
        billing: bill,
      },
    });
    const expires = Date.parse(res.body.data.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + YEAR_MS);
    expect(expires).toBeLessThanOrEqual(after + YEAR_MS + DAY_MS);
    expect(wallet()).toBe(SEEDED_WALLET - PRICES.com.registration);

    const { billing: _b, ...record } = res.body.data;
    expect((await api("GET", "/domains/1001")).body).toEqual({ success: true, data: record });
    expect((await api("GET", "/domains")).body).toEqual({ success: true, data: [record] });
  });

  test("with WHOIS protection charges registration plus protection", async () => {
    const res = await register("private.com", { whoisProtection: true });

    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ whoisProtection: true, billing: { whoisProtection: PRICES.com.whoisProtection, total: 215_000 } });
    expect(wallet()).toBe(SEEDED_WALLET - 215_000);
  });

  test("normalises the name and prices it by the longest extension (co.id before id)", async () => {
    const res = await register("  Toko-Saya.CO.ID ");

    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: "toko-saya.co.id", billing: { registration: PRICES.coId.registration } });
    expect(wallet()).toBe(SEEDED_WALLET - PRICES.coId.registration);
  });

  test("ids are sequential numbers", async () => {
    expect(await registered("first.com")).toBe(1001);
    expect(await registered("second.net")).toBe(1002);
  });

  test("records a user activity entry in the account's first project", async () => {
    await registered("activity.com");

    const res = await api("GET", `/account/projects/${emu.projects[0]}/activity`);
    // The spec's entityId is a UUID (domain ids are numbers): one that stands for this domain, the same in each of its entries.
    expect(res.body.data[0]).toMatchObject({ action: "domain.registered", entityType: "domain", entityName: "activity.com", actor: "user", byKeyOwner: true });
    expect(res.body.data[0].entityId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await api("PATCH", "/domains/1001/auto-renew", { enabled: false });
    const entries = (await api("GET", `/account/projects/${emu.projects[0]}/activity`)).body.data.filter((a: { entityType: string }) => a.entityType === "domain");
    expect(entries.length).toBeGreaterThanOrEqual(1);
    expect(new Set(entries.map((a: { entityId: string }) => a.entityId))).toEqual(new Set([res.body.data[0].entityId]));
  });
});

describe("register ?dryRun=true", () => {
  test("answers the price and balance after, creates and charges nothing", async () => {
    const res = await api("POST", "/domains?dryRun=true", { name: "preview.com", period: 1, whoisProtection: true });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        dryRun: true,
        currency: "IDR",
        billing: { registration: 165_000, whoisProtection: 50_000, total: 215_000, depositCharged: 215_000 },
        balanceAfter: SEEDED_WALLET - 215_000,
        enoughBalance: true,
        note: expect.any(String),
      },
    });
    expect(wallet()).toBe(SEEDED_WALLET);
    expect((await api("GET", "/domains")).body.data).toEqual([]);
  });

  test("with too little money answers enoughBalance false instead of 402", async () => {
    await emu.ctl("PATCH", "/wallet", { balance: 100_000 });

    const res = await api("POST", "/domains?dryRun=true", { name: "preview.com", period: 1 });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ enoughBalance: false, balanceAfter: 100_000 - 165_000 });
    expect(wallet()).toBe(100_000);
  });

  test("applies the same refusals as the real call", async () => {
    expectFailure(await api("POST", "/domains?dryRun=true", { name: "taken-example.com", period: 1 }), 409, "DOMAIN_UNAVAILABLE");
    expectFailure(await api("POST", "/domains?dryRun=true", { name: "premium.com", period: 1 }), 400, "PREMIUM_NOT_SUPPORTED");
  });

  test("does not consume an injected registry outcome", async () => {
    await failNext("domains.registrar-unreachable");
    expect((await api("POST", "/domains?dryRun=true", { name: "preview.com", period: 1 })).status).toBe(200);

    expectFailure(await register("preview.com"), 502, "REGISTRAR_ERROR");
  });
});

describe("register refusals charge nothing", () => {
  test.each([
    ["malformed name", 422, "VALIDATION_ERROR", { name: "bad_name!.com", period: 1 }],
    ["empty name", 422, "VALIDATION_ERROR", { name: "", period: 1 }],
    ["a subdomain", 422, "VALIDATION_ERROR", { name: "www.example.com", period: 1 }],
    ["an extension alone", 422, "VALIDATION_ERROR", { name: "co.id", period: 1 }],
    ["unknown extension", 400, "TLD_NOT_SUPPORTED", { name: "example.zz", period: 1 }],
    ["unsupported extension", 400, "TLD_NOT_SUPPORTED", { name: "agency.gov", period: 1 }],
    ["extension without a price now", 400, "PRICE_UNAVAILABLE", { name: "startup.io", period: 1 }],
    ["two years", 400, "PERIOD_NOT_SUPPORTED", { name: "long.com", period: 2 }],
    ["premium name", 400, "PREMIUM_NOT_SUPPORTED", { name: "cloud.xyz", period: 1 }],
    ["another account's name", 409, "DOMAIN_UNAVAILABLE", { name: "google.com", period: 1 }],
    ["period of the wrong type", 422, "VALIDATION_ERROR", { name: "ok.com", period: "one" }],
  ])("%s → %i %s", async (_why, status, code, body) => {
    expectFailure(await api("POST", "/domains", body), status, code);
    expect(wallet()).toBe(SEEDED_WALLET);
    expect((await api("GET", "/domains")).body.data).toEqual([]);
  });

  test("a validation refusal names the field", async () => {
    expect((await register("bad_name!.com")).body.error).toMatch(/^name: /);
    expect((await api("POST", "/domains", { name: "ok.com", period: "one" })).body.error).toMatch(/^period: /);
  });

  test("a name already in the account → 409 DOMAIN_ALREADY_IN_ACCOUNT, no second charge", async () => {
    await registered("mine.com");
    const afterFirst = wallet();

    expectFailure(await register("MINE.com"), 409, "DOMAIN_ALREADY_IN_ACCOUNT");
    expect(wallet()).toBe(afterFirst);
  });

  test("wallet too low for registration plus protection → 402 with amounts, nothing created", async () => {
    await emu.ctl("PATCH", "/wallet", { balance: 200_000 });

    const res = await register("private.com", { whoisProtection: true });

    expectFailure(res, 402, "INSUFFICIENT_BALANCE");
    expect(res.body).toMatchObject({ required: 215_000, available: 200_000 });
    expect(wallet()).toBe(200_000);
    expect((await api("GET", "/domains")).body.data).toEqual([]);
  });
});

describe("registry failures are refunded once and notified", () => {
  test.each([
    ["domains.registrar-rejected", 422, "REGISTRAR_REJECTED"],
    ["domains.registrar-unreachable", 502, "REGISTRAR_ERROR"],
    ["domains.internal-error", 500, "INTERNAL_ERROR"],
  ])("%s → %i %s, wallet as before, no domain", async (kind, status, code) => {
    await failNext(kind, "auth code wrong");

    expectFailure(await register("refund.com"), status, code);

    expect(wallet()).toBe(SEEDED_WALLET);
    expect((await api("GET", "/domains")).body.data).toEqual([]);
    const notifications = (await api("GET", "/account/notifications")).body.data;
    expect(notifications).toEqual([expect.objectContaining({ type: "domain.registration_failed", projectId: null, isRead: false })]);
    // An account-wide notification answers the contract's fields, not the emulator's record of whose account it is.
    expect(Object.keys(notifications[0]).sort()).toEqual(Object.keys(notification.shape).sort());
    expect(notifications[0].message).toContain("refund.com");
  });

  test("a rejection says the registry's reason; unreachable and internal errors stay generic", async () => {
    await failNext("domains.registrar-rejected", "name reserved by the registry");
    expect((await register("reason.com")).body.error).toContain("name reserved by the registry");

    await failNext("domains.registrar-unreachable", "socket hang up at epp.internal:700");
    expect((await register("reason.com")).body.error).not.toContain("epp.internal");
  });

  test("the injected failure hits one call only: the retry registers and charges once", async () => {
    await failNext("domains.registrar-unreachable");
    expectFailure(await register("retry.com"), 502, "REGISTRAR_ERROR");

    expect((await register("retry.com")).status).toBe(201);
    expect(wallet()).toBe(SEEDED_WALLET - PRICES.com.registration);
  });
});

describe("delivered but not recorded (DOMAIN_SAVE_PENDING)", () => {
  test("is charged once, hidden until saved, then listed with its numeric id", async () => {
    await manualTransitions();
    await failNext("domains.save-pending");

    const res = await register("pending.com");

    expect(res.status).toBe(201);
    const bill = { registration: 165_000, whoisProtection: 0, total: 165_000, depositCharged: 165_000 };
    expect(res.body).toEqual({
      success: true,
      code: "DOMAIN_SAVE_PENDING",
      message: expect.any(String),
      data: { name: "pending.com", status: 1, status_label: "active" },
      billing: bill,
    });
    expect(wallet()).toBe(SEEDED_WALLET - 165_000);
    expect((await api("GET", "/domains")).body.data).toEqual([]);
    expectFailure(await api("GET", "/domains/1001"), 404, "DOMAIN_NOT_FOUND");

    await settle();

    expect((await api("GET", "/domains")).body.data).toEqual([expect.objectContaining({ id: 1001, name: "pending.com", status: 1 })]);
    expect((await api("GET", "/domains/1001")).status).toBe(200);
    expect(wallet()).toBe(SEEDED_WALLET - 165_000);
  });

  test("a repeat while the save is pending charges again and buys nothing (why callers must not repeat)", async () => {
    await manualTransitions();
    await failNext("domains.save-pending");
    await register("twice.com");

    const repeat = await register("twice.com");

    expect(repeat.status).toBe(201);
    expect(repeat.body.code).toBe("DOMAIN_SAVE_PENDING");
    expect(wallet()).toBe(SEEDED_WALLET - 2 * 165_000);
    await settle();
    expect((await api("GET", "/domains")).body.data).toEqual([expect.objectContaining({ name: "twice.com" })]);
    expectFailure(await register("twice.com"), 409, "DOMAIN_ALREADY_IN_ACCOUNT");
  });

  test("is saved after its realistic delay in time mode", async () => {
    await emu.ctl("POST", "/transitions", { mode: "time" });
    await failNext("domains.save-pending");
    await register("later.com");
    expect((await api("GET", "/domains")).body.data).toEqual([]);

    await emu.ctl("POST", "/clock/advance", { seconds: 31 });

    expect((await api("GET", "/domains")).body.data).toEqual([expect.objectContaining({ name: "later.com" })]);
  });
});

describe("activation pending at the registry", () => {
  test("the domain is pending (status 2) and cannot be renewed until the registry activates it", async () => {
    await manualTransitions();
    await failNext("domains.activation-pending");
    const res = await register("slow.co.id");
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: 1001, status: 2, status_label: "pending" });
    const afterRegister = wallet();

    expectFailure(await api("POST", "/domains/1001/renew", { period: 1 }), 400, "DOMAIN_NOT_LINKED");
    expect(wallet()).toBe(afterRegister);

    await settle();
    expect((await api("GET", "/domains/1001")).body.data).toMatchObject({ status: 1, status_label: "active" });
    expect((await api("POST", "/domains/1001/renew", { period: 1 })).status).toBe(200);
  });
});

describe("renew", () => {
  test("adds a year and charges the renewal price (200)", async () => {
    const id = await registered("renew.com");
    const { expiresAt } = (await api("GET", `/domains/${id}`)).body.data;
    const before = wallet();

    const res = await api("POST", `/domains/${id}/renew`, { period: 1 });

    expect(res.status).toBe(200);
    const bill = { registration: PRICES.com.renewal, whoisProtection: 0, total: PRICES.com.renewal, depositCharged: PRICES.com.renewal };
    expect(res.body).toMatchObject({ success: true, billing: bill, data: { id, name: "renew.com", billing: bill } });
    const next = new Date(expiresAt);
    next.setUTCFullYear(next.getUTCFullYear() + 1);
    expect(res.body.data.expiresAt).toBe(next.toISOString());
    expect(wallet()).toBe(before - PRICES.com.renewal);
  });

  test("renews WHOIS protection with the domain", async () => {
    const id = await registered("both.com", { whoisProtection: true });
    const before = wallet();

    const res = await api("POST", `/domains/${id}/renew`, { period: 1 });

    expect(res.body.data.billing).toMatchObject({ whoisProtection: PRICES.com.whoisProtection, total: PRICES.com.renewal + PRICES.com.whoisProtection });
    expect(wallet()).toBe(before - PRICES.com.renewal - PRICES.com.whoisProtection);
  });

  test("while the registry confirms a renewal, another answers 409 RENEW_IN_PROGRESS without charge", async () => {
    const id = await registered("busy.com");
    await manualTransitions();
    expect((await api("POST", `/domains/${id}/renew`, { period: 1 })).status).toBe(200);
    const afterFirst = wallet();

    expectFailure(await api("POST", `/domains/${id}/renew`, { period: 1 }), 409, "RENEW_IN_PROGRESS");
    expect(wallet()).toBe(afterFirst);

    await settle();
    expect((await api("POST", `/domains/${id}/renew`, { period: 1 })).status).toBe(200);
  });

  test.each([
    ["domains.renew-rejected", 422, "REGISTRAR_REJECTED"],
    ["domains.renew-unreachable", 502, "REGISTRAR_ERROR"],
    ["domains.renew-internal-error", 500, "INTERNAL_ERROR"],
  ])("%s → %i %s: refunded, expiry unchanged, notified", async (kind, status, code) => {
    const id = await registered("fails.com");
    const before = (await api("GET", `/domains/${id}`)).body.data;
    const money = wallet();
    await failNext(kind);

    expectFailure(await api("POST", `/domains/${id}/renew`, { period: 1 }), status, code);

    expect(wallet()).toBe(money);
    expect((await api("GET", `/domains/${id}`)).body.data).toEqual(before);
    expect((await api("GET", "/account/notifications")).body.data[0]).toMatchObject({ type: "domain.renewal_failed" });
  });

  test("DOMAIN_SAVE_PENDING renewal answers 200, is charged, and adds its year once saved", async () => {
    const id = await registered("renew-later.com");
    const before = (await api("GET", `/domains/${id}`)).body.data;
    const money = wallet();
    await manualTransitions();
    await failNext("domains.renew-save-pending");

    const res = await api("POST", `/domains/${id}/renew`, { period: 1 });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "DOMAIN_SAVE_PENDING", data: { name: "renew-later.com", status: 1, status_label: "active" }, billing: { total: PRICES.com.renewal } });
    expect(wallet()).toBe(money - PRICES.com.renewal);
    expect((await api("GET", `/domains/${id}`)).body.data.expiresAt).toBe(before.expiresAt);

    await settle();
    const next = new Date(before.expiresAt);
    next.setUTCFullYear(next.getUTCFullYear() + 1);
    expect((await api("GET", `/domains/${id}`)).body.data.expiresAt).toBe(next.toISOString());
  });
});

describe("WHOIS protection and auto-renew", () => {
  test("turning protection on charges its price; a second time answers 409 WHOIS_PROTECTION_ACTIVE without charge", async () => {
    const id = await registered("whois.com");
    const before = wallet();

    const res = await api("POST", `/domains/${id}/whois-protection`);

    expect(res.status).toBe(200);
    const bill = { registration: 0, whoisProtection: 50_000, total: 50_000, depositCharged: 50_000 };
    expect(res.body).toMatchObject({ billing: bill, data: { id, whoisProtection: true, billing: bill } });
    expect(wallet()).toBe(before - 50_000);

    expectFailure(await api("POST", `/domains/${id}/whois-protection`), 409, "WHOIS_PROTECTION_ACTIVE");
    expect(wallet()).toBe(before - 50_000);
  });

  test("an unreachable registry refunds and leaves protection off", async () => {
    const id = await registered("whois-down.com");
    const before = wallet();
    await failNext("domains.whois-unreachable");

    expectFailure(await api("POST", `/domains/${id}/whois-protection`), 502, "REGISTRAR_ERROR");

    expect(wallet()).toBe(before);
    expect((await api("GET", `/domains/${id}`)).body.data.whoisProtection).toBe(false);
  });

  test("auto-renew is on by default and can be switched off and on", async () => {
    const id = await registered("auto.com");

    const off = await api("PATCH", `/domains/${id}/auto-renew`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id, autoRenew: false });
    expect(Object.keys(off.body.data).sort()).toEqual(["autoRenew", "expiresAt", "id", "name", "status", "status_label", "whoisProtection"]);
    expect((await api("GET", `/domains/${id}`)).body.data.autoRenew).toBe(false);

    expect((await api("PATCH", `/domains/${id}/auto-renew`, { enabled: true })).body.data.autoRenew).toBe(true);
  });

  test.each([["abc"], ["1001abc"], ["-1"], ["999999"]])("id %s answers 404 DOMAIN_NOT_FOUND", async (id) => {
    await registered("exists.com");
    expectFailure(await api("GET", `/domains/${id}`), 404, "DOMAIN_NOT_FOUND");
  });
});

describe("auto-renew at expiry, on the emulator clock", () => {
  // platform-api.md, Domain API codes: "| 409 | RENEW_IN_PROGRESS | Already being renewed (by another
  // call or auto-renew) |" — the platform renews a domain itself, paid like a renewal: "Paid actions
  // are charged to the key owner's wallet ... With insufficient balance the call answers 402
  // `INSUFFICIENT_BALANCE` and nothing is created or changed". Activity entry: "`actor` | `user` or
  // `system` (the platform itself, for example a nightly renewal)".
  const pastExpiry = async (id: number, years = 1) => {
    const { expiresAt } = (await api("GET", `/domains/${id}`)).body.data;
    const seconds = Math.ceil((Date.parse(expiresAt) - emu.control.emu.nowMs()) / 1000) + (years - 1) * 366 * 86_400 + 60;
    await emu.ctl("POST", "/clock/advance", { seconds });
    return expiresAt as string;
  };
  const plusYears = (iso: string, years: number) => {
    const d = new Date(iso);
    d.setUTCFullYear(d.getUTCFullYear() + years);
    return d.toISOString();
  };
  const notifications = async () => (await api("GET", "/account/notifications")).body.data as { type: string; message: string }[];

  test("at expiry the wallet pays the renewal (WHOIS protection with it) and the expiry moves a year; the platform's renewal is in the feed; a renewal call meanwhile is RENEW_IN_PROGRESS", async () => {
    const id = await registered("auto-paid.com", { whoisProtection: true });
    await manualTransitions();
    const before = wallet();
    const expiresAt = await pastExpiry(id);

    const after = (await api("GET", `/domains/${id}`)).body.data;
    expect(after).toMatchObject({ id, status: 1, status_label: "active", autoRenew: true, expiresAt: plusYears(expiresAt, 1) });
    expect(wallet()).toBe(before - PRICES.com.renewal - PRICES.com.whoisProtection);
    expectFailure(await api("POST", `/domains/${id}/renew`, { period: 1 }), 409, "RENEW_IN_PROGRESS");
    expect(wallet()).toBe(before - PRICES.com.renewal - PRICES.com.whoisProtection);
    const [entry] = (await api("GET", `/account/projects/${emu.projects[0]}/activity`)).body.data;
    expect(entry).toMatchObject({ action: "domain.renewed", entityName: "auto-paid.com", actor: "system", byKeyOwner: false });
    // Read again: charged once, not on every request.
    expect((await api("GET", "/domains")).status).toBe(200);
    expect(wallet()).toBe(before - PRICES.com.renewal - PRICES.com.whoisProtection);
  });

  test("years passed unseen: each is renewed and charged once", async () => {
    const id = await registered("auto-years.com");
    const before = wallet();
    const expiresAt = await pastExpiry(id, 2);
    expect((await api("GET", `/domains/${id}`)).body.data).toMatchObject({ status: 1, expiresAt: plusYears(expiresAt, 2) });
    expect(wallet()).toBe(before - 2 * PRICES.com.renewal);
  });

  test("a wallet short of the renewal: it fails with INSUFFICIENT_BALANCE, told in a notification; nothing is charged; the domain expires (status 3) until a renewal call after a top-up", async () => {
    const id = await registered("auto-poor.com");
    await emu.ctl("PATCH", "/wallet", { balance: PRICES.com.renewal - 1 });
    const expiresAt = await pastExpiry(id);

    expect((await api("GET", `/domains/${id}`)).body.data).toMatchObject({ status: 3, status_label: "expired", autoRenew: true, expiresAt });
    expect(wallet()).toBe(PRICES.com.renewal - 1);
    const [note] = await notifications();
    expect(note).toMatchObject({ type: "domain.auto_renew_failed", message: expect.stringMatching(/^INSUFFICIENT_BALANCE: .*required IDR 175,000, available IDR 174,999.*auto-poor\.com expired/) });
    // Not tried again on every request: one notification, still nothing charged.
    await api("GET", "/domains");
    expect(await notifications()).toHaveLength(1);

    await emu.ctl("PATCH", "/wallet", { balance: 1_000_000 });
    const renewed = await api("POST", `/domains/${id}/renew`, { period: 1 });
    expect(renewed.status).toBe(200);
    expect(renewed.body.data).toMatchObject({ status: 1, status_label: "active", expiresAt: plusYears(expiresAt, 1) });
    expect(wallet()).toBe(1_000_000 - PRICES.com.renewal);
  });

  test("with auto-renew off the domain expires at its expiry, nothing charged, nothing notified", async () => {
    const id = await registered("auto-off.com");
    await api("PATCH", `/domains/${id}/auto-renew`, { enabled: false });
    const before = wallet();
    await pastExpiry(id);
    expect((await api("GET", `/domains/${id}`)).body.data).toMatchObject({ status: 3, status_label: "expired" });
    expect(wallet()).toBe(before);
    expect(await notifications()).toEqual([]);
  });
});

describe("owner details (registrant)", () => {
  test("GET answers the seeded owner details", async () => {
    const res = await api("GET", "/domains/registrant");
    expect(res.body).toEqual({
      success: true,
      data: {
        name: "Dewi Lestari",
        organization: "Contoh Digital",
        email: "dewi@example.id",
        phone: "+62.8123456789",
        address: "Jl. Merdeka 1",
        city: "Jakarta",
        province: "DKI Jakarta",
        postalCode: "10110",
        country: "ID",
      },
    });
  });

  test("PATCH merges the sent fields and keeps the others", async () => {
    const res = await api("PATCH", "/domains/registrant", { phone: "+62.8987654321", country: "sg" });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ phone: "+62.8987654321", country: "SG", name: "Dewi Lestari", email: "dewi@example.id" });
    expect((await api("GET", "/domains/registrant")).body.data).toEqual(res.body.data);
  });

  test.each([
    ["email", { email: "dewi.example.id" }],
    ["country", { country: "IDN" }],
    ["phone", { phone: "08123456789" }],
    ["fax", { fax: "+62.21123456" }],
  ])("a refused %s → 400 INVALID_REGISTRANT naming it, nothing changed", async (field, body) => {
    const res = await api("PATCH", "/domains/registrant", { city: "Bandung", ...body });

    expectFailure(res, 400, "INVALID_REGISTRANT");
    expect(res.body.error).toContain(field);
    expect((await api("GET", "/domains/registrant")).body.data.city).toBe("Jakarta");
  });

  test("a value of the wrong type → 422 VALIDATION_ERROR", async () => {
    expectFailure(await api("PATCH", "/domains/registrant", { phone: 62812 }), 422, "VALIDATION_ERROR");
  });

  test("clearing required fields makes registration answer 400 REGISTRANT_INCOMPLETE with missing, no charge", async () => {
    expect((await api("PATCH", "/domains/registrant", { phone: "", address: null, organization: "" })).status).toBe(200);

    const res = await register("owner.com");

    expectFailure(res, 400, "REGISTRANT_INCOMPLETE");
    expect(res.body.missing).toEqual(["phone", "address"]);
    expect(wallet()).toBe(SEEDED_WALLET);

    await api("PATCH", "/domains/registrant", { phone: "+62.8123456789", address: "Jl. Sudirman 2" });
    expect((await register("owner.com")).status).toBe(201);
  });
});

// ---- every code of the spec's "Domain API codes" table ----

const SPEC_DOMAIN_CODES = [
  "NO_API_KEY", "INVALID_API_KEY", "API_KEY_EXPIRED", "SCOPE_NOT_ALLOWED", "ACCOUNT_KEY_REQUIRED", "TLD_NOT_SUPPORTED",
  "PERIOD_NOT_SUPPORTED", "PRICE_UNAVAILABLE", "PREMIUM_NOT_SUPPORTED", "REGISTRANT_INCOMPLETE", "INVALID_REGISTRANT",
  "DOMAIN_NOT_LINKED", "INSUFFICIENT_BALANCE", "DOMAIN_NOT_FOUND", "NOT_FOUND", "DOMAIN_UNAVAILABLE",
  "DOMAIN_ALREADY_IN_ACCOUNT", "DOMAIN_PENDING_PROFILE", "RENEW_IN_PROGRESS", "WHOIS_PROTECTION_ACTIVE", "VALIDATION_ERROR",
  "REGISTRAR_REJECTED", "RATE_LIMITED", "INTERNAL_ERROR", "REGISTRAR_ERROR", "REQUEST_ERROR",
];

/** Codes of the table the emulator never answers on these routes, with the reason. */
const NOT_PRODUCED: { code: string; why: string }[] = [
  { code: "DOMAIN_PENDING_PROFILE", why: "free domains (bundled with a plan, waiting for owner details) do not exist in the emulator; no route creates one" },
  { code: "REQUEST_ERROR", why: "every refusal on these routes has a code of its own that may be shown; a malformed name is VALIDATION_ERROR" },
];

interface CodeCase {
  code: string;
  status: number;
  /** Prepares the world; answers nothing. */
  setup?: () => Promise<unknown>;
  request: () => Promise<CallResult>;
}

const CODE_CASES: CodeCase[] = [
  { code: "NO_API_KEY", status: 401, request: () => api("GET", "/domains", undefined, null) },
  { code: "INVALID_API_KEY", status: 401, request: () => api("GET", "/domains", undefined, emu.keys.revoked) },
  { code: "API_KEY_EXPIRED", status: 401, request: () => api("GET", "/domains", undefined, emu.keys.expired) },
  { code: "SCOPE_NOT_ALLOWED", status: 403, request: () => api("POST", "/domains", { name: "scope.com", period: 1 }, emu.keys.vpsOnly) },
  { code: "ACCOUNT_KEY_REQUIRED", status: 403, request: () => api("POST", "/domains", { name: "project.com", period: 1 }, emu.keys.project) },
  { code: "TLD_NOT_SUPPORTED", status: 400, request: () => register("example.mil") },
  { code: "PERIOD_NOT_SUPPORTED", status: 400, request: () => register("example.com", { period: 3 }) },
  { code: "PRICE_UNAVAILABLE", status: 400, request: () => register("example.io") },
  { code: "PREMIUM_NOT_SUPPORTED", status: 400, request: () => register("premium.com") },
  { code: "REGISTRANT_INCOMPLETE", status: 400, setup: () => api("PATCH", "/domains/registrant", { email: "" }), request: () => register("owner.com") },
  { code: "INVALID_REGISTRANT", status: 400, request: () => api("PATCH", "/domains/registrant", { email: "no-at-sign" }) },
  {
    code: "DOMAIN_NOT_LINKED",
    status: 400,
    setup: async () => {
      await manualTransitions();
      await failNext("domains.activation-pending");
      await registered("inactive.com");
    },
    request: () => api("POST", "/domains/1001/renew", { period: 1 }),
  },
  {
    code: "INSUFFICIENT_BALANCE",
    status: 402,
    setup: () => emu.ctl("PATCH", "/wallet", { balance: 1_000 }),
    request: () => register("poor.com"),
  },
  { code: "DOMAIN_NOT_FOUND", status: 404, request: () => api("POST", "/domains/4242/renew", { period: 1 }) },
  { code: "NOT_FOUND", status: 404, setup: () => registered("forever.com"), request: () => api("DELETE", "/domains/1001") },
  { code: "DOMAIN_UNAVAILABLE", status: 409, request: () => register("example.id") },
  { code: "DOMAIN_ALREADY_IN_ACCOUNT", status: 409, setup: () => registered("mine.com"), request: () => register("mine.com") },
  {
    code: "RENEW_IN_PROGRESS",
    status: 409,
    setup: async () => {
      await registered("busy.com");
      await manualTransitions();
      await api("POST", "/domains/1001/renew", { period: 1 });
    },
    request: () => api("POST", "/domains/1001/renew", { period: 1 }),
  },
  {
    code: "WHOIS_PROTECTION_ACTIVE",
    status: 409,
    setup: () => registered("hidden.com", { whoisProtection: true }),
    request: () => api("POST", "/domains/1001/whois-protection"),
  },
  { code: "VALIDATION_ERROR", status: 422, request: () => register("typed.com", { period: "one" }) },
  { code: "REGISTRAR_REJECTED", status: 422, setup: () => failNext("domains.registrar-rejected"), request: () => register("rejected.com") },
  {
    code: "RATE_LIMITED",
    status: 429,
    request: async () => {
      const burst = await Promise.all(Array.from({ length: 14 }, () => emu.call("GET", "/api/domains", { key: emu.keys.noVps })));
      await emu.ctl("POST", "/clock/advance", { seconds: 1 });
      return burst.find((r) => r.status === 429) ?? burst[burst.length - 1];
    },
  },
  { code: "INTERNAL_ERROR", status: 500, setup: () => failNext("domains.internal-error"), request: () => register("internal.com") },
  { code: "REGISTRAR_ERROR", status: 502, setup: () => failNext("domains.registrar-unreachable"), request: () => register("unreachable.com") },
];

describe("every code of the Domain API codes table", () => {
  test("each code is produced by a case or listed as not produced, with a reason", () => {
    const covered = [...CODE_CASES.map((c) => c.code), ...NOT_PRODUCED.map((n) => n.code)].sort();
    expect(covered).toEqual([...SPEC_DOMAIN_CODES].sort());
    for (const n of NOT_PRODUCED) expect(n.why.length).toBeGreaterThan(20);
  });

  test.each(CODE_CASES.map((c) => [c.code, c.status, c] as const))("%s (%i), nothing charged by the refused call", async (_code, status, c) => {
    await c.setup?.();
    const before = wallet();

    const res = await c.request();

    expectFailure(res, status, c.code);
    expect(wallet()).toBe(before);
  });
});
