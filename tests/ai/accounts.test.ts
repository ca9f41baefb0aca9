/**
 * Two accounts on one gateway: each pays with its own AI balance, is counted in its own per-minute
 * window and holds slots of its own concurrency pool (ai-gateway.md, Limits: "All keys of the
 * account together"); each account's `/_emulator/ai` view and usage show only its own.
 */
import { aiCall, alignMinute, chat, ctl, openStream, untilIdle, type TestEmulator, useAi } from "./helpers";

let emu: TestEmulator;
useAi((e) => (emu = e), { alignMinute: true });

const second = () => emu.control.emu.world.otherAccounts![0].id;
const view = (accountId?: string) => ctl(emu, "GET", accountId ? `/ai?account=${accountId}` : "/ai");
const usage = (accountId?: string) => ctl(emu, "GET", accountId ? `/ai/usage?account=${accountId}` : "/ai/usage");

test("each account's calls are charged to its own AI balance; each account's usage and spend show only its own", async () => {
  const [first0, second0] = [(await view()).balance, (await view(second())).balance];
  expect(first0).toBeGreaterThan(0);
  expect(second0).toBeGreaterThan(0);

  expect((await chat(emu, {}, { key: emu.keys.secondAccount })).status).toBe(200);
  expect((await view()).balance).toBe(first0);
  const secondAfter = (await view(second())).balance;
  expect(secondAfter).toBeLessThan(second0);

  expect((await chat(emu, { messages: [{ role: "user", content: "a longer question for the first account" }] })).status).toBe(200);
  expect((await view(second())).balance).toBe(secondAfter);
  expect((await view()).balance).toBeLessThan(first0);

  const [u1, u2] = [await usage(), await usage(second())];
  expect(u1.usage.map((u: { keyPrefix: string }) => u.keyPrefix)).toEqual([emu.keys.account.slice(0, 12)]);
  expect(u2.usage.map((u: { keyPrefix: string }) => u.keyPrefix)).toEqual([emu.keys.secondAccount.slice(0, 12)]);
  expect(Object.keys(u1.spend)).toEqual([emu.keys.account]);
  expect(Object.keys(u2.spend)).toEqual([emu.keys.secondAccount]);
  expect(u2.usage[0].cost).toBe(second0 - secondAfter);
});

test("one account's empty AI balance refuses only its own calls (402); the other goes on", async () => {
  await ctl(emu, "PATCH", `/ai/balance?account=${second()}`, { balance: 0 });
  const refused = await chat(emu, {}, { key: emu.keys.secondAccount });
  expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 402, code: "insufficient_balance" });
  expect((await chat(emu, {})).status).toBe(200);
});

test("the per-minute window is per account: the second account using up its limit leaves the first's untouched, and the reverse", async () => {
  await ctl(emu, "PATCH", `/ai/limits?account=${second()}`, { perMinute: 3 });
  await ctl(emu, "PATCH", "/ai/limits", { perMinute: 3 });
  for (let i = 0; i < 3; i++) expect((await aiCall(emu, "GET", "/v1/models", { key: emu.keys.secondAccount })).status).toBe(200);
  const limited = await aiCall(emu, "GET", "/v1/models", { key: emu.keys.secondAccount });
  expect({ status: limited.status, code: limited.body.error.code }).toEqual({ status: 429, code: "rate_limited" });
  for (let i = 0; i < 3; i++) expect((await aiCall(emu, "GET", "/v1/models")).status).toBe(200);
  expect((await aiCall(emu, "GET", "/v1/models")).status).toBe(429);

  alignMinute(emu);
  for (let i = 0; i < 3; i++) expect((await aiCall(emu, "GET", "/v1/models")).status).toBe(200);
  expect((await aiCall(emu, "GET", "/v1/models", { key: emu.keys.secondAccount })).status).toBe(200);
});

test("the concurrency pool is per account: the first account's full pool leaves the second's free, and the reverse", async () => {
  await ctl(emu, "PATCH", "/ai/settings", { delayMs: 60_000 });
  await ctl(emu, "PATCH", "/ai/limits", { concurrency: 2 });
  await ctl(emu, "PATCH", `/ai/limits?account=${second()}`, { concurrency: 2 });
  const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "slow" }] };
  const firsts = [await openStream(emu, "/v1/chat/completions", body), await openStream(emu, "/v1/chat/completions", body)];
  try {
    const full = await chat(emu, {});
    expect({ status: full.status, code: full.body.error.code }).toEqual({ status: 429, code: "too_many_concurrent_requests" });
    expect((await view()).inFlight).toBe(2);
    expect((await view(second())).inFlight).toBe(0);
    // The second account's pool is its own: two slow streams of its own fit, a third does not.
    const seconds = [
      await openStream(emu, "/v1/chat/completions", body, emu.keys.secondAccount),
      await openStream(emu, "/v1/chat/completions", body, emu.keys.secondAccount),
    ];
    try {
      const secondFull = await chat(emu, {}, { key: emu.keys.secondAccount });
      expect(secondFull.body.error.code).toBe("too_many_concurrent_requests");
      expect((await view(second())).inFlight).toBe(2);
      expect((await view()).held).toBeGreaterThan(0);
      expect((await view(second())).held).toBeGreaterThan(0);
    } finally {
      for (const s of seconds) await s.close();
    }
  } finally {
    for (const s of firsts) await s.close();
  }
  await untilIdle(emu);
});

test("an account id the world does not hold is 404 on the control API", async () => {
  const res = await emu.ctl("GET", "/ai/usage?account=00000000-0000-4000-8000-000000000000");
  expect(res.status).toBe(404);
});
