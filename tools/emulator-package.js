#!/usr/bin/env node
/**
 * Part of `npm run build`: lays out the `svc-emulator` package (packages/svc-emulator) from the one
 * build in dist/: its dist/ gets dist/emulator and dist/contract (the emulator imports the route
 * table by relative path, so the two keep their places). A copy, not a second compile: the build
 * stays one tsc run. The repo's `npx svc-emulator` runs this copy through the workspace link.
 */
const { chmodSync, cpSync, rmSync } = require("node:fs");
const { join } = require("node:path");

const ROOT = join(__dirname, "..");
const target = join(ROOT, "packages", "svc-emulator", "dist");
rmSync(target, { recursive: true, force: true });
for (const dir of ["emulator", "contract"]) {
  cpSync(join(ROOT, "dist", dir), join(target, dir), { recursive: true, filter: (src) => !src.endsWith(".map") });
}
chmodSync(join(ROOT, "dist", "emulator", "cli.js"), 0o755);
chmodSync(join(target, "emulator", "cli.js"), 0o755);
