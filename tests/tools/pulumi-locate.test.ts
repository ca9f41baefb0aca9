/**
 * Which `pulumi` npm test's stack tests run (tools/pulumi-cli/locate.js): the built one first, else one
 * on PATH of a supported version with its plugins beside it, else none with the reason (no Go: no build).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { locate } = require("../../tools/pulumi-cli/locate") as {
  locate(o: { build?: boolean; builtDir?: string; env?: NodeJS.ProcessEnv }): { bin?: string; version?: string; source?: string; missing?: string };
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A directory laid out as a pulumi install: `pulumi` printing `version`, and the plugins given. */
function install(version: string, plugins = ["pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-locate-"));
  dirs.push(dir);
  writeFileSync(join(dir, "pulumi"), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(dir, "pulumi"), 0o755);
  for (const p of plugins) writeFileSync(join(dir, p), "");
  return dir;
}

// Only the fake install and the shell's own directories: no Go, no other pulumi.
const envWith = (dir: string): NodeJS.ProcessEnv => ({ PATH: `${dir}:/usr/bin:/bin` });
const notBuilt = join(tmpdir(), "svc-locate-nothing-built");

test("the built CLI comes first, with the version it was stamped with", () => {
  const built = install("v9.9.9", ["pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]);
  writeFileSync(join(built, "VERSION"), "v3.274.1\n");
  expect(locate({ builtDir: built, env: envWith(install("v3.200.0")) })).toMatchObject({ bin: built, version: "v3.274.1" });
});

test("a pulumi on PATH of a supported version, plugins beside it, is used", () => {
  const dir = install("v3.200.1");
  expect(locate({ builtDir: notBuilt, env: envWith(dir) })).toEqual({ bin: dir, version: "v3.200.1", source: `on PATH (${join(dir, "pulumi")})` });
});

test("an older pulumi on PATH is refused, and without Go there is none: the reason says both", () => {
  const { missing } = locate({ builtDir: notBuilt, env: envWith(install("v3.100.0")), build: true });
  expect(missing).toMatch(/pulumi is v3\.100\.0, older than the oldest supported \(v3\.139\.0\), and no Go to build the pinned one/);
});

test("a pulumi on PATH without its language host is refused", () => {
  const { missing } = locate({ builtDir: notBuilt, env: envWith(install("v3.200.0", ["pulumi-resource-pulumi-nodejs"])) });
  expect(missing).toMatch(/pulumi has no pulumi-language-nodejs beside it, and no Go to build the pinned one/);
});
