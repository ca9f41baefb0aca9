/**
 * Emulator memory under hostile input (issue 36, acceptance 4): a script that prints figures, never a
 * test. Starts `svc-emulator` (the built `dist/`) as its own process, sends requests with made-up
 * keys and ~15 KB paths (unknown ids on real routes, unknown routes, all three bases), then reads the
 * whole request log through `GET /_emulator/requests` page by page and clears it, sampling the
 * emulator's RSS (/proc/<pid>/status) every 50 ms throughout.
 *
 *   npm run build && npx tsc -p tsconfig.tools.json && node build-tools/tools/bench/emulator-memory.js [--requests 50000] [--concurrency 32]
 *
 * Exits 1 when the peak RSS reaches --limit-mb (250).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { request } from "undici";
import { packageRoot } from "../support/provider-host";
import { flood, rssMb, startEmulatorProcess } from "../support/flood";

const ROOT = packageRoot(__dirname);

/** A path of about `length` characters on one of the bases: an unknown id on a real route, or no route at all. */
function hostilePath(i: number, length: number): string {
  const filler = (n: number) => randomBytes(Math.ceil(n / 2)).toString("hex").slice(0, n);
  const shapes = ["/api/vps/", "/api/domains/", "/email/templates/", "/email/emails/", "/ai/v1/", "/api/no-such-route/", "/nowhere/"];
  const prefix = shapes[i % shapes.length];
  return prefix + filler(length - prefix.length);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: "string", default: "50000" },
      concurrency: { type: "string", default: "32" },
      "path-bytes": { type: "string", default: "15000" },
      "limit-mb": { type: "string", default: "250" },
    },
  });
  const total = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const pathBytes = Number(values["path-bytes"]);
  const limitMb = Number(values["limit-mb"]);
  const emulator = await startEmulatorProcess(ROOT);
  const { origin } = emulator;
  const pid = emulator.child.pid!;
  const figures: [string, number][] = [];
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const note = (label: string) => {
    const now = rssMb(pid);
    peak = Math.max(peak, now);
    figures.push([label, now]);
  };
  note("started");
  const started = Date.now();
  const statuses: Record<number, number> = {};
  const half = Math.floor(total / 2);
  for (const [from, count] of [[0, half], [half, total - half]]) {
    const counts = await flood(
      origin,
      count,
      (n) => {
        const i = from + n;
        return {
          method: i % 3 === 0 ? "POST" : "GET",
          path: hostilePath(i, pathBytes),
          headers: { authorization: `Bearer svc_${randomBytes(24).toString("hex")}`, "content-type": "application/json", "x-api-key": `made-up-${i}` },
          body: i % 3 === 0 ? JSON.stringify({ name: `n${i}` }) : undefined,
        };
      },
      concurrency,
    );
    for (const [status, n] of Object.entries(counts)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n;
    note(`after ${from + count} requests`);
  }
  const seconds = (Date.now() - started) / 1000;

  // The whole log through the control API, page by page, as a tool reads it.
  let after: string | null = null;
  let entries = 0;
  let bytes = 0;
  let pages = 0;
  let largestPage = 0;
  for (;;) {
    const query: string = after === null ? "" : `?after=${after}`;
    const answer = await request(`${origin}/_emulator/requests${query}`);
    const text = await answer.body.text();
    bytes += text.length;
    largestPage = Math.max(largestPage, text.length);
    pages++;
    const page = JSON.parse(text) as { data: unknown[]; next?: string | null };
    entries += page.data.length;
    if (!page.next) break;
    after = page.next;
  }
  note("after GET /_emulator/requests (every page)");
  await (await request(`${origin}/_emulator/requests`, { method: "DELETE" })).body.dump();
  await new Promise((r) => setTimeout(r, 500));
  note("after DELETE /_emulator/requests");
  clearInterval(sampler);
  await emulator.stop();

  console.log(`emulator memory: ${total} requests with made-up keys and ${pathBytes}-character paths, ${concurrency} at a time, in ${seconds.toFixed(1)} s`);
  console.log(`answers: ${Object.entries(statuses).map(([s, n]) => `${s}×${n}`).join(", ")}`);
  for (const [label, mb] of figures) console.log(`  RSS ${mb.toFixed(0).padStart(5)} MB  ${label}`);
  console.log(`  RSS ${peak.toFixed(0).padStart(5)} MB  peak (sampled every 50 ms)`);
  console.log(`request log read: ${entries} entries in ${pages} pages, ${(bytes / 1024 / 1024).toFixed(1)} MB in all, largest page ${(largestPage / 1024).toFixed(0)} KB`);
  if (peak >= limitMb) {
    console.log(`FAIL: peak RSS ${peak.toFixed(0)} MB reached the ${limitMb} MB limit`);
    process.exitCode = 1;
  } else console.log(`ok: peak RSS under ${limitMb} MB`);
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
