/**
 * What the bench sees of one `pulumi` run while it runs, from outside the CLI (which gives no
 * timings finer than a second: its events' `timestamp` is in whole seconds, sdk apitype/events.go
 * `EngineEvent`):
 * - the event log (`--event-log`), read as the CLI appends it (display.go `startEventLogger` writes
 *   each event as it happens, unbuffered), each line stamped with the time it was read: an up's
 *   preview pass and then its update pass, which starts the file over;
 * - the peak resident memory (VmHWM) of the processes the CLI started: the dynamic-provider hosts
 *   (`pulumi-resource-pulumi-nodejs`, a node process running `@pulumi/pulumi/cmd/dynamic-provider`),
 *   and of the CLI itself.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { cmdline, descendants } from "../support/real-cli";

/** How often the event log is read (the resolution of its stamps), and /proc walked (VmHWM is a
 * high-water mark: sampling rarely loses only what a process adds in its last interval). */
const EVENTS_EVERY_MS = 100;
const PROC_EVERY_MS = 400;

export interface StampedEvent {
  /** ms since the watch started (the CLI's start, within a few ms). */
  at: number;
  event: Record<string, unknown>;
}

export interface Watched {
  events: StampedEvent[];
  /** Peak RSS of the provider hosts, MB (undefined when none was seen). */
  providerRssMb?: number;
  /** Peak RSS of the `pulumi` process, MB. */
  cliRssMb?: number;
  /** Provider host processes seen (one per engine pass: an `up` runs two). */
  providerHosts: number;
}

function vmHwmKb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * Watches the run `CliStack.run` starts in `tmpDir` (its event log is `events-<ms>.jsonl` there)
 * under this process, until `stop()`. The log's file is held open: the CLI driver removes it when
 * the run ends, and its last lines are read after that.
 */
export function watchCliRun(tmpDir: string, cliPath: string): { stop(): Watched } {
  const started = Date.now();
  const events: StampedEvent[] = [];
  let fd: number | undefined;
  let position = 0;
  let partial = "";
  let decoder = new StringDecoder("utf8");
  const buffer = Buffer.alloc(1 << 20);
  // An `up` (refresh, destroy) opens the log again for its update pass, truncating it (O_TRUNC,
  // display.go `startEventLogger`): the file then starts over, and is read again from its start.
  const startOver = () => {
    position = 0;
    partial = "";
    decoder = new StringDecoder("utf8");
  };
  const readEvents = (again = true): void => {
    if (fd === undefined) {
      const name = readdirSync(tmpDir).find((f) => /^events-\d+\.jsonl$/.test(f));
      if (!name) return;
      try {
        fd = openSync(join(tmpDir, name), "r");
      } catch {
        return;
      }
    }
    if (fstatSync(fd).size < position) startOver();
    const at = Date.now() - started;
    for (let n = readSync(fd, buffer, 0, buffer.length, position); n > 0; n = readSync(fd, buffer, 0, buffer.length, position)) {
      partial += decoder.write(buffer.subarray(0, n));
      position += n;
    }
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    const before = events.length;
    for (const line of lines) {
      if (!line.trim()) continue;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch (err) {
        if (!again) throw err;
        // Truncated and written past where this reader was, between two reads: read it all again.
        events.length = before;
        startOver();
        return readEvents(false);
      }
      events.push({ at, event });
    }
  };
  const peaks = new Map<number, { kb: number; provider: boolean }>();
  const sampleProcesses = () => {
    for (const pid of descendants(process.pid)) {
      const line = cmdline(pid);
      const provider = line.includes("cmd/dynamic-provider");
      if (!provider && !line.startsWith(cliPath)) continue;
      const kb = vmHwmKb(pid);
      if (kb !== undefined) peaks.set(pid, { kb: Math.max(kb, peaks.get(pid)?.kb ?? 0), provider });
    }
  };
  const eventsTimer = setInterval(readEvents, EVENTS_EVERY_MS);
  const procTimer = setInterval(sampleProcesses, PROC_EVERY_MS);
  return {
    stop() {
      clearInterval(eventsTimer);
      clearInterval(procTimer);
      readEvents();
      if (fd !== undefined) closeSync(fd);
      const of = (provider: boolean) => [...peaks.values()].filter((p) => p.provider === provider);
      const mb = (list: { kb: number }[]) => (list.length ? Math.max(...list.map((p) => p.kb)) / 1024 : undefined);
      return { events, providerRssMb: mb(of(true)), cliRssMb: mb(of(false)), providerHosts: of(true).length };
    },
  };
}
