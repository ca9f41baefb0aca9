/**
 * `kill -9` of the engine during an `up`: no process it started is left (the children watch a pipe
 * from the engine, closed by the kernel when it dies: tools/support/children.ts PARENT_WATCH).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../../tools/support/provider-host";
import { lifecycleProject, PASSPHRASE } from "./harness";

jest.setTimeout(240_000);

const ROOT = packageRoot(__dirname);
const lc = lifecycleProject("kill");

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The pids whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      const stat = read(`/proc/${e}/stat`);
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
    })
    .map(Number);
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(read(`/proc/${pid}/stat`));

test("kill -9 of the engine while a create is in flight: the program and the provider host exit too", async () => {
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.tools.json")], { cwd: ROOT });
  lc.program(`new Res("slow", { slow: 120000 });`);
  const stateFile = join(lc.dir, ".pulumi-test-engine", "dev.json");
  const engine = spawn(process.execPath, [join(ROOT, "build-tools/tools/engine/cli.js"), "up", lc.dir, "--skip-preview"], {
    env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
    stdio: "ignore",
  });
  // Until the create is under way (its pending operation checkpointed): the program and the host both run.
  let started: number[] = [];
  for (let i = 0; i < 1200 && !/"pendingOperations":\s*\[\s*\{/.test(read(stateFile)); i++) {
    started = childrenOf(engine.pid!);
    await new Promise((r) => setTimeout(r, 100));
  }
  started = childrenOf(engine.pid!);
  expect(started.length).toBe(2);
  engine.kill("SIGKILL");
  for (let i = 0; i < 300 && started.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  expect(started.filter(alive)).toEqual([]);
});
