/**
 * The emulator soak of `npm run chaos`: one `svc-emulator` process (dist/) takes N requests, as a
 * shared emulator does from many clients — made-up keys (long ones, each different), bad bodies
 * (broken JSON, too deep, wrong types, unknown routes) and valid traffic of both seeded accounts
 * (platform reads, email reads, AI calls) — while the emulator clock moves a second every 40
 * requests (every key's bucket refills; AI minute windows turn over). Measured from outside: its
 * resident memory before and after, and every answer's status. A 5xx, or memory growing by
 * MAX_GROWTH_MB or more, is a problem.
 */
import { flood, rssMb, startEmulatorProcess, type FloodRequest, type StatusCounts } from "../support/flood";

export const MAX_GROWTH_MB = 50;

export interface SoakResult {
  requests: number;
  seconds: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  byStatus: StatusCounts;
  problems: string[];
}

const json = { "content-type": "application/json" };

export async function soak(root: string, total: number, random: () => number): Promise<SoakResult> {
  const emu = await startEmulatorProcess(root);
  try {
    const { env } = emu;
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const filler = "k".repeat(2_000);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const deep = "[".repeat(3_000) + "]".repeat(3_000);
    const chat = (key: string): FloodRequest => ({
      method: "POST",
      path: "/ai/v1/chat/completions",
      headers: { ...bearer(key), ...json },
      body: JSON.stringify({ model: "gpt-4o-mini", max_tokens: 16, messages: [{ role: "user", content: "soak" }] }),
    });
    const kinds: ((i: number) => FloodRequest)[] = [
      // Made-up keys, every one different.
      (i) => ({ method: "GET", path: "/api/vps", headers: bearer(`svc_${i.toString(16)}${filler}`) }),
      (i) => ({ method: "POST", path: "/email/send", headers: { ...bearer(`svcm_${i.toString(16)}${filler}`), ...json }, body: "{}" }),
      (i) => ({ method: "GET", path: "/ai/v1/models", headers: { "x-api-key": `sk-${i.toString(16)}${filler}` } }),
      // Bad bodies and routes, with valid keys.
      () => ({ method: "POST", path: "/api/vps", headers: { ...bearer(env.SVC_API_KEY), ...json }, body: '{"planId": ' }),
      () => ({ method: "POST", path: "/email/templates", headers: { ...bearer(env.SVC_EMAIL_API_KEY), ...json }, body: `{"name":${deep}}` }),
      () => ({ method: "POST", path: "/email/webhooks", headers: { ...bearer(env.SVC_EMAIL_API_KEY), ...json }, body: '{"url": 42, "events": "all"}' }),
      () => ({ method: "PUT", path: "/api/nope", headers: { ...bearer(env.SVC_API_KEY), ...json }, body: "{" }),
      () => ({ method: "POST", path: "/ai/v1/messages", headers: { ...bearer(env.SVC_API_KEY), ...json }, body: `{"model":"claude-sonnet-4","messages":${deep}}` }),
      // Valid traffic of both accounts.
      () => ({ method: "GET", path: "/api/account/wallet", headers: bearer(pick([env.SVC_API_KEY, env.SVC_PROFILE_CLIENT_API_KEY])) }),
      () => ({ method: "GET", path: "/api/vps", headers: bearer(pick([env.SVC_API_KEY, env.SVC_PROFILE_CLIENT_API_KEY])) }),
      () => ({ method: "GET", path: "/email/domains", headers: bearer(pick([env.SVC_EMAIL_API_KEY, env.SVC_PROFILE_CLIENT_EMAIL_API_KEY])) }),
      () => chat(pick([env.SVC_API_KEY, env.SVC_PROFILE_CLIENT_API_KEY])),
    ];
    const make = (i: number): FloodRequest =>
      i % 40 === 39 ? { method: "POST", path: "/_emulator/clock/advance", headers: json, body: '{"seconds":1}' } : pick(kinds)(i);
    // Warm up (JIT, pools, the request log's first lines), then measure.
    await flood(emu.origin, Math.min(2_000, total), make);
    const rssBeforeMb = rssMb(emu.child.pid!);
    const started = Date.now();
    const byStatus = await flood(emu.origin, total, make);
    const seconds = (Date.now() - started) / 1000;
    const rssAfterMb = rssMb(emu.child.pid!);
    const problems: string[] = [];
    const fiveXx = Object.entries(byStatus).filter(([s]) => Number(s) >= 500 || Number(s) === 0);
    if (fiveXx.length) problems.push(`soak: ${fiveXx.map(([s, n]) => `${n} answered ${s === "0" ? "nothing" : s}`).join(", ")}`);
    if (rssAfterMb - rssBeforeMb >= MAX_GROWTH_MB) problems.push(`soak: emulator RSS grew ${(rssAfterMb - rssBeforeMb).toFixed(1)} MB over ${total} requests (limit ${MAX_GROWTH_MB} MB)`);
    return { requests: total, seconds, rssBeforeMb, rssAfterMb, byStatus, problems };
  } finally {
    await emu.stop();
  }
}
