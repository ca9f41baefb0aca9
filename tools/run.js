#!/usr/bin/env node
/**
 * `node tools/run.js <tool>.js [args…]` (what `npm run engine`, `demo`, `chaos`, `bench` and `docs`
 * call): runs build-tools/tools/<tool>.js, compiling the tools first only when they are stale. A
 * no-op `tsc -p tsconfig.tools.json`, incremental as it is, still loads the whole program (~10 s
 * here); comparing file times costs milliseconds.
 *
 * Stale: no build yet, the tool's output missing, or any source newer than the last build — the
 * files the last build compiled (its .tsbuildinfo lists them), every .ts under tools/ (a new one
 * too), the tsconfigs and package-lock.json (other versions of the types).
 */
const { spawnSync } = require("node:child_process");
const { existsSync, readFileSync, readdirSync, statSync, utimesSync } = require("node:fs");
const { join, resolve } = require("node:path");

const ROOT = join(__dirname, "..");
const OUT = join(ROOT, "build-tools");
const BUILD_INFO = join(OUT, ".tsbuildinfo");

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "node_modules" ? [] : tsFiles(join(dir, e.name))) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

function stale(script) {
  if (!existsSync(BUILD_INFO) || !existsSync(script)) return true;
  const built = statSync(BUILD_INFO).mtimeMs;
  let compiled = [];
  try {
    compiled = (JSON.parse(readFileSync(BUILD_INFO, "utf8")).fileNames ?? []).map((f) => resolve(OUT, f)).filter((f) => !f.includes(`${"/"}node_modules${"/"}`));
  } catch {
    return true;
  }
  const sources = [...compiled, ...tsFiles(join(ROOT, "tools")), ...["tsconfig.json", "tsconfig.tools.json", "package-lock.json"].map((f) => join(ROOT, f))];
  // A source gone since the last build (deleted, moved) also counts: the build must drop it.
  return sources.some((f) => !existsSync(f) || statSync(f).mtimeMs > built);
}

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error("usage: node tools/run.js <tool>.js [args…]   (e.g. engine/cli.js)");
  process.exit(2);
}
const script = join(OUT, "tools", tool);
if (stale(script)) {
  const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.tools.json")], { stdio: "inherit", cwd: ROOT });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // An incremental build with nothing to write leaves the file as it was: mark this check's time.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
// The tool runs in this process, as its own main module (as `node build-tools/tools/<tool>.js` runs
// it): no second Node start-up, and signals reach it directly.
process.argv = [process.argv[0], script, ...args];
require("node:module").runMain(script);
