#!/usr/bin/env node
/**
 * A stand-in for pulumi's Node language host (`pulumi-language-nodejs`), whose Go module the module
 * proxy this project reaches does not serve (403 for every version: docs/real-cli.md). The CLI
 * launches it like any language plugin (`pulumi-language-nodejs [flags] <engine address>`, the port
 * printed on stdout) and calls `Run`; it starts `node @pulumi/pulumi/cmd/run` with the arguments and
 * environment the real host gives it, so the program, the SDK and the engine talk exactly as under
 * the released CLI. Every rule below cites pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs/main.go
 * (read at the source tree of v3.260; the module of v3.274.1 is the one the proxy refuses);
 * tests/tools/language-host.test.ts holds the program's argv and environment to those lines.
 *
 * Left out, on purpose: the monitor proxy (`Run` serves one and passes its address as `--monitor`;
 * here the program gets the engine's monitor itself) and the synchronous-invoke pipes (`--sync`;
 * the SDK of today makes no synchronous invokes), plugin discovery in `node_modules` (this package
 * needs no plugin but the dynamic one, found on PATH), the debugger, the OOM hint, `bun`.
 */
"use strict";
const { spawn } = require("node:child_process");
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const grpc = require("@grpc/grpc-js");
const services = require("@pulumi/pulumi/proto/language_grpc_pb.js");
const language = require("@pulumi/pulumi/proto/language_pb.js");
const plugin = require("@pulumi/pulumi/proto/plugin_pb.js");
const empty = require("google-protobuf/google/protobuf/empty_pb.js");

/** main.go `nodeJSProcessExitedAfterShowingUserActionableMessage`: the program already showed the user an actionable message. */
const BAIL_EXIT_CODE = 32;
/** main.go `execRuntime`: `cmd.WaitDelay = 5 * time.Second` — a cancelled program gets SIGINT, and SIGKILL 5 s later. */
const CANCEL_WAIT_MS = 5_000;

/**
 * The version the host reports (`GetPluginInfo`, `--version`): main.go answers `version.Version` of
 * the sdk/v3 module, which a release stamps with its own version (.goreleaser.yml:
 * `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v{{.Env.PULUMI_VERSION}}`). The host
 * ships with the CLI, so it is the CLI's pinned version (go.mod beside this file).
 */
function sdkVersion() {
  const pin = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/m.exec(readFileSync(join(__dirname, "go.mod"), "utf8"));
  if (!pin) throw new Error(`no github.com/pulumi/pulumi/sdk/v3 requirement in ${join(__dirname, "go.mod")}`);
  return pin[1];
}

/** The flags main.go declares (`--tracing`, `--runtime`, `--version`) and the engine address, its first argument. */
function parseFlags(argv) {
  const out = { tracing: "", runtime: "nodejs", version: false, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || argv[i] === "-" || argv[i] === "--") {
      out.args.push(...argv.slice(argv[i] === "--" ? i + 1 : i));
      break;
    }
    const [, name, inline] = m;
    if (name === "version") out.version = inline === undefined || inline === "true";
    else if (name === "tracing" || name === "runtime") out[name] = inline ?? argv[++i] ?? "";
    // Other flags (the engine's `--logtostderr`, `-v=N`) are glog's, registered by the Go host's logging package.
  }
  return out;
}

/** main.go `parseOptions`: the program's `runtime.options` from Pulumi.yaml; typescript defaults to true. */
function parseOptions(info) {
  const raw = info?.getOptions()?.toJavaScript() ?? {};
  const opts = { typescript: true, tsconfigpath: "", nodeargs: "" };
  if ("typescript" in raw) {
    if (typeof raw.typescript !== "boolean") throw new Error("typescript option must be a boolean");
    opts.typescript = raw.typescript;
  }
  if ("tsconfig" in raw) {
    if (typeof raw.tsconfig !== "string") throw new Error("tsconfigpath option must be a string");
    opts.tsconfigpath = raw.tsconfig;
  }
  if ("nodeargs" in raw) {
    if (typeof raw.nodeargs !== "string") throw new Error("nodeargs option must be a string");
    opts.nodeargs = raw.nodeargs;
  }
  return opts;
}

