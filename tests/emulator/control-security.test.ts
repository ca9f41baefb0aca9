/**
 * The control API (`/_emulator`) has no key: it is for the user's own tests and tools on this
 * machine. A web page open in the user's browser must not reach it (a cross-site POST could wipe a
 * `--state` world; a DNS-rebinding page could read every key). And a `--state` file, which holds
 * every key in clear, is private to the user.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), { fresh: async (e) => void (await e.ctl("POST", "/reset")) });

/** A raw request to the control API with exactly these headers (fetch would add its own Origin rules). */
async function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await request(`${emu.origin}/_emulator${path}`, { method: method as "POST", headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text) as { success: boolean; code?: string; error?: string } };
}

describe("cross-origin requests to /_emulator are refused", () => {
  test("POST /_emulator/reset from a page of another site (Origin, text/plain): 403, and the world is untouched", async () => {
    await emu.ctl("PATCH", "/wallet", { balance: 1234 });
    const res = await raw("POST", "/reset", { origin: "https://evil.example", "content-type": "text/plain" }, "{}");
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "FORBIDDEN" });
    expect(res.body.error).toMatch(/evil\.example/);
    expect(emu.control.state().account.wallet).toBe(1234);
  });

  test.each([
    ["an Origin of another site, JSON body", { origin: "https://evil.example", "content-type": "application/json" }, "{}"],
    ["the opaque Origin null (sandboxed page, file://)", { origin: "null" }, undefined],
    ["a simple content type without Origin (text/plain)", { "content-type": "text/plain" }, "{}"],
    ["a form post", { "content-type": "application/x-www-form-urlencoded" }, "a=1"],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }, undefined],
    ["a DNS-rebinding page (Host is its own name)", { host: "evil.example:4010" }, undefined],
  ])("%s: 403", async (_name, headers, body) => {
    await emu.ctl("PATCH", "/wallet", { balance: 1234 });
    const res = await raw("POST", "/reset", headers as Record<string, string>, body);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "FORBIDDEN" });
    expect(emu.control.state().account.wallet).toBe(1234);
  });

  test("reading the world (GET /_emulator/state) from another origin or a rebound host: 403", async () => {
    expect((await raw("GET", "/state", { origin: "http://evil.example" })).status).toBe(403);
    expect((await raw("GET", "/state", { host: "evil.example" })).status).toBe(403);
  });

  test("the user's own tools are served: no Origin, the emulator's own loopback origin, localhost", async () => {
    expect((await raw("POST", "/reset", {})).status).toBe(200);
    expect((await raw("POST", "/reset", { origin: emu.origin, "content-type": "application/json" }, "{}")).status).toBe(200);
    expect((await raw("GET", "/state", { origin: "http://localhost:3000", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await raw("PATCH", "/wallet", { "content-type": "application/json; charset=utf-8" }, '{"balance":5}')).status).toBe(200);
  });
});

test("--state FILE is written private to the user (0600)", async () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), "svc-state-")), "world.json");
  const own = await startTestEmulator({ stateFile });
  try {
    await own.ctl("PATCH", "/wallet", { balance: 99 });
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
  } finally {
    await own.close();
  }
  expect(statSync(stateFile).mode & 0o777).toBe(0o600);
});
