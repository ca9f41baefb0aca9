/**
 * Under the real CLI each operation is a preview pass and an update, each starting the Go CLI, the
 * language host and two Node processes: several times a test's time against the provider host alone. The test files' own
 * timeouts (`jest.setTimeout`, which stores the value in this global for jest-circus to read when
 * the file's tests start) are scaled by this factor rather than edited per engine.
 */
const FACTOR = 8;
const KEY = Symbol.for("TEST_TIMEOUT_SYMBOL");
let timeout = 300000;
Object.defineProperty(global, KEY, {
  configurable: true,
  get: () => timeout,
  set: (ms) => {
    timeout = ms * FACTOR;
  },
});
