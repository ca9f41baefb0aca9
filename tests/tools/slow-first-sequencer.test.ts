/**
 * The test order CI's fresh machine gets (tests/support/slow-first-sequencer.js): the files listed as
 * slow start first, longest first, and each listed file still exists (a renamed one would silently
 * fall back to jest's place).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** What jest hands a sequencer, as much of it as jest's own sort reads without a cache. */
interface TestFile {
  path: string;
  context: { config: { rootDir: string; cacheDirectory: string; name: string }; hasteFS: { getSize(path: string): number } };
}
// A plain JS module (jest loads it untransformed): its shape, as used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require("../support/slow-first-sequencer") as { new (): { sort(tests: TestFile[]): TestFile[] }; SECONDS: Record<string, number> };

const ROOT = join(__dirname, "..", "..");
const listed = Object.keys(Sequencer.SECONDS);

test("every file the sequencer lists as slow exists", () => {
  expect(listed.length).toBeGreaterThan(10);
  for (const file of listed) expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
});

test("the listed files run first, longest first, before the files not listed", () => {
  const test = (file: string): TestFile => ({ path: join(ROOT, file), context: { config: { rootDir: ROOT, cacheDirectory: join(ROOT, ".no-jest-cache"), name: "slow-first" }, hasteFS: { getSize: () => 1 } } });
  const files = ["tests/client/deadline.test.ts", "tests/reliability/fault-matrix.test.ts", "tests/docs/docs.test.ts", "tests/acceptance/acceptance.test.ts"];
  const sorted = new Sequencer().sort(files.map(test));
  const order = sorted.map((t) => t.path.slice(ROOT.length + 1));
  expect(order.slice(0, 2)).toEqual(["tests/acceptance/acceptance.test.ts", "tests/reliability/fault-matrix.test.ts"]);
  expect(order.slice(2).sort()).toEqual(["tests/client/deadline.test.ts", "tests/docs/docs.test.ts"]);
});
