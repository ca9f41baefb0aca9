/**
 * Domain create through the real dynamic-provider host against the emulator (issue 6, acceptance 2
 * and 3): one registration call and one charge; DOMAIN_SAVE_PENDING is a success that is never
 * repeated and whose `domainId` a later read or update fills; an answer lost after the charge is
 * settled by adoption; refunded failures say so; refusals at `up` carry what to do. Every create
 * first reads the account's list (`GET /domains`, provider/create-once.ts): a name already there
 * stops it with the `adoptId` line, before anything is paid.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { calls, COM, domainRecords, failure, fresh, outputsOf, platformCall, registerCalls, SEEDED_WALLET, T, wallet } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const NAME = "my-shop.com";
const BILL = { registration: COM.registration, whoisProtection: 0, total: COM.registration, depositCharged: COM.registration };

/** check (preview) then a clean request log: what `pulumi up` sends to create. */
async function checkedInputs(args: Record<string, unknown>) {
  const inputs = await h.checked(T, args);
  h.emu.control.clearRequests();
  return inputs;
}

describe("Domain create", () => {
  test("registers with one call and one charge; the id is the name, domainId the API's number", async () => {
    const inputs = await checkedInputs({ name: NAME });

    const created = await h.host.create(T, inputs);

    const [rec] = domainRecords(h);
    expect(created.id).toBe(NAME);
    expect(outputsOf(created.properties)).toEqual({
      name: NAME,
      period: 1,
      whoisProtection: false,
      autoRenew: true,
      domainId: rec.id,
      status: 1,
      statusLabel: "active",
      expiresAt: rec.expiresAt,
      billing: BILL,
      savePending: false,
    });
    expect(typeof created.properties.domainId).toBe("number");
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 201"]);
  });

  test("whoisProtection at create travels in the registration: one call, one charge for both", async () => {
    const inputs = await checkedInputs({ name: NAME, whoisProtection: true });

    const created = await h.host.create(T, inputs);

    expect(created.properties.billing).toEqual({ registration: COM.registration, whoisProtection: COM.whoisProtection, total: 215_000, depositCharged: 215_000 });
    expect(domainRecords(h)).toEqual([expect.objectContaining({ name: NAME, whoisProtection: true })]);
    expect(wallet(h)).toBe(SEEDED_WALLET - 215_000);
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 201"]);
  });

  test("autoRenew false at create turns the new registration's auto-renew off", async () => {
    const inputs = await checkedInputs({ name: NAME, autoRenew: false });

    const created = await h.host.create(T, inputs);

    expect(created.properties.autoRenew).toBe(false);
    expect(domainRecords(h)).toEqual([expect.objectContaining({ name: NAME, autoRenew: false })]);
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 201", `PATCH /api/domains/${created.properties.domainId}/auto-renew 200`]);
  });
});

