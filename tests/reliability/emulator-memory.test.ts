/**
 * The emulator is a service teams share: whatever clients send, its memory stays bounded, and a
 * request costs the same whatever the size of the world it keeps in a `--state` file. One
 * `svc-emulator` process (dist/), measured from outside (its resident set), flooded with requests
 * that each present a different made-up key — the shape that grew a rate bucket per key before.
 * `npm run chaos` runs the longer soak (100,000 requests and valid traffic of both accounts).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { flood, rssMb, startEmulatorProcess, type EmulatorProcess } from "../../tools/support/flood";

const ROOT = join(__dirname, "../..");
const REQUESTS = Number(process.env.SVC_MEMORY_REQUESTS ?? 30_000);
/** The bound is 50 MB for 100,000 requests; a request log of 20,000 lines is part of it. */
const MAX_GROWTH_MB = 50;

let emulator: EmulatorProcess;
beforeAll(async () => void (emulator = await startEmulatorProcess(ROOT)));
afterAll(async () => emulator?.stop());

test(`${REQUESTS.toLocaleString("en-US")} requests with distinct made-up keys: RSS grows by < ${MAX_GROWTH_MB} MB, every one answered 401 with the rate-limit headers`, async () => {
  // Long keys (4 KB, well under Node's 16 KB request head): whatever the emulator keeps per key shows.
  const filler = "f".repeat(4_000);
  const madeUp = (i: number) => `svc_${i.toString(16).padStart(8, "0")}${filler}`;
  // Warm up (JIT, connection pool, request log) before the first measure.
  await flood(emulator.origin, 2_000, (i) => ({ method: "GET", path: "/api/vps", headers: { authorization: `Bearer warm${madeUp(i)}` } }));
  const before = rssMb(emulator.child.pid!);
  const counts = await flood(emulator.origin, REQUESTS, (i) => ({
    method: i % 2 ? "GET" : "POST",
    path: i % 2 ? "/api/vps" : "/email/send",
    headers: { authorization: `Bearer ${madeUp(i)}`, "content-type": "application/json" },
    body: i % 2 ? undefined : "{}",
  }));
  const after = rssMb(emulator.child.pid!);
  if (process.env.SVC_MEMORY_REPORT) console.log(`emulator RSS ${before} MB -> ${after} MB after ${REQUESTS} requests`);
  expect(counts).toEqual({ 401: REQUESTS });
  expect(after - before).toBeLessThan(MAX_GROWTH_MB);

  const res = await fetch(`${emulator.origin}/api/vps`);
  expect(res.status).toBe(401);
  expect(res.headers.get("x-ratelimit-limit")).toBe("10");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
}, 120_000);

describe("--state FILE: a request costs the same with a 19 MB world as with a fresh one", () => {
  /** Median ms of `n` sequential reads (each with a key of its own: no rate limit in the way). */
  async function medianMs(emu: TestEmulator, n: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = process.hrtime.bigint();
      const res = await emu.call("GET", "/api/account/wallet", { key: emu.keys.account });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status === 429) await emu.ctl("POST", "/clock/advance", { seconds: 1 });
    }
    return times.sort((a, b) => a - b)[Math.floor(n / 2)];
  }

  async function withWorld(extraMb: number): Promise<number> {
    const stateFile = join(mkdtempSync(join(tmpdir(), "svc-cost-")), "world.json");
    const emu = await startTestEmulator({ stateFile });
    try {
      // A long-lived world: activity entries of ~1 KB each, written to the state file once.
      const entry = { projectId: emu.projects[0], action: "vps.updated", entityType: "vps", entityName: "x".repeat(900), actor: "user" as const, byKeyOwner: true, environmentId: emu.projects[0] };
      for (let i = 0; i < extraMb * 1024; i++) emu.control.emu.world.activity.push({ ...entry, id: `a${i}`, entityId: `e${i}`, createdAt: "2026-01-01T00:00:00.000Z" });
      emu.control.emu.saveNow();
      if (extraMb) expect(readFileSync(stateFile).length).toBeGreaterThan(extraMb * 1024 * 1024 * 0.9);
      await medianMs(emu, 20); // warm up
      return await medianMs(emu, 100);
    } finally {
      await emu.close();
    }
  }

  test("median of 100 reads: the 19 MB world within 3× (+2 ms) of a fresh one", async () => {
    const fresh = await withWorld(0);
    const big = await withWorld(19);
    if (process.env.SVC_MEMORY_REPORT) console.log(`median request: fresh world ${fresh.toFixed(2)} ms, 19 MB world ${big.toFixed(2)} ms`);
    expect(big).toBeLessThan(fresh * 3 + 2);
  }, 60_000);
});
