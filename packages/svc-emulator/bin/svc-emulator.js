#!/usr/bin/env node
// A committed launcher, so `npm ci` links the bin before `npm run build` has made dist/ (npm skips
// a bin whose target is missing at install time, and a fresh clone has no dist/ yet).
require("../dist/emulator/cli.js");
