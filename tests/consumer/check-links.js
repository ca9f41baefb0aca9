#!/usr/bin/env node
/**
 * `node tests/consumer/check-links.js <installed package dir>`: every link a user of the installed
 * package meets resolves inside it — the relative links of the README and of every page it ships (file and heading,
 * as GitHub and editors render them) and the TSDoc's references (`docs/<Page>.md`, read from the
 * package root, and markdown links) in its declarations. Prints each broken one; exits 1 if any.
 */
const { existsSync, readFileSync, readdirSync, statSync } = require("node:fs");
const { dirname, join, relative, resolve, sep } = require("node:path");

const root = resolve(process.argv[2] ?? ".");

function walk(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === "node_modules" ? [] : walk(join(dir, e.name), keep)) : keep(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The text outside fenced code blocks, line by line. */
function proseLines(text) {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const broken = [];
let checked = 0;

/** `link` written in `file`, resolved from `base`: a file inside the package and, with `#x`, a heading of it. */
function check(file, link, base) {
  checked++;
  const [path, anchor] = link.split("#");
  const target = path ? resolve(base, decodeURIComponent(path)) : file;
  const where = relative(root, file);
  if (target !== root && !target.startsWith(root + sep)) return broken.push(`${where}: ${link} (outside the package)`);
  if (!existsSync(target)) return broken.push(`${where}: ${link} (no file ${relative(root, target)})`);
  if (anchor && statSync(target).isFile() && target.endsWith(".md") && !anchorsOf(readFileSync(target, "utf8")).has(anchor)) {
    broken.push(`${where}: ${link} (no heading #${anchor} in ${relative(root, target)})`);
  }
}

const markdownLinks = (line) => [...line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));

// Every page the package ships (README, docs/); the README must be one.
for (const file of [...new Set([join(root, "README.md"), ...walk(root, (n) => n.endsWith(".md"))])]) {
  if (!existsSync(file)) {
    broken.push(`${relative(root, file)} (missing)`);
    continue;
  }
  for (const line of proseLines(readFileSync(file, "utf8"))) for (const link of markdownLinks(line)) check(file, link, dirname(file));
}

for (const file of walk(join(root, "dist"), (n) => n.endsWith(".d.ts"))) {
  const text = readFileSync(file, "utf8");
  for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    // A page named in prose (`Reference: docs/Vps.md`) is read from the package root.
    for (const m of comment.matchAll(/(?<![\w/.])docs\/[\w./-]+\.md(#[\w-]+)?/g)) check(file, m[0], root);
    for (const link of markdownLinks(comment)) check(file, link, dirname(file));
  }
}

for (const line of broken) console.log(`broken: ${line}`);
console.log(`links: ${checked} checked in ${relative(process.cwd(), root) || "."}, ${broken.length} broken`);
process.exit(broken.length ? 1 : 0);