describe("Domain create: DOMAIN_SAVE_PENDING", () => {
  beforeEach(async () => {
    await h.emu.ctl("POST", "/transitions", { mode: "manual" });
    await h.emu.ctl("POST", "/job-failures", { kind: "domains.save-pending" });
  });

  test("is a success with id = name and no domainId; never repeated; a later read fills domainId", async () => {
    const inputs = await checkedInputs({ name: NAME });

    const created = await h.host.create(T, inputs);

    expect(created.id).toBe(NAME);
    expect(outputsOf(created.properties)).toEqual({
      name: NAME,
      period: 1,
      whoisProtection: false,
      autoRenew: true,
      status: 1,
      statusLabel: "active",
      billing: BILL,
      savePending: true,
    });
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 201"]);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
    expect(domainRecords(h)).toEqual([]);

    // A refresh before the record is saved keeps the resource as it is: not found is not gone.
    const early = await h.host.read(T, created.id, created.properties);
    expect(early.id).toBe(NAME);
    expect(outputsOf(early.properties)).toEqual(outputsOf(created.properties));
    // The next preview plans an update, which fills domainId once the record is saved.
    expect(await h.host.diff(T, NAME, created.properties, inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });

    await h.emu.ctl("POST", "/transitions/settle");
    const read = await h.host.read(T, created.id, created.properties);
    const [rec] = domainRecords(h);
    expect(read.id).toBe(NAME);
    expect(outputsOf(read.properties)).toEqual({ ...outputsOf(created.properties), domainId: rec.id, expiresAt: rec.expiresAt, savePending: false });
    expect(await h.host.diff(T, NAME, read.properties, inputs)).toMatchObject({ changes: "none" });

    // Paid once, registered once: the registration call was never sent again.
    expect(registerCalls(h)).toHaveLength(1);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });

  test("the next update fills domainId, and succeeds without it while the record is still unsaved", async () => {
    const inputs = await checkedInputs({ name: NAME });
    const created = await h.host.create(T, inputs);

    const unsaved = await h.host.update(T, NAME, created.properties, inputs);
    expect(outputsOf(unsaved.properties)).toEqual(outputsOf(created.properties));

    await h.emu.ctl("POST", "/transitions/settle");
    const updated = await h.host.update(T, NAME, created.properties, inputs);
    expect(updated.properties).toMatchObject({ domainId: domainRecords(h)[0].id, savePending: false, billing: BILL });
    expect(registerCalls(h)).toHaveLength(1);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });

  test("with autoRenew false: a partial failure (kept in state, id = name); the next up turns auto-renew off without registering again", async () => {
    const inputs = await checkedInputs({ name: NAME, autoRenew: false });

    const err = await failure<HostError>(h.host.create(T, inputs));

    expect(err).toBeInstanceOf(HostError);
    expect(err.message).toMatch(/registered and paid, but the registry has not saved its record yet \(DOMAIN_SAVE_PENDING\), so auto-renew cannot be turned off yet/);
    expect(err.initFailed?.id).toBe(NAME);
    expect(err.initFailed?.properties).toMatchObject({ name: NAME, savePending: true, autoRenew: true, __provider: inputs.__provider });

    // Too early: still not saved, so the update says to wait (and registers nothing).
    const early = await failure(h.host.update(T, NAME, err.initFailed!.properties, inputs));
    expect(early.message).toMatch(/^update failed: the registry has not saved the record of my-shop\.com yet \(DOMAIN_SAVE_PENDING\)/);

    await h.emu.ctl("POST", "/transitions/settle");
    const updated = await h.host.update(T, NAME, err.initFailed!.properties, inputs);
    expect(updated.properties).toMatchObject({ autoRenew: false, savePending: false, domainId: domainRecords(h)[0].id });
    expect(domainRecords(h)).toEqual([expect.objectContaining({ name: NAME, autoRenew: false })]);
    expect(registerCalls(h)).toHaveLength(1);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });
});

