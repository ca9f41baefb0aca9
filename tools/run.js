#!/usr/bin/env node
/**
 * `node tools/run.js <tool>.js [args…]` (what `npm run demo`, `chaos`, `bench` and `docs`
 * call): runs build-tools/tools/<tool>.js, compiling the tools first only when they are stale. A
 * no-op `tsc -p tsconfig.tools.json`, incremental as it is, still loads the whole program (~10 s
 * here); comparing file times costs milliseconds.
 *
 * Stale: no build yet, the tool's output missing, or any source newer than the last build's start —
 * the files the last build compiled (its .tsbuildinfo lists them), every .ts under tools/ (a new one
 * too), the tsconfigs and package-lock.json (other versions of the types). The build's *start* is
 * what counts: a file saved while tsc ran may not be in its output, so it must look newer.
 */
const { spawnSync } = require("node:child_process");
const { existsSync, readFileSync, readdirSync, statSync, utimesSync } = require("node:fs");
const { join, resolve } = require("node:path");

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "node_modules" ? [] : tsFiles(join(dir, e.name))) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

function layout(root) {
  const out = join(root, "build-tools");
  return { out, buildInfo: join(out, ".tsbuildinfo") };
}

function stale(root, script) {
  const { out, buildInfo } = layout(root);
  if (!existsSync(buildInfo) || !existsSync(script)) return true;
  const built = statSync(buildInfo).mtimeMs;
  let compiled = [];
  try {
    compiled = (JSON.parse(readFileSync(buildInfo, "utf8")).fileNames ?? []).map((f) => resolve(out, f)).filter((f) => !f.includes(`${"/"}node_modules${"/"}`));
  } catch {
    return true;
  }
  const sources = [...compiled, ...tsFiles(join(root, "tools")), ...["tsconfig.json", "tsconfig.tools.json", "package-lock.json"].map((f) => join(root, f))];
  // A source gone since the last build (deleted, moved) also counts: the build must drop it.
  return sources.some((f) => !existsSync(f) || statSync(f).mtimeMs > built);
}

/** Compiles the tools when stale (`compile()` returns tsc's exit status); returns that status, or 0. */
function buildIfStale(root, tool, compile) {
  const script = join(layout(root).out, "tools", tool);
  if (!stale(root, script)) return 0;
  // A second early: Linux stamps files from a coarse clock (ms behind Date.now()), so a save just
  // after the start could otherwise look older than it.
  const started = new Date(Date.now() - 1000);
  const status = compile();
  if (status !== 0) return status;
  // The marker is the build's start (an incremental build with nothing to write leaves the file as it was).
  utimesSync(layout(root).buildInfo, started, started);
  return 0;
}

module.exports = { buildIfStale };

if (require.main === module) {
  const ROOT = join(__dirname, "..");
  const [tool, ...args] = process.argv.slice(2);
  if (!tool) {
    console.error("usage: node tools/run.js <tool>.js [args…]   (e.g. demo/demo.js)");
    process.exit(2);
  }
  const status = buildIfStale(ROOT, tool, () =>
    spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.tools.json")], { stdio: "inherit", cwd: ROOT }).status ?? 1,
  );
  if (status !== 0) process.exit(status);
  // The tool runs in this process, as its own main module (as `node build-tools/tools/<tool>.js` runs
  // it): no second Node start-up, and signals reach it directly.
  const script = join(layout(ROOT).out, "tools", tool);
  process.argv = [process.argv[0], script, ...args];
  require("node:module").runMain(script);
}
