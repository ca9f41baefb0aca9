/**
 * Domain adoption (issue 15) through the real dynamic-provider host against the emulator. The real
 * `pulumi up` never resumes an interrupted create: it runs a plain check and create again. A name
 * already in the account may have been registered by hand or by another stack, so it is never taken
 * over silently: preview and create stop with the `adoptId` line, and `adoptId: "<name>"` manages the
 * registration as it is, without registering or paying again.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { calls, COM, domainRecords, failure, fresh, outputsOf, platformCall, registerCalls, SEEDED_WALLET, T, wallet, type Props } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const NAME = "my-shop.com";
/** Paid registrations (201); a dry run answers 200. */
const paidRegistrations = () => registerCalls(h).filter((r) => r.status === 201);

/** A registration made out of band (dashboard, another stack), here with WHOIS protection and auto-renew off. */
async function registeredByHand(): Promise<Props> {
  const data = await platformCall(h, "POST", "/domains", { name: NAME, period: 1, whoisProtection: true });
  await platformCall(h, "PATCH", `/domains/${data.id}/auto-renew`, { enabled: false });
  h.emu.control.clearRequests();
  return data;
}

describe("Domain adoptId", () => {
  test("adopts a registration of the account: no dry run, no registration, no charge; outputs are the live registration", async () => {
    const data = await registeredByHand();
    const walletBefore = wallet(h);

    const { inputs, failures } = await h.check(T, { name: NAME, whoisProtection: true, autoRenew: false, adoptId: " My-Shop.com " });
    expect(failures).toEqual([]);
    expect(inputs.adoptId).toBe(NAME);
    // Nothing to price: the name is not registered again.
    expect(calls(h)).toEqual([]);

    const created = await h.host.create(T, inputs);

    expect(created.id).toBe(NAME);
    expect(outputsOf(created.properties)).toEqual({
      name: NAME,
      period: 1,
      whoisProtection: true,
      autoRenew: false,
      adoptId: NAME,
      domainId: data.id,
      status: 1,
      statusLabel: "active",
      expiresAt: data.expiresAt,
      savePending: false,
    });
    expect(calls(h)).toEqual(["GET /api/domains 200"]);
    expect(wallet(h)).toBe(walletBefore);
    expect(domainRecords(h)).toHaveLength(1);

    // The program matches the registration: no changes; adoptId changed or removed changes nothing.
    expect(await h.host.diff(T, NAME, created.properties, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    const withoutAdoptId = await h.checked(T, { name: NAME, whoisProtection: true, autoRenew: false }, created.properties);
    expect(await h.host.diff(T, NAME, created.properties, withoutAdoptId)).toMatchObject({ changes: "none" });
  });

  test("a program that differs from the live registration: adopted as it is (nothing changed), then the next preview plans an update", async () => {
    const data = await registeredByHand();
    const walletBefore = wallet(h);
    // The program asks for auto-renew on (the default); the registration has it off.
    const inputs = await h.checked(T, { name: NAME, whoisProtection: true, adoptId: NAME });
    h.emu.control.clearRequests();

    const created = await h.host.create(T, inputs);

    expect(created.properties).toMatchObject({ autoRenew: false, whoisProtection: true, domainId: data.id });
    expect(calls(h)).toEqual(["GET /api/domains 200"]);
    expect(domainRecords(h)).toEqual([expect.objectContaining({ name: NAME, autoRenew: false })]);

    expect(await h.host.diff(T, NAME, created.properties, inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
    const updated = await h.host.update(T, NAME, created.properties, inputs);
    expect(updated.properties).toMatchObject({ autoRenew: true, domainId: data.id, adoptId: NAME });
    expect(domainRecords(h)).toEqual([expect.objectContaining({ name: NAME, autoRenew: true })]);
    expect(paidRegistrations()).toHaveLength(0);
    expect(wallet(h)).toBe(walletBefore);
    expect(await h.host.diff(T, NAME, updated.properties, inputs)).toMatchObject({ changes: "none" });
  });

  test("check refuses an adoptId other than the name, on adoptId, before any call", async () => {
    const { failures } = await h.check(T, { name: NAME, adoptId: "other-shop.com" });

    expect(failures).toEqual([{ property: "adoptId", reason: "the id of a Domain is its name: adoptId must equal name" }]);
    expect(calls(h)).toEqual([]);
  });

  test.each([
    ["a name not registered", NAME],
    ["a name of another account", "google.com"],
  ])("%s: a clear error naming it; nothing registered or charged", async (_what, name) => {
    const inputs = await h.checked(T, { name, adoptId: name });
    h.emu.control.clearRequests();

    const err = await failure(h.host.create(T, inputs));

    expect(err.message).toBe(
      `create failed: adoptId "${name}": not registered in this account: a domain of another account, or not registered — register it with this resource without adoptId`,
    );
    expect(calls(h)).toEqual(["GET /api/domains 200"]);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    expect(domainRecords(h)).toEqual([]);
  });
});

describe("Domain: a first create run again, as the real engine does after a kill", () => {
  test("the rerun stops with the name and the adoptId line (no second registration, no second charge); with adoptId it converges", async () => {
    const program = { name: NAME, autoRenew: false };
    const inputs = await h.checked(T, program);
    // The first create reached the API; its answer is lost with the killed engine.
    await h.host.create(T, inputs);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);

    // The next `pulumi up`: a plain check with no olds. The dry run answers that the name is in the account.
    const rerunCheck = await h.check(T, program);
    expect(rerunCheck.failures).toEqual([{ property: "name", reason: expect.stringMatching(/409 DOMAIN_ALREADY_IN_ACCOUNT — /) }]);
    expect(rerunCheck.failures[0].reason).toMatch(/my-shop\.com is already registered in this account \(id my-shop\.com\): .*add `adoptId: "my-shop\.com"`/);

    // A create reached anyway (same program) stops too, before any registration call.
    h.emu.control.clearRequests();
    const err = await failure(h.host.create(T, inputs));
    expect(err.message).toMatch(/\(id my-shop\.com\)/);
    expect(err.message).toMatch(/add `adoptId: "my-shop\.com"`/);
    expect(calls(h)).toEqual(["GET /api/domains 200"]);

    // The user adds adoptId: one registration, one charge, and nothing left to change.
    const adopted = await h.checked(T, { ...program, adoptId: NAME });
    const created = await h.host.create(T, adopted);
    expect(created.id).toBe(NAME);
    expect(created.properties).toMatchObject({ autoRenew: false, domainId: domainRecords(h)[0].id, savePending: false });
    expect(await h.host.diff(T, NAME, created.properties, adopted)).toMatchObject({ changes: "none" });
    expect(domainRecords(h)).toHaveLength(1);
    expect(paidRegistrations()).toHaveLength(0);
    expect(wallet(h)).toBe(SEEDED_WALLET - COM.registration);
  });
});
