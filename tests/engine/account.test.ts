/**
 * examples/account under the real CLI against an emulator (issue 36, acceptance 1 and 3): on a
 * fresh account (no owner details) a DomainRegistrant and a Domain in one program — the preview does
 * not fail for the details the program writes, `up` writes them and then registers the domain once; a
 * changed owner field is one in-place update (one PATCH with that field); an EmailSuppression is
 * listed by `up`, a second preview plans nothing, destroy takes it off the list and leaves the owner
 * details and the registration, saying so.
 */
import { join } from "node:path";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import type { SuppressionRec } from "../../emulator/email/state";
import { domainRecords, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

const P = "svc-account";
const DOMAIN = "toko-budi.com";
const SUPPRESSED = "former-customer@example.org";
const PHONE = "+62.8123456789";
// .com in the emulator's catalogue, without WHOIS protection.
const PRICE = 165_000;

let s: EngineStack;
let balance: number;
const registrant = () => s.world().account.registrant;
const suppressions = () => ((s.world().email as { suppressions?: SuppressionRec[] }).suppressions ?? []).map((x) => ({ email: x.email, reason: x.reason }));

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/account"), stack: "engine-test-account" },
  setup: (s) => {
    s.config(`${P}:domain`, DOMAIN);
    s.config(`${P}:ownerName`, "Budi Santoso");
    s.config(`${P}:ownerEmail`, "Budi@Example.com");
    s.config(`${P}:ownerPhone`, PHONE, true);
    s.config(`${P}:suppress`, SUPPRESSED);
    // A fresh account: no owner details yet, so every registration is refused (REGISTRANT_INCOMPLETE).
    const account = s.emu.control.emu.world.account;
    for (const field of Object.keys(account.registrant)) account.registrant[field] = null;
    balance = walletOf(s.emu);
  },
});

test("preview on a fresh account: three creates, not failed by the details the program writes first; nothing written", async () => {
  const r = await s.run("preview");
  expect(changes(r).sort()).toEqual(["create do-not-mail", "create owner", "create site"]);
  expect(r.messages.join("\n")).toContain(`Domain ${DOMAIN}: not priced in this preview`);
  // The dry run, refused for the missing details: nothing registered, written or listed.
  expect(calls(s.writes())).toEqual(["POST /api/domains"]);
  expect(s.writes()[0]).toMatchObject({ status: 400, code: "REGISTRANT_INCOMPLETE" });
  expect(registrant().name).toBeNull();
  expect(domainRecords(s.world())).toEqual([]);
  expect(suppressions()).toEqual([]);
});

test("up writes the owner details, then registers the domain (priced first) and pays once; lists the address", async () => {
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r).sort()).toEqual(["create do-not-mail", "create owner", "create site"]);
  expect(registrant()).toEqual({
    name: "Budi Santoso", organization: null, email: "budi@example.com", phone: PHONE, address: "Jl. Merdeka 1",
    city: "Jakarta", province: "DKI Jakarta", postalCode: "10110", country: "ID",
  });
  const platformWrites = calls(s.writes()).filter((c) => c.includes("/api/"));
  // The up's preview pass: the Domain's dry run, refused while the details are incomplete (the preview
  // says the name is not priced yet). Then the details, the Domain's check (a dry run, now answered)
  // and the registration.
  expect(platformWrites).toEqual(["POST /api/domains", "PATCH /api/domains/registrant", "POST /api/domains", "POST /api/domains"]);
  expect(domainRecords(s.world())).toMatchObject([{ name: DOMAIN, status: "active" }]);
  expect(walletOf(s.emu)).toBe(balance - PRICE);
  expect(suppressions()).toEqual([{ email: SUPPRESSED, reason: "manual" }]);
  expect(r.outputs).toMatchObject({ ownerComplete: true, suppressedBecause: "manual" });
  // Personal data is secret in the state: the phone is nowhere in clear.
  expect(s.stateText()).not.toContain(PHONE);
  expect(s.stateText()).not.toContain("Jl. Merdeka 1");
});

test("a second preview plans nothing and writes nothing", async () => {
  s.clearRequests();
  const r = await s.run("preview");
  expect(onlySame(r)).toBe(true);
  expect(s.writes()).toEqual([]);
});

test("a changed owner field is one in-place update: one PATCH with that field; nothing else changes", async () => {
  s.config(`${P}:ownerCity`, "Bandung");
  s.clearRequests();
  const preview = await s.run("preview");
  expect(changes(preview)).toEqual(["update owner"]);
  s.clearRequests();
  // The preview just asserted is this up's preview pass: skipped (it proves nothing more).
  const r = await s.run("up", true, { skipPreview: true });
  expect(changes(r)).toEqual(["update owner"]);
  expect(calls(s.writes())).toEqual(["PATCH /api/domains/registrant"]);
  expect(registrant().city).toBe("Bandung");
  expect(walletOf(s.emu)).toBe(balance - PRICE);
});

test("a detail changed in the dashboard shows as drift on refresh; the next up writes the program's back", async () => {
  const account = s.emu.control.emu.world.account;
  account.registrant.province = "Jawa Barat";
  const refreshed = await s.run("refresh");
  // The CLI reports a refresh whose Diff finds a change as an update of the resource (pulumi/pulumi
  // v3.274.1 resource/deploy/step.go RefreshStep.ResultOp: OpUpdate unless the diff is DiffNone).
  expect(changes(refreshed)).toEqual(["update owner"]);
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["update owner"]);
  expect(registrant().province).toBe("DKI Jakarta");
});

test("destroy takes the address off the list; the owner details and the registration stay, and the user is told", async () => {
  s.clearRequests();
  const r = await s.run("destroy");
  expect(changes(r).sort()).toEqual(["delete do-not-mail", "delete owner", "delete site"]);
  expect(calls(s.writes())).toEqual([`DELETE /email/suppressions/${encodeURIComponent(SUPPRESSED)}`]);
  expect(suppressions()).toEqual([]);
  expect(registrant()).toMatchObject({ name: "Budi Santoso", city: "Bandung" });
  expect(domainRecords(s.world())).toMatchObject([{ name: DOMAIN, status: "active" }]);
  const messages = r.messages.join("\n");
  expect(messages).toContain("DomainRegistrant was removed from the stack only");
  expect(messages).toContain(`Domain ${DOMAIN} was removed from the stack only`);
  expect(s.state().resources).toEqual([]);
});
