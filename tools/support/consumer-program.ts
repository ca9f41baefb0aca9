/**
 * The consumer test's program (tests/consumer/run.sh writes it to each fresh project's index.ts):
 * tests/consumer/program.ts, then, for each resource type it does not construct (a type added
 * since), that type's acceptance row's lines (./acceptance-rows.ts), each in a block of its own. So
 * a new type runs in the consumer test from its row, and program.ts shows the classes as a user
 * writes them. The rows' lines take `svc`, `config`, `rootPassword` from program.ts and the rest
 * from the block's start: `changed` false, `adopt` nothing, `planId` and `sharedPlanId` by plan name.
 *
 *   node tools/run.js support/consumer-program.js tests/consumer/program.ts   (the program on stdout)
 */
import { readFileSync } from "node:fs";
import { discoverTypes } from "../docs/wiring";
import { declared, rowLines, ROWS, type AcceptanceRow } from "./acceptance-rows";
import { packageRoot } from "./provider-host";

/** `program` with the lines of each type of `types` it does not construct, from the type's row. */
export function consumerProgram(program: string, types: readonly string[], rows: readonly AcceptanceRow[] = ROWS): string {
  const missing = types.filter((type) => !program.includes(`new svc.${type}(`));
  if (!missing.length) return program;
  const named = new Set([...program.matchAll(/new svc\.\w+\(\s*"([\w-]+)"/g)].map((m) => m[1]));
  const blocks = missing.map((type) => {
    const row = rows.find((r) => r.type === type);
    if (!row) throw new Error(`${type}: tests/consumer/program.ts does not construct it and no acceptance row gives its lines`);
    // One stack: a resource name program.ts uses would be a second resource of the same URN.
    const taken = declared(row).filter((d) => named.has(d.name));
    if (taken.length) throw new Error(`${type}: its row declares ${taken.map((d) => `"${d.name}"`).join(", ")}, a name tests/consumer/program.ts uses`);
    return `  {\n${rowLines(row, "    ")}\n  }`;
  });
  return [
    program.trimEnd(),
    "",
    "// The types the program above does not construct: each its acceptance row's lines (tools/support/acceptance-rows.ts).",
    "{",
    "  const changed = false;",
    "  const adopt = (_name: string): string | undefined => undefined;",
    '  const planId = planIdNamed("s-1vcpu-1gb");',
    '  const sharedPlanId = planIdNamed("nat-1vcpu-1gb");',
    ...blocks,
    "}",
    "",
  ].join("\n");
}

if (require.main === module) {
  const [file] = process.argv.slice(2);
  if (!file) throw new Error("usage: node tools/run.js support/consumer-program.js <program.ts>");
  process.stdout.write(consumerProgram(readFileSync(file, "utf8"), discoverTypes(packageRoot(__dirname)).map((t) => t.type)));
}
