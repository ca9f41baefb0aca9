/**
 * The test engine when things go wrong, as the Pulumi CLI behaves (issue 23, acceptance 1–4): a
 * failed step cancels the deployment at once (the program's pending registrations answered
 * Unavailable), each mistake printed once as the CLI prints it, a secret-bearing input never printed,
 * the program's own error shown beside a resource's, Ctrl-C once (graceful, state saved) and twice
 * (at once) with no process left, `config set --path`, `stack output`, the in-flight display and the
 * provider host's output as diagnostics.
 */
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { childPids } from "../../tools/support/children";
import { EngineInterrupted, runEngine, type RunResult } from "../../tools/engine/engine";
import { formatStackOutputs } from "../../tools/engine/printing";
import { getConfig, removeConfig, setConfig } from "../../tools/engine/state";
import { fixtureProject, ROOT, type EngineRun, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords, liveServers } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";
import { usePlanStack } from "./plan-stack";

jest.setTimeout(180_000);

const STACK = "engine-test-unhappy";
const PASSWORD = "Fixture!pass2026";

/** A run timed, with the largest resident memory any process of the engine reached meanwhile. */
async function measured(s: EngineStack, op: "preview" | "up", ok: boolean): Promise<EngineRun & { seconds: number; peakMb: number }> {
  let peakKb = 0;
  const sample = setInterval(() => {
    for (const pid of childPids()) {
      const rss = /VmRSS:\s+(\d+)/.exec(safeRead(`/proc/${pid}/status`))?.[1];
      if (rss) peakKb = Math.max(peakKb, Number(rss));
    }
  }, 100);
  const started = Date.now();
  try {
    const r = await s.run(op, ok);
    return { ...r, seconds: (Date.now() - started) / 1000, peakMb: peakKb / 1024 };
  } finally {
    clearInterval(sample);
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Each error of the run appears on exactly one line of what it printed. */
function printedOnce(r: EngineRun): void {
  for (const e of r.errors) expect(r.output.filter((line) => line.includes(e.split("\n")[0]))).toHaveLength(1);
}

describe("failed previews", () => {
  const project = fixtureProject("unhappy");
  const ctx = { s: undefined as unknown as EngineStack };
  useEngineStack((s) => (ctx.s = s), { options: { projectDir: project.dir, stack: STACK, removeProject: true } });
  const P = project.project;

  const HOOK = (url: string) => `const hook = new svc.Webhook("hook", { url: ${url}, events: ["email.delivered"] });\nexports.id = hook.id;\n`;
  let goodSeconds = 0;

  test("one Webhook refused at check, its id exported: as fast as a good preview, printed once as the CLI prints it, no process above 300 MB", async () => {
    project.program(HOOK('"https://hooks.example.com/a"'));
    const good = await measured(ctx.s, "preview", true);
    goodSeconds = good.seconds;
    project.program(HOOK('"http://hooks.example.com/a"'));
    const bad = await measured(ctx.s, "preview", false);
    expect(bad.errors).toEqual([
      "pulumi-nodejs:dynamic/svc:Webhook resource 'hook': property url value {http://hooks.example.com/a} has a problem: url: must use https (got http)",
    ]);
    printedOnce(bad);
    expect(bad.output).toContain("  error: preview failed");
    expect(bad.seconds).toBeLessThan(3 * good.seconds);
    expect(Math.max(good.peakMb, bad.peakMb)).toBeLessThan(300);
    expect(ctx.s.writes()).toEqual([]);
  });

  test("a missing config key: the program's error, once, as fast", async () => {
    project.program(HOOK('config.require("hookUrl")'));
    const r = await measured(ctx.s, "preview", false);
    expect(r.errors).toEqual([expect.stringMatching(new RegExp(`^Missing required configuration variable '${P}:hookUrl'`))]);
    printedOnce(r);
    expect(r.seconds).toBeLessThan(3 * goodSeconds);
    expect(r.peakMb).toBeLessThan(300);
  });

  test("a program with 4 mistakes: the first invalid resource stops the run (the CLI's step generator bails), each error printed once, as fast as without them", async () => {
    const program = (bad: boolean) =>
      project.program(`
const a = new svc.Webhook("a", { url: "${bad ? "http" : "https"}://hooks.example.com/a", events: ["email.delivered"] });
const b = new svc.Webhook("b", { url: "${bad ? "http" : "https"}://hooks.example.com/b", events: ["email.delivered"] });
const t = new svc.Template("t", { name: "${bad ? "" : "t"}", subject: "Hi", textBody: "Hello" });
const c = new svc.Webhook("c", { url: "https://hooks.example.com/c", events: ["${bad ? "no.such.event" : "email.delivered"}"] });
exports.ids = [a.id, b.id, t.id, c.id];`);
    program(false);
    const good = await measured(ctx.s, "preview", true);
    program(true);
    const bad = await measured(ctx.s, "preview", false);
    expect(bad.errors.length).toBeGreaterThan(0);
    for (const e of bad.errors) expect(e).toMatch(/^pulumi-nodejs:dynamic\/svc:(Webhook|Template) resource '(a|b|t|c)': property \w+ value \{.*\} has a problem: /);
    expect(new Set(bad.errors).size).toBe(bad.errors.length);
    printedOnce(bad);
    expect(bad.seconds).toBeLessThan(3 * good.seconds);
    expect(bad.peakMb).toBeLessThan(300);
  });

  test("a data function that fails (wrong key) and a resource that fails: both errors are printed", async () => {
    setConfig(project.dir, STACK, ctx.s.options.passphrase, "svc:profiles.wrong.emailApiKey", "svcm_not_a_key_of_this_account", true, true);
    project.program(`svc.getEmailStatus({ profile: "wrong" }).then((s) => console.log(s));
${HOOK('"http://hooks.example.com/a"')}`);
    const r = await ctx.s.run("preview", false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pulumi-nodejs:dynamic\/svc:Webhook resource 'hook': property url value .* has a problem: url: must use https/),
        // One line, without a stack: the operation, the code, and the setting the key came from.
        expect.stringMatching(/^getEmailStatus failed: GET \/status 401 INVALID_API_KEY — .*svc:profiles\.wrong\.emailApiKey \(profile "wrong"\)/),
      ]),
    );
    printedOnce(r);
  });

  test.each([
    ["a plain string", `"short&bad"`],
    ["pulumi.secret", `pulumi.secret("short&bad")`],
  ])("a Vps whose rootPassword breaks the rule (%s) is refused at preview, and no line holds the password", async (_what, value) => {
    ctx.s.config(`${P}:planId`, ctx.s.world().catalog.vpsPlans[0].id);
    project.program(`new svc.Vps("srv", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: ${value} });`);
    const r = await ctx.s.run("preview", false);
    expect(r.errors).toEqual(["pulumi-nodejs:dynamic/svc:Vps resource 'srv' has a problem: rootPassword: 12 to 30 characters: letters, digits and ! @ # $ % ^ *"]);
    expect(r.output.filter((line) => line.includes("short&bad"))).toEqual([]);
    expect(ctx.s.writes()).toEqual([]);
  });

  test("config set --path reaches the provider as JSON (config rm of the top-level keys leaves only the profile); outputs whole; stack output --json --show-secrets; the provider host's messages as diagnostics", async () => {
    const pass = ctx.s.options.passphrase;
    setConfig(project.dir, STACK, pass, "svc:profiles.client.emailApiKey", ctx.s.emu.keys.email, true, true);
    setConfig(project.dir, STACK, pass, "svc:profiles.client.apiKey", ctx.s.emu.keys.account, true, true);
    expect(removeConfig(project.dir, STACK, "svc:emailApiKey")).toBe(true);
    expect(removeConfig(project.dir, STACK, "svc:apiKey")).toBe(true);
    expect(removeConfig(project.dir, STACK, "svc:profiles.wrong", true)).toBe(true);
    expect(getConfig(project.dir, STACK, pass, "svc:profiles.client.emailApiKey", true)).toEqual({ value: ctx.s.emu.keys.email, secret: true });
    expect(getConfig(project.dir, STACK, pass, "svc:profiles", false)?.value).toEqual({ client: { emailApiKey: ctx.s.emu.keys.email, apiKey: ctx.s.emu.keys.account } });
    const long = "x".repeat(150);
    project.program(`const hook = new svc.Webhook("hook", { url: "https://hooks.example.com/profile", events: ["email.delivered"], profile: "client" });
new svc.Domain("dom", { name: "unhappy-engine-example.com", profile: "client" });
exports.long = "${long}";
exports.hookSecret = hook.secret;`);
    const up = await ctx.s.run("up");
    expect(emailRecords(ctx.s.world()).webhooks.map((w) => w.url)).toContain("https://hooks.example.com/profile");
    // Names padded so the colons align, as the CLI prints them.
    expect(up.output).toContain(`    long      : "${long}"`);
    expect(up.output).toContain("    hookSecret: [secret]");

    const state = ctx.s.state();
    const all = JSON.parse(formatStackOutputs(state, { json: true, showSecrets: true })!.join("\n"));
    expect(all).toEqual({ long, hookSecret: expect.stringMatching(/^whsec_/) });
    expect(JSON.parse(formatStackOutputs(state, { json: true })!.join("\n")).hookSecret).toBe("[secret]");
    expect(formatStackOutputs(state, { name: "long" })).toEqual([long]);
    expect(formatStackOutputs(state, { name: "none" })).toBeUndefined();

    project.program("");
    const removed = await ctx.s.run("up");
    const at = removed.output.indexOf("Diagnostics:");
    expect(at).toBeGreaterThan(0);
    expect(removed.output[at + 1]).toBe(`  pulumi:pulumi:Stack (${P}-${STACK}):`);
    expect(removed.output[at + 2]).toMatch(/^ {4}Domain unhappy-engine-example\.com was removed from the stack only/);
  });
});

