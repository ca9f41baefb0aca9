/**
 * The processes the engine starts (the language host, the provider host): none may outlive it, on
 * any way out — an error, a signal, a crash (an uncaught exception ends through `exit` too). The
 * CLI closes each plugin by killing its process group (pulumi/pulumi sdk/go/common/resource/plugin/
 * plugin.go, `(*plugin).Close`: cmdutil.KillChildren, then Kill).
 */
import type { ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();

/**
 * Preloaded into each process the engine starts (`node --import`), with `CHILD_STDIO` as its stdio:
 * a kill -9 of the engine runs no handler of its own, but the kernel closes the engine's end of the
 * pipe on fd 3, and the child exits on that. (The CLI's plugins are not watched this way; this
 * engine's promise that no child outlives it is its own.)
 */
export const PARENT_WATCH = `data:text/javascript,${encodeURIComponent(`import net from "node:net";
try {
  const parent = new net.Socket({ fd: 3, readable: true, writable: false });
  parent.on("close", () => process.exit(1));
  parent.on("error", () => undefined);
  parent.resume();
  parent.unref();
} catch {}`)}`;

/** stdin ignored, stdout and stderr piped, fd 3 the pipe PARENT_WATCH watches. */
export const CHILD_STDIO = ["ignore", "pipe", "pipe", "pipe"] as const;

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Kills every process the engine started that still runs (synchronous: safe in an `exit` handler). */
export function killChildren(): void {
  for (const child of live) if (alive(child)) child.kill("SIGKILL");
}

/** Registers a child: killed when this process exits, whatever the reason. */
export function ownChild<C extends ChildProcess>(child: C): C {
  if (live.size === 0) process.on("exit", killChildren);
  live.add(child);
  child.once("exit", () => {
    live.delete(child);
    if (live.size === 0) process.off("exit", killChildren);
  });
  return child;
}

/** The pids of the children alive now (tests check none is left). */
export function childPids(): number[] {
  return [...live].filter(alive).map((c) => c.pid!).filter(Boolean);
}
