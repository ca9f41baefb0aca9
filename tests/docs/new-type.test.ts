/**
 * Issue 45, acceptance 3: what adding a resource type touches by hand. A scratch type, Gadget, is
 * added to a copy of the checkout as its provider file alone (its schema holds its example program):
 * `npm run docs` then writes everything that wires it in and its example file, and package.json
 * does not change. Then the rule that keeps it
 * so: no file written by hand lists the types (names more than half of them), but the matrix's rows
 * and the exceptions below, each with its reason.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resources } from "../../provider/index";
import { discoverTypes } from "../../tools/docs/wiring";
import { generate } from "../../tools/docs/docs";

const ROOT = join(__dirname, "..", "..");

/** The scratch type's provider file: EmailTopic's under another name (the generator reads its text; its object is `gadget` below). */
function scratchProviderFile(): string {
  return readFileSync(join(ROOT, "provider", "email", "topic.ts"), "utf8")
    .replace(/emailTopic/g, "gadget")
    .replace(/type: "EmailTopic"/, 'type: "Gadget"')
    .replace(/svc\.EmailTopic\(/, "svc.Gadget(");
}

test("a new type is its provider file: npm run docs writes the rest, its example file included, package.json unchanged", () => {
  const root = mkdtempSync(join(tmpdir(), "new-type-"));
  try {
    for (const dir of ["provider", "sdk", "docs"]) cpSync(join(ROOT, dir), join(root, dir), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(root, "package.json"));
    // By hand: the provider file (schema with its example, and CRUD).
    mkdirSync(join(root, "provider", "things"), { recursive: true });
    writeFileSync(join(root, "provider", "things", "gadget.ts"), scratchProviderFile());
    expect(discoverTypes(root).map((t) => t.type)).toContain("Gadget");

    const topic = resources.EmailTopic.schema;
    const gadget = { ...resources.EmailTopic, schema: { ...topic, type: "Gadget", example: topic.example.replace("svc.EmailTopic(", "svc.Gadget(") } };
    const before = generate(ROOT);
    const after = generate(root, [...Object.values(resources), gadget]);
    const added = [...after.keys()].filter((f) => !before.has(f)).sort();
    const changed = [...after.keys()].filter((f) => before.has(f) && before.get(f) !== after.get(f)).sort();

    expect(added).toEqual(
      [join("docs", "Gadget.md"), join("docs", "examples", "Gadget.ts"), join("sdk", "dynamic", "Gadget.ts"), join("sdk", "generated", "Gadget.ts"), join("sdk", "things", "gadget.ts")].sort(),
    );
    expect(after.get(join("docs", "examples", "Gadget.ts"))).toBe(
      readFileSync(join(ROOT, "docs", "examples", "EmailTopic.ts"), "utf8").replace("docs/EmailTopic.md", "docs/Gadget.md").replace("provider/email/topic.ts", "provider/things/gadget.ts").replace("svc.EmailTopic(", "svc.Gadget("),
    );
    // The lists that name every type are written ones; package.json's exports take it by their pattern.
    expect(changed).toEqual([join("docs", "README.md"), join("provider", "generated", "resources.ts"), join("sdk", "generated", "resources.ts")].sort());
    expect(after.get("package.json")).toBe(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(after.get(join("provider", "generated", "resources.ts"))).toContain('const loaded: typeof import("../things/gadget") = require("../things/gadget");');
    expect(after.get(join("sdk", "generated", "resources.ts"))).toContain('export { Gadget, type GadgetArgs } from "../things/gadget";');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/**
 * Files written by hand that name most types, and why each may. Every other such file is a list a
 * new type would have to join by hand: the test fails naming it. An entry that stops listing the
 * types fails too (remove it).
 */
const LISTS_ALLOWED: Record<string, string> = {
  "tools/support/acceptance-rows.ts": "the acceptance matrix's rows: one of the three places a type is added by hand",
  "README.md": "the project's tour, prose for readers (as docs/): it may name any type, and no check requires a new one there",
  "tests/client/coalesced-reads.test.ts": "a test of the client's coalesced reads over the types it picked; nothing requires a new type in it",
  "tools/chaos/catalogue.ts": "the bad-input catalogue: hand-picked cases of each type's rules; nothing requires a new type in it (docs/decisions.md)",
  "tools/chaos/interrupt.ts": "the kill points chaos runs, picked per type; nothing requires a new type in it (the acceptance matrix's interrupted-create cell covers every row)",
  "tools/chaos/harness.ts": "the program lines, config and world checks written for the types it names; a type added since joins the program from its row (rowOnly, tests/reliability/chaos-coverage.test.ts)",
  "tools/chaos/matrix.ts": "the calls and spec faults written for the types it names; a type added since is faulted at its row's create call (rowCalls)",
  "tests/consumer/program.ts": "the consumer program as a user writes it, for the types it shows; a type added since is added from its row (tools/support/consumer-program.ts)",
};

/** Files excepted from the rule, as a whole. */
const EXCEPTED = [
  // Pages and programs for readers: they name types as a user does.
  /^docs\//,
  /^examples\//,
  // What a 0.1.0 stack held: frozen, never rewritten (tests/fixtures/state-v010/README.md).
  /^tests\/fixtures\//,
  // No type names: the lockfile's package names only.
  /^package-lock\.json$/,
];

test("no file written by hand lists the types, but the matrix's rows and the exceptions named with their reason", () => {
  const types = Object.keys(resources);
  const written = new Set([...generate(ROOT).keys()].map((f) => f.split("\\").join("/")));
  const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !written.has(f) && !EXCEPTED.some((re) => re.test(f)));
  const lists: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), "utf8");
    } catch {
      continue; // listed in the index, not in this work tree
    }
    const named = types.filter((t) => new RegExp(`\\b${t}\\b`).test(text));
    if (named.length > types.length / 2) lists.push(file);
  }
  expect(lists.sort()).toEqual(Object.keys(LISTS_ALLOWED).sort());
});
