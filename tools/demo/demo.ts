/**
 * `npm run demo`: the quickstart end to end against the emulator — preview, up, a preview with no
 * changes, a webhook URL change whose preview shows one replace, up, destroy — with a closing
 * summary. Runs the real `pulumi` CLI: the one built (tools/pulumi-cli/build.sh), else the one on
 * PATH (local file backend and passphrase in a temp dir); it says which. Without either it says how
 * to get one and fails.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { packageRoot } from "../support/provider-host";
import { ensurePackageLink } from "../support/project";
import { CLI, cliEnv, realCliPresent, realCliVersion, stepsOfEventLog } from "../support/real-cli";
import type { Operation, StepOp } from "../support/stack-state";

const ROOT = packageRoot(__dirname);
const PROJECT_DIR = join(ROOT, "examples/quickstart");
const STACK = "demo";
const PASSPHRASE = "pulumi-svc-demo";
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

function pulumiOnPath(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/** What the demo needs of one operation: its outcome, the stack's outputs, its steps by kind. */
interface Outcome {
  ok: boolean;
  outputs: Record<string, unknown>;
  counts: Partial<Record<StepOp, number>>;
}

interface Driver {
  name: string;
  setConfig(key: string, value: string, secret?: boolean): void;
  run(op: Operation): Promise<Outcome>;
  close(): void;
}

/**
 * The real CLI, with a local file backend and a passphrase in a temp dir: the one built into
 * .pulumi-cli/bin (its own PULUMI_HOME, nothing downloaded), else the `pulumi` on PATH. Each
 * operation's steps are read from its engine events (`--event-log`), so the demo checks what the
 * previews plan.
 */
function cliDriver(tmp: string): Driver {
  const built = realCliPresent();
  const env = built
    ? cliEnv(join(tmp, "home"), tmp, PASSPHRASE)
    : { ...process.env, PULUMI_BACKEND_URL: `file://${tmp}`, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DEBUG_COMMANDS: "true" };
  const bin = built ? CLI : "pulumi";
  const pulumi = (args: string[], inherit = true) => execFileSync(bin, [...args, "--cwd", PROJECT_DIR, "--non-interactive"], { env, stdio: inherit ? "inherit" : "pipe" }).toString();
  // An operation runs the program, which calls the emulator in this process: waiting for the CLI
  // synchronously would stop the emulator from answering.
  const pulumiAsync = (args: string[], inherit = true) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(bin, [...args, "--cwd", PROJECT_DIR, "--non-interactive"], { env, stdio: inherit ? "inherit" : ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`pulumi ${args[0]} exited ${code}`))));
    });
  ensurePackageLink(PROJECT_DIR);
  pulumi(["stack", "init", STACK], false);
  let n = 0;
  return {
    name: built ? `the pulumi CLI ${realCliVersion()} built by tools/pulumi-cli/build.sh` : `the pulumi CLI on PATH (${pulumi(["version"], false).trim()})`,
    setConfig: (key, value, secret) => void pulumi(["config", "set", ...(secret ? ["--secret"] : []), key, value, "--stack", STACK], false),
    async run(op) {
      const args = { preview: ["preview", "--diff"], up: ["up", "--yes"], refresh: ["refresh", "--yes"], destroy: ["destroy", "--yes"] }[op];
      const log = join(tmp, `events-${++n}.jsonl`);
      try {
        await pulumiAsync([...args, "--stack", STACK, "--event-log", log]);
        const outputs = JSON.parse((await pulumiAsync(["stack", "output", "--json", "--show-secrets", "--stack", STACK], false)) || "{}");
        const counts: Outcome["counts"] = {};
        for (const step of stepsOfEventLog(existsSync(log) ? readFileSync(log, "utf8") : "").steps) counts[step.op] = (counts[step.op] ?? 0) + 1;
        return { ok: true, outputs, counts };
      } catch {
        return { ok: false, outputs: {}, counts: {} };
      }
    },
    close: () => void pulumi(["stack", "rm", STACK, "--yes", "--force"], false),
  };
}

/** Where a `pulumi` CLI comes from, for a machine that has none. */
const NO_CLI = `the demo runs the real \`pulumi\` CLI, and there is none here:
  - install it (https://www.pulumi.com/docs/install/) so that \`pulumi\` is on PATH, or
  - build the pinned one into .pulumi-cli/bin with \`npm run build:real-cli\` (Go needed).`;

