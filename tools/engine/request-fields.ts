/** What the engine puts in a provider request besides the properties: the type as the dynamic provider knows it, and customTimeouts in seconds. */

export const dynamicType = (type: string) => type.replace(/^pulumi-nodejs:dynamic\/svc:/, "");

/** A dynamic resource's type: `pulumi-nodejs:dynamic/<module>:<type>`, or the SDK's default
 * `pulumi-nodejs:dynamic:Resource` (sdk/nodejs/dynamic/index.ts, Resource's constructor). */
export const isDynamicType = (type: string) => type.startsWith("pulumi-nodejs:dynamic/") || type.startsWith("pulumi-nodejs:dynamic:");

/** A Go duration ("40m", "1h30m", "90s", "2.5h") in seconds, as the engine turns customTimeouts into
 * the requests' `timeout` (0 when not set). */
export function timeoutSeconds(duration: string | undefined): number {
  if (!duration) return 0;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  for (const [, value, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(value) * units[unit];
  return total;
}
