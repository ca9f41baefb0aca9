#!/usr/bin/env bash
# `npm run test:real-cli`: only the stack tests under the real pulumi CLI (jest.realcli.config.js, the
# files jest.cli-tests.js lists), dist/ rebuilt first (the CLI runs it); `npm test` runs them with the rest.
set -uo pipefail
cd "$(dirname "$0")/../.."
npm run --silent build || exit 1
exec npx jest -c jest.realcli.config.js "$@"