async function main(): Promise<void> {
  const started = Date.now();
  if (!realCliPresent() && !pulumiOnPath()) {
    console.error(`demo failed: ${NO_CLI}`);
    process.exit(1);
  }
  const tmp = mkdtempSync(join(tmpdir(), "svc-demo-"));
  const emulator = await startEmulator({ port: 0 });
  const driver = cliDriver(tmp);
  let failed = false;
  const stepTitle = (n: number, text: string) => console.log(`\n${bold(`── ${n}. ${text}`)}`);
  const must = async (op: Operation, check?: (r: Awaited<ReturnType<Driver["run"]>>) => string | undefined) => {
    const r = await driver.run(op);
    const problem = !r.ok ? `${op} failed` : check?.(r);
    if (problem) {
      failed = true;
      throw new Error(problem);
    }
    return r;
  };
  try {
    console.log(bold("pulumi-svc demo: the quickstart against the emulator"));
    console.log(`emulator: ${emulator.urls.api} (email ${emulator.urls.email})`);
    console.log(`driver:   ${driver.name}`);

    const config: [string, string, boolean?][] = [
      ["svc:apiUrl", emulator.urls.api],
      ["svc:emailUrl", emulator.urls.email],
      ["svc:apiKey", emulator.keys.account, true],
      ["svc:emailApiKey", emulator.keys.email, true],
      ["svc:projectId", emulator.projects[0]],
      ["svc-quickstart:plan", "s-1vcpu-1gb"],
      ["svc-quickstart:rootPassword", "Quick!start2026", true],
      ["svc-quickstart:webhookUrl", "https://hooks.example.com/svc"],
    ];
    for (const [key, value, secret] of config) driver.setConfig(key, value, secret);

    stepTitle(1, "preview: what `up` would create");
    await must("preview");
    stepTitle(2, "up: create everything and wait until it is ready");
    const up = await must("up");
    stepTitle(3, "preview again: nothing changed, so nothing to do");
    await must("preview", (r) => (!r.counts.same || Object.keys(r.counts).some((k) => k !== "same") ? `the second preview does not show only unchanged resources: ${JSON.stringify(r.counts)}` : undefined));
    stepTitle(4, "change the webhook URL: the API cannot update a webhook, so the preview shows one replace");
    driver.setConfig("svc-quickstart:webhookUrl", "https://hooks.example.com/svc-v2");
    await must("preview", (r) => (r.counts.replace !== 1 || Object.keys(r.counts).some((k) => k !== "same" && k !== "replace") ? `expected exactly one replace: ${JSON.stringify(r.counts)}` : undefined));
    stepTitle(5, "up: replace the webhook");
    const after = await must("up");
    stepTitle(6, "destroy: unprotect the server in code, then remove everything");
    driver.setConfig("svc-quickstart:protectServer", "false");
    await must("up");
    await must("destroy");

    const wallet = (await (await fetch(`${emulator.urls.api}/account/wallet`, { headers: { authorization: `Bearer ${emulator.keys.account}` } })).json()) as { data: { balance: number } };
    const records = (up.outputs.dnsRecords as { type: string; name: string; value: string }[] | undefined) ?? [];
    console.log(`\n${bold("Summary")}`);
    console.log(`  created: a sending domain (verified), a webhook, a template, a server with 2 firewall rules and a backup plan`);
    console.log(`  DNS records to publish for the sending domain:`);
    for (const r of records) console.log(`    ${r.type.padEnd(5)} ${r.name}  ${r.value.length > 60 ? `${r.value.slice(0, 57)}...` : r.value}`);
    console.log(`  server IP: ${String(up.outputs.serverIp)}`);
    console.log(`  webhook secret: [secret] (replaced with the URL change: ${after.outputs.webhookSecret !== up.outputs.webhookSecret ? "new secret" : "same"})`);
    console.log(`  wallet after destroy: IDR ${wallet.data.balance.toLocaleString("en-US")} (charges are not refunded on destroy)`);
    console.log(`  time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    failed = true;
    console.error(`\ndemo failed: ${(err as Error).message}`);
  } finally {
    driver.close();
    await emulator.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main();
