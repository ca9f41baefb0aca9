/**
 * Host name and address rules of the email service, in one place for the provider's check and the
 * emulator: what counts as a public fully qualified name (sending domains, INVALID_DOMAIN), which
 * IP addresses are not public (webhook deliveries go only to public addresses), and the webhook
 * url rule itself (INVALID_URL: "Not https with a public fully qualified host, or has
 * credentials"; an IP literal is not a fully qualified host, public or not).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level label is alphabetic, or an IDN in its punycode form. */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Special-use (RFC 6761, 6762, 7686, 8375) and private-network suffixes: names under them never resolve publicly. */
const NON_PUBLIC_TLDS = new Set(["localhost", "local", "localdomain", "internal", "intranet", "lan", "home", "corp", "test", "invalid", "example", "onion", "arpa"]);

/** The reason a host name cannot be public by its top-level name, or undefined. */
export function nonPublicTldProblem(host: string): string | undefined {
  const tld = host.replace(/\.$/, "").split(".").pop() ?? "";
  return NON_PUBLIC_TLDS.has(tld) ? `.${tld} is a reserved or private top-level name, not a public one` : undefined;
}

/** A fully qualified public DNS name, given lower-case without a trailing dot. */
export function isPublicFqdn(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  const tld = labels[labels.length - 1];
  return TLD.test(tld) && !NON_PUBLIC_TLDS.has(tld);
}

function ipv4Number(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Not publicly routable: this network, private, CGNAT, loopback, link-local, documentation, benchmark, multicast, reserved. */
const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function isNonPublicV4(n: number): boolean {
  return NON_PUBLIC_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base)!;
    return n >= start && n < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4 part), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4Number(piece);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : null;
}

function isNonPublicV6(g: number[]): boolean {
  const v4At = (i: number) => g[i] * 65536 + g[i + 1];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6)) return true; // unspecified, loopback, IPv4-compatible (deprecated)
  if (zeros(0, 5) && g[5] === 0xffff) return isNonPublicV4(v4At(6)); // IPv4-mapped
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return isNonPublicV4(v4At(6)); // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765)
  if (g[0] === 0x64 && g[1] === 0xff9b) return g[2] !== 0 || isNonPublicV4(v4At(6)); // NAT64 (local-use /48 too)
  if (g[0] === 0x100 && zeros(1, 4)) return true; // discard-only
  if (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0xdb8)) return true; // Teredo, documentation
  if (g[0] === 0x2002) return isNonPublicV4(v4At(1)); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, site-local
  return (g[0] & 0xff00) === 0xff00; // multicast
}

export type HostKind = { kind: "name"; publicName: boolean } | { kind: "ip"; publicAddress: boolean } | { kind: "invalid" };

/** Classifies a URL host as parsed by WHATWG URL (lower-case, punycode, IPv4 normalised, IPv6 in brackets). */
export function classifyHost(hostname: string): HostKind {
  if (hostname.startsWith("[") && hostname.endsWith("]")) {
    const groups = ipv6Groups(hostname.slice(1, -1));
    return groups ? { kind: "ip", publicAddress: !isNonPublicV6(groups) } : { kind: "invalid" };
  }
  const v4 = ipv4Number(hostname);
  if (v4 !== null) return { kind: "ip", publicAddress: !isNonPublicV4(v4) };
  // An absolute name ("example.com.") is the same host.
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return { kind: "name", publicName: isPublicFqdn(name) };
}

export const WEBHOOK_URL_MAX_CHARS = 2000;

/**
 * Why a webhook url is refused (INVALID_URL), or undefined: https, a public fully qualified host
 * name (an IP literal is not one, public or private, in any of its forms), no credentials, at most
 * 2,000 characters. Whitespace and control characters are refused on the raw text (a URL parser
 * drops tabs and line breaks silently), and so is an empty `user@` (which it drops too).
 */
export function webhookUrlProblem(raw: string): string | undefined {
  if (raw.length > WEBHOOK_URL_MAX_CHARS) return `at most ${WEBHOOK_URL_MAX_CHARS.toLocaleString("en-US")} characters`;
  if (/[\s\x00-\x1f\x7f]/.test(raw)) return "must not contain whitespace or control characters";
  if (/^[a-z][a-z0-9+.-]*:[/\\]*[^/\\?#]*@/i.test(raw)) return "must not contain credentials (user:password@)";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "https:") return `must use https (got ${url.protocol.replace(/:$/, "")})`;
  if (url.username || url.password) return "must not contain credentials (user:password@)";
  const host = url.hostname.toLowerCase();
  const kind = classifyHost(host);
  if (kind.kind === "ip") return `host ${host} is an IP address: use a public fully-qualified host name`;
  if (kind.kind === "invalid") return `host ${host} is not valid`;
  const reserved = nonPublicTldProblem(host);
  if (reserved) return `host ${host}: ${reserved}`;
  if (!kind.publicName) return `host ${host} is not a public fully-qualified host name`;
  return undefined;
}
