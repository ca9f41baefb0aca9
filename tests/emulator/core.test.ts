/**
 * The emulator's shared behaviour: auth outcomes common to every API, the per-key rate limit, the
 * control API (faults, request log, clock, wallet), the route table coverage, and the CLI with
 * `--state FILE` surviving kill -9.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceModules } from "../../emulator";
import { missingHandlers } from "../../emulator/core/app";
import type { TestEmulator } from "../../tools/support/emulator";
import { startEmulatorProcess } from "../../tools/support/flood";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    // A fresh second for the rate limiter of every key.
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  },
});

test("every route of the route table has an emulator handler", () => {
  expect(missingHandlers(serviceModules)).toEqual([]);
});

describe("auth common to the platform APIs", () => {
  test.each([
    ["no header", null, 401, "NO_API_KEY"],
    ["unknown key", "svc_0000000000000000000000000000000000000000000000000000", 401, "INVALID_API_KEY"],
    ["revoked key", "revoked", 401, "INVALID_API_KEY"],
    ["expired key", "expired", 401, "API_KEY_EXPIRED"],
    ["email key on the platform API", "email", 401, "INVALID_API_KEY"],
  ] as const)("%s (%s) → %i %s", async (_name, keyName, status, code) => {
    const key = keyName === null ? null : keyName in emu.keys ? emu.keys[keyName as keyof typeof emu.keys] : keyName;
    const res = await emu.call("GET", "/api/account/wallet", { key });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code });
  });

  test("a valid key reads the wallet in the envelope", async () => {
    const res = await emu.call("GET", "/api/account/wallet", { key: emu.keys.account });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { balance: 50_000_000, currency: "IDR" } });
  });

  test("an unknown route answers 404 NOT_FOUND in the envelope", async () => {
    const res = await emu.call("GET", "/api/nothing-here", { key: emu.keys.account });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });
});

describe("rate limit: 10 requests/s per key, burst 10, shared by all APIs", () => {
  test("keyless and unknown-key 401 answers carry x-ratelimit-* too (every response does); no key's allowance is spent", async () => {
    const cases: [string, string, string | null, string][] = [
      ["GET", "/api/vps", null, "NO_API_KEY"],
      ["GET", "/email/domains", null, "UNAUTHORIZED"],
      ["POST", "/email/send", null, "NO_API_KEY"],
      ["GET", "/api/vps", "svc_made_up_key", "INVALID_API_KEY"],
    ];
    for (const [method, path, key, code] of cases) {
      const res = await emu.call(method, path, { key, body: method === "POST" ? {} : undefined });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 401, code });
      expect(res.headers.get("x-ratelimit-limit")).toBe("10");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
    }
    expect(emu.control.emu.rateBuckets.size).toBe(0);
  });

  test("the 11th request of a burst answers 429 RATE_LIMITED with retry-after; headers on all", async () => {
    const key = emu.keys.account;
    const paths = ["/api/account/wallet", "/api/vps/plans", "/email/status"];
    // The bucket is on the emulator's clock, which runs with real time: a token comes back every
    // 100 ms, so on a busy machine the burst may earn a few. At most 10 + (elapsed / 100 ms) answers.
    const t0 = Date.now();
    const answers = [];
    // Until the first 429 (a limiter that never refuses fails the bound below).
    for (let i = 0; i < 200 && answers.at(-1)?.status !== 429; i++) answers.push(await emu.call("GET", paths[i % paths.length], { key, headers: { "x-svc-project": emu.projects[0] } }));
    const earned = Math.ceil((Date.now() - t0) / 100);
    for (const r of answers) expect(r.headers.get("x-ratelimit-limit")).toBe("10");
    const served = answers.filter((r) => r.status !== 429);
    expect(served.length).toBeGreaterThanOrEqual(10);
    expect(served.length).toBeLessThanOrEqual(10 + earned);
    // The first ten spend the burst one token each.
    expect(answers.slice(0, 10).map((r) => r.status)).not.toContain(429);
    expect(Number(answers[0].headers.get("x-ratelimit-remaining"))).toBe(9);
    const last = answers.at(-1)!;
    expect(last.status).toBe(429);
    expect(last.body.code).toBe("RATE_LIMITED");
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");

    // Another key is not slowed by the first one.
    const other = await emu.call("GET", "/api/account/wallet", { key: emu.keys.project });
    expect(other.status).toBe(200);

    // The emulator clock refills the bucket.
    await emu.ctl("POST", "/clock/advance", { seconds: 1 });
    expect((await emu.call("GET", "/api/account/wallet", { key })).status).toBe(200);
  });
});

describe("control API", () => {
  test("a fault answers the configured status and code `times` times, then the route works", async () => {
    const key = emu.keys.account;
    await emu.ctl("POST", "/faults", { method: "GET", path: "/api/account/*", status: 503, code: "INTERNAL_ERROR", times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await emu.call("GET", "/api/account/wallet", { key })).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  test("a drop fault closes the connection without an answer and is logged", async () => {
    await emu.ctl("POST", "/faults", { path: "/api/account/wallet", drop: true, times: 1 });
    await expect(emu.call("GET", "/api/account/wallet", { key: emu.keys.account })).rejects.toThrow();
    const log = (await emu.ctl("GET", "/requests")).body.data;
    expect(log.at(-1)).toMatchObject({ method: "GET", path: "/api/account/wallet", dropped: true, status: 0 });
  });

  test("delayMs slows the answer", async () => {
    await emu.ctl("POST", "/faults", { path: "/api/account/wallet", delayMs: 300, times: 1 });
    const started = Date.now();
    const res = await emu.call("GET", "/api/account/wallet", { key: emu.keys.account });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("the request log records key prefix, method, path, route, status and code — never the key", async () => {
    await emu.ctl("DELETE", "/requests");
    await emu.call("GET", "/api/account/wallet", { key: emu.keys.account });
    await emu.call("GET", "/api/account/wallet", { key: emu.keys.expired });
    const log = (await emu.ctl("GET", "/requests")).body.data;
    expect(log).toEqual([
      expect.objectContaining({ keyPrefix: emu.keys.account.slice(0, 12), method: "GET", path: "/api/account/wallet", route: "account.wallet", status: 200, code: null }),
      expect.objectContaining({ keyPrefix: emu.keys.expired.slice(0, 12), status: 401, code: "API_KEY_EXPIRED" }),
    ]);
    expect(JSON.stringify(log)).not.toContain(emu.keys.account);
  });

  test("PATCH /wallet sets the balance; reset restores the seeded world", async () => {
    await emu.ctl("PATCH", "/wallet", { balance: 1234 });
    expect((await emu.call("GET", "/api/account/wallet", { key: emu.keys.account })).body.data.balance).toBe(1234);
    await emu.ctl("POST", "/reset");
    expect((await emu.ctl("GET", "/state")).body.data.account.wallet).toBe(50_000_000);
  });

  test("a bad control request is refused with the field named", async () => {
    const res = await emu.ctl("POST", "/faults", { path: "/api/vps", status: "boom" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/status/);
  });
});

describe("svc-emulator command", () => {
  const start = (args: string[]): Promise<{ child: ChildProcess; env: Record<string, string> }> => startEmulatorProcess(join(__dirname, "../.."), args);

  // How fast it starts is a figure of tools/bench/state-durability.ts (a script, not a timed test).
  test("prints eval-able exports; with --state the world survives kill -9", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "svc-emu-")), "world.json");
    const first = await start(["--state", stateFile, "--seed", "7"]);
    try {
      for (const name of ["SVC_API_URL", "SVC_EMAIL_URL", "SVC_AI_URL", "SVC_API_KEY", "SVC_EMAIL_API_KEY", "SVC_PROJECT_ID"]) {
        expect(first.env[name]).toBeTruthy();
      }
      // The second account, ready for the profile "client".
      expect(first.env.SVC_PROFILE_CLIENT_API_KEY).toMatch(/^svc_/);
      expect(first.env.SVC_PROFILE_CLIENT_EMAIL_API_KEY).toMatch(/^svcm_/);
      expect(first.env.SVC_PROFILE_CLIENT_PROJECT_ID).not.toBe(first.env.SVC_PROJECT_ID);
      expect(first.env.SVC_PROFILE_CLIENT_API_KEY).not.toBe(first.env.SVC_API_KEY);
      const origin = first.env.SVC_API_URL.replace(/\/api$/, "");
      await fetch(`${origin}/_emulator/wallet`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ balance: 777 }) });
      const before = (await (await fetch(`${origin}/_emulator/state`)).json()) as { data: unknown };
      first.child.kill("SIGKILL");

      const second = await start(["--state", stateFile, "--seed", "7"]);
      try {
        const origin2 = second.env.SVC_API_URL.replace(/\/api$/, "");
        const after = (await (await fetch(`${origin2}/_emulator/state`)).json()) as { data: { account: { wallet: number } } };
        expect(after.data.account.wallet).toBe(777);
        expect(after.data).toEqual(before.data);
        expect(second.env.SVC_API_KEY).toBe(first.env.SVC_API_KEY);
      } finally {
        second.child.kill("SIGKILL");
      }
    } finally {
      first.child.kill("SIGKILL");
    }
  });
});
