/**
 * Callers branch on an error's class and `code`, never on its message (the API's message "may
 * change, sometimes in Indonesian"; ours change with their wording): no test of message text
 * anywhere in provider/ or sdk/. Writing a message (`err.message = …`, `${err.message}`) is fine.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(__dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

/** What reads a message to decide something. `message` stands for `.message`, `String(err)` and `${err}`. */
const MESSAGE = String.raw`(?:\.message\b|String\(\s*(?:err|error|e|cause)\s*\))`;
const BRANCHES: [string, RegExp][] = [
  ["a string method on a message", new RegExp(`${MESSAGE}\\s*\\??\\.\\s*(?:startsWith|endsWith|includes|indexOf|lastIndexOf|match|matchAll|search|localeCompare)\\s*\\(`)],
  ["a regex tested on a message", new RegExp(`\\.(?:test|exec)\\(\\s*[^)]*${MESSAGE}`)],
  ["a message compared", new RegExp(`${MESSAGE}\\s*(?:[!=]==?|<|>)|(?:[!=]==?)\\s*[\\w.]*${MESSAGE}`)],
  ["a switch on a message", new RegExp(`switch\\s*\\(\\s*[^)]*${MESSAGE}`)],
];

/** Lines without their comments (a comment may quote the rule). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).split("\n").map((l) => l.replace(/(^|[^:"'`])\/\/.*$/, "$1"));

test("no branch on error message text in provider/ or sdk/", () => {
  const found: string[] = [];
  for (const file of [...sources(join(ROOT, "provider")), ...sources(join(ROOT, "sdk"))]) {
    code(readFileSync(file, "utf8")).forEach((line, i) => {
      for (const [what, re] of BRANCHES) if (re.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});

test("the check finds each kind of branch it names", () => {
  const caught = (line: string) => BRANCHES.some(([, re]) => re.test(line));
  expect(caught("if (err.message.startsWith(`${operation} failed: `)) return err;")).toBe(true);
  expect(caught("if (!(err instanceof Error) || !/timed out after/.test(err.message)) return err;")).toBe(true);
  expect(caught("if (error.message?.includes('VPS_BUSY')) retry();")).toBe(true);
  expect(caught("const m = String(err).match(/code (\\w+)/);")).toBe(true);
  expect(caught("if (e.message === 'gone') return;")).toBe(true);
  expect(caught("switch (err.message) {")).toBe(true);
  // Writing or quoting a message is not a branch.
  expect(caught("error.message = redact(error.message, [password]);")).toBe(false);
  expect(caught("throw new Error(`${operationError('read', err).message}. hint`);")).toBe(false);
  expect(caught("if (/^\\d+$/.test(prefix)) return true;")).toBe(false);
});
