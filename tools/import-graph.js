#!/usr/bin/env node
/**
 * `npm run imports` (part of `npm test`): the project's import graph has no circle, and no file
 * imports from a layer it stands below. Type-only imports count: a circle of types still ties two
 * files together for a reader.
 *
 * Layers, lowest first (a file may import its own layer and the ones listed for it):
 *   contract/   the routes and schemas both sides follow: imports nothing of the project
 *   provider/   the API client and the resources' CRUD: contract
 *   emulator/core/  the emulator's core (app, auth, clock, faults, control): contract; no service module
 *   emulator/   the service modules and the emulator's entry: contract, emulator/core (never the
 *               client it is a counterpart of)
 *   sdk/        the resource classes users import: contract, provider
 *   examples/   programs as a user writes them: the package by name only
 *   tools/      engine, provider host driver, demo, bench, chaos: everything above
 *   tests/      what jest runs: everything
 */
const { readdirSync, readFileSync, existsSync, statSync } = require("node:fs");
const { dirname, join, relative, resolve } = require("node:path");

const ROOT = join(__dirname, "..");
const ALLOWED = {
  contract: [],
  provider: ["contract"],
  "emulator/core": ["contract"],
  emulator: ["contract", "emulator/core"],
  sdk: ["contract", "provider"],
  examples: [],
  tools: ["contract", "provider", "emulator/core", "emulator", "sdk", "examples"],
  tests: ["contract", "provider", "emulator/core", "emulator", "sdk", "examples", "tools"],
};
const SKIP = new Set(["node_modules", "dist", "build-tools", "fixtures"]);

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Relative specifiers of every import, export-from, require and dynamic import (comments stripped). */
function specifiers(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const found = [];
  const patterns = [/\b(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\b(?:require|import)\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]);
  return found.filter((s) => s.startsWith("."));
}

function resolveFile(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.js`, join(base, "index.ts"), join(base, "index.js")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function layerOf(file) {
  const parts = relative(ROOT, file).split(/[\\/]/);
  return parts[0] === "emulator" && parts[1] === "core" ? "emulator/core" : parts[0];
}

function main() {
  const files = Object.keys(ALLOWED)
    .filter((layer) => !layer.includes("/"))
    .flatMap((layer) => sourceFiles(join(ROOT, layer)));
  const graph = new Map();
  const problems = [];
  for (const file of files) {
    const edges = [];
    for (const spec of specifiers(readFileSync(file, "utf8"))) {
      const target = resolveFile(file, spec);
      if (!target) continue; // not a project source file (a built file, a JSON file)
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to && !ALLOWED[from]?.includes(to)) {
        problems.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}: ${from}/ may not import from ${to}/`);
      }
      edges.push(target);
    }
    graph.set(file, edges);
  }

  // Circles: depth-first search; each circle is reported once, from its first file in path order.
  const state = new Map(); // file → "open" | "done"
  const stack = [];
  const circles = new Set();
  const visit = (file) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const circle = stack.slice(stack.indexOf(next)).map((f) => relative(ROOT, f));
        const start = circle.indexOf([...circle].sort()[0]);
        circles.add([...circle.slice(start), ...circle.slice(0, start), circle[start]].join(" → "));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  for (const circle of circles) problems.push(`import circle: ${circle}`);

  if (problems.length) {
    console.error(`import graph: ${problems.length} problem(s)\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`import graph: ${files.length} files, no circle, no import against the layers`);
}

main();
