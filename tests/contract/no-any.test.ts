/**
 * No escape from the type checker in the provider and the emulator: no `any` (`: any`, `as any`,
 * `<any>`, `any[]`) and no `as never`. Read from each file's syntax tree, so that comments and
 * strings ("any change replaces it") do not count; each finding is named by file and line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";

const ROOT = join(__dirname, "..", "..");
const CHECKED = ["provider", "emulator"];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `file:line: text` of every `any` type and every assertion to `never` in one source text. */
function escapesIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${fileName}:${line + 1}: ${what}: ${source.text.split("\n")[line].trim()}`);
  };
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) report(node, "any");
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.kind === ts.SyntaxKind.NeverKeyword) report(node, "as never");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("the checker finds code, not comments or strings", () => {
  const text = [
    "// any change replaces it; cast with `as never` or `as any`",
    'const note = "x: any, y as never, <any>";',
    "/* : any */ const ok: unknown = 1;",
    "const a = ok as any;",
    "const b: any = 1;",
    "const c = f<any>();",
    "const d = ok as never;",
    "const e = <never>ok;",
    "function g(x: any[]) {}",
  ].join("\n");
  expect(escapesIn("sample.ts", text).map((f) => f.split(": ")[0])).toEqual([
    "sample.ts:4",
    "sample.ts:5",
    "sample.ts:6",
    "sample.ts:7",
    "sample.ts:8",
    "sample.ts:9",
  ]);
});

test.each(CHECKED)("no `any` and no `as never` in %s/", (dir) => {
  const found = tsFiles(join(ROOT, dir)).flatMap((path) => escapesIn(relative(ROOT, path), readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});
