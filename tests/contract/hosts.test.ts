/**
 * The email service's host rules (contract/hosts.ts), which the provider's check and the emulator
 * share: which addresses are not public (webhook deliveries refuse them after resolving the host),
 * and the webhook url rule (INVALID_URL) — one function, so both sides answer the same.
 */
import { classifyHost, webhookUrlProblem } from "../../contract/hosts";

test.each([
  ["IPv4-translated link-local (RFC 2765)", "[::ffff:0:a9fe:a9fe]"],
  ["IPv4-translated loopback", "[::ffff:0:7f00:1]"],
  ["IPv4-mapped link-local", "[::ffff:a9fe:a9fe]"],
  ["NAT64 of link-local", "[64:ff9b::a9fe:a9fe]"],
  ["6to4 of a private address", "[2002:a00:1::]"],
  ["IPv4 link-local", "169.254.169.254"],
])("%s is not a public address (deliveries refuse it)", (_name, host) => {
  expect(classifyHost(host)).toEqual({ kind: "ip", publicAddress: false });
});

test.each([
  ["IPv4", "8.8.8.8"],
  ["IPv6", "[2606:4700::1111]"],
  ["IPv4-translated of a public IPv4", "[::ffff:0:808:808]"],
])("a public %s address is public", (_name, host) => {
  expect(classifyHost(host)).toEqual({ kind: "ip", publicAddress: true });
});

test.each(["https://8.8.8.8/hook", "https://[2606:4700::1111]/hook", "https://[::ffff:0:a9fe:a9fe]/"])(
  "an IP literal is not a fully qualified host, public or not: %s",
  (url) => {
    expect(webhookUrlProblem(url)).toMatch(/is an IP address/);
  },
);

test("a public fully qualified https host without credentials passes", () => {
  expect(webhookUrlProblem("https://hooks.example.com:8443/in?x=1")).toBeUndefined();
  expect(webhookUrlProblem("https://hooks.example.com./in")).toBeUndefined();
});
