import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

// npm links a package's bins at install time and skips a bin whose file is missing then; on a fresh
// clone `npm ci` runs before the build, so a bin that points into dist/ is never linked
// (`npx svc-emulator: not found`). Every bin must be a file in git.
describe("declared bins", () => {
  const tracked = new Set(execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n"));
  for (const manifest of ["package.json", "packages/svc-emulator/package.json"]) {
    const pkg = JSON.parse(readFileSync(join(ROOT, manifest), "utf8")) as { bin?: Record<string, string> | string };
    const bins = typeof pkg.bin === "string" ? { default: pkg.bin } : (pkg.bin ?? {});
    const dir = manifest.replace(/\/?package\.json$/, "");
    for (const [name, file] of Object.entries(bins)) {
      test(`${manifest}: ${name} is a committed, executable file`, () => {
        const path = join(dir, file).replace(/^\.\//, "");
        expect(tracked.has(path)).toBe(true);
        expect(statSync(join(ROOT, path)).mode & 0o111).not.toBe(0);
      });
    }
  }
});
