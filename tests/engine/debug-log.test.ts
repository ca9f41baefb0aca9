/**
 * The provider's debug log under the real CLI (issue 24): `SVC_LOG=debug` in the environment
 * the CLI hands the provider plugin, or stack config `svc:log: debug`, makes the provider write one
 * line per request, retry, wait and create-once decision on its stderr (which the CLI shows as
 * diagnostics) — never a key or the root password. Without either, it writes nothing.
 */
import { changes, type EngineStack } from "../../tools/support/engine-harness";
import { usePlanStack } from "./plan-stack";

jest.setTimeout(90_000);

const STACK = "engine-test-debug-log";
const PASSWORD = "DebugLog!pass2026";
const DEBUG = "svc debug: ";

describe("debug log", () => {
  let s: EngineStack;
  const project = usePlanStack("debug-log", STACK, (x) => (s = x));
  const debugLines = (messages: string[]) => messages.filter((m) => m.includes(DEBUG));
  const secrets = () => [s.emu.keys.account, s.emu.keys.email, PASSWORD];

  test("SVC_LOG=debug during an up with an injected 500 and a 429: the requests, the retry and the waits are shown, and no secret", async () => {
    project.program(`new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "${PASSWORD}" });`);
    // The up pass's first list of servers (the preview pass, its own process, lists them first) fails
    // once (a read: retried); the paid create is refused once by the rate limit (429: always safe to
    // send again, after Retry-After).
    await s.emu.ctl("POST", "/faults", { method: "GET", path: "/api/vps", status: 500, code: "INTERNAL_ERROR", skip: 1, times: 1 });
    await s.emu.ctl("POST", "/faults", { method: "POST", path: "/api/vps", status: 429, code: "RATE_LIMITED", times: 1 });
    // The environment of the `pulumi` process, which the provider host inherits.
    const env = s.cli!.env;
    env.SVC_LOG = "debug";
    let r;
    try {
      r = await s.run("up");
    } finally {
      delete env.SVC_LOG;
    }
    expect(changes(r)).toEqual(["create web"]);
    const lines = debugLines(r.messages);
    const text = lines.join("\n");
    // Each request, its answer and time.
    expect(text).toMatch(/platform GET \/vps → 500 INTERNAL_ERROR in \d+ ms/);
    expect(text).toMatch(/platform GET \/vps \(attempt 2\) → 200 in \d+ ms/);
    expect(text).toMatch(/platform POST \/vps → 429 RATE_LIMITED in \d+ ms/);
    expect(text).toMatch(/platform POST \/vps \(attempt 2\) → 20[12] in \d+ ms/);
    // The retry of the read, and the wait the rate limit asked for.
    expect(text).toMatch(/platform GET \/vps: retry 2 of 5 in \d+ ms after 500 INTERNAL_ERROR/);
    expect(text).toMatch(/platform POST \/vps: rate limited \(429 RATE_LIMITED\): waiting 1000 ms \(Retry-After 1 s\), then retry 2 of 10/);
    // The create-once decision and the wait for the server.
    expect(text).toMatch(/create-once server: none found: sending the create/);
    expect(text).toMatch(/create-once server: created [0-9a-f-]{36}/);
    expect(text).toMatch(/wait for server [0-9a-f-]{36} to \w+.*: up to \d+ s/);
    expect(text).toMatch(/wait for server [0-9a-f-]{36} to \w+.*: done after [\d.]+ s/);
    // Never a secret: not in the log, not anywhere the run printed.
    for (const secret of secrets()) {
      expect(r.messages.join("\n")).not.toContain(secret);
      expect(r.output.join("\n")).not.toContain(secret);
    }
    // One line each: nothing spans lines.
    for (const line of lines) expect(line.indexOf(DEBUG)).toBe(line.lastIndexOf(DEBUG));
  });

  test("without SVC_LOG or svc:log the provider writes no log line", async () => {
    const r = await s.run("refresh");
    expect(debugLines(r.messages)).toEqual([]);
  });

  test("stack config svc:log debug turns it on too, from the next up: its reads, then the destroy's request and wait are shown, no secret", async () => {
    s.config("svc:log", "debug");
    // The up stores the config in the provider's inputs, and only then does a destroy see it: a
    // destroy runs no program, so its provider is configured with the inputs the last `up` stored
    // (pulumi/pulumi v3.274.1 resource/deploy/providers/registry.go, Registry: old providers are
    // "configured as per its recorded inputs"; target.go GetPackageConfig hands a dynamic provider
    // the whole stack config when the program registers it).
    const up = await s.run("up", true, { skipPreview: true });
    expect(debugLines(up.messages).join("\n")).toMatch(/platform GET \/vps\/plans → 200 in \d+ ms/);
    const r = await s.run("destroy");
    const text = debugLines(r.messages).join("\n");
    expect(text).toMatch(/platform DELETE \/vps\/[0-9a-f-]{36} → 200 in \d+ ms/);
    expect(text).toMatch(/wait for server [0-9a-f-]{36} .*: done after/);
    for (const secret of secrets()) expect([...up.messages, ...r.messages].join("\n")).not.toContain(secret);
  });
});
