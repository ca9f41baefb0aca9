/**
 * What a program loads with `require("pulumi-svc")` (issue 43, the program's start): the classes
 * only. The client (undici) and the schemas (zod) load at a program's first data function, and in
 * the provider host; a program that only declares resources starts without them.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The packages under node_modules a fresh process has loaded after running `code`. */
function packagesLoadedBy(code: string): string[] {
  const script = `${code}; console.log(JSON.stringify([...new Set(Object.keys(require.cache).map((f) => (f.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/) || [])[1]).filter(Boolean))]))`;
  // No svc settings in its environment: a data function then fails before any request.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SVC_") && name !== "PULUMI_CONFIG"));
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, env, encoding: "utf8" })) as string[];
}

test("requiring the package loads @pulumi/pulumi and none of the client's or the schemas' packages", () => {
  const loaded = packagesLoadedBy(`require(${JSON.stringify(join(ROOT, "dist/sdk/index.js"))})`);
  expect(loaded).toContain("@pulumi/pulumi");
  expect(loaded).not.toContain("undici");
  expect(loaded).not.toContain("zod");
});

test("a data function's first call loads the client", () => {
  // Its settings are missing: the call throws before any request, after loading the client's code.
  const loaded = packagesLoadedBy(
    `const svc = require(${JSON.stringify(join(ROOT, "dist/sdk/index.js"))}); try { svc.getVpsPlansOutput(); } catch {}`,
  );
  expect(loaded).toContain("undici");
  expect(loaded).toContain("zod");
});
