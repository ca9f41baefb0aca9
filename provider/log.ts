/**
 * The provider's debug log: with `SVC_LOG=debug` (or stack config `svc:log: debug`) it writes one
 * line per API request, retry, wait and create-once decision to stderr, which the CLI shows as info
 * diagnostics of the provider plugin (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go,
 * newPlugin, prints every stderr line). Off unless asked for: those lines would otherwise fill every
 * `pulumi up`.
 *
 * A line holds methods, paths, statuses, codes, ids, request ids and durations — never a key, a
 * password, a secret or a request or response body. Callers pass only those; `secrets` given to
 * `debugLog` are cut out as a second guard.
 */
import { redact } from "./client/errors";

/** The level stack config set (`configure`); undefined: the environment's `SVC_LOG` decides. */
let configuredLevel: string | undefined;

/** Called when the provider is configured: stack config `svc:log` (else `SVC_LOG`). */
export function setLogLevel(level: string | undefined): void {
  configuredLevel = level;
}

export function debugEnabled(): boolean {
  return (configuredLevel ?? process.env.SVC_LOG)?.trim().toLowerCase() === "debug";
}

/** One line of the debug log (nothing when the log is off). */
export function debugLog(text: string, secrets: readonly (string | undefined)[] = []): void {
  if (!debugEnabled()) return;
  process.stderr.write(`svc debug: ${redact(text, secrets).replace(/\s*\n\s*/g, " ")}\n`);
}
