/**
 * Jest only: this file uses jest's globals (beforeAll, afterAll, beforeEach), so only test files and
 * their helpers import it. The tools (engine, demo, bench, chaos) are compiled without jest's types
 * (tsconfig.tools.json, type-checked by `npm test`): a tool that reached this file would not build.
 *
 * The lifecycle most test files share: one fixture (an emulator, a harness) started before all the
 * file's tests, made fresh before each, closed after all. `set` hands it to the file's own typed
 * variable, so tests keep reading `emu`, `f` or `h`.
 */
import { startResourceHarness, type ResourceHarness } from "../../tools/support/resource-harness";
import { vpsFixture, type VpsFixture } from "./vps-fixture";

export interface PerFile<T> {
  start: () => Promise<T>;
  set: (fixture: T) => void;
  close: (fixture: T) => unknown;
  /** Before each test: back to a known state. */
  fresh?: (fixture: T) => unknown;
  /** For slow starts (the resource harness runs a Pulumi program first). */
  startTimeoutMs?: number;
}

export function perFile<T>(p: PerFile<T>): void {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await p.start();
    p.set(fixture);
  }, p.startTimeoutMs);
  afterAll(async () => {
    if (fixture !== undefined) await p.close(fixture);
  });
  const fresh = p.fresh;
  if (fresh) beforeEach(async () => void (await fresh(fixture!)));
}

/** One resource harness per test file (its start runs a program: up to 60 s), `fresh` before each test. */
export function useResourceHarness(set: (h: ResourceHarness) => void, fresh: (h: ResourceHarness) => unknown): void {
  perFile({ start: () => startResourceHarness(), set, close: (h) => h.close(), fresh, startTimeoutMs: 60_000 });
}

/** One VPS emulator fixture per test file, fresh before each test. */
export function useVpsFixture(set: (f: VpsFixture) => void): void {
  perFile({ start: vpsFixture, set, close: (f) => f.emu.close(), fresh: (f) => f.fresh() });
}
