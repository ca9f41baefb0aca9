/**
 * Issue 8, fault matrix: every create, update and delete of every resource type, under the real
 * `pulumi` CLI against the emulator's fault rules. The matrix is a data table (tools/chaos/matrix.ts:
 * CALLS says where each resource × operation's fault goes, SPEC_FAULT what the spec names for fault
 * e; `ruleOf` makes the rule of each cell). After the faulted `up` it either succeeded or failed
 * with clear errors (resource, operation, `METHOD /path` and code, or "outcome unknown"), every
 * injected fault was hit (a resource not reached because its dependency failed is run again under
 * its fault), and a second `up` without faults converges: the emulator holds exactly what the
 * program declares (one server per Vps with its one rule and add-on, one webhook / template /
 * sending domain, each registered domain once), the wallet is the seeded balance less exactly one
 * charge per paid action (plan, backup plan, domain, upgrade, backup plan change, WHOIS
 * protection), and no secret is in the state file, the printed output or the request log.
 *
 * Bounded for CI's stack-test lane: one program declares every type, so one `up` exercises up to
 * eight cells. Three groups run, one per operation; in each, every type's cell gets a fault kind
 * that rotates with the type and the seed (SVC_MATRIX_SEED, default 8; `rotation` in matrix.ts).
 * Coverage, asserted below for the seed in use: every fault kind, every resource type and every
 * operation at least once, every group mixing the five kinds (21 of the matrix's cells). `npm run
 * chaos` runs every cell (fifteen operation × fault groups) and randomized groups.
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { PROGRAM, RESOURCE_TYPES } from "../../tools/chaos/harness";
import { allCells, FAULT_KINDS, FAULT_NAMES, OPS, rotation, ruleOf, runGroup } from "../../tools/chaos/matrix";

jest.setTimeout(120_000);

const SEED = Number(process.env.SVC_MATRIX_SEED ?? 8);
const groups = rotation(SEED);
const project = fixtureProject("fault-matrix");
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () => project.program(PROGRAM),
  options: { projectDir: project.dir, stack: "reliability-matrix", removeProject: true },
});

test("the table covers every type and operation; the bounded subset still covers every fault kind and every type", () => {
  const cells = allCells();
  for (const type of RESOURCE_TYPES) expect(cells.some((c) => c.type === type)).toBe(true);
  for (const op of OPS) expect(cells.some((c) => c.op === op)).toBe(true);
  for (const fault of FAULT_KINDS) expect(cells.some((c) => c.fault === fault)).toBe(true);
  // Operations that call nothing have no cell: a Domain's and a verification's delete.
  expect(cells.some((c) => c.type === "Domain" && c.op === "delete")).toBe(false);
  expect(cells.length).toBeGreaterThanOrEqual(100);

  const chosen = groups.flatMap(({ op, assignment }) => Object.entries(assignment).map(([type, a]) => ({ type, op, fault: a!.fault })));
  expect(chosen.every((c) => ruleOf(c.type as never, c.op, c.fault) !== undefined)).toBe(true);
  expect(new Set(chosen.map((c) => c.fault))).toEqual(new Set(FAULT_KINDS));
  expect(new Set(chosen.map((c) => c.type))).toEqual(new Set(RESOURCE_TYPES));
  expect(new Set(chosen.map((c) => c.op))).toEqual(new Set(OPS));
});

test.each(groups.map((g) => [g.op, Object.entries(g.assignment).map(([t, a]) => `${t}:${a!.fault}`).join(" "), g] as const))(
  "%s with faults %s: the up succeeds or fails clearly, the next up converges, nothing twice, no secret shown",
  async (op, _faults, group) => {
    const result = await runGroup({ s, project: project.project, previewAfter: false }, op, group.assignment);
    const label = `${op}: ${result.cells.map((c) => `${c.type} × ${FAULT_NAMES[c.fault]}`).join("; ")} (faulted up ${result.faultedOk ? "succeeded" : "failed"})`;
    expect({ label, problems: result.problems }).toEqual({ label, problems: [] });
    expect(result.cells.length).toBeGreaterThanOrEqual(5);
    expect(result.faultsInjected).toBeGreaterThanOrEqual(result.cells.length);
    expect(result.duplicates).toBe(0);
    expect(result.leaks).toEqual([]);
  },
);
