/**
 * Issue 15, acceptance 3: for every resource type, the provider host is killed right after the
 * type's create reached the emulator (the API acted; its answer never reached the CLI), then
 * `up` runs again under the real CLI, which checks and creates the resource as a new one. Proven for each: one object and one charge in the end, the
 * state naming the live object, no secret shown; a create that cannot tell the object is this
 * stack's stops with an error naming its id and the `adoptId` line, and after that line is added
 * `up` converges. `refresh --clear-pending-creates` then leaves no pending create.
 *
 * The acceptance matrix's "interrupted create" cell (tests/acceptance/) runs this for every type's
 * row at once; here run only the points it does not cover (a point is covered when a row of its
 * type expects the same outcome: the server with an explicit name, which asks for `adoptId`, is
 * not). `npm run chaos` runs every point.
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { PROGRAM } from "../../tools/chaos/harness";
import { CREATE_MATRIX, runKillPoint } from "../../tools/chaos/interrupt";
import { ROWS } from "../../tools/support/acceptance-rows";

jest.setTimeout(120_000);

const project = fixtureProject("create-matrix");
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () => project.program(PROGRAM),
  options: { projectDir: project.dir, stack: "reliability-create-matrix", removeProject: true },
});

const figures: string[] = [];
afterAll(() => console.log(`interrupted-create matrix:\n${figures.join("\n")}`));

const coveredByAcceptance = (p: (typeof CREATE_MATRIX)[number]) => ROWS.some((row) => row.type === p.name.split(",")[0] && row.interrupted === p.expect);
const points = CREATE_MATRIX.filter((p) => !coveredByAcceptance(p));

test("the acceptance matrix covers every other point", () => {
  expect(points.map((p) => p.name)).toEqual(["Vps, explicit name"]);
});

test.each(points.map((p) => [p.name, p.expect, p] as const))("host killed after the %s create reached the API → next up %s → one object, one charge", async (name, expected, point) => {
  const result = await runKillPoint(s, project.project, point);
  figures.push(`  ${name}: ${result.askedAdoptId.length ? `asked adoptId (${result.askedAdoptId.join(", ")}), then converged` : "adopted on its own"}; duplicates ${result.duplicates}; problems ${result.problems.length} (${(result.ms / 1000).toFixed(1)} s)`);
  expect(result.problems).toEqual([]);
  expect(result.duplicates).toBe(0);
  expect(result.converged).toBe(true);
  expect(result.askedAdoptId).toEqual(expected === "adopts" ? [] : point.pending);
});
