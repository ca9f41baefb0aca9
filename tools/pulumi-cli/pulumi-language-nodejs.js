#!/usr/bin/env node
/**
 * A stand-in for pulumi's Node language host (`pulumi-language-nodejs`), whose Go module the module
 * proxy this project reaches does not serve (403 for every version: docs/real-cli.md). The CLI
 * launches it like any language plugin (`pulumi-language-nodejs [flags] <engine address>`, the port
 * printed on stdout) and calls `Run`; it starts `node @pulumi/pulumi/cmd/run` with the arguments and
 * environment the real host gives it (pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs/main.go:
 * `constructArguments`, `constructConfig`, `execRuntime`), so the program, the SDK and the engine
 * talk exactly as under the released CLI. It reports no required plugins: the program's only
 * provider is the dynamic one (`pulumi-resource-pulumi-nodejs`, on PATH beside the CLI).
 */
"use strict";
const { spawn } = require("node:child_process");
const grpc = require("@grpc/grpc-js");
const services = require("@pulumi/pulumi/proto/language_grpc_pb.js");
const language = require("@pulumi/pulumi/proto/language_pb.js");
const plugin = require("@pulumi/pulumi/proto/plugin_pb.js");
const empty = require("google-protobuf/google/protobuf/empty_pb.js");

/** The real host's exit code for "the program already showed the user an actionable message". */
const BAIL_EXIT_CODE = 32;
const VERSION = require("@pulumi/pulumi/package.json").version;

const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const engineAddress = args[0] ?? "";
const children = new Set();

/** The program's options from Pulumi.yaml (`runtime.options`): typescript (default true), tsconfig, nodeargs. */
function optionsOf(info) {
  const raw = info?.getOptions()?.toJavaScript() ?? {};
  return { typescript: raw.typescript !== false, tsconfig: typeof raw.tsconfig === "string" ? raw.tsconfig : "", nodeargs: typeof raw.nodeargs === "string" ? raw.nodeargs : "" };
}

/** `<namespace>:config:<name>` keys, as the real host hands config to older SDKs and newer alike. */
function configJson(map) {
  const out = {};
  map.forEach((value, key) => {
    const i = key.indexOf(":");
    out[i < 0 ? key : `${key.slice(0, i)}:config:${key.slice(i + 1)}`] = value;
  });
  return JSON.stringify(out);
}

function run(call, callback) {
  const req = call.request;
  const info = req.getInfo();
  const programDir = info?.getProgramDirectory() || req.getPwd() || process.cwd();
  let runPath;
  try {
    runPath = require.resolve(process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH || "@pulumi/pulumi/cmd/run", { paths: [programDir] });
  } catch {
    const res = new language.RunResponse();
    res.setError("It looks like the Pulumi SDK has not been installed. Have you run npm install or yarn install?");
    return callback(null, res);
  }
  const argv = [runPath];
  const add = (k, v) => v !== "" && v !== undefined && argv.push(`--${k}`, String(v));
  add("monitor", req.getMonitorAddress());
  add("engine", engineAddress);
  add("organization", req.getOrganization());
  add("project", req.getProject());
  add("root-directory", info?.getRootDirectory() ?? "");
  add("stack", req.getStack());
  add("pwd", programDir);
  if (req.getDryrun()) argv.push("--dry-run");
  add("parallel", req.getParallel());
  argv.push(info?.getEntryPoint() || req.getProgram() || ".", ...req.getArgsList());
  const opts = optionsOf(info);
  const env = { ...process.env, PULUMI_CONFIG: configJson(req.getConfigMap()), PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()) };
  if (opts.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (opts.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = opts.tsconfig;
  const nodeArgs = opts.nodeargs.split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...argv], { cwd: programDir, env, stdio: ["ignore", "inherit", "inherit"] });
  children.add(child);
  child.on("error", (err) => {
    children.delete(child);
    const res = new language.RunResponse();
    res.setError(`Problem executing program (could not run language executor): ${err.message}`);
    callback(null, res);
  });
  child.on("exit", (code, signal) => {
    children.delete(child);
    const res = new language.RunResponse();
    if (code === BAIL_EXIT_CODE) res.setBail(true);
    else if (code !== 0) res.setError(code === null ? `Program exited unexpectedly: ${signal}` : `Program exited with non-zero exit code: ${code}`);
    callback(null, res);
  });
}

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(services.LanguageRuntimeService, {
  handshake: (_call, cb) => cb(null, new language.LanguageHandshakeResponse()),
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
    for (const child of children) child.kill("SIGINT");
    cb(null, new empty.Empty());
  },
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`could not start language host RPC server: ${err.message}`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
// The engine ends its plugins by killing them; the program goes with the host.
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    for (const child of children) child.kill(sig);
    process.exit(0);
  });
}