describe("Domain create: lost answers and refunded failures", () => {
  test("an answer dropped after the registration is settled by the account's list: adopted, charged once", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains", drop: true, afterCommit: true, times: 1 });

    const created = await h.host.create(T, inputs);

    const [rec] = domainRecords(h);
    expect(created.id).toBe(NAME);
    expect(created.properties).toMatchObject({ domainId: rec.id, status: 1, statusLabel: "active", savePending: false });
    // The answer that carried the billing was lost.
    expect(created.properties.billing).toBeUndefined();
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 0", "GET /api/domains 200"]);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });

  test("a request lost before it was carried out: not in the list, not sent again; the error says how to find out", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains", drop: true, times: 1 });

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(/^create failed: POST \/domains NETWORK_ERROR — /);
    expect(err.message).toMatch(/my-shop\.com is not in the account's domains, so it was most likely not registered\. It was not sent again/);
    expect(err.message).toMatch(/DOMAIN_SAVE_PENDING/);
    expect(err.message).toMatch(/if my-shop\.com is listed, add `adoptId: "my-shop\.com"` and run `pulumi up`/);
    expect(err.message).not.toMatch(/import/);
    expect(calls(h)).toEqual(["GET /api/domains 200", "POST /api/domains 0", "GET /api/domains 200"]);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    expect(domainRecords(h)).toEqual([]);
  });

  test.each([
    ["domains.registrar-unreachable", "502 REGISTRAR_ERROR"],
    ["domains.internal-error", "500 INTERNAL_ERROR"],
    ["domains.registrar-rejected", "422 REGISTRAR_REJECTED"],
  ])("%s: the error says refunded and that the next up may try again; the wallet is unchanged", async (kind, statusAndCode) => {
    const inputs = await checkedInputs({ name: NAME });
    await h.emu.ctl("POST", "/job-failures", { kind });

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(new RegExp(`^create failed: POST /domains ${statusAndCode} — `));
    expect(err.message).toMatch(/Nothing was registered and the charge, if any, was refunded \(the API refunds every 422, 500 and 502 answer\): the next `pulumi up` may try again$/);
    expect(err.message).not.toMatch(/outcome unknown/);
    expect((err as HostError).initFailed).toBeUndefined();
    expect(wallet(h)).toBe(SEEDED_WALLET);
    expect(domainRecords(h)).toEqual([]);
    expect(registerCalls(h)).toHaveLength(1);
  });
});

describe("Domain create: refusals at up (the account changed after preview)", () => {
  test("a name registered in the account since preview stops the create with the adoptId line, before any registration call", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await platformCall(h, "POST", "/domains", { name: NAME, period: 1 });
    h.emu.control.clearRequests();
    const walletBefore = wallet(h);

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(/^create failed: a domain named my-shop\.com, registered in this account, already exists \(id my-shop\.com\) and nothing shows it is this stack's\. /);
    expect(err.message).toMatch(/add `adoptId: "my-shop\.com"` to this resource's arguments and run `pulumi up` again; otherwise choose another name/);
    expect(err.message).not.toMatch(/import/);
    expect(calls(h)).toEqual(["GET /api/domains 200"]);
    expect(wallet(h)).toBe(walletBefore);
  });

  test("DOMAIN_ALREADY_IN_ACCOUNT answered to the registration itself (registered between the look and the call) gives the adoptId line", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains", times: 1, status: 409, code: "DOMAIN_ALREADY_IN_ACCOUNT" });

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(/^create failed: POST \/domains 409 DOMAIN_ALREADY_IN_ACCOUNT — /);
    expect(err.message).toMatch(/my-shop\.com is already registered in this account \(id my-shop\.com\): .*add `adoptId: "my-shop\.com"` to it \(nothing is registered or charged again\)$/);
    expect(err.message).not.toMatch(/import/);
    expect(wallet(h)).toBe(SEEDED_WALLET);
  });

  test("REGISTRANT_INCOMPLETE lists the missing owner fields and where to complete them", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await platformCall(h, "PATCH", "/domains/registrant", { email: "", postalCode: null });

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(/^create failed: POST \/domains 400 REGISTRANT_INCOMPLETE — /);
    expect(err.message).toMatch(
      /missing: email, postalCode\. Complete them in the dashboard or with PATCH \/domains\/registrant \(a DomainRegistrant resource, given to this Domain as registrant: owner\.id\), then run again$/,
    );
    expect(wallet(h)).toBe(SEEDED_WALLET);
  });

  test("INSUFFICIENT_BALANCE says to top up", async () => {
    const inputs = await checkedInputs({ name: NAME });
    await h.emu.ctl("PATCH", "/wallet", { balance: 1_000 });

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toMatch(/^create failed: POST \/domains 402 INSUFFICIENT_BALANCE — .*The wallet cannot pay: top up, then run again\. Preview refuses it already, with the price and the balance$/);
    expect(wallet(h)).toBe(1_000);
    expect(domainRecords(h)).toEqual([]);
  });
});
