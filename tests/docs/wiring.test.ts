/**
 * What wires a resource type into the package is written from the provider files (tools/docs/wiring.ts):
 * a type is found by its provider file alone, and `npm run docs -- --check` flags a wiring file that
 * is stale or missing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { resources } from "../../provider/index";
import { generate, leftovers, stalePaths } from "../../tools/docs/docs";
import { discoverTypes, packageJson, resourcesModule } from "../../tools/docs/wiring";

const ROOT = join(__dirname, "..", "..");

test("the types found in the provider files are the resources map's, each with its sdk class at the same path under sdk/", () => {
  const types = discoverTypes(ROOT);
  expect(types.map((t) => t.type).sort()).toEqual(Object.keys(resources).sort());
  for (const t of types) expect(t.sdk).toBe(t.provider.replace(/^provider\//, "sdk/"));
});

test("every type has its dynamic module and package.json export, the module path the state requires", () => {
  const wanted = generate(ROOT);
  const exports = (JSON.parse(wanted.get("package.json")!) as { exports: Record<string, { types: string; default: string }> }).exports;
  for (const type of Object.keys(resources)) {
    expect(wanted.get(join("sdk", "dynamic", `${type}.ts`))).toContain(`export = providerShim("${type}");`);
    expect(exports[`./dynamic/${type}`]).toEqual({ types: `./dist/sdk/dynamic/${type}.d.ts`, default: `./dist/sdk/dynamic/${type}.js` });
  }
  // The other exports stay as they are.
  expect(Object.keys(exports)).toEqual(expect.arrayContaining([".", "./provider", "./package.json"]));
});

test("a provider file exporting a ResourceSchema is a type: the map imports it and package.json exports its module", () => {
  const root = mkdtempSync(join(tmpdir(), "wiring-"));
  try {
    mkdirSync(join(root, "provider", "things"), { recursive: true });
    writeFileSync(
      join(root, "provider", "things", "gadget.ts"),
      'export const gadgetSchema = defineSchema({\n  type: "Gadget",\n  service: "platform",\n});\n\nexport const gadget: SchemaResource = { schema: gadgetSchema };\n',
    );
    const types = discoverTypes(root);
    expect(types).toEqual([{ type: "Gadget", provider: "provider/things/gadget.ts", exportName: "gadget", sdk: "sdk/things/gadget.ts" }]);
    expect(resourcesModule(types)).toContain('import { gadget } from "../things/gadget";');
    expect(resourcesModule(types)).toContain("  Gadget: gadget,");
    const pkg = JSON.parse(packageJson(readFileSync(join(ROOT, "package.json"), "utf8"), types)) as { exports: Record<string, unknown> };
    expect(pkg.exports["./dynamic/Gadget"]).toEqual({ types: "./dist/sdk/dynamic/Gadget.d.ts", default: "./dist/sdk/dynamic/Gadget.js" });
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

test("--check names a missing dynamic module and a package.json without a type's export", () => {
  const wanted = generate(ROOT);
  const root = generatedTree(wanted, "wiring-check-");
  try {
    rmSync(join(root, "sdk", "dynamic", "Webhook.ts"));
    const pkg = JSON.parse(wanted.get("package.json")!) as { exports: Record<string, unknown> };
    delete pkg.exports["./dynamic/Vps"];
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
    // A type removed from provider/: its page, its generated types, its dynamic module and its class stay behind.
    writeFileSync(join(root, "docs", "Gadget.md"), wanted.get(join("docs", "Webhook.md"))!.replace(/Webhook/g, "Gadget"));
    writeFileSync(join(root, "sdk", "generated", "Gadget.ts"), wanted.get(join("sdk", "generated", "Webhook.ts"))!);
    writeFileSync(join(root, "sdk", "dynamic", "Gadget.ts"), wanted.get(join("sdk", "dynamic", "Webhook.ts"))!);
    mkdirSync(join(root, "sdk", "things"), { recursive: true });
    writeFileSync(join(root, "sdk", "things", "gadget.ts"), wanted.get(join("sdk", "email", "webhook.ts"))!);
    // Written by hand: not the tool's.
    writeFileSync(join(root, "docs", "guide.md"), "# A guide\n\nWritten by hand.\n");
    writeFileSync(join(root, "sdk", "things", "helpers.ts"), "export const helper = 1;\n");
    expect(leftovers(wanted, root)).toEqual(
      [join("docs", "Gadget.md"), join("sdk", "dynamic", "Gadget.ts"), join("sdk", "generated", "Gadget.ts"), join("sdk", "things", "gadget.ts")].sort(),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
