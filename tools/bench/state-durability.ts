/**
 * `--state FILE` under `kill -9` (issue 36, acceptance 5): a script that prints figures, never a
 * test. Starts `svc-emulator --state FILE` (the built `dist/`) as its own process, grows the world
 * past --world-mb through the API (contacts, 1,000 a call), then, --kills times: writes (one new
 * contact a request, on several keys so the per-key limit leaves ~30 writes a second), kills the
 * process with SIGKILL at a random moment, reads the state file, and restarts on it. For each kill
 * it reports the oldest write answered 2xx that the file lost (the docs promise at most the last
 * second), the temp files left beside the state file after the restart, and the restart time.
 *
 *   npm run build && npx tsc -p tsconfig.tools.json && node build-tools/tools/bench/state-durability.js [--kills 20] [--world-mb 8]
 *
 * Exits 1 when a kill lost a write answered more than 1 s before it, a temp file remained, or a
 * restart took 3 s or more.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { packageRoot } from "../support/provider-host";
import { startEmulatorProcess, type EmulatorProcess } from "../support/flood";

const ROOT = packageRoot(__dirname);
const PROMISE_MS = 1_000;
const RESTART_LIMIT_MS = 3_000;

interface Ack {
  email: string;
  at: number;
}

async function call(pool: Pool, method: string, path: string, key: string | null, body?: unknown, project?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  if (project) headers["x-svc-project"] = project;
  const res = await pool.request({ method: method as "GET", path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.statusCode, text: await res.body.text() };
}

/** user + system CPU time of a process, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const contactsIn = (text: string): Set<string> => new Set([...text.matchAll(/"email":"(w[0-9]+-[0-9]+@example\.org)"/g)].map((m) => m[1]));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { kills: { type: "string", default: "20" }, "world-mb": { type: "string", default: "8" }, seed: { type: "string", default: "7" } } });
  const kills = Number(values.kills);
  const worldMb = Number(values["world-mb"]);
  let rng = Number(values.seed);
  const random = () => ((rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const dir = mkdtempSync(join(tmpdir(), "svc-durability-"));
  const stateFile = join(dir, "world.json");
  /** Wall time to the first line of exports, and the CPU time the process spent to get there (what a busy machine does not inflate). */
  const start = async (): Promise<{ emulator: EmulatorProcess; ms: number; cpuMs: number }> => {
    const started = Date.now();
    const emulator = await startEmulatorProcess(ROOT, ["--state", stateFile]);
    return { emulator, ms: Date.now() - started, cpuMs: cpuMsOf(emulator.child.pid!) };
  };

  let { emulator } = await start();
  let pool = new Pool(emulator.origin, { connections: 8 });
  const env = emulator.env;
  const project = env.SVC_PROJECT_ID;
  // Writers: platform keys with the email product name the project; the email key is its own.
  const writers = [
    { key: env.SVC_EMAIL_API_KEY, project: undefined },
    { key: env.SVC_API_KEY, project },
    { key: env.SVC_PROJECT_KEY, project: undefined },
  ];
  const limits = await call(pool, "PATCH", "/_emulator/email/plan-limits", null, { contacts: 10_000_000 });
  if (limits.status !== 200) throw new Error(`plan-limits: ${limits.status} ${limits.text}`);

  // Grow the world through the API: 1,000 contacts a call (~160 bytes each in the file).
  let batch = 0;
  const grown = Date.now();
  while (statSync(stateFile).size < worldMb * 1024 * 1024) {
    for (let i = 0; i < 10; i++, batch++) {
      const contacts = Array.from({ length: 1000 }, (_, j) => ({ email: `filler-${batch}-${j}-${"x".repeat(60)}@example.org` }));
      const w = writers[batch % writers.length];
      let res = await call(pool, "POST", "/email/contacts", w.key, { consentConfirmed: true, contacts }, w.project);
      while (res.status === 429) {
        await new Promise((r) => setTimeout(r, 200));
        res = await call(pool, "POST", "/email/contacts", w.key, { consentConfirmed: true, contacts }, w.project);
      }
      if (res.status !== 201) throw new Error(`growing the world: ${res.status} ${res.text}`);
    }
    await new Promise((r) => setTimeout(r, 1_200)); // the write-behind has written
  }
  const startSize = statSync(stateFile).size;
  console.log(`world: ${(startSize / 1024 / 1024).toFixed(1)} MB state file after ${batch} calls of 1,000 contacts (${((Date.now() - grown) / 1000).toFixed(0)} s)`);

  const rows: { kill: number; acked: number; lostOldestMs: number | null; lost: number; tempsBefore: number; tempsAfter: number; restartMs: number; restartCpuMs: number; sizeMb: number }[] = [];
  let serial = 0;
  for (let k = 1; k <= kills; k++) {
    const acks: Ack[] = [];
    let stop = false;
    const writer = async (w: (typeof writers)[number]) => {
      while (!stop) {
        const email = `w${k}-${serial++}@example.org`;
        try {
          const res = await call(pool, "POST", "/email/contacts", w.key, { consentConfirmed: true, contacts: [{ email }] }, w.project);
          if (res.status === 201) acks.push({ email, at: Date.now() });
          else if (res.status === 429) await new Promise((r) => setTimeout(r, 100));
        } catch {
          return; // the process is gone
        }
      }
    };
    const running = writers.map(writer);
    // Kill at a random moment 1.5–4 s into the writes: mid-write of the state file as often as not.
    await new Promise((r) => setTimeout(r, 1_500 + random() * 2_500));
    const killedAt = Date.now();
    emulator.child.kill("SIGKILL");
    stop = true;
    await new Promise<void>((r) => (emulator.child.exitCode !== null || emulator.child.signalCode !== null ? r() : emulator.child.once("exit", () => r())));
    await Promise.allSettled(running);
    await pool.destroy();
    const temps = () => readdirSync(dir).filter((f) => f !== "world.json");
    const tempsBefore = temps().length;
    const saved = contactsIn(readFileSync(stateFile, "utf8"));
    const lost = acks.filter((a) => !saved.has(a.email));
    const lostOldestMs = lost.length ? Math.max(...lost.map((a) => killedAt - a.at)) : null;
    const restarted = await start();
    emulator = restarted.emulator;
    pool = new Pool(emulator.origin, { connections: 8 });
    const tempsAfter = temps().length;
    rows.push({ kill: k, acked: acks.length, lostOldestMs, lost: lost.length, tempsBefore, tempsAfter, restartMs: restarted.ms, restartCpuMs: restarted.cpuMs, sizeMb: statSync(stateFile).size / 1024 / 1024 });
    const r = rows[rows.length - 1];
    console.log(
      `kill ${String(k).padStart(2)}: ${String(r.acked).padStart(3)} writes answered 201, ${String(r.lost).padStart(3)} lost, oldest lost answered ${r.lostOldestMs === null ? "   -  " : `${String(r.lostOldestMs).padStart(4)} ms`} before the kill; temp files after the kill ${r.tempsBefore}, after the restart ${r.tempsAfter}; restart ${r.restartMs} ms (CPU ${r.restartCpuMs} ms; ${r.sizeMb.toFixed(1)} MB)`,
    );
  }
  await emulator.stop();
  await pool.destroy();
  rmSync(dir, { recursive: true, force: true });

  const worstLoss = Math.max(0, ...rows.map((r) => r.lostOldestMs ?? 0));
  const worstRestart = Math.max(...rows.map((r) => r.restartMs));
  const worstRestartCpu = Math.max(...rows.map((r) => r.restartCpuMs));
  const tempsLeft = rows.reduce((n, r) => n + r.tempsAfter, 0);
  console.log(`\nworst: oldest lost write answered ${worstLoss} ms before its kill (promise: ${PROMISE_MS} ms); slowest restart ${worstRestart} ms (limit ${RESTART_LIMIT_MS} ms; its CPU time at most ${worstRestartCpu} ms; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs); temp files left after restarts: ${tempsLeft}; after the kills themselves: ${rows.reduce((n, r) => n + r.tempsBefore, 0)}`);
  const failed = worstLoss > PROMISE_MS || worstRestart >= RESTART_LIMIT_MS || tempsLeft > 0;
  console.log(failed ? "FAIL" : "ok");
  if (failed) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
