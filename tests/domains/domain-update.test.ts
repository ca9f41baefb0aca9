/**
 * Domain after create, through the real dynamic-provider host against the emulator (issue 6,
 * acceptance 4 and 5): what replaces and what updates, WHOIS protection bought once (an unknown
 * outcome settled by reading, never re-sent), auto-renew toggled in place, refresh and import by
 * name, and a delete that leaves the registration in the account.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { calls, COM, domainRecords, failure, fresh, outputsOf, platformCall, SEEDED_WALLET, T, wallet, type Props } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const NAME = "my-shop.com";

/** A registered Domain as `up` left it: its checked inputs and the created state. */
async function registered(args: Props = {}): Promise<{ inputs: Props; state: Props; domainId: number }> {
  const inputs = await h.checked(T, { name: NAME, ...args });
  const created = await h.host.create(T, inputs);
  h.emu.control.clearRequests();
  return { inputs, state: created.properties, domainId: created.properties.domainId };
}

const recordOf = (name = NAME) => domainRecords(h).find((d) => d.name === name);

describe("Domain diff", () => {
  test.each([
    ["nothing changed", {}, { changes: "none", replaces: [] }],
    ["the name (a new registration)", { name: "other-shop.com" }, { changes: "some", replaces: ["name"] }],
    ["the name's case only (normalized)", { name: "MY-SHOP.com" }, { changes: "none", replaces: [] }],
    ["whoisProtection false → true", { whoisProtection: true }, { changes: "some", replaces: [] }],
    ["autoRenew", { autoRenew: false }, { changes: "some", replaces: [] }],
  ])("%s", async (_what, change, expected) => {
    const { state } = await registered();
    const news = await h.checked(T, { name: NAME, ...change }, state);

    expect(await h.host.diff(T, NAME, state, news)).toEqual({ ...expected, deleteBeforeReplace: false });
  });
});

describe("Domain update", () => {
  test("whoisProtection false → true buys it once; the same update again charges nothing", async () => {
    const { inputs, state, domainId } = await registered();
    const walletBefore = wallet(h);
    const news = await h.checked(T, { ...inputs, whoisProtection: true }, state);

    const updated = await h.host.update(T, NAME, state, news);

    expect(outputsOf(updated.properties)).toEqual({ ...outputsOf(state), whoisProtection: true });
    expect(recordOf()?.whoisProtection).toBe(true);
    expect(wallet(h)).toBe(walletBefore - COM.whoisProtection);
    expect(calls(h)).toEqual([`GET /api/domains/${domainId} 200`, `POST /api/domains/${domainId}/whois-protection 200`, `GET /api/domains/${domainId} 200`]);

    // Run again (a retried `up` with stale state): the live record says it is on, so nothing is bought.
    h.emu.control.clearRequests();
    await h.host.update(T, NAME, state, news);
    expect(wallet(h)).toBe(walletBefore - COM.whoisProtection);
    expect(calls(h)).toEqual([`GET /api/domains/${domainId} 200`]);
  });

  test("a 409 WHOIS_PROTECTION_ACTIVE answer counts as done", async () => {
    const { inputs, state } = await registered();
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains/*/whois-protection", status: 409, code: "WHOIS_PROTECTION_ACTIVE", times: 1 });

    const updated = await h.host.update(T, NAME, state, { ...inputs, whoisProtection: true });

    // No error and nothing bought; the outputs are the live record's (the one mapper, domainProperties):
    // the injected refusal left protection off there, so the next preview shows the update again.
    expect(updated.properties.whoisProtection).toBe(recordOf()?.whoisProtection);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });

  test("an answer lost after WHOIS protection was bought is settled by reading the domain: charged once, no error", async () => {
    const { inputs, state, domainId } = await registered();
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains/*/whois-protection", drop: true, afterCommit: true, times: 1 });

    const updated = await h.host.update(T, NAME, state, { ...inputs, whoisProtection: true });

    expect(updated.properties.whoisProtection).toBe(true);
    expect(recordOf()?.whoisProtection).toBe(true);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration - COM.whoisProtection);
    expect(calls(h).filter((c) => c.startsWith("POST"))).toEqual([`POST /api/domains/${domainId}/whois-protection 0`]);
  });

  test("a refunded WHOIS protection failure says so; nothing charged, protection still off", async () => {
    const { inputs, state, domainId } = await registered();
    await h.emu.ctl("POST", "/job-failures", { kind: "domains.whois-unreachable" });

    const err = await failure(h.host.update(T, NAME, state, { ...inputs, whoisProtection: true }));

    expect(err.message).toMatch(new RegExp(`^update failed: POST /domains/${domainId}/whois-protection 502 REGISTRAR_ERROR — `));
    expect(err.message).toMatch(/WHOIS protection was not bought and the charge, if any, was refunded .*: the next `pulumi up` tries again$/);
    expect(err.message).not.toMatch(/outcome unknown/);
    expect(recordOf()?.whoisProtection).toBe(false);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });

  test("autoRenew toggles in place: one PATCH each way, no registration", async () => {
    const { inputs, state, domainId } = await registered();

    const off = await h.host.update(T, NAME, state, { ...inputs, autoRenew: false });
    expect(recordOf()?.autoRenew).toBe(false);
    expect(off.properties).toMatchObject({ autoRenew: false, domainId });

    const on = await h.host.update(T, NAME, off.properties, inputs);
    expect(recordOf()?.autoRenew).toBe(true);
    expect(on.properties.autoRenew).toBe(true);

    expect(calls(h).filter((c) => !c.startsWith("GET"))).toEqual([`PATCH /api/domains/${domainId}/auto-renew 200`, `PATCH /api/domains/${domainId}/auto-renew 200`]);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
    expect(domainRecords(h)).toHaveLength(1);
  });
});

