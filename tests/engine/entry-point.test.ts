/**
 * Which file `pulumi up` runs as the program, as the language host decides it: `cmd/run` gets
 * `--pwd` the program directory and the entry point "." unless Pulumi.yaml's `main` names a file
 * (pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs/main.go, constructArguments), and with "."
 * it takes the nearest package.json upward (sdk/nodejs/cmd/run/run.ts). A project inside another
 * package without a package.json of its own runs that package's entry — what made every fixture
 * program in this repo run dist/sdk under the real CLI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../tools/support/engine-harness";
import { CliStack } from "../../tools/support/real-cli";

jest.setTimeout(120_000);

// Inside the repository: the language host resolves @pulumi/pulumi from the program's directory upward.
const root = join(ROOT, "tests/fixtures/engine-entry-point");
let tmp: string;
beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  tmp = mkdtempSync(join(tmpdir(), "svc-entry-"));
  // An outer package whose entry is not the program (this repo's package.json is one).
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "outer", main: "outer.js" }));
  writeFileSync(join(root, "outer.js"), 'module.exports = { ran: "the outer package" };\n');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.js"), 'module.exports = { ran: "the project\'s index.js" };\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/** The stack output `ran` after `pulumi up` of the project (its programs declare no resource). */
const ranIn = async (dir: string, name: string) => {
  const cli = new CliStack(dir, name, "dev", "entry", join(tmp, name));
  cli.init();
  const r = await cli.run("up", { skipPreview: true });
  expect(r.errors).toEqual([]);
  return r.outputs.ran;
};

test("no package.json of its own: the nearest one upward decides (the outer package's entry runs)", async () => {
  expect(await ranIn(project("bare", { "Pulumi.yaml": "name: bare\nruntime: nodejs\n" }), "bare")).toBe("the outer package");
});

test("its own package.json, as `pulumi new` makes: its index.js runs", async () => {
  expect(await ranIn(project("own", { "Pulumi.yaml": "name: own\nruntime: nodejs\n", "package.json": JSON.stringify({ name: "own", main: "index.js" }) }), "own")).toBe("the project's index.js");
});

test("Pulumi.yaml's main naming a file: that file runs, whatever package.json says", async () => {
  const dir = project("main", { "Pulumi.yaml": "name: main\nruntime: nodejs\nmain: program.js\n", "program.js": 'module.exports = { ran: "program.js" };\n' });
  expect(await ranIn(dir, "main")).toBe("program.js");
});