/** github.com/google/shlex `Split`, which main.go applies to `nodeargs`: words, quotes and backslashes as a POSIX shell reads them. */
function shlexSplit(text) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1])) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "#" && word === null) {
      break;
    } else {
      word ??= "";
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && i + 1 < text.length) word += text[++i];
      else word += c;
    }
  }
  if (quote) throw new Error("EOF found when expecting closing quote");
  if (word !== null) words.push(word);
  return words;
}

/**
 * sdk/go/common/resource/config `ParseKey` then main.go `constructConfig`: every key as
 * `<namespace>:config:<name>`, the form older SDKs read and newer ones accept.
 */
function constructConfig(req) {
  const out = {};
  for (const [key, value] of req.getConfigMap().entries()) {
    const old = key.indexOf(":config:");
    const colon = key.indexOf(":");
    if (old < 0 && colon < 0) throw new Error(`could not parse ${key} as a configuration key (configuration keys should be of the form \`<namespace>:<name>\`)`);
    const [namespace, name] = old >= 0 ? [key.slice(0, old), key.slice(old + ":config:".length)] : [key.slice(0, colon), key.slice(colon + 1)];
    out[`${namespace}:config:${name}`] = value;
  }
  return JSON.stringify(out);
}

/** main.go `constructArguments`: the run script, then each flag whose value is not empty, then the entry point and the program's arguments. */
function constructArguments(req, runPath, engineAddress, tracing) {
  const args = [runPath];
  const maybeAppendArg = (k, v) => {
    if (v !== "") args.push(`--${k}`, v);
  };
  maybeAppendArg("monitor", req.getMonitorAddress());
  maybeAppendArg("engine", engineAddress);
  maybeAppendArg("organization", req.getOrganization());
  maybeAppendArg("project", req.getProject());
  maybeAppendArg("root-directory", req.getInfo()?.getRootDirectory() ?? "");
  maybeAppendArg("stack", req.getStack());
  maybeAppendArg("pwd", req.getInfo()?.getProgramDirectory() ?? "");
  if (req.getDryrun()) args.push("--dry-run");
  maybeAppendArg("parallel", String(req.getParallel()));
  maybeAppendArg("tracing", tracing);
  // "The engine should always pass a name for entry point, even if its just \".\" for the program directory."
  args.push(req.getInfo()?.getEntryPoint() || ".", ...req.getArgsList());
  return args;
}

/** main.go `execRuntime`: the host's own environment, then the config, its secret keys and the TypeScript options. */
function constructEnv(req, opts) {
  const env = { ...process.env, PULUMI_CONFIG: constructConfig(req), PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()) };
  // Nothing else touches ts-node: PULUMI_NODEJS_TRANSPILE_ONLY is never set, so ts-node type-checks
  // unless the user's environment or the tsconfig's `noCheck` says otherwise (@pulumi/pulumi cmd/run/run.js).
  if (opts.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (opts.tsconfigpath) env.PULUMI_NODEJS_TSCONFIG_PATH = opts.tsconfigpath;
  return env;
}

const flags = parseFlags(process.argv.slice(2));
if (flags.version) {
  process.stdout.write(`${sdkVersion()}\n`);
  process.exit(0);
}
if (flags.runtime !== "nodejs") {
  process.stderr.write(`error: unsupported runtime: ${flags.runtime} (this stand-in runs node only)\n`);
  process.exit(1);
}
let engineAddress = flags.args[0] ?? "";
const VERSION = sdkVersion();

/** The programs running now. */
const programs = new Set();
/** main.go `Cancel`: cancels `host.cancelCtx`, from which every Run's command context derives, for good. */
let cancelled = false;

/** main.go `execRuntime` `cmd.Cancel` and `cmd.WaitDelay`: SIGINT (SIGKILL if that fails), SIGKILL 5 s later if still running. */
function interrupt(child) {
  if (child.exitCode !== null || child.signalCode !== null || child.interrupted) return;
  child.interrupted = true;
  if (!child.kill("SIGINT")) child.kill("SIGKILL");
  setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"), CANCEL_WAIT_MS).unref();
}

