/**
 * Domain at preview (`check`) through the real dynamic-provider host against the emulator (issue 6,
 * acceptance 1 and the whoisProtection refusal of 4): input rules without any call, and the dry-run
 * registration that knows the price and refuses with the reason. Every refusal leaves the wallet
 * and the account's domains unchanged, and the request log holds only the dry run.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { UNKNOWN } from "../../tools/support/provider-host";
import { calls, COM, domainRecords, fresh, outputsOf, platformCall, SEEDED_WALLET, T, wallet, type Props } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const DRY_RUN_OK = "POST /api/domains 200";

describe("Domain check: inputs", () => {
  test("normalizes the name, fills the defaults, and prices it with one dry run that charges nothing", async () => {
    const { inputs, failures } = await h.check(T, { name: "  My-Shop.COM " });

    expect(failures).toEqual([]);
    expect(outputsOf(inputs)).toEqual({ name: "my-shop.com", period: 1, whoisProtection: false, autoRenew: true });
    expect(calls(h)).toEqual([DRY_RUN_OK]);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    expect(domainRecords(h)).toEqual([]);
  });

  test.each([
    ["no extension", { name: "localhost" }, "name", /has no extension/],
    ["a bad label", { name: "my_shop.com" }, "name", /"my_shop" is not a valid label/],
    ["an empty label", { name: "my..shop.com" }, "name", /empty label/],
    ["a label over 63 characters", { name: `${"a".repeat(64)}.com` }, "name", /not a valid label: 1 to 63/],
    ["over 253 characters", { name: `${"abcdefghi.".repeat(26)}com` }, "name", /at most 253 characters/],
    ["a numeric extension", { name: "shop.123" }, "name", /"\.123" is not a domain extension/],
    ["an empty name", { name: " " }, "name", /must not be empty/],
    // Type-error wording comes from the shared checkInputs: here only the property named matters.
    ["a number as name", { name: 42 }, "name", /^name/],
    ["period 2", { name: "my-shop.com", period: 2 }, "period", /only 1 is accepted: the API registers a domain for one year/],
    ["a non-boolean autoRenew", { name: "my-shop.com", autoRenew: "yes" }, "autoRenew", /^autoRenew/],
    ["an unknown property", { name: "my-shop.com", years: 2 }, "years", /unknown property "years"/],
  ])("refuses %s with the property named, before any call", async (_what, args, property, reason) => {
    const { failures } = await h.check(T, args);

    expect(failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(calls(h)).toEqual([]);
  });

  test("a name already in the state is not priced again (nothing at all is called)", async () => {
    const olds = await h.checked(T, { name: "my-shop.com" });
    h.emu.control.clearRequests();

    const { failures, inputs } = await h.check(T, { name: "my-shop.com", autoRenew: false }, olds);

    expect(failures).toEqual([]);
    expect(inputs.autoRenew).toBe(false);
    expect(calls(h)).toEqual([]);
  });

  test("a name not known yet during preview is neither checked nor priced", async () => {
    const { failures, inputs } = await h.check(T, { name: UNKNOWN, whoisProtection: true });

    expect(failures).toEqual([]);
    expect(inputs.name).toBe(UNKNOWN);
    expect(calls(h)).toEqual([]);
  });

  test("whoisProtection true → false is refused on whoisProtection (the API cannot remove it); a new name may drop it", async () => {
    const olds = { name: "my-shop.com", period: 1, whoisProtection: true, autoRenew: true };

    const same = await h.check(T, { name: "my-shop.com", whoisProtection: false }, olds);
    expect(same.failures).toEqual([{ property: "whoisProtection", reason: expect.stringMatching(/cannot be turned off: the API cannot remove it/) }]);
    expect(calls(h)).toEqual([]);

    // Another name is another registration (a replacement): it is priced without protection.
    const renamed = await h.check(T, { name: "other-shop.com", whoisProtection: false }, olds);
    expect(renamed.failures).toEqual([]);
    expect(calls(h)).toEqual([DRY_RUN_OK]);
  });
});

describe("Domain check: the dry run refuses with the reason, charging nothing", () => {
  test.each<[string, string, (h: ResourceHarness) => Promise<unknown>, RegExp[]]>([
    ["an unsupported extension", "example.gov", async () => undefined, [/^registration dry run failed: POST \/domains 400 TLD_NOT_SUPPORTED — /, /cannot be registered here/]],
    ["a premium name", "cloud.xyz", async () => undefined, [/400 PREMIUM_NOT_SUPPORTED — /, /premium name, which cannot be registered online/]],
    ["an extension without a price now", "startup.io", async () => undefined, [/400 PRICE_UNAVAILABLE — /, /no valid price for this extension right now/]],
    ["a name of another account", "google.com", async () => undefined, [/409 DOMAIN_UNAVAILABLE — /, /google\.com belongs to another account/]],
    ["a subdomain", "www.example.com", async () => undefined, [/422 VALIDATION_ERROR — name: "www\.example\.com" is a subdomain/]],
    [
      "a name already in the account",
      "mine.com",
      (h) => platformCall(h, "POST", "/domains", { name: "mine.com", period: 1 }),
      [/409 DOMAIN_ALREADY_IN_ACCOUNT — /, /mine\.com is already registered in this account \(id mine\.com\): .*add `adoptId: "mine\.com"` to it/],
    ],
    [
      "incomplete owner details",
      "my-shop.com",
      (h) => platformCall(h, "PATCH", "/domains/registrant", { phone: null, city: "" }),
      [/400 REGISTRANT_INCOMPLETE — /, /missing: phone, city\. Complete them in the dashboard or with PATCH \/domains\/registrant/],
    ],
  ])("refuses %s on name", async (_what, name, setup, reasons) => {
    await setup(h);
    h.emu.control.clearRequests();
    const walletBefore = wallet(h);
    const domainsBefore = domainRecords(h);

    const { failures } = await h.check(T, { name });

    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("name");
    for (const reason of reasons) expect(failures[0].reason).toMatch(reason);
    expect(failures[0].reason).not.toMatch(/outcome unknown/);
    expect(wallet(h)).toBe(walletBefore);
    expect(domainRecords(h)).toEqual(domainsBefore);
    expect(calls(h)).toEqual([expect.stringMatching(/^POST \/api\/domains (400|409|422)$/)]);
  });

  test("refuses when the wallet cannot pay, showing the price (with WHOIS protection) and the balance", async () => {
    await h.emu.ctl("PATCH", "/wallet", { balance: 100_000 });

    const { failures } = await h.check(T, { name: "my-shop.com", whoisProtection: true });

    expect(failures).toEqual([
      {
        property: "name",
        reason:
          "the wallet cannot pay for my-shop.com: it costs IDR 215,000 (registration IDR 165,000 + WHOIS protection IDR 50,000) " +
          "and the wallet holds IDR 100,000. Top up at least IDR 115,000, then run again",
      },
    ]);
    expect(COM.registration + COM.whoisProtection).toBe(215_000);
    expect(wallet(h)).toBe(100_000);
    expect(domainRecords(h)).toEqual([]);
    expect(calls(h)).toEqual([DRY_RUN_OK]);
  });

  test("a wallet that covers the price exactly passes", async () => {
    await h.emu.ctl("PATCH", "/wallet", { balance: COM.registration });

    const { failures } = await h.check(T, { name: "my-shop.com" });

    expect(failures).toEqual([]);
    expect(wallet(h)).toBe(COM.registration);
  });

  test.each([
    ["a 503 answer", { status: 503, code: "INTERNAL_ERROR" }, /^registration dry run failed: POST \/domains 503 INTERNAL_ERROR — /],
    ["no answer", { drop: true }, /^registration dry run failed: POST \/domains NETWORK_ERROR — /],
  ])("a dry run that fails for another reason (%s) is a failure too, with the API error described", async (_what, fault, reason) => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/api/domains", times: 1, ...fault });

    const { failures } = await h.check(T, { name: "my-shop.com" });

    expect(failures).toEqual([{ property: "name", reason: expect.stringMatching(reason) }]);
    expect(failures[0].reason).toMatch(/The price could not be checked, so the preview stops here \(a dry run charges nothing\): try again$/);
    expect(failures[0].reason).not.toMatch(/outcome unknown/);
    expect(wallet(h)).toBe(SEEDED_WALLET);
    // Not sent again: the route is paid, so the client never repeats it on its own.
    expect(calls(h)).toHaveLength(1);
  });
});
