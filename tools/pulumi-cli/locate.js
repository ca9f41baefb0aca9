/**
 * Which `pulumi` the stack tests run, in this order: the one tools/pulumi-cli/build.sh built
 * (.pulumi-cli/bin, the version tools/pulumi-cli/go.mod pins); else a `pulumi` on PATH of a supported
 * version (its own language host and `pulumi-nodejs` provider beside it, as an install lays them out);
 * else, when Go is there and `build` is asked for, the pinned one built now (≈8 min with Go's caches
 * cold, ≈30 s warm). Answers `{ bin, version, source }`, or `{ missing }` saying why there is none.
 */
const { spawnSync } = require("node:child_process");
const { existsSync, readFileSync } = require("node:fs");
const { dirname, join } = require("node:path");

const ROOT = join(__dirname, "../..");
const BUILT = join(ROOT, ".pulumi-cli", "bin");
/** The oldest CLI accepted from PATH: the oldest @pulumi/pulumi this package supports (package.json). */
const MIN_VERSION = [3, 139, 0];
const PLUGINS = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"];

const complete = (bin) => PLUGINS.every((f) => existsSync(join(bin, f)));

function parseVersion(text) {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? m.slice(1, 4).map(Number) : undefined;
}

function atLeast(v, min) {
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i] > min[i];
  return true;
}

function onPath(env) {
  const which = spawnSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8", env });
  const cli = which.stdout.trim();
  if (which.status !== 0 || !cli) return undefined;
  const out = spawnSync(cli, ["version"], { encoding: "utf8", env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
  const version = parseVersion(out.stdout ?? "");
  if (!version) return { refused: `${cli} did not say its version` };
  const bin = dirname(cli);
  if (!atLeast(version, MIN_VERSION)) return { refused: `${cli} is v${version.join(".")}, older than the oldest supported (v${MIN_VERSION.join(".")})` };
  const absent = PLUGINS.filter((f) => !existsSync(join(bin, f)));
  if (absent.length) return { refused: `${cli} has no ${absent.join(" and ")} beside it` };
  return { bin, version: `v${version.join(".")}`, source: `on PATH (${cli})` };
}

function built(bin) {
  return { bin, version: readFileSync(join(bin, "VERSION"), "utf8").trim(), source: "built from tools/pulumi-cli/go.mod (.pulumi-cli/bin)" };
}

/** `builtDir` and `env` (whose PATH is searched) are the tests' to change. */
function locate({ build = false, builtDir = BUILT, env = process.env } = {}) {
  if (complete(builtDir)) return built(builtDir);
  const path = onPath(env);
  if (path && !path.refused) return path;
  const why = path?.refused ?? "no pulumi on PATH";
  if (spawnSync("sh", ["-c", "command -v go"], { env }).status !== 0) return { missing: `${why}, and no Go to build the pinned one (tools/pulumi-cli/build.sh)` };
  if (!build) return { missing: `${why}, and the pinned one is not built: run npm run build:real-cli` };
  console.log(`\n${why}: building the pinned pulumi CLI (tools/pulumi-cli/build.sh; ≈8 min on a fresh machine, once)`);
  const run = spawnSync("bash", [join(__dirname, "build.sh")], { stdio: "inherit" });
  if (run.status !== 0 || !complete(builtDir)) return { missing: `${why}, and tools/pulumi-cli/build.sh failed (exit ${run.status})` };
  return built(builtDir);
}

module.exports = { locate, MIN_VERSION };
