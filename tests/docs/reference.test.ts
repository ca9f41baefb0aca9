/**
 * Issue 28's promises about the reference as a whole: a page for every exported resource and data
 * function, a description for every output, TSDoc written once, a README that stays short.
 */
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import * as sdk from "../../sdk";
import { resources } from "../../provider/index";
import type { SchemaResource } from "../../provider/schema";

const ROOT = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

const resourceClasses = Object.entries(sdk).filter(([, value]) => typeof value === "function" && (value as { prototype?: unknown }).prototype instanceof (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).dynamic.Resource).map(([name]) => name);
const dataFunctions = Object.keys(sdk).filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"));

test("every exported resource class has a schema, generated sdk types and a page", () => {
  expect(resourceClasses.length).toBeGreaterThanOrEqual(17);
  for (const type of resourceClasses) {
    const impl = resources[type];
    expect({ type, schema: impl !== undefined && "schema" in impl }).toEqual({ type, schema: true });
    expect({ type, page: existsSync(join(ROOT, "docs", `${type}.md`)), types: existsSync(join(ROOT, "sdk", "generated", `${type}.ts`)) }).toEqual({ type, page: true, types: true });
  }
});

test("every exported data function has a page, listed in the index", () => {
  expect(dataFunctions.length).toBeGreaterThanOrEqual(14);
  const index = read("docs/README.md");
  for (const name of dataFunctions) {
    expect({ name, page: existsSync(join(ROOT, "docs", `${name}.md`)) }).toEqual({ name, page: true });
    expect(index).toContain(`(${name}.md)`);
  }
});

test("every input and output has a description", () => {
  for (const impl of Object.values(resources) as SchemaResource[]) {
    const { type, inputs, outputs } = impl.schema;
    for (const [name, spec] of [...Object.entries(inputs), ...Object.entries(outputs)]) {
      expect({ type, name, described: spec.description.trim().length >= 10 }).toEqual({ type, name, described: true });
    }
  }
});

test("no paragraph of TSDoc is repeated across sdk files", () => {
  const filesOf = new Map<string, Set<string>>();
  for (const file of tsFiles("sdk")) {
    for (const block of read(file).match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
      const text = block.replace(/^\/\*\*|\*\/$/g, "").split("\n").map((l) => l.replace(/^\s*\*\s?/, "")).join("\n");
      const prose = text.replace(/```[\s\S]*?```/g, "");
      for (const paragraph of prose.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, " ").trim())) {
        if (paragraph.length < 60) continue;
        if (!filesOf.has(paragraph)) filesOf.set(paragraph, new Set());
        filesOf.get(paragraph)!.add(file);
      }
    }
  }
  const repeated = [...filesOf].filter(([, files]) => files.size > 1).map(([paragraph, files]) => ({ paragraph, files: [...files] }));
  expect(repeated).toEqual([]);
});

test("the README stays under 400 lines and links the reference", () => {
  const readme = read("README.md");
  expect(readme.split("\n").length).toBeLessThan(400);
  expect(readme).toContain("docs/README.md");
});
