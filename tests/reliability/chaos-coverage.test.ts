/**
 * Every resource class the package exports has its fault cells, so a new type cannot be left out
 * of `npm run chaos`: the matrix's program (tools/chaos/harness.ts RESOURCE_TYPES, each with at
 * least one cell per operation that calls the API), the server-access types that run through a
 * server sharing its address (tools/chaos/matrix.ts ACCESS_TYPES, tests/reliability/access-faults),
 * and the email plan, whose create and update are one paid purchase with its Idempotency-Key
 * (tools/chaos/plan-purchase.ts, every fault kind) and whose delete calls nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../sdk";
import { PROGRAM, RESOURCE_TYPES } from "../../tools/chaos/harness";
import { ACCESS_TYPES, accessRuleOf, allCells, FAULT_KINDS, OPS } from "../../tools/chaos/matrix";
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
  // The operations without a call: a Domain's, a verification's and the owner details' delete.
  const noDelete = RESOURCE_TYPES.filter((type) => !cells.some((c) => c.type === type && c.op === "delete")).sort();
  expect(noDelete).toEqual(["DomainRegistrant", "Domain", "SendingDomainVerification"].sort());
  for (const type of ACCESS_TYPES) for (const op of OPS) expect(accessRuleOf(type, op, "a")).toBeDefined();
  expect(Object.keys(PLAN_PURCHASE_CELLS).sort()).toEqual([...FAULT_KINDS].sort());
});
