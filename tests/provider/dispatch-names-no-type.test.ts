/**
 * Issue 45: per-type behaviour is declared on the resource's own schema or definition, so the shared
 * dispatcher and the common inputs know no resource type by name (a new type changes neither).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resources } from "../../provider";

const ROOT = join(__dirname, "../..");

test.each(["provider/dispatch.ts", "provider/common-inputs.ts"])("%s names no resource type", (file) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  const types = Object.keys(resources);
  expect(types.length).toBeGreaterThan(10);
  expect(types.filter((type) => new RegExp(`\\b${type}\\b`).test(text))).toEqual([]);
});
