/**
 * Issue 35, acceptance 5: the foreseen-failure catalogue (tools/chaos/foreseen.ts) — each refusal
 * the preview makes from what it reads of the account (the wallet, the email plan and its limits, a
 * refused key, an object deleted outside Pulumi), cell by cell on a fresh world, through the real
 * dynamic-provider host: refused on the property with the amount or count and the fix, nothing
 * written. `npm run chaos` runs the same cells.
 */
import { FORESEEN, runForeseen } from "../../tools/chaos/foreseen";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";

jest.setTimeout(120_000);

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu?.close());

test("the catalogue holds a cell for every kind of refusal (wallet, email plan, each count limit, forwarding, key, deleted object)", () => {
  const kinds = FORESEEN.map((r) => `${r.type}: ${r.what}`);
  expect(kinds.length).toBe(new Set(kinds).size);
  for (const type of ["Vps", "VpsBackup", "SendingDomain", "Template", "Webhook", "Mailbox", "MailAlias"]) expect(FORESEEN.some((r) => r.type === type)).toBe(true);
});

test.each(FORESEEN)("$type: $what → refused at preview, nothing written", async (row) => {
  const r = await runForeseen(emu, row);
  expect(r.problems).toEqual([]);
});
