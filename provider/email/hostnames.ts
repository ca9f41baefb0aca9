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
