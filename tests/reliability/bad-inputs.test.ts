/**
 * Issue 8, bad input catalogue: invalid inputs taken from the spec's rules (every length, range,
 * format, enumeration and count it states for the resources' inputs), plus wrong types, empty
 * strings, unknown properties, webhook hosts that are not public, credentials in URLs, SQL-ish text
 * and control characters in names. Each is refused at preview (`check`, through the real
 * dynamic-provider host) with the property named and a clear reason, and the emulator's request log
 * shows no write call: only the Vps check may read `GET /vps/plans` and the VpsBackup check
 * `GET /backup/plans`; every other check (Domain included: its rows fail before the dry run) calls
 * nothing at all.
 *
 * The catalogue is the `rows` table of tools/chaos/catalogue.ts: add a row there to grow it.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { ALLOWED_READS, base, rows, SERVER_ID, withPlanIds, type Props } from "../../tools/chaos/catalogue";

let h: ResourceHarness;
let plans: { id: string; name: string }[];

/** A row's inputs with the real plan ids in place of the placeholders. */
const argsOf = (args: Props): Props => withPlanIds(args, plans);

useResourceHarness((x) => (h = x), {
  setup: async (h) => {
    plans = (await h.emu.call("GET", "/api/vps/plans", { key: h.emu.keys.account })).body.data as { id: string; name: string }[];
    // Load every type's provider once (each runs a small program), outside the timed rows.
    for (const type of Object.keys(base)) await h.inputs(type, argsOf(base[type]));
  },
  fresh: (h) => h.emu.control.clearRequests(),
  startTimeoutMs: 300_000,
});

test("the catalogue covers every resource type with at least 60 rows in all", () => {
  expect(rows.length).toBeGreaterThanOrEqual(60);
  expect(new Set(rows.map((r) => r.type))).toEqual(new Set(Object.keys(base)));
});

test.each(Object.keys(base))("%s: the base inputs the rows start from pass check (control case)", async (type) => {
  const result = await h.check(type, argsOf(base[type]));
  expect(result.failures).toEqual([]);
  const writes = h.emu.control.requests().filter((r) => r.method !== "GET");
  // Only the Domain and EmailPlan checks price a purchase: one free dry run, and nothing else is written.
  if (type === "Domain") expect(writes.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["POST /api/domains 200"]);
  else if (type === "EmailPlan") expect(writes.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["POST /email/plan 200"]);
  else expect(writes).toEqual([]);
});

test("VpsBackup: a plan code already in the state is not checked against the catalogue (an add-on on a plan retired since keeps working)", async () => {
  const olds = { vpsId: SERVER_ID, planCode: "backup-legacy" };
  const result = await h.check("VpsBackup", olds, olds);
  expect(result.failures).toEqual([]);
  expect(h.emu.control.requests()).toEqual([]);
});

/** The inputs whose failures are reported with sensitiveFailure. */
const SENSITIVE: Record<string, string[]> = { Vps: ["rootPassword"], Webhook: ["secret"], DomainRegistrant: ["email", "phone", "address", "postalCode"] };

test.each(rows)("$type: $what → refused at preview on $property, no write call", async ({ type, args, property, reason }) => {
  const result = await h.check(type, argsOf(args));

  if (SENSITIVE[type]?.includes(property)) {
    // A secret-bearing input: named at the start of the reason, never in `property` (which the CLI
    // prints beside the value: provider/resource.ts sensitiveFailure), and the value never in it.
    expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(new RegExp(`^${property}: `)) }]);
    expect(result.failures[0].reason).toMatch(reason);
    const value = args[property];
    if (typeof value === "string" && value) expect(result.failures[0].reason).not.toContain(value);
  } else {
    expect(result.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  }
  const requests = h.emu.control.requests().map((r) => `${r.method} ${r.path}`);
  const allowed = ALLOWED_READS[type] ?? [];
  expect(requests.filter((r) => !allowed.includes(r))).toEqual([]);
});
