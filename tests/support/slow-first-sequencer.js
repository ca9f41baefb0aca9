/**
 * Jest's order, with the files that take a minute or more started first. Jest puts the longest files
 * first from its cache of earlier runs; a fresh machine (CI's) has none, and then orders by file size,
 * which starts some of the longest files (a small file that drives the engine for minutes) last, with
 * the other worker idle at the end. The seconds are a CI run's (2 workers, 2 cores); only their order
 * matters, and a file missing here keeps jest's place.
 */
const { relative } = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const SECONDS = {
  "tests/acceptance/acceptance.test.ts": 350,
  "tests/reliability/interrupted.test.ts": 197,
  "tests/engine/lifecycle/lifecycle-steps.test.ts": 171,
  "tests/reliability/fault-matrix.test.ts": 167,
  "tests/engine/unhappy.test.ts": 162,
  "tests/engine/package-semantics.test.ts": 121,
  "tests/engine/semantics.test.ts": 121,
  "tests/reliability/interrupted-create-access.test.ts": 110,
  "tests/engine/lifecycle/lifecycle.test.ts": 98,
  "tests/engine/server-access-checks.test.ts": 88,
  "tests/engine/quickstart.test.ts": 86,
  "tests/vps/backup.test.ts": 78,
  "tests/engine/profiles-timeouts.test.ts": 77,
  "tests/reliability/drift.test.ts": 66,
  "tests/engine/vps-fleet.test.ts": 63,
  "tests/engine/preview-foresight.test.ts": 54,
  "tests/engine/account.test.ts": 50,
  "tests/engine/server-access.test.ts": 46,
  "tests/vps/vps.test.ts": 43,
  "tests/engine/mail-setup.test.ts": 42,
  "tests/engine/preview-refusals.test.ts": 41,
};

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const seconds = (test) => SECONDS[relative(test.context.config.rootDir, test.path).split("\\").join("/")] ?? 0;
    // A stable sort: among the files not listed, jest's own order stays.
    return [...super.sort(tests)].sort((a, b) => seconds(b) - seconds(a));
  }
}

module.exports = SlowFirstSequencer;
module.exports.SECONDS = SECONDS;
