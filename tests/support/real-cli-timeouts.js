/**
 * Under the real CLI each operation is a preview pass and an update, each starting the Go CLI, the
 * language host and two Node processes: several times the test engine's time. The test files' own
 * timeouts (jest.setTimeout) are scaled by this factor rather than edited per engine.
 */
const FACTOR = 8;
const setTimeoutOf = jest.setTimeout.bind(jest);
jest.setTimeout = (ms) => setTimeoutOf(ms * FACTOR);
setTimeoutOf(300000);
