/**
 * Every resource class the package exports has its fault cells, so a new type cannot be left out
 * of `npm run chaos`: the matrix's program (tools/chaos/harness.ts RESOURCE_TYPES, each with at
 * least one cell per operation that calls the API), the server-access types that run through a
 * server sharing its address (tools/chaos/matrix.ts ACCESS_TYPES, tests/reliability/access-faults),
 * and the email plan, whose create and update are one paid purchase with its Idempotency-Key
 * (tools/chaos/plan-purchase.ts, every fault kind) and whose delete calls nothing. A type with no
 * cells written there joins the program from its acceptance row (harness.ts `rowOnly`): shown with
 * a scratch type.
 */
import * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../sdk";
import type { World } from "../../emulator";
import { PROGRAM, RESOURCE_NAMES, RESOURCE_TYPES, rowOnly, rowOnlyProblems, rowOnlyProgram, TUNED_TYPES } from "../../tools/chaos/harness";
import { ACCESS_TYPES, accessRuleOf, allCells, FAULT_KINDS, OPS, rowCalls } from "../../tools/chaos/matrix";
import { ROWS } from "../../tools/support/acceptance-rows";
import type { ResourceState } from "../../tools/support/stack-state";
import { PLAN_PURCHASE_CELLS } from "../../tools/chaos/plan-purchase";

const exportedClasses = Object.entries(sdk)
  .filter(([, v]) => typeof v === "function" && v.prototype instanceof pulumi.CustomResource)
  .map(([name]) => name)
  .sort();

test("the chaos cells cover exactly the exported resource classes", () => {
  expect(exportedClasses.length).toBeGreaterThanOrEqual(19);
  expect([...RESOURCE_TYPES, ...ACCESS_TYPES, "EmailPlan"].sort()).toEqual(exportedClasses);
});

test("every type of the matrix is declared by its program and has a cell for each operation that calls the API", () => {
  const cells = allCells();
  for (const type of RESOURCE_TYPES) {
    expect({ type, declared: PROGRAM.includes(`new svc.${type}(`) }).toEqual({ type, declared: true });
    expect({ type, ops: OPS.filter((op) => cells.some((c) => c.type === type && c.op === op)).length > 0 }).toEqual({ type, ops: true });
  }
  // The operations without a call: a Domain's, a verification's and the owner details' delete (a row-only type's update and delete are not in its row).
  const noDelete = TUNED_TYPES.filter((type) => !cells.some((c) => c.type === type && c.op === "delete")).sort();
  expect(noDelete).toEqual(["DomainRegistrant", "Domain", "SendingDomainVerification"].sort());
  for (const type of ACCESS_TYPES) for (const op of OPS) expect(accessRuleOf(type, op, "a")).toBeDefined();
  // One stack: a row-only type's resource named as one of the program's own would share its URN.
  expect(RESOURCE_NAMES.filter((name, i) => RESOURCE_NAMES.indexOf(name) !== i)).toEqual([]);
  expect(Object.keys(PLAN_PURCHASE_CELLS).sort()).toEqual([...FAULT_KINDS].sort());
});

describe("a type added with only its acceptance row (a scratch Gadget, the EmailTopic row under another name)", () => {
  const topicRow = ROWS.find((row) => row.type === "EmailTopic")!;
  const gadget = { ...topicRow, type: "Gadget", name: "gadget", program: topicRow.program.replace('svc.EmailTopic("topic"', 'svc.Gadget("gadget"').replace('adopt("topic")', 'adopt("gadget")') };
  const rows = [...ROWS, gadget];

  test("joins the program under `has`, with its row's lines and what they take", () => {
    expect(rowOnly(rows)).toEqual([gadget]);
    const program = rowOnlyProgram(rowOnly(rows));
    expect(program).toContain('  if (has("Gadget")) {\n    new svc.Gadget("gadget", { name: "Product news", description: changed ? "Weekly" : "Monthly", adoptId: adopt("gadget") });\n  }');
    for (const name of ["changed", "adopt", "planId", "sharedPlanId", "rootPassword"]) expect(program).toMatch(new RegExp(`const ${name} = `));
  });

  test("is faulted at its row's create call, with any id for what its needs made", () => {
    expect(rowCalls(gadget)).toEqual({ create: { method: "POST", path: "/email/topics" }, update: null, delete: null });
    const sdv = ROWS.find((row) => row.type === "SendingDomainVerification")!;
    expect(rowCalls(sdv).create).toEqual({ method: "GET", path: "/email/domains/*" });
  });

  test("is checked by its row's list of ids: one live object when declared, the one the state names", () => {
    const world = (topics: string[]) => ({ email: { audience: { topics: topics.map((id) => ({ id })), segments: [] } } }) as unknown as World;
    const state = (id: string) => ({ resources: [{ type: "pulumi-nodejs:dynamic/svc:Gadget", name: "gadget", id } as ResourceState] });
    const declared = new Set(["Gadget"]);
    expect(rowOnlyProblems([gadget], world(["t1"]), state("t1"), declared)).toEqual([]);
    expect(rowOnlyProblems([gadget], world(["t1"]), state("t2"), declared)).toEqual(["the state's Gadget is t2, not the live one t1"]);
    expect(rowOnlyProblems([gadget], world(["t1", "t2"]), state("t1"), declared)).toEqual(["Gadget: 2 at the API (t1, t2), 1 declared"]);
    expect(rowOnlyProblems([gadget], world(["t1"]), { resources: [] }, new Set())).toEqual(["Gadget: 1 at the API (t1), 0 declared"]);
  });
});