describe("Domain read", () => {
  test("refresh finds it by domainId in the account's list, carries billing over, and takes the live settings as inputs", async () => {
    const { state, domainId } = await registered();
    await platformCall(h, "PATCH", `/domains/${domainId}/auto-renew`, { enabled: false });
    h.emu.control.clearRequests();

    const read = await h.host.read(T, NAME, state);

    expect(read.id).toBe(NAME);
    expect(outputsOf(read.properties)).toEqual({ ...outputsOf(state), autoRenew: false });
    expect(outputsOf(read.inputs)).toEqual({ name: NAME, period: 1, whoisProtection: false, autoRenew: false });
    // The account's list answers every Domain of a refresh at once.
    expect(calls(h)).toEqual([`GET /api/domains 200`]);
  });

  test("import by name: props are only the program's inputs, the id is the name", async () => {
    const data = await platformCall(h, "POST", "/domains", { name: "imported.com", period: 1, whoisProtection: true });
    h.emu.control.clearRequests();
    const programInputs = await h.inputs(T, { name: "imported.com" });

    const read = await h.host.read(T, "imported.com", programInputs);

    expect(read.id).toBe("imported.com");
    expect(outputsOf(read.properties)).toEqual({
      name: "imported.com",
      period: 1,
      whoisProtection: true,
      autoRenew: true,
      domainId: data.id,
      status: 1,
      statusLabel: "active",
      expiresAt: data.expiresAt,
      savePending: false,
    });
    expect(outputsOf(read.inputs)).toEqual({ name: "imported.com", period: 1, whoisProtection: true, autoRenew: true });
    expect(calls(h)).toEqual(["GET /api/domains 200"]);

    // The program then asks for what the account has: no diff, and no dry run (the name is in state).
    h.emu.control.clearRequests();
    const news = await h.checked(T, { name: "imported.com", whoisProtection: true }, read.inputs);
    expect(await h.host.diff(T, read.id, read.properties, news)).toMatchObject({ changes: "none" });
    expect(calls(h)).toEqual([]);
  });

  // docs/Domain.md, "Auto-renewal, and what `pulumi refresh` shows after it": the platform renews at
  // expiry from the wallet, or, short of money, the renewal fails and the domain expires; either way
  // the refresh lists the Domain unchanged (outputs only) and the state takes the live record.
  test.each([
    ["the wallet pays: expiresAt a year later, active, the renewal charged", 10_000_000, { status: 1, statusLabel: "active" }, 1],
    ["the wallet is short: expired (status 3), the old expiresAt, nothing charged", 1_000, { status: 3, statusLabel: "expired" }, 0],
  ])("refresh after an auto-renewal at expiry — %s; no diff, nothing sent", async (_what, balance, expected, years) => {
    const { inputs, state } = await registered({ whoisProtection: true });
    await h.emu.ctl("PATCH", "/wallet", { balance });
    const days = Math.ceil((Date.parse(state.expiresAt) - h.emu.control.emu.nowMs()) / 86_400_000) + 1;
    await h.emu.ctl("POST", "/clock/advance", { seconds: days * 86_400 });

    const read = await h.host.read(T, NAME, state);

    const renewedUntil = new Date(state.expiresAt);
    renewedUntil.setUTCFullYear(renewedUntil.getUTCFullYear() + years);
    expect(outputsOf(read.properties)).toEqual({ ...outputsOf(state), ...expected, expiresAt: renewedUntil.toISOString() });
    expect(wallet(h)).toBe(balance - years * (175_000 + COM.whoisProtection));
    // The refresh's display: the diff of the state's inputs against the refreshed ones.
    expect(await h.host.diff(T, NAME, read.properties, inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(calls(h)).toEqual(["GET /api/domains 200"]);
  });

  test("a domain absent from the account is gone: by name (import) and by domainId (refresh)", async () => {
    const notThere = await h.host.read(T, "absent.com", await h.inputs(T, { name: "absent.com" }));
    expect(notThere.id).toBe("");

    const { state } = await registered();
    await h.emu.ctl("POST", "/reset");
    const gone = await h.host.read(T, NAME, state);
    expect(gone.id).toBe("");
  });
});

describe("Domain delete", () => {
  test("calls nothing: the domain stays registered in the account, and the message says so", async () => {
    const { state, domainId } = await registered();

    await h.host.delete(T, NAME, state);

    expect(calls(h)).toEqual([]);
    expect(recordOf()).toMatchObject({ id: domainId, name: NAME, status: "active" });
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
    // The engine shows the provider's stderr lines as messages; they arrive apart from the answer.
    const message = /Domain my-shop\.com was removed from the stack only: a registration cannot be undone, so my-shop\.com stays registered in the account/;
    for (let i = 0; i < 40 && !message.test(h.host.stderr()); i++) await new Promise((r) => setTimeout(r, 25));
    expect(h.host.stderr()).toMatch(message);
  });
});
