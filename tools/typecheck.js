#!/usr/bin/env node
/**
 * `npm run typecheck`: type-checks every tsconfig of the repo (build, tests, tools, each example), so
 * a file that compiles under one and not under another fails `npm test` — the tools once stopped
 * building while the tests, compiled with jest's types, stayed green.
 *
 * The tsconfigs are found, not listed, so a new one is checked without anyone remembering to add it.
 * An example is checked as a user's project: `pulumi-svc` resolves through its node_modules to this
 * package's built types (`npm run build` first, as `npm test` does); the link is made here the way
 * `npm install` of `file:../..` makes it.
 */
const { spawn } = require("node:child_process");
const { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } = require("node:fs");
const { dirname, join, relative } = require("node:path");

const ROOT = join(__dirname, "..");
const SKIP = new Set(["node_modules", "dist", "build-tools", ".git"]);

function findTsconfigs(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith("engine-")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTsconfigs(path));
    else if (/^tsconfig(\..+)?\.json$/.test(entry.name)) found.push(path);
  }
  return found;
}

/** What `npm install` gives a project that depends on `pulumi-svc: file:../..`. */
function linkPackage(projectDir) {
  const pkg = join(projectDir, "package.json");
  if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, "utf8")).dependencies?.["pulumi-svc"]) return;
  const link = join(projectDir, "node_modules", "pulumi-svc");
  if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) return;
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(ROOT, link, "dir");
}

function tsc(config) {
  return new Promise((resolve) => {
    const started = Date.now();
    // Not incremental: the tools' build info marks what tools/run.js last emitted, and a check that
    // writes it without emitting would make a stale build-tools/ look current.
    const child = spawn(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", config, "--noEmit", "--incremental", "false", "--pretty", "false"], { cwd: ROOT });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ config: relative(ROOT, config), code, output, ms: Date.now() - started }));
  });
}

async function main() {
  const configs = findTsconfigs(ROOT).sort();
  for (const config of configs) linkPackage(dirname(config));
  // Two at a time: CI machines have two cores.
  const queue = [...configs];
  const results = [];
  await Promise.all(
    [0, 1].map(async () => {
      while (queue.length) results.push(await tsc(queue.shift()));
    }),
  );
  let failed = 0;
  for (const r of results.sort((a, b) => a.config.localeCompare(b.config))) {
    console.log(`${r.code === 0 ? "ok    " : "FAILED"} ${r.config} (${(r.ms / 1000).toFixed(1)} s)`);
    if (r.code !== 0) {
      failed++;
      console.log(r.output.trimEnd().replace(/^/gm, "    "));
    }
  }
  console.log(`typecheck: ${configs.length - failed} of ${configs.length} tsconfigs compile`);
  process.exit(failed ? 1 : 0);
}

main();
