/**
 * No mutable module-level state in provider/ (issue 37): whatever a provider call keeps lives in the
 * context passed in (the profile's ApiContext, the process's ProviderRuntime), so two profiles, or two
 * configurations of one process, never share it by accident. A module's top level may declare
 * functions, classes, types and constants; it may not declare a `let` or `var`, nor a `const` holding
 * a new Map, Set, WeakMap or WeakSet that is made empty (to be filled) or that the module writes
 * (`.set`, `.add`, `.delete`, `.clear`): a Set of constant codes is a table, not state. The one
 * process root (the runtime `run` hands every call) is the allowed exception, by name. A top-level
 * `Kept` slot (context.ts) is a declaration, not state: it holds its values by ApiContext, so they live in
 * (and go with) the context passed in.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as ts from "typescript";

const ROOT = join(__dirname, "..", "..");
const PROVIDER = join(ROOT, "provider");

/** file (from the repository's root) → the declaration allowed there: the process root. */
const PROCESS_ROOT: Record<string, string> = { "provider/index.ts": "providerProcess" };

const MUTABLE_CONTAINERS: ReadonlySet<string> = new Set(["Map", "Set", "WeakMap", "WeakSet"]);
const WRITES: ReadonlySet<string> = new Set(["set", "add", "delete", "clear"]);

/** The names the file calls a writing method on (`name.set(…)`), anywhere in it. */
function written(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && WRITES.has(node.expression.name.text) && ts.isIdentifier(node.expression.expression)) {
      names.add(node.expression.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The top-level declarations of a file that hold mutable state, as "file: name (why)". */
function moduleState(path: string): string[] {
  const file = relative(ROOT, path).split("\\").join("/");
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const writes = written(source);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      if (PROCESS_ROOT[file] === name) continue;
      const init = declaration.initializer;
      if (!isConst) found.push(`${file}: ${name} (a top-level ${list.flags & ts.NodeFlags.Let ? "let" : "var"})`);
      else if (init && ts.isNewExpression(init) && MUTABLE_CONTAINERS.has(init.expression.getText(source))) {
        const kind = init.expression.getText(source);
        if (!init.arguments?.length) found.push(`${file}: ${name} (a top-level new ${kind}, made empty)`);
        else if (writes.has(name)) found.push(`${file}: ${name} (a top-level new ${kind} the module writes)`);
      }
    }
  }
  return found;
}

test("no provider module keeps mutable state at its top level", () => {
  const found = sourceFiles(PROVIDER).flatMap(moduleState);
  expect(found).toEqual([]);
});

test("the check names a top-level let, var, an empty or written container, and allows a constant table", () => {
  const dir = mkdtempSync(join(tmpdir(), "module-state-"));
  const path = join(dir, "probe.ts");
  writeFileSync(
    path,
    [
      "let a = 1;",
      "var b = 2;",
      "const c = new Map<string, number>();",
      "const d = new Set([1]);",
      "d.add(2);",
      "const CODES = new Set([\"A\", \"B\"]);",
      "const TABLE = { x: 1 } as const;",
      "export function f() { let local = 0; return local + a + b + c.size + CODES.size + TABLE.x; }",
    ].join("\n"),
  );
  const found = moduleState(path).map((line) => line.slice(line.indexOf(": ") + 2));
  expect(found).toEqual(["a (a top-level let)", "b (a top-level var)", "c (a top-level new Map, made empty)", "d (a top-level new Set the module writes)"]);
});
