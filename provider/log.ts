/**
 * The provider's debug log: with `SVC_LOG=debug` (or stack config `svc:log: debug`) it writes one
 * line per API request, retry, wait and create-once decision to stderr, which the CLI shows as info
 * diagnostics of the provider plugin (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go,
 * newPlugin, prints every stderr line). Off unless asked for: those lines would otherwise fill every
 * `pulumi up`.
 *
 * A line holds methods, paths, statuses, codes, ids, request ids and durations — never a key, a
 * password, a secret or a request or response body. Callers pass only those; `secrets` given to
 * the logger are cut out as a second guard.
 */
import { redact } from "./client/errors";

/** Writes one line of the debug log (nothing when the log is off). `secrets` are cut out of it. */
export type DebugLog = (text: string, secrets?: readonly (string | undefined)[]) => void;

/**
 * The debug log at `level` (the top-level settings' `log`: stack config `svc:log`, else `SVC_LOG`);
 * undefined: the environment's `SVC_LOG` decides, at each line. The process root (runtime.ts) holds
 * the level and hands the logger down through the ApiContexts; a client or poller built without one
 * logs as `debugLogger(undefined)`.
 */
export function debugLogger(level: string | undefined): DebugLog {
  return (text, secrets = []) => {
    if ((level ?? process.env.SVC_LOG)?.trim().toLowerCase() !== "debug") return;
    process.stderr.write(`svc debug: ${redact(text, secrets).replace(/\s*\n\s*/g, " ")}\n`);
  };
}
