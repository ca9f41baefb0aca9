/**
 * waitFor on a fake clock whose sleep moves time forward at once: each poll's delay and the
 * timeout are exact, and the test takes no real time.
 */
import { ApiClient, Deadline, waitFor, WaitTimeoutError } from "../../provider/client";
import { freshKey, reply, startServer, vpsRecord } from "../support/http-server";
import { SteppingClock } from "../support/stepping-clock";

type Server = { id: string; status: string; poll: number };

function poller(statuses: string[], clock: SteppingClock) {
  const reads: { at: number }[] = [];
  const read = async (): Promise<Server> => {
    reads.push({ at: clock.now() });
    const status = statuses[Math.min(reads.length - 1, statuses.length - 1)];
    return { id: "3f2a", status, poll: reads.length };
  };
  return { read, reads };
}

test("the first read is immediate; done at once means no sleep at all", async () => {
  const clock = new SteppingClock();
  const { read, reads } = poller(["running"], clock);

  const state = await waitFor(read, (s) => s.status === "running", { what: "server 3f2a to be running", deadline: Deadline.after(60_000, clock), clock });

  expect(state).toEqual({ id: "3f2a", status: "running", poll: 1 });
  expect(reads.map((r) => r.at)).toEqual([0]);
  expect(clock.sleeps).toEqual([]);
});

test("expectedMs: one early read, the next when the transition usually has ended, then the schedule (issue 16)", async () => {
  const clock = new SteppingClock();
  const { read, reads } = poller(["setting_up", "setting_up", "setting_up", "active"], clock);

  const state = await waitFor(read, (s) => s.status === "active", {
    what: "the backup add-on to be active",
    deadline: Deadline.after(60_000, clock),
    clock,
    random: () => 0.5,
    firstReadInMs: 500,
    firstDelayMs: 750,
    maxDelayMs: 2_000,
    expectedMs: 10_000,
  });

  expect(state.poll).toBe(4);
  // 0.5 s after the answer, then at 10 s (the usual end), then the schedule from its first step:
  // 0.75 s and 1.125 s on (the shared poller's rule; the lone wait went on at 1.125 s before).
  expect(reads.map((r) => r.at)).toEqual([500, 10000, 10750, 11875]);
});

test("expectedMs: a transition done by the first read costs one read", async () => {
  const clock = new SteppingClock();
  const { read, reads } = poller(["active"], clock);
  await waitFor(read, (s) => s.status === "active", { what: "x", deadline: Deadline.after(60_000, clock), clock, firstReadInMs: 500, expectedMs: 10_000 });
  expect(reads.map((r) => r.at)).toEqual([500]);
});

test("polls with a delay growing x1.5 from 0.5 s up to the cap", async () => {
  const clock = new SteppingClock();
  const { read, reads } = poller(["provisioning", "provisioning", "provisioning", "provisioning", "provisioning", "provisioning", "running"], clock);

  const state = await waitFor(read, (s) => s.status === "running", {
    what: "server 3f2a to be running",
    deadline: Deadline.after(60_000, clock),
    clock,
    random: () => 0.5, // no jitter: 0.8 + 0.4 x 0.5 = 1
    maxDelayMs: 2_000,
  });

  expect(state.poll).toBe(7);
  expect(clock.sleeps).toEqual([500, 750, 1125, 1687.5, 2000, 2000]);
  expect(reads.map((r) => r.at)).toEqual([0, 500, 1250, 2375, 4062.5, 6062.5, 8062.5]);
});

test("jitter stays within ±20 %", async () => {
  for (const r of [0, 1]) {
    const clock = new SteppingClock();
    const { read } = poller(["pending", "done"], clock);
    await waitFor(read, (s) => s.status === "done", { what: "x", deadline: Deadline.after(60_000, clock), clock, random: () => r });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeCloseTo(r === 0 ? 400 : 600, 9);
  }
});

test("the timeout error names what it waited for, the last state seen and how long it waited", async () => {
  const clock = new SteppingClock();
  const { read, reads } = poller(["provisioning", "provisioning", "starting"], clock);

  const err = await waitFor(read, (s) => s.status === "running", {
    what: "server 3f2a to be running",
    deadline: Deadline.after(10_000, clock),
    clock,
    random: () => 0.5,
    describe: (s) => `status ${s.status} (poll ${s.poll})`,
  }).then(
    () => {
      throw new Error("expected a timeout");
    },
    (e: unknown) => e,
  );

  expect(err).toBeInstanceOf(WaitTimeoutError);
  const e = err as WaitTimeoutError<Server>;
  // Sleeps 500, 750, 1125, 1687.5, 2531.25, then the rest of the 10 s; a last read at exactly 10 s.
  expect(clock.sleeps).toEqual([500, 750, 1125, 1687.5, 2531.25, 3406.25]);
  expect(reads).toHaveLength(7);
  expect(e.waitedMs).toBe(10_000);
  expect(e.what).toBe("server 3f2a to be running");
  expect(e.lastState).toEqual({ id: "3f2a", status: "starting", poll: 7 });
  expect(e.message).toBe("timed out after 10 s waiting for server 3f2a to be running; last state seen: status starting (poll 7)");
});

test("without describe, the last state reads as JSON", async () => {
  const clock = new SteppingClock();
  const { read } = poller(["stopped"], clock);

  await expect(
    waitFor(read, (s) => s.status === "running", { what: "server 3f2a to be running", deadline: Deadline.after(1_000, clock), clock }),
  ).rejects.toThrow('timed out after 1 s waiting for server 3f2a to be running; last state seen: {"id":"3f2a","status":"stopped","poll":');
});

test("a stop of the signal the deadline was made under ends the wait at once, with its reason", async () => {
  const clock = new SteppingClock();
  const controller = new AbortController();
  const { read, reads } = poller(["pending"], clock);
  const stop = new Error("stopped by the caller");

  const reading = async () => {
    const state = await read();
    if (state.poll === 3) controller.abort(stop);
    return state;
  };

  await expect(
    waitFor(reading, (s) => s.status === "done", { what: "x", deadline: Deadline.after(60_000, clock, controller.signal), clock }),
  ).rejects.toBe(stop);
  expect(reads).toHaveLength(3);
});

test("with the real client: each poll is a GET through the client, until the server runs", async () => {
  const server = await startServer((r) => reply.ok(vpsRecord({ id: "3f2a", status: r.n < 2 ? "provisioning" : "running" })));
  const client = new ApiClient({ service: "platform", baseUrl: server.baseUrl, apiKey: freshKey("wait") });
  try {
    const vps = await waitFor(
      () => client.call("vps.get", { params: { id: "3f2a" } }),
      (v) => v.status === "running",
      { what: "server 3f2a to be running", deadline: Deadline.after(5_000), firstDelayMs: 20 },
    );
    expect(vps.status).toBe("running");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /vps/3f2a", "GET /vps/3f2a", "GET /vps/3f2a"]);
  } finally {
    await client.close();
    await server.close();
  }
});
