/**
 * Host and domain name rules the resources share (checked at preview, before any call).
 */

/** One DNS label: 1 to 63 letters, digits or inner hyphens (lower case). */
export const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A public top-level label: letters, or an internationalized one in its punycode `xn--` form. */
export const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A lower-cased fully-qualified name: two labels or more, the last a TOP_LEVEL_LABEL, at most 253 characters. */
export function isFullyQualified(name: string): boolean {
  if (name.length < 1 || name.length > 253) return false;
  const labels = name.split(".");
  return labels.length >= 2 && labels.slice(0, -1).every((label) => DNS_LABEL.test(label)) && TOP_LEVEL_LABEL.test(labels[labels.length - 1]);
}

/**
 * Top-level names that never resolve on the public internet: special-use (RFC 6761, 6762, 7686,
 * 8375) and the common private-use ones. The email API refuses them for sending domains and for
 * webhook hosts, so check refuses them first, at preview.
 */
const NON_PUBLIC_TLDS = new Set(["localhost", "local", "localdomain", "internal", "intranet", "lan", "home", "corp", "test", "invalid", "example", "onion", "arpa"]);

/** The reason a host name cannot be public, or undefined. */
export function nonPublicTldProblem(host: string): string | undefined {
  const tld = host.replace(/\.$/, "").split(".").pop() ?? "";
  return NON_PUBLIC_TLDS.has(tld) ? `.${tld} is a reserved or private top-level name, not a public one` : undefined;
}