describe("slow steps and Ctrl-C", () => {
  const ctx = { s: undefined as unknown as EngineStack };
  const project = usePlanStack("unhappy-slow", STACK, (s) => (ctx.s = s), { transitions: "time", transitionSeconds: 2 });
  const fleet = (n: number) =>
    project.program(`for (let i = 0; i < ${n}; i++) new svc.Vps("web-" + i, { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "${PASSWORD}" });`);

  /** One run with Ctrl-C pressed (once, or twice) as soon as its first create started; the pids of
   * every process it started. */
  async function interrupted(op: "up", twice: boolean): Promise<{ result?: RunResult; error?: unknown; output: string[]; pids: Set<number> }> {
    const output: string[] = [];
    const pids = new Set<number>();
    const first = new AbortController();
    const second = new AbortController();
    const onCheckpoint = () => {
      for (const pid of childPids()) pids.add(pid);
      if (!first.signal.aborted && ctx.s.state().pendingOperations?.length) {
        first.abort();
        if (twice) second.abort();
      }
    };
    try {
      const result = await runEngine(op, { ...ctx.s.options, print: (line) => output.push(line), cancel: first.signal, signal: second.signal, onCheckpoint });
      return { result, output, pids };
    } catch (error) {
      return { error, output, pids };
    }
  }

  async function noneAlive(pids: Set<number>): Promise<void> {
    for (let i = 0; i < 50 && [...pids].some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect([...pids].filter(alive)).toEqual([]);
    expect(childPids()).toEqual([]);
  }

  test("Ctrl-C once during an up of 20 servers: says it is stopping, finishes the creates in flight (shown with their elapsed time), saves, fails; the next up converges with no duplicate", async () => {
    fleet(20);
    const { result, output, pids } = await interrupted("up", false);
    expect(result!.ok).toBe(false);
    expect(output).toContain("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
    expect(result!.errors).toEqual(["update canceled"]);
    const made = result!.steps.filter((x) => x.op === "create").length;
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(20);
    // Every create that started finished and is in the saved state: nothing left pending.
    expect(ctx.s.state().resources.filter((r) => r.custom)).toHaveLength(made);
    expect(ctx.s.state().pendingOperations ?? []).toEqual([]);
    expect(liveServers(ctx.s.world())).toHaveLength(made);
    // The in-flight display: operation and elapsed seconds, at most once a second per resource.
    const progress = output.filter((line) => /^ {4}\+ svc:Vps web-\d+ creating \(\d+s\)$/.test(line));
    expect(progress.length).toBeGreaterThan(0);
    expect(new Set(progress).size).toBe(progress.length);
    expect(pids.size).toBeGreaterThan(0);
    await noneAlive(pids);

    const next = await ctx.s.run("up");
    expect(next.steps.filter((x) => x.op === "create")).toHaveLength(20 - made);
    expect(liveServers(ctx.s.world())).toHaveLength(20);
  });

  /** The pids of `root`'s descendants now (from /proc). */
  function descendants(root: number): number[] {
    const parent = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = safeRead(`/proc/${entry}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid) parent.set(Number(entry), ppid);
    }
    const out: number[] = [];
    const walk = (pid: number) => {
      for (const [child, ppid] of parent) if (ppid === pid) out.push(child), walk(child);
    };
    walk(root);
    return out;
  }

  /** `npm run engine -- up` as a user runs it (the built CLI), with SIGINT sent once the first create is in flight (its pending operation checkpointed). */
  async function cliUp(dir: string, stack: string, stateFile: string, sigint: boolean): Promise<{ code: number | null; output: string; pids: Set<number> }> {
    const child = spawn(process.execPath, [join(ROOT, "build-tools/tools/engine/cli.js"), "up", dir, "--stack", stack], {
      env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: "engine-test-passphrase" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const pids = new Set<number>();
    let sent = false;
    const watch = setInterval(() => {
      for (const pid of descendants(child.pid!)) pids.add(pid);
      if (sigint && !sent && /"pendingOperations":\s*\[\s*\{/.test(safeRead(stateFile))) {
        sent = true;
        child.kill("SIGINT");
      }
    }, 10);
    const onData = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    clearInterval(watch);
    return { code, output, pids };
  }

  test("the CLI process itself: SIGINT once during an up of 20 servers stops gracefully, saves, exits non-zero, leaves no process; the next up converges", async () => {
    // The built CLI, as `npm run engine` runs it (incremental: quick when the tools are built).
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.tools.json")], { cwd: ROOT });
    // A fresh world: the account holds at most 25 servers, and the test before left 20.
    await ctx.s.emu.ctl("POST", "/reset");
    ctx.s.resetState();
    fleet(20);
    const stack = `${STACK}-cli`;
    for (const [key, value, secret] of [
      ["svc:apiUrl", ctx.s.emu.urls.api, false],
      ["svc:emailUrl", ctx.s.emu.urls.email, false],
      ["svc:apiKey", ctx.s.emu.keys.account, true],
      ["svc:emailApiKey", ctx.s.emu.keys.email, true],
      ["svc:projectId", ctx.s.emu.projects[0], false],
      [`${project.project}:planId`, ctx.s.world().catalog.vpsPlans[0].id, false],
    ] as const) setConfig(project.dir, stack, "engine-test-passphrase", key, value, secret);
    const stateFile = join(project.dir, ".pulumi-test-engine", `${stack}.json`);
    rmSync(stateFile, { force: true });
    const before = liveServers(ctx.s.world()).length;
    try {
      const stopped = await cliUp(project.dir, stack, stateFile, true);
      expect(stopped.code).not.toBe(0);
      expect(stopped.output).toContain("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
      expect(stopped.output).toContain("update canceled");
      expect(stopped.pids.size).toBeGreaterThan(0);
      await noneAlive(stopped.pids);
      const saved = JSON.parse(readFileSync(stateFile, "utf8")) as { resources: { custom?: boolean }[]; pendingOperations?: unknown[] };
      const made = saved.resources.filter((r) => r.custom).length;
      expect(made).toBeGreaterThan(0);
      expect(made).toBeLessThan(20);
      expect(saved.pendingOperations ?? []).toEqual([]);
      expect(liveServers(ctx.s.world()).length - before).toBe(made);

      const next = await cliUp(project.dir, stack, stateFile, false);
      expect(next.code).toBe(0);
      expect(liveServers(ctx.s.world()).length - before).toBe(20);
      await noneAlive(next.pids);
    } finally {
      rmSync(stateFile, { force: true });
    }
  });

  test("Ctrl-C twice: the engine stops at once and no process is left", async () => {
    fleet(21);
    const { error, output, pids } = await interrupted("up", true);
    expect(error).toBeInstanceOf(EngineInterrupted);
    expect(output).toContain("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
    expect(pids.size).toBeGreaterThan(0);
    await noneAlive(pids);
    // Interrupted mid-create: the create stays pending, as under the CLI.
    expect(ctx.s.state().pendingOperations?.length).toBe(1);
  });
});
