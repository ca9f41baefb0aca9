/**
 * The emulator is a service teams share: whatever clients send, its memory stays bounded. One
 * `svc-emulator` process (dist/), measured from outside (its resident set), flooded with requests
 * that each present a different made-up key — the shape that grew a rate bucket per key before.
 * `npm run chaos` runs the longer soak (100,000 requests and valid traffic of both accounts).
 */
import { join } from "node:path";
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
