/**
 * Jest only: this file uses jest's globals (beforeAll, afterAll, beforeEach), so only test files and
 * their helpers import it. The tools (engine, demo, bench, chaos) are compiled without jest's types
 * (tsconfig.tools.json, type-checked by `npm test`): a tool that reached this file would not build.
 *
 * The lifecycle most test files share: one fixture (an emulator, a harness, an engine stack) started
 * before all the file's tests (or a describe block's, when called inside one), made fresh before
 * each, closed after all. `set` hands it to the file's own typed variable, so tests keep reading
 * `emu`, `f`, `h` or `s`.
 */
import type { EmulatorOptions } from "../../emulator";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { engineStack, type EngineStack, type StackOptions } from "../../tools/support/engine-harness";
import { startResourceHarness, type HarnessOptions, type ResourceHarness } from "../../tools/support/resource-harness";
import { vpsFixture, type VpsFixture } from "./vps-fixture";

export interface PerFile<T> {
  start: () => Promise<T>;
  set: (fixture: T) => void;
  close: (fixture: T) => unknown;
  /**
   * Once, right after the start, before the first test (config, a first run, the plan catalogue): the
   * fixture is already set, so it is closed even when this fails.
   */
  setup?: (fixture: T) => unknown;
  /** Before each test: back to a known state. */
  fresh?: (fixture: T) => unknown;
  /** For slow starts (the resource harness runs a Pulumi program first); the whole beforeAll, setup included. */
  startTimeoutMs?: number;
}

export function perFile<T>(p: PerFile<T>): void {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await p.start();
    p.set(fixture);
    await p.setup?.(fixture);
  }, p.startTimeoutMs);
  afterAll(async () => {
    if (fixture !== undefined) await p.close(fixture);
  });
  const fresh = p.fresh;
  if (fresh) beforeEach(async () => void (await fresh(fixture!)));
}

/** What the `use…` helpers take besides the fixture's own options. */
export interface Use<T> {
  /** Before the start (writing a fixture project's program). */
  before?: () => unknown;
  setup?: (fixture: T) => unknown;
  fresh?: (fixture: T) => unknown;
  /** After all the tests, before the fixture itself closes (a client of it, the environment). */
  beforeClose?: (fixture: T) => unknown;
  startTimeoutMs?: number;
}

function use<T extends { close(): unknown }>(start: () => Promise<T>, set: (fixture: T) => void, u: Use<T>): void {
  perFile({
    start: async () => {
      await u.before?.();
      return start();
    },
    set,
    setup: u.setup,
    fresh: u.fresh,
    startTimeoutMs: u.startTimeoutMs,
    close: async (fixture) => {
      await u.beforeClose?.(fixture);
      await fixture.close();
    },
  });
}

/** One test emulator (port 0, `options` as given) per test file. */
export function useEmulator(set: (emu: TestEmulator) => void, u: Use<TestEmulator> & { options?: EmulatorOptions } = {}): void {
  use(() => startTestEmulator(u.options), set, u);
}

/** One resource harness per test file (its start runs a program: up to 60 s unless `startTimeoutMs` says more). */
export function useResourceHarness(set: (h: ResourceHarness) => void, u: Use<ResourceHarness> & { options?: HarnessOptions } = {}): void {
  use(() => startResourceHarness(u.options), set, {
    startTimeoutMs: 60_000,
    ...u,
    // Each test is a deployment of its own, as each `pulumi` operation is.
    fresh: async (h) => {
      await h.newDeployment();
      await u.fresh?.(h);
    },
  });
}

/** One engine stack (an emulator and a configured stack of a project) per test file or describe block. */
export function useEngineStack(set: (s: EngineStack) => void, u: Use<EngineStack> & { options: StackOptions }): void {
  use(() => engineStack(u.options), set, u);
}

/** One VPS emulator fixture per test file, fresh before each test. */
export function useVpsFixture(set: (f: VpsFixture) => void): void {
  perFile({ start: vpsFixture, set, close: (f) => f.emu.close(), fresh: (f) => f.fresh() });
}

/** Things the tests open as they go (webhook receivers, servers), all closed after the file's tests. */
export function closedAfterAll<T extends { close(): unknown }>(): T[] {
  const opened: T[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((x) => x.close()));
  });
  return opened;
}
