/**
 * The lifecycle most test files share: one fixture (an emulator, a harness) started before all the
 * file's tests, made fresh before each, closed after all. `set` hands it to the file's own typed
 * variable, so tests keep reading `emu`, `f` or `h`.
 */
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
