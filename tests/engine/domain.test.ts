/**
 * examples/domain under the real `pulumi` CLI against an emulator: the preview prices the name, `up`
 * registers and pays once, no perpetual diff, and destroy leaves the registration in the account
 * (issue 7, acceptance 2 and 6).
 */
import { join } from "node:path";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { domainRecords, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(60_000);

const NAME = "engine-example.com";
// .com in the emulator's catalogue: registration 165,000 + WHOIS protection 50,000.
const PRICE = 215_000;

let s: EngineStack;
let balance: number;
const records = () => domainRecords(s.world());
const wallet = () => walletOf(s.emu);

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/domain"), stack: "engine-test-domain" },
  setup: (s) => {
    s.config("svc-domain:name", NAME);
    balance = wallet();
  },
});

test("preview prices the name with a free dry run and shows one create", async () => {
  const r = await s.run("preview");
  expect(changes(r)).toEqual(["create site"]);
  expect(calls(s.writes())).toEqual(["POST /api/domains"]); // ?dryRun=true: nothing registered, nothing paid
  expect(records()).toEqual([]);
  expect(wallet()).toBe(balance);
});

test("up registers it with WHOIS protection and pays once", async () => {
  const r = await s.run("up");
  expect(changes(r)).toEqual(["create site"]);
  expect(records()).toMatchObject([{ name: NAME, status: "active", whoisProtection: true, autoRenew: true }]);
  expect(wallet()).toBe(balance - PRICE);
  expect(r.outputs).toMatchObject({ domainId: records()[0].id, totalCharged: PRICE });
});

test("a second preview shows no changes and makes no write call (not even a dry run)", async () => {
  s.clearRequests();
  const r = await s.run("preview");
  expect(onlySame(r)).toBe(true);
  expect(r.counts).toEqual({ same: 1 });
  expect(s.writes()).toEqual([]);
});

test("destroy removes it from the stack only: the registration stays, and the user is told", async () => {
  s.clearRequests();
  const r = await s.run("destroy");
  expect(changes(r)).toEqual(["delete site"]);
  expect(r.messages.join("\n")).toContain(`Domain ${NAME} was removed from the stack only`);
  expect(r.output).toContain("Diagnostics:");
  expect(s.writes()).toEqual([]);
  expect(records()).toMatchObject([{ name: NAME, status: "active" }]);
  expect(wallet()).toBe(balance - PRICE);
  expect(s.state().resources).toEqual([]);
});
