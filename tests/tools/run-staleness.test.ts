import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { buildIfStale } = require("../../tools/run.js") as { buildIfStale: (root: string, tool: string, compile: () => number) => number };

/** A repo-shaped directory: tools/x.ts and the build of it that `compile` writes. */
function fakeRepo(): { root: string; source: string; compile: (during?: () => void) => () => number; builds: () => number } {
  const root = mkdtempSync(join(tmpdir(), "run-stale-"));
  mkdirSync(join(root, "tools"));
  const source = join(root, "tools", "x.ts");
  writeFileSync(source, "export const x = 1;\n");
  const earlier = new Date(Date.now() - 60_000); // saved a minute ago, as a real edit before a run is
  for (const f of ["tsconfig.json", "tsconfig.tools.json", "package-lock.json"]) writeFileSync(join(root, f), "{}");
  for (const f of [source, ...["tsconfig.json", "tsconfig.tools.json", "package-lock.json"].map((n) => join(root, n))]) utimesSync(f, earlier, earlier);
  let count = 0;
  const compile = (during?: () => void) => () => {
    count++;
    during?.();
    mkdirSync(join(root, "build-tools", "tools"), { recursive: true });
    writeFileSync(join(root, "build-tools", "tools", "x.js"), "");
    writeFileSync(join(root, "build-tools", ".tsbuildinfo"), JSON.stringify({ fileNames: ["../tools/x.ts"] }));
    return 0;
  };
  return { root, source, compile, builds: () => count };
}

describe("tools/run.js: when the tools are rebuilt", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  test("no build yet: builds; nothing changed since: does not build again", () => {
    const repo = fakeRepo();
    roots.push(repo.root);
    expect(buildIfStale(repo.root, "x.js", repo.compile())).toBe(0);
    expect(buildIfStale(repo.root, "x.js", repo.compile())).toBe(0);
    expect(repo.builds()).toBe(1);
  });

  test("a source saved after the build: builds again", () => {
    const repo = fakeRepo();
    roots.push(repo.root);
    buildIfStale(repo.root, "x.js", repo.compile());
    const later = new Date(Date.now() + 5000);
    utimesSync(repo.source, later, later);
    buildIfStale(repo.root, "x.js", repo.compile());
    expect(repo.builds()).toBe(2);
  });

  test("a source saved while the build ran (after tsc read it): the next run builds again", () => {
    const repo = fakeRepo();
    roots.push(repo.root);
    // The save lands during the compile, before tsc writes its .tsbuildinfo.
    buildIfStale(repo.root, "x.js", repo.compile(() => writeFileSync(repo.source, "export const x = 2;\n")));
    buildIfStale(repo.root, "x.js", repo.compile());
    expect(repo.builds()).toBe(2);
  });

  test("a failed build: its status is returned and the next run tries again", () => {
    const repo = fakeRepo();
    roots.push(repo.root);
    expect(buildIfStale(repo.root, "x.js", () => 2)).toBe(2);
    buildIfStale(repo.root, "x.js", repo.compile());
    expect(repo.builds()).toBe(1);
  });
});
