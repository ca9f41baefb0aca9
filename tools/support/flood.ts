/**
 * Many requests at an emulator, fast: a pool of keep-alive connections, `concurrency` in flight,
 * and the resident memory of the emulator process (Linux /proc), for the memory checks of the
 * reliability tests and the soak of `npm run chaos`. Also starts `svc-emulator` (dist/) in its own
 * process, so its memory is measured apart from the client's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Pool } from "undici";

export interface FloodRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Status counts of the answers (`0` = no answer). */
export type StatusCounts = Record<number, number>;

/** `onAnswer` receives each answer's text (read only when it is given). */
export async function flood(
  origin: string,
  total: number,
  make: (i: number) => FloodRequest,
  concurrency = 64,
  onAnswer?: (i: number, status: number, body: string) => void,
): Promise<StatusCounts> {
  const pool = new Pool(origin, { connections: Math.min(concurrency, 32), pipelining: 1 });
  const counts: StatusCounts = {};
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const r = make(i);
      let status = 0;
      let text = "";
      try {
        const res = await pool.request({ method: r.method as "GET", path: r.path, headers: r.headers, body: r.body });
        status = res.statusCode;
        if (onAnswer) text = await res.body.text();
        else await res.body.dump();
      } catch (err) {
        status = 0;
        text = String(err);
      }
      onAnswer?.(i, status, text);
      counts[status] = (counts[status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  return counts;
}

/** Resident set size of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

export interface EmulatorProcess {
  child: ChildProcess;
  /** `export NAME=value` lines the command printed. */
  env: Record<string, string>;
  origin: string;
  stop(): Promise<void>;
}

/** `svc-emulator` from dist/ (run `npm run build` first) on a free port, in its own process. */
export function startEmulatorProcess(root: string, args: string[] = []): Promise<EmulatorProcess> {
  const cli = join(root, "dist/emulator/cli.js");
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("SVC_PROFILE_CLIENT_PROJECT_ID=")) {
        const env = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
        const stop = () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        resolve({ child, env, origin: env.SVC_API_URL.replace(/\/api$/, ""), stop });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`svc-emulator exited ${code}: ${err}`)));
  });
}
