/**
 * What a test reads off a finished run, whoever drove it (the chaos scenarios, the acceptance
 * matrix): the `adoptId` lines a run's errors ask for, and the secret values shown where none may be.
 */
import type { RequestLogEntry } from "../../emulator";
import type { EngineRun, EngineStack } from "./engine-harness";
import type { RunResult } from "./stack-state";

/**
 * The `adoptId` lines a run's failures ask for, by resource name: a create that found an object it
 * cannot tell is this stack's stops with `… add \`adoptId: "<id>"\` …` (provider/create-once.ts),
 * and so does a Domain's check when the name is already the account's. Read from each failed step's
 * error (the provider's own message), and from the run's errors for failures of check, which have no
 * step (the resource named as `svc:Type name` or, as the CLI prints it, `svc:Type resource 'name'`).
 */
export function adoptIdLinesAsked(r: RunResult): Record<string, string> {
  const asked: Record<string, string> = {};
  for (const step of r.steps) {
    const m = step.error ? /adoptId: "([^"]+)"/.exec(step.error) : null;
    if (m) asked[step.name] = m[1];
  }
  for (const e of r.errors) {
    const m = /^(?:pulumi-nodejs:dynamic\/)?svc:\w+ (?:resource ')?([\w-]+)\b.*adoptId: "([^"]+)"/s.exec(e);
    if (m && !(m[1] in asked)) asked[m[1]] = m[2];
  }
  return asked;
}

/**
 * Where secrets must not be: the state file as stored, everything printed (the runs' lines and the
 * provider host's messages, and `printed`), and the emulator's request log. Answers each of `secrets`
 * found, by place.
 */
export function secretsShown(s: EngineStack, secrets: string[], runs: Pick<EngineRun, "output" | "messages" | "errors">[], printed: string[] = []): string[] {
  let stateText = "";
  try {
    stateText = s.stateText();
  } catch {
    /* no state file yet: nothing stored */
  }
  const places: [string, string][] = [
    ["state file", stateText],
    ["printed output", [...runs.flatMap((r) => [...r.output, ...r.messages, ...r.errors]), ...printed].join("\n")],
    ["request log", JSON.stringify(s.emu.control.requests() as RequestLogEntry[])],
  ];
  const found: string[] = [];
  for (const [where, text] of places) for (const secret of secrets) if (text.includes(secret)) found.push(`${where} holds ${secret.slice(0, 4)}…`);
  return found;
}
