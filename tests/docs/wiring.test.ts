/**
 * What wires a resource type into the package is written from the provider files (tools/docs/wiring.ts):
 * a type is found by its provider file alone, and `npm run docs -- --check` flags a wiring file that
 * is stale or missing.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { resources } from "../../provider/index";
import { generate, leftovers, stalePaths } from "../../tools/docs/docs";
import { discoverTypes, packageJson, resourcesModule } from "../../tools/docs/wiring";
// The closure serializer's map from a module file to the path it writes in the state (the same code from 3.139.0 to today).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getModuleFromPath } = require("@pulumi/pulumi/runtime/closure/package") as { getModuleFromPath(path: string, pkg: unknown): string };

const ROOT = join(__dirname, "..", "..");

test("the types found in the provider files are the resources map's, each with its sdk class at the same path under sdk/", () => {
  const types = discoverTypes(ROOT);
  expect(types.map((t) => t.type).sort()).toEqual(Object.keys(resources).sort());
  for (const t of types) expect(t.sdk).toBe(t.provider.replace(/^provider\//, "sdk/"));
});

test("every type has its dynamic module, and package.json's one pattern exports it at the path the state requires", () => {
  const wanted = generate(ROOT);
  const pkg = JSON.parse(wanted.get("package.json")!) as { name: string; exports: Record<string, unknown> };
  expect(Object.keys(pkg.exports).filter((key) => key.startsWith("./dynamic/"))).toEqual(["./dynamic/*"]);
  // The other exports stay as they are.
  expect(Object.keys(pkg.exports)).toEqual([".", "./provider", "./dynamic/*", "./package.json"]);
  for (const type of Object.keys(resources)) {
    expect(wanted.get(join("sdk", "dynamic", `${type}.ts`))).toContain(`export = providerShim("${type}");`);
    // What the closure serializer writes for the built module, through the exports (@pulumi/pulumi runtime/closure/package.js).
    expect(getModuleFromPath(`${pkg.name}/dist/sdk/dynamic/${type}.js`, pkg)).toBe(`${pkg.name}/dynamic/${type}`);
  }
});

test("Node resolves `pulumi-svc/dynamic/<Type>` of every type through the pattern to its built module, and nothing else under dynamic/", () => {
  const types = Object.keys(resources);
  // A child process: Node's own resolution of the package's exports (self-reference by name), not jest's resolver.
  const script = `for (const t of ${JSON.stringify([...types, "Nope", "../provider/index"])}) {
    let to; try { to = require("node:path").relative(process.cwd(), require.resolve("pulumi-svc/dynamic/" + t)); } catch (e) { to = e.code; }
    console.log(t + " " + to);
  }`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  expect(out).toEqual([
    ...types.map((t) => `${t} ${join("dist", "sdk", "dynamic", `${t}.js`)}`),
    "Nope MODULE_NOT_FOUND",
    // Node refuses a `..` segment in what `*` matches.
    "../provider/index ERR_INVALID_MODULE_SPECIFIER",
  ]);
});

test("a provider file exporting a ResourceSchema is a type: the map loads it at first use, and package.json exports its module unchanged", () => {
  const root = mkdtempSync(join(tmpdir(), "wiring-"));
  try {
    mkdirSync(join(root, "provider", "things"), { recursive: true });
    writeFileSync(
      join(root, "provider", "things", "gadget.ts"),
      'export const gadgetSchema = defineSchema({\n  type: "Gadget",\n  service: "platform",\n});\n\nexport const gadget: SchemaResource = { schema: gadgetSchema };\n',
    );
    const types = discoverTypes(root);
    expect(types).toEqual([{ type: "Gadget", provider: "provider/things/gadget.ts", exportName: "gadget", sdk: "sdk/things/gadget.ts" }]);
    expect(resourcesModule(types)).toContain('  Gadget: () => {\n    const loaded: typeof import("../things/gadget") = require("../things/gadget");\n    return loaded.gadget;\n  },');
    // package.json names no type: the checkout's, as `npm run docs` writes it, serves the new type's module too.
    const text = readFileSync(join(ROOT, "package.json"), "utf8");
    expect(packageJson(text)).toBe(text);
    expect(getModuleFromPath("pulumi-svc/dist/sdk/dynamic/Gadget.js", JSON.parse(text))).toBe("pulumi-svc/dynamic/Gadget");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** A temp checkout holding every file `npm run docs` writes, as it writes them. */
function generatedTree(wanted: ReadonlyMap<string, string>, prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [file, text] of wanted) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

test("--check names a missing dynamic module and a package.json that lists a type's module by name", () => {
  const wanted = generate(ROOT);
  const root = generatedTree(wanted, "wiring-check-");
  try {
    rmSync(join(root, "sdk", "dynamic", "Webhook.ts"));
    const pkg = JSON.parse(wanted.get("package.json")!) as { exports: Record<string, unknown> };
    pkg.exports["./dynamic/Vps"] = { types: "./dist/sdk/dynamic/Vps.d.ts", default: "./dist/sdk/dynamic/Vps.js" };
    writeFileSync(join(root, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    expect(stalePaths(wanted, root, true).sort()).toEqual([join("package.json"), join("sdk", "dynamic", "Webhook.ts")].sort());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("--check names what an earlier run wrote for a type no source makes any more, and leaves the guides written by hand", () => {
  const wanted = generate(ROOT);
  const root = generatedTree(wanted, "wiring-leftovers-");
  try {
    expect(leftovers(wanted, root)).toEqual([]);
    // A type removed from provider/: its page, its example, its generated types, its dynamic module and its class stay behind.
    writeFileSync(join(root, "docs", "Gadget.md"), wanted.get(join("docs", "Webhook.md"))!.replace(/Webhook/g, "Gadget"));
    writeFileSync(join(root, "docs", "examples", "Gadget.ts"), wanted.get(join("docs", "examples", "Webhook.ts"))!.replace(/Webhook/g, "Gadget"));
    writeFileSync(join(root, "sdk", "generated", "Gadget.ts"), wanted.get(join("sdk", "generated", "Webhook.ts"))!);
    writeFileSync(join(root, "sdk", "dynamic", "Gadget.ts"), wanted.get(join("sdk", "dynamic", "Webhook.ts"))!);
    mkdirSync(join(root, "sdk", "things"), { recursive: true });
    writeFileSync(join(root, "sdk", "things", "gadget.ts"), wanted.get(join("sdk", "email", "webhook.ts"))!);
    // Written by hand: not the tool's.
    writeFileSync(join(root, "docs", "guide.md"), "# A guide\n\nWritten by hand.\n");
    writeFileSync(join(root, "sdk", "things", "helpers.ts"), "export const helper = 1;\n");
    expect(leftovers(wanted, root)).toEqual(
      [join("docs", "Gadget.md"), join("docs", "examples", "Gadget.ts"), join("sdk", "dynamic", "Gadget.ts"), join("sdk", "generated", "Gadget.ts"), join("sdk", "things", "gadget.ts")].sort(),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