function run(call, callback) {
  const req = call.request;
  const info = req.getInfo();
  const answer = (fields) => {
    const res = new language.RunResponse();
    if (fields.error) res.setError(fields.error);
    if (fields.bail) res.setBail(true);
    callback(null, res);
  };
  let runPath;
  try {
    runPath = require.resolve(process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH || "@pulumi/pulumi/cmd/run", { paths: [info?.getProgramDirectory() || process.cwd()] });
  } catch {
    return answer({ error: "It looks like the Pulumi SDK has not been installed. Have you run npm install or yarn install?" });
  }
  let opts, env, nodeArgs;
  try {
    opts = parseOptions(info);
    env = constructEnv(req, opts);
    nodeArgs = shlexSplit(opts.nodeargs);
  } catch (err) {
    return answer({ error: err.message });
  }
  // exec.CommandContext refuses to start once its context is done (an earlier Cancel).
  if (cancelled) return answer({ error: "Problem executing program (could not run language executor): context canceled" });
  // No `cwd`: main.go leaves cmd.Dir unset (the program chdirs to --pwd itself).
  const child = spawn(process.execPath, [...nodeArgs, ...constructArguments(req, runPath, engineAddress, flags.tracing)], { env, stdio: ["ignore", "inherit", "inherit"] });
  programs.add(child);
  // "Cancel if either the Cancel RPC fires (host.cancelCtx) or the gRPC request ends (ctx)": the
  // request ends when the engine goes away (a killed CLI) or gives up on the run.
  call.on("cancelled", () => interrupt(child));
  child.on("error", (err) => {
    programs.delete(child);
    answer({ error: `Problem executing program (could not run language executor): ${err.message}` });
  });
  child.on("exit", (code) => {
    programs.delete(child);
    // Go's ExitError.ExitCode() is -1 for a program ended by a signal.
    const exitCode = code ?? -1;
    if (exitCode === 0) answer({});
    else if (exitCode === BAIL_EXIT_CODE) answer({ bail: true });
    else answer({ error: `Program exited with non-zero exit code: ${exitCode}` });
  });
}

/** Ends the host as main.go does once its context is done (SIGINT, or a failed health check): the programs first, SIGKILL after 5 s. */
let ending = false;
function end(reason) {
  if (ending) return;
  ending = true;
  if (reason) process.stderr.write(`pulumi-language-nodejs: ${reason}\n`);
  for (const child of programs) interrupt(child);
  const done = () => programs.size === 0 && process.exit(0);
  for (const child of programs) child.once("exit", done);
  done();
  setTimeout(() => process.exit(0), CANCEL_WAIT_MS).unref();
}

// Whatever ends this process (an uncaught error, a write to the dead CLI's pipe, SIGTERM, the
// timeout above), no program it started outlives it.
process.on("exit", () => {
  for (const child of programs) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
process.on("SIGINT", () => end());
process.on("SIGTERM", () => process.exit(1));

/** main.go `main` and `Handshake`: `rpcutil.Healthcheck` on the engine address; a failed check ends the host. */
const { watchEngine } = require(join(__dirname, "..", "..", "dist", "provider", "engine-watch.js"));
let watch;
function watchTheEngine() {
  watch?.stop();
  watch = engineAddress ? watchEngine(grpc, engineAddress, (why) => end(`the engine at ${engineAddress} is unreachable (${why}): exiting`)) : undefined;
}
watchTheEngine();

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(services.LanguageRuntimeService, {
  handshake: (call, cb) => {
    const address = call.request.getEngineAddress();
    if (address && address !== engineAddress) {
      engineAddress = address;
      watchTheEngine();
    }
    cb(null, new language.LanguageHandshakeResponse());
  },
  getRequiredPlugins: (_call, cb) => cb(null, new language.GetRequiredPluginsResponse()),
  getRequiredPackages: (_call, cb) => cb(null, new language.GetRequiredPackagesResponse()),
  run,
  getPluginInfo: (_call, cb) => {
    const res = new plugin.PluginInfo();
    res.setVersion(VERSION);
    cb(null, res);
  },
  installDependencies: (call) => call.end(),
  about: (_call, cb) => {
    const res = new language.AboutResponse();
    res.setExecutable(process.execPath);
    res.setVersion(process.version);
    cb(null, res);
  },
  getProgramDependencies: (_call, cb) => cb(null, new language.GetProgramDependenciesResponse()),
  cancel: (_call, cb) => {
    cancelled = true;
    for (const child of programs) interrupt(child);
    cb(null, new empty.Empty());
  },
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`could not start language host RPC server: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
