/**
 * Memory bounded whatever clients send, structurally: the request log's budget in bytes and
 * entries (long paths cut), `GET /_emulator/requests` answering pages, and no rate bucket for a
 * key the world does not hold. `tools/bench/emulator-memory.ts` measures the process's RSS.
 */
import { LOGGED_PATH_CHARS, REQUEST_LOG_BYTES, REQUEST_LOG_ENTRIES, REQUEST_PAGE_MAX, RequestLog, type RequestLogEntry } from "../../emulator/core/faults";
import type { TestEmulator } from "../../tools/support/emulator";
import { flood } from "../../tools/support/flood";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
  },
});

const entry = (path: string, i = 0): RequestLogEntry => ({
  time: "2026-03-01T00:00:00.000Z", keyPrefix: "svc_made_up_", method: "GET", path, route: null, status: 404, code: "NOT_FOUND", fault: null, dropped: false, idempotencyKey: `k${i}`.padEnd(5_000, "k"),
});

describe("RequestLog", () => {
  test("30,000 entries with 15 KB paths hold at most the byte budget; paths and keys are cut; clear gives it all back", () => {
    const log = new RequestLog();
    for (let i = 0; i < 30_000; i++) log.add(entry(`/api/vps/${i}-${"x".repeat(15_000)}`, i));
    expect(log.heldBytes()).toBeLessThanOrEqual(REQUEST_LOG_BYTES);
    const held = log.all();
    expect(held.length).toBeGreaterThan(1_000);
    expect(held.length).toBeLessThan(REQUEST_LOG_ENTRIES);
    // The newest are kept, each path cut and saying how long it was.
    expect(held[held.length - 1].path).toBe(`/api/vps/29999-${"x".repeat(LOGGED_PATH_CHARS - 15)}…[15015 chars]`);
    expect(Math.max(...held.map((e) => e.path.length))).toBeLessThanOrEqual(LOGGED_PATH_CHARS + 20);
    expect(Math.max(...held.map((e) => e.idempotencyKey!.length))).toBeLessThanOrEqual(128 + 20);
    log.clear();
    expect(log.all()).toEqual([]);
    expect(log.heldBytes()).toBe(0);
  });

  test("short entries stop at REQUEST_LOG_ENTRIES, oldest out first", () => {
    const log = new RequestLog();
    for (let i = 0; i < REQUEST_LOG_ENTRIES + 500; i++) log.add({ ...entry(`/api/vps/${i}`), idempotencyKey: undefined });
    const held = log.all();
    expect(held).toHaveLength(REQUEST_LOG_ENTRIES);
    expect(held[0].path).toBe("/api/vps/500");
    expect(log.page(undefined, 10).evicted).toBe(500);
  });

  test("pages: `next` resumes after the last entry returned, also when older entries left meanwhile", () => {
    const log = new RequestLog(5, REQUEST_LOG_BYTES);
    for (let i = 0; i < 4; i++) log.add(entry(`/p${i}`));
    const first = log.page(undefined, 2);
    expect(first.entries.map((e) => e.path)).toEqual(["/p0", "/p1"]);
    for (let i = 4; i < 7; i++) log.add(entry(`/p${i}`)); // /p0 and /p1 leave
    const second = log.page(Number(first.next), 2);
    expect(second.entries.map((e) => e.path)).toEqual(["/p2", "/p3"]);
    const third = log.page(Number(second.next), 10);
    expect(third.entries.map((e) => e.path)).toEqual(["/p4", "/p5", "/p6"]);
    expect(third.next).toBeNull();
  });
});

describe("over HTTP", () => {
  test("requests with made-up keys and 15 KB paths: the log stays in its budget, no rate bucket is made, GET answers pages of at most `limit`", async () => {
    const made = 600;
    const counts = await flood(emu.origin, made, (i) => ({
      method: "GET",
      path: `/api/vps/${i}${"y".repeat(15_000)}`,
      headers: { authorization: `Bearer svc_made_up_${i}_${"z".repeat(200)}` },
    }), 16);
    expect(counts).toEqual({ 401: made });
    expect(emu.control.emu.rateBuckets.size).toBe(0);
    const all = emu.control.requests();
    expect(all).toHaveLength(made);
    expect(Math.max(...all.map((e) => e.path.length))).toBeLessThanOrEqual(LOGGED_PATH_CHARS + 20);

    const seen: unknown[] = [];
    let pages = 0;
    for (let after: string | null | undefined; after !== null; pages++) {
      const res = await emu.ctl("GET", `/requests?limit=250${after === undefined ? "" : `&after=${after}`}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(250);
      seen.push(...res.body.data);
      after = res.body.next;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    // Without a limit: the default page; over the most a page holds: refused.
    expect((await emu.ctl("GET", "/requests")).body.data).toHaveLength(made);
    expect((await emu.ctl("GET", `/requests?limit=${REQUEST_PAGE_MAX + 1}`)).status).toBe(400);

    expect((await emu.ctl("DELETE", "/requests")).status).toBe(200);
    expect((await emu.ctl("GET", "/requests")).body).toEqual({ success: true, data: [], next: null, evicted: 0 });
  }, 60_000);
});
