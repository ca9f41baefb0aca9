/**
 * The consumer test's program (tools/support/consumer-program.ts): tests/consumer/program.ts as it
 * is while it constructs every class, and a type it does not construct added from its acceptance
 * row — in lines that type-check as a strict TypeScript program.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resources } from "../../provider/index";
import { consumerProgram } from "../../tools/support/consumer-program";
import { ROWS } from "../../tools/support/acceptance-rows";

const ROOT = join(__dirname, "..", "..");
const PROGRAM = readFileSync(join(ROOT, "tests", "consumer", "program.ts"), "utf8");
const TYPES = Object.keys(resources);

test("while program.ts constructs every class, the consumer program is program.ts", () => {
  expect(consumerProgram(PROGRAM, TYPES)).toBe(PROGRAM);
});

test("a type it does not construct is added from its row, in a block of its own; one without a row is refused", () => {
  const withoutTopic = PROGRAM.split("\n").filter((line) => !/\bnews\b/.test(line)).join("\n");
  const out = consumerProgram(withoutTopic, TYPES);
  expect(out.startsWith(withoutTopic.trimEnd())).toBe(true);
  const topic = ROWS.find((row) => row.type === "EmailTopic")!;
  expect(out).toContain(`  {\n    ${topic.program}\n  }`);
  expect(() => consumerProgram(withoutTopic, [...TYPES, "Gadget"], ROWS)).toThrow("Gadget: tests/consumer/program.ts does not construct it and no acceptance row gives its lines");
  // A row whose resource name the program already uses would make a second resource of the same URN.
  const clashing = ROWS.map((row) => (row.type === "EmailTopic" ? { ...row, program: row.program.replace('"topic"', '"web"') } : row));
  expect(() => consumerProgram(withoutTopic, TYPES, clashing)).toThrow('EmailTopic: its row declares "web", a name tests/consumer/program.ts uses');
});

test("the added lines type-check with the program under strict TypeScript (every row's lines, needs included)", () => {
  // Every row's lines at once: program.ts with no `new svc.` left, so each type comes from its row.
  const bare = PROGRAM.replace(/^.*\bnew svc\.[\s\S]*?(?=^\/\/ Outputs)/m, "").replace(/^export const .*$/gm, "");
  const dir = mkdtempSync(join(tmpdir(), "consumer-program-"));
  try {
    writeFileSync(join(dir, "index.ts"), consumerProgram(bare, TYPES));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: join(ROOT, "tsconfig.json"),
        compilerOptions: { typeRoots: [join(ROOT, "node_modules", "@types")], paths: { "pulumi-svc": [join(ROOT, "sdk", "index.ts")], "@pulumi/pulumi": [join(ROOT, "node_modules", "@pulumi", "pulumi")] }, types: ["node"] },
        include: [],
        files: ["index.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ status: 0, output: "" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
