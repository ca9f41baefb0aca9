/**
 * Issue 45: a resource's code is typed by its schema (defineResource decodes its props once), so no
 * `as` cast of an input or output value is left in provider/: each `x as T` and `<T>x` is counted
 * from the files' syntax trees (comments and strings do not count; `as const`, `import * as` and
 * `export * as` are not casts). Outside the count: client/ (the API client, whose answers the route
 * table's schemas decode). generated/ (written by `npm run docs`) counts too: its table types each
 * module it loads by an annotation. What a context keeps of several types is kept in typed slots
 * (context.ts), not read back from one map through a cast.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";

const ROOT = join(__dirname, "..", "..");
const PROVIDER = join(ROOT, "provider");
const OUTSIDE = ["client"].map((dir) => join(PROVIDER, dir));

function tsFiles(dir: string): string[] {
  if (OUTSIDE.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `file: cast` of every type assertion but `as const` in one source text. */
function castsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const";
      if (!isConst) found.push(`${fileName}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("the count finds casts in code, not `as const`, namespace imports, comments or strings", () => {
  const text = [
    'import * as ts from "typescript";',
    'export * as schemas from "./schemas";',
    "// read inputs.name as string",
    'const note = "inputs.x as string";',
    'const kinds = ["a", "b"] as const;',
    "const name = inputs.name as string;",
    "const port = <number>inputs.port;",
    "const rules = (inputs.rules as Rule[]).length;",
  ].join("\n");
  expect(castsIn("sample.ts", text)).toEqual(["sample.ts: inputs.name as string", "sample.ts: <number>inputs.port", "sample.ts: inputs.rules as Rule[]"]);
});

test("provider/ reads no input or output value through a cast", () => {
  const files = tsFiles(PROVIDER);
  expect(files.length).toBeGreaterThan(30);
  const found = files.flatMap((path) => castsIn(relative(ROOT, path), readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});
