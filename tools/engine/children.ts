/**
 * The processes the engine starts (the language host, the provider host): none may outlive it, on
 * any way out — an error, a signal, a crash (an uncaught exception ends through `exit` too). The
 * CLI closes each plugin by killing its process group (pulumi/pulumi sdk/go/common/resource/plugin/
 * plugin.go, `(*plugin).Close`: cmdutil.KillChildren, then Kill).
 */
import type { ChildProcess } from "node:child_process";

const live = new Set<ChildProcess>();

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
