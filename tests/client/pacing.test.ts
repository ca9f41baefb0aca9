/**
 * Pacing details of issue 9: a request refused with 429 is retried at the head of the key's queue;
 * a poll tick that finds some waiters done comes back quickly for the others.
 */
import { Deadline, listOrGet, Listing, Poller, TokenBucket, type ApiClient, type Clock } from "../../provider/client";

test("a request refused with 429 goes back to the head of the line, not behind the queue", async () => {
  let t = 0;
  const sleepers: { until: number; wake: () => void }[] = [];
  const clock: Clock = { now: () => t, sleep: (ms) => new Promise((wake) => sleepers.push({ until: t + ms, wake })) };
  const bucket = new TokenBucket(2, 10, clock);
  const order: string[] = [];
  await bucket.take();
  await bucket.take();
  const queued = ["a", "b", "c"].map((name) => bucket.take().then(() => order.push(name)));
  const retried = bucket.take({ refused: true }).then(() => order.push("retry"));
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setImmediate(r));
    t += 100;
    for (const s of sleepers.splice(0)) s.until <= t ? s.wake() : sleepers.push(s);
  }
  await Promise.all([...queued, retried]);
  expect(order).toEqual(["retry", "a", "b", "c"]);
});

test("a tick that finds some waiters done reads again soon for the others (not at the grown interval)", async () => {
  const status = new Map([
    ["a", "provisioning"],
    ["b", "provisioning"],
    ["c", "provisioning"],
  ]);
  const reads: number[] = [];
  const api = {
    call: async () => {
      reads.push(Date.now());
      return [...status].map(([id, s]) => ({ id, status: s }));
    },
    writeMark: () => 0,
    unchangedSince: () => true,
    removalMark: () => 0,
    removedNothingSince: () => true,
  } as unknown as ApiClient;
  const poller = new Poller<{ id: string; status: string }>(listOrGet(api, { list: new Listing(api, "vps.list"), get: "vps.get", param: "id", idOf: (s) => s.id }, true));
  const wait = (id: string) => poller.waitFor(id, (s) => s?.status === "running", { what: id, deadline: Deadline.after(20_000) }).then(() => Date.now());
  const [a, b, c] = ["a", "b", "c"].map(wait);
  // Let the interval grow (0.5, 0.75, 1.1, 1.7 s …), then let one server arrive, the others right after.
  await new Promise((r) => setTimeout(r, 4_000));
  status.set("a", "running");
  const aAt = await a;
  status.set("b", "running");
  status.set("c", "running");
  const [bAt, cAt] = await Promise.all([b, c]);
  // Without the reset the next tick would come 2.5 s or more after the one that found `a`.
  expect(bAt - aAt).toBeLessThan(1_000);
  expect(cAt - aAt).toBeLessThan(1_000);
  expect(reads.length).toBeLessThan(12);
}, 20_000);
