#!/usr/bin/env node
/**
 * Part of `npm run build`: lays out the `svc-emulator` package (packages/svc-emulator) from the one
 * build in dist/: its dist/ gets dist/emulator and dist/contract (the emulator imports the route
 * table by relative path, so the two keep their places). A copy, not a second compile: the build
 * stays one tsc run. The repo's `npx svc-emulator` runs this copy through the workspace link.
 */
const { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const target = join(ROOT, "packages", "svc-emulator", "dist");

/**
 * Makes `to` hold what `from` holds (source maps left out), writing only the files that differ and
 * removing the ones `from` no longer has: a build run again while the emulator runs from this copy
 * (CI's lanes beside `npm test`) changes no file it reads.
 */
function mirror(from, to) {
  mkdirSync(to, { recursive: true });
  const wanted = new Set();
  for (const name of readdirSync(from)) {
    if (name.endsWith(".map")) continue;
    wanted.add(name);
    const src = join(from, name);
    const dest = join(to, name);
    if (statSync(src).isDirectory()) {
      mirror(src, dest);
      continue;
    }
    const content = readFileSync(src);
    if (!existsSync(dest) || !content.equals(readFileSync(dest))) writeFileSync(dest, content);
  }
  for (const name of readdirSync(to)) if (!wanted.has(name)) rmSync(join(to, name), { recursive: true, force: true });
}

for (const dir of ["emulator", "contract"]) mirror(join(ROOT, "dist", dir), join(target, dir));
for (const name of readdirSync(target)) if (!["emulator", "contract"].includes(name)) rmSync(join(target, name), { recursive: true, force: true });
chmodSync(join(ROOT, "dist", "emulator", "cli.js"), 0o755);
chmodSync(join(target, "emulator", "cli.js"), 0o755);
