#!/usr/bin/env bash
# `npm run test:real-cli`: the stack tests that run under the real pulumi CLI (jest.realcli.config.js,
# the files jest.cli-tests.js lists). Without the built CLI: says so and stops — an error under CI, which
# builds it first (.ci/run), a notice elsewhere.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x .pulumi-cli/bin/pulumi ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "the real pulumi CLI was expected (CI builds it with tools/pulumi-cli/build.sh) but .pulumi-cli/bin/pulumi is missing" >&2
    exit 1
  fi
  echo "real CLI not built: the matrix and the examples did NOT run under it (build it with tools/pulumi-cli/build.sh, Go needed)"
  exit 0
fi
export SVC_ENGINE=pulumi
npm run --silent build || exit 1
exec npx jest -c jest.realcli.config.js "$@"
