/**
 * The bench's emulator on a thread of its own (node:worker_threads): the bench's process also reads
 * the CLI's event log (up to megabytes for 1,000 resources) and /proc while a run goes, and an
 * emulator sharing that event loop would answer later than a separate service. On its own thread it
 * answers as one would. The bench reaches it as a client does: its URLs, keys and control API over
 * HTTP.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startEmulator, type RequestLogEntry } from "../../emulator";
import type { SeededKeys } from "../../emulator/core/seed";

interface Ready {
  urls: { api: string; email: string; ai: string; control: string };
  keys: SeededKeys;
  projects: string[];
  /** The id of the plan the bench stacks use (s-1vcpu-1gb). */
  planId: string;
}

export interface ThreadEmulator extends Ready {
  /** The request log (what reached the API), and clearing it. */
  requests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh emulator in time mode whose email plan holds the bench's stacks (set through the control
 * API) and whose account may hold `servers` servers (no control route: set before it starts serving).
 */
export function startThreadEmulator(servers: number): Promise<ThreadEmulator> {
  const worker = new Worker(__filename, { workerData: { servers } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (ready: Ready) => {
      const control = async (method: string, path: string) => {
        const answer = await fetch(`${ready.urls.control}${path}`, { method });
        if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}`);
        return ((await answer.json()) as { data: unknown }).data;
      };
      resolve({
        ...ready,
        // The log answers a page at a time: read on from each page's `next` to its end.
        requests: async () => {
          const entries: RequestLogEntry[] = [];
          for (let after: string | null | undefined; after !== null; ) {
            const answer = await fetch(`${ready.urls.control}/requests?limit=5000${after === undefined ? "" : `&after=${after}`}`);
            if (!answer.ok) throw new Error(`GET /requests answered ${answer.status}`);
            const page = (await answer.json()) as { data: RequestLogEntry[]; next: string | null };
            entries.push(...page.data);
            after = page.next;
          }
          return entries;
        },
        clearRequests: async () => void (await control("DELETE", "/requests")),
        close: async () => void (await worker.terminate()),
      });
    });
  });
}

async function serve(servers: number): Promise<void> {
  const emulator = await startEmulator({ port: 0, transitions: "time", seed: 1 });
  const account = emulator.control.emu.world.account;
  account.serverLimit = Math.max(account.serverLimit, servers);
  const limits = await fetch(`${emulator.urls.control}/email/plan-limits`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domains: 50, templates: 400, webhooks: 200 }),
  });
  if (!limits.ok) throw new Error(`setting the email plan's limits failed: ${limits.status} ${await limits.text()}`);
  const planId = emulator.control.emu.world.catalog.vpsPlans.find((p) => p.name === "s-1vcpu-1gb")!.id;
  const ready: Ready = { urls: emulator.urls, keys: emulator.keys, projects: emulator.projects, planId };
  parentPort!.postMessage(ready);
}

if (!isMainThread && (workerData as { servers?: number } | undefined)?.servers !== undefined) void serve((workerData as { servers: number }).servers);
