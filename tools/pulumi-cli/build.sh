#!/usr/bin/env bash
# Builds the real `pulumi` CLI at the version tools/pulumi-cli/go.mod pins into .pulumi-cli/bin/, with
# beside it the Node language host (our stand-in: pulumi-language-nodejs.js, docs/real-cli.md says
# why) and the npm package's dynamic-provider launcher `pulumi-resource-pulumi-nodejs`. Go's module
# and build caches are reused: a second build only links. Prints the version and the times taken.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/.pulumi-cli/bin"
mkdir -p "$bin"
cd "$here"

if ! command -v go >/dev/null; then
  echo "go is not installed: the real CLI cannot be built (the stack tests need it, or a pulumi >= 3.139 on PATH)" >&2
  exit 1
fi
version="$(go list -m -f '{{.Version}}' github.com/pulumi/pulumi/pkg/v3)"

t0=$SECONDS
go mod download github.com/pulumi/pulumi/pkg/v3 >/dev/null
go list -deps -test=false github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >/dev/null
t1=$SECONDS
# The version stamped as a release build stamps it (`pulumi version`, the state's manifest).
go build -o "$bin/pulumi" -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
t2=$SECONDS

cat >"$bin/pulumi-language-nodejs" <<SH
#!/bin/sh
exec node "$here/pulumi-language-nodejs.js" "\$@"
SH
chmod +x "$bin/pulumi-language-nodejs"
launcher="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
if [ ! -x "$launcher" ]; then
  echo "$launcher is missing: run npm ci first" >&2
  exit 1
fi
ln -sf "$launcher" "$bin/pulumi-resource-pulumi-nodejs"
echo "$version" >"$bin/VERSION"

echo "pulumi $("$bin/pulumi" version) built into $bin (modules: $((t1 - t0)) s, compile and link: $((t2 - t1)) s)"
