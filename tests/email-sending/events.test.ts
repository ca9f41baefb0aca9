/**
 * Signed webhook events over real HTTP: a send to a receiver on loopback delivers `email.sent` and
 * `email.delivered` (bounced and complained for the simulator recipients) with a `Svc-Signature`
 * that `verifyWebhookSignature` accepts; retries (5xx retried, 4xx not) with the same body and
 * signature and `failCount`; loopback urls refused without `allowLocalWebhooks`.
 */
import { verifyWebhookSignature } from "../../sdk/webhook-signature";
import { startTestEmulator } from "../../tools/support/emulator";
import { ISO_MS } from "../../tools/support/world";
import { closedAfterAll } from "../support/per-file";
import { createWebhook, ok, refused, send, SIM, startReceiver, useSendingEmulator, waitFor, type Api, type Receiver } from "./helpers";

let api: Api;
// Closed after all the tests, before the emulator (declared first, so its afterAll runs first).
const receivers = closedAfterAll<Receiver>();
useSendingEmulator((a) => (api = a));

async function receiver(answer?: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

function verified(r: Receiver, secret: string) {
  return r.received.map((d) => {
    const check = verifyWebhookSignature(d.raw, d.headers["svc-signature"] as string, secret);
    expect(check).toEqual({ valid: true, timestamp: expect.any(Number) });
    expect(d.headers["content-type"]).toBe("application/json");
    return d.body;
  });
}

describe("signed events", () => {
  test("a send delivers email.sent then email.delivered, signed, with the spec's body and notification blocks; the email follows", async () => {
    const r = await receiver();
    const hook = await createWebhook(api, r.url, ["email.sent", "email.delivered", "email.bounced", "email.complained"]);
    const id = await send(api, { to: ["Ana <ana@acme-customer.dev>"], cc: ["ANA@acme-customer.dev", "bo@acme-customer.dev"], subject: "Order {{n}}", variables: { n: 42 } });
    await waitFor(() => r.received.length >= 2, "two events");
    const events = verified(r, hook.secret);
    expect(events.map((e) => e.type).sort()).toEqual(["email.delivered", "email.sent"]);
    const delivered = events.find((e) => e.type === "email.delivered");
    expect(delivered).toEqual({
      type: "email.delivered",
      createdAt: expect.stringMatching(ISO_MS),
      data: {
        messageId: id,
        recipients: ["ana@acme-customer.dev", "bo@acme-customer.dev"],
        notification: {
          type: "Delivery",
          mail: { messageId: id, timestamp: expect.stringMatching(ISO_MS), source: "Acme <news@mail.acme-shop.dev>", subject: "Order 42", destination: ["ana@acme-customer.dev", "bo@acme-customer.dev"] },
          delivery: { timestamp: expect.stringMatching(ISO_MS), processingTimeMillis: expect.any(Number), recipients: ["ana@acme-customer.dev", "bo@acme-customer.dev"] },
        },
      },
    });
    const sent = events.find((e) => e.type === "email.sent");
    expect(sent.data).toMatchObject({ messageId: id, notification: { type: "Send", mail: { messageId: id } } });

    const email = ok(await api("GET", `/emails/${id}`), 200);
    expect(email).toMatchObject({ id, status: "delivered", subject: "Order 42", to: ["Ana <ana@acme-customer.dev>"], cc: ["ANA@acme-customer.dev", "bo@acme-customer.dev"], bcc: [] });
    // The webhook records its last trigger and no failure.
    const [listed] = ok(await api("GET", "/webhooks"), 200);
    expect(listed).toMatchObject({ id: hook.id, failCount: 0, lastTriggeredAt: expect.stringMatching(ISO_MS) });
  });

  test("a bounce recipient gets email.bounced (bounce block) and the email ends bounced; a complaint recipient gets email.delivered then email.complained", async () => {
    const r = await receiver();
    const hook = await createWebhook(api, r.url, ["email.bounced", "email.complained", "email.delivered"]);
    const bounced = await send(api, { to: [`bounce@${SIM}`] });
    const complained = await send(api, { to: [`complaint@${SIM}`] });
    await waitFor(() => r.received.length >= 3, "three events");
    const events = verified(r, hook.secret);
    const bounce = events.find((e) => e.type === "email.bounced");
    expect(bounce.data).toEqual({
      messageId: bounced,
      recipients: [`bounce@${SIM}`],
      notification: {
        type: "Bounce",
        mail: expect.objectContaining({ messageId: bounced, destination: [`bounce@${SIM}`] }),
        bounce: {
          bounceType: "Permanent",
          bounceSubType: "General",
          timestamp: expect.stringMatching(ISO_MS),
          recipients: [{ emailAddress: `bounce@${SIM}`, status: "5.1.1", action: "failed", diagnosticCode: expect.stringContaining("550") }],
        },
      },
    });
    const complaint = events.find((e) => e.type === "email.complained");
    expect(complaint.data).toEqual({
      messageId: complained,
      recipients: [`complaint@${SIM}`],
      notification: {
        type: "Complaint",
        mail: expect.objectContaining({ messageId: complained }),
        complaint: { complaintFeedbackType: "abuse", timestamp: expect.stringMatching(ISO_MS), recipients: [{ emailAddress: `complaint@${SIM}` }] },
      },
    });
    expect(events.filter((e) => e.type === "email.delivered").map((e) => e.data.messageId)).toEqual([complained]);
    expect(ok(await api("GET", `/emails/${bounced}`), 200).status).toBe("bounced");
    expect(ok(await api("GET", `/emails/${complained}`), 200).status).toBe("complained");
    // Both addresses are now suppressed.
    refused(await api("POST", "/send", { body: { from: "a@mail.acme-shop.dev", to: [`bounce@${SIM}`], subject: "s", text: "t" } }), 403, "RECIPIENT_SUPPRESSED");
    refused(await api("POST", "/send", { body: { from: "a@mail.acme-shop.dev", to: [`complaint@${SIM}`], subject: "s", text: "t" } }), 403, "RECIPIENT_SUPPRESSED");
  });

  test("reject, fail, open and click recipients get email.rejected, email.failed, email.opened and email.clicked", async () => {
    const r = await receiver();
    const hook = await createWebhook(api, r.url, ["email.rejected", "email.failed", "email.opened", "email.clicked"]);
    const rejected = await send(api, { to: [`reject@${SIM}`] });
    const failed = await send(api, { to: [`fail@${SIM}`] });
    const engaged = await send(api, { to: [`open@${SIM}`, `click@${SIM}`] });
    await waitFor(() => r.received.length >= 4, "four events");
    const events = verified(r, hook.secret);
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);

    expect(of("email.rejected")).toEqual([
      { messageId: rejected, recipients: [`reject@${SIM}`], notification: { type: "Reject", mail: expect.objectContaining({ messageId: rejected }), reject: { reason: expect.any(String) } } },
    ]);
    // A single send's email.failed: `{ error, jobId }` only.
    expect(of("email.failed")).toEqual([{ messageId: failed, recipients: [`fail@${SIM}`], notification: { error: expect.any(String), jobId: expect.stringMatching(/^job_[0-9a-f]+$/) } }]);
    // A click implies an open.
    expect(of("email.opened")).toEqual([
      {
        messageId: engaged,
        recipients: [`open@${SIM}`, `click@${SIM}`],
        notification: { type: "Open", mail: expect.objectContaining({ messageId: engaged }), open: { timestamp: expect.stringMatching(ISO_MS), userAgent: expect.any(String) } },
      },
    ]);
    expect(of("email.clicked")).toEqual([
      {
        messageId: engaged,
        recipients: [`click@${SIM}`],
        notification: { type: "Click", mail: expect.objectContaining({ messageId: engaged }), click: { timestamp: expect.stringMatching(ISO_MS), userAgent: expect.any(String), link: expect.stringMatching(/^https:\/\//) } },
      },
    ]);
    expect(ok(await api("GET", `/emails/${rejected}`), 200).status).toBe("rejected");
    expect(ok(await api("GET", `/emails/${failed}`), 200).status).toBe("failed");
    expect(ok(await api("GET", `/emails/${engaged}`), 200).status).toBe("delivered");
  });

  // email-service.md, What the service does: "Several operations (adding a domain, creating a
  // template, sending) run as background jobs and answer 202 with a `jobId`"; Endpoints: "| POST |
  // /send | JSON send message fields | 202 with the email id |"; Events: "email.failed for a single
  // send: `{ error: string, jobId: string }`"; Endpoints: "| GET | /jobs/{jobId} | none | 200 job; 404
  // `JOB_NOT_FOUND` |". One reading of all four (docs/decisions.md): a send answers the email id and
  // its job's id, and the job is the one email.failed names.
  test("a send answers 202 { id, jobId }; GET /jobs/{jobId} follows it; email.failed carries the id of that job, failed", async () => {
    const r = await receiver();
    const hook = await createWebhook(api, r.url, ["email.failed"]);
    const body = (to: string) => ({ body: { from: "Acme <news@mail.acme-shop.dev>", to: [to], subject: "Hello", text: "Hi" } });
    const delivered = ok(await api("POST", "/send", body("ana@acme-customer.dev")), 202);
    const failed = ok(await api("POST", "/send", body(`fail@${SIM}`)), 202);
    for (const answer of [delivered, failed]) expect(answer).toEqual({ id: expect.any(String), jobId: expect.stringMatching(/^job_[0-9a-f]+$/) });
    await waitFor(() => r.received.length >= 1, "email.failed");
    const [event] = verified(r, hook.secret);
    expect(event.data).toEqual({ messageId: failed.id, recipients: [`fail@${SIM}`], notification: { error: expect.any(String), jobId: failed.jobId } });

    const job = async (id: string) => ok(await api("GET", `/jobs/${id}`), 200);
    expect(await job(failed.jobId)).toEqual({
      jobId: failed.jobId, type: "send_email", status: "failed", result: {}, errorMessage: expect.stringContaining(`fail@${SIM}`), attempts: 1,
      createdAt: expect.stringMatching(ISO_MS), startedAt: expect.stringMatching(ISO_MS), completedAt: expect.stringMatching(ISO_MS),
    });
    expect(await job(delivered.jobId)).toMatchObject({ jobId: delivered.jobId, type: "send_email", status: "completed", result: { emailId: delivered.id, status: "delivered" }, errorMessage: null });
    // The jobs list holds them, newest first.
    expect(ok(await api("GET", "/jobs"), 200).slice(0, 2).map((j: { jobId: string }) => j.jobId)).toEqual([failed.jobId, delivered.jobId]);
  });

  test("only webhooks of the message's project subscribed to the event receive it", async () => {
    const subscribed = await receiver();
    const other = await receiver();
    await createWebhook(api, subscribed.url, ["email.delivered"]);
    await createWebhook(api, other.url, ["email.opened"]);
    // A webhook of the second project, subscribed to the event, gets nothing of the first project's.
    api.emu.control.emu.world.projects[1].email.plan = { ...api.emu.control.emu.world.projects[0].email.plan! };
    ok(await api("POST", "/webhooks", { key: api.emu.keys.emailNoPlan, body: { url: other.url, events: ["email.delivered"] } }), 201);
    await send(api, { to: ["x@acme-customer.dev"] });
    await waitFor(() => subscribed.received.length >= 1, "the delivered event");
    const log = await waitFor(async () => {
      const data = (await api.emu.ctl("GET", "/email/deliveries")).body.data;
      return data.inFlight === 0 && data.deliveries.length >= 1 ? data : undefined;
    }, "deliveries to settle");
    expect(log.deliveries.map((d: { eventType: string }) => d.eventType)).toEqual(["email.delivered"]);
    expect(subscribed.received.map((d) => d.body.type)).toEqual(["email.delivered"]);
    expect(other.received).toEqual([]);
  });
});

describe("delivery and retry rules", () => {
  test("500, 500, 200: exactly 3 attempts with identical body and signature, failCount back to 0; 404: one attempt, failCount 1; receiver down: 3 attempts, failCount 1", async () => {
    const flaky = await receiver((n) => (n <= 2 ? 500 : 200));
    const missing = await receiver(() => 404);
    const gone = await receiver();
    await gone.close();
    const flakyHook = await createWebhook(api, flaky.url, ["email.delivered"]);
    const missingHook = await createWebhook(api, missing.url, ["email.delivered"]);
    const goneHook = await createWebhook(api, gone.url, ["email.delivered"]);
    // A failed delivery before: failCount must come back to 0 after the retried success.
    const hookRecords = api.emu.control.emu.world.email.webhooks as { id: string; failCount: number }[];
    hookRecords.find((w) => w.id === flakyHook.id)!.failCount = 2;
    await send(api, { to: ["x@acme-customer.dev"] });
    // The three deliveries run side by side: about 3 s of real time for the 1 s + 2 s waits.
    const done = await waitFor(async () => {
      const data = (await api.emu.ctl("GET", "/email/deliveries")).body.data;
      return data.inFlight === 0 && data.deliveries.length >= 7 ? data.deliveries : undefined;
    }, "all attempts");

    expect(flaky.received.map((d) => d.answered)).toEqual([500, 500, 200]);
    expect(new Set(flaky.received.map((d) => d.raw)).size).toBe(1);
    expect(new Set(flaky.received.map((d) => d.headers["svc-signature"])).size).toBe(1);
    expect(verifyWebhookSignature(flaky.received[0].raw, flaky.received[0].headers["svc-signature"] as string, flakyHook.secret).valid).toBe(true);
    expect(missing.received.map((d) => d.answered)).toEqual([404]);

    type Entry = { webhookId: string; attempt: number; status: number | null; error: string | null; final: boolean; ok: boolean };
    const byHook = (id: string) => done.filter((d: Entry) => d.webhookId === id).map((d: Entry) => [d.attempt, d.status, typeof d.error, d.final, d.ok]);
    expect(byHook(flakyHook.id)).toEqual([[1, 500, "object", false, false], [2, 500, "object", false, false], [3, 200, "object", true, true]]);
    expect(byHook(missingHook.id)).toEqual([[1, 404, "object", true, false]]);
    expect(byHook(goneHook.id)).toEqual([[1, null, "string", false, false], [2, null, "string", false, false], [3, null, "string", true, false]]);

    const hooks = ok(await api("GET", "/webhooks"), 200) as { id: string; failCount: number }[];
    expect(Object.fromEntries(hooks.map((h) => [h.id, h.failCount]))).toEqual({ [flakyHook.id]: 0, [missingHook.id]: 1, [goneHook.id]: 1 });
  });

  test("without allowLocalWebhooks a loopback webhook is refused at create (INVALID_URL); with it, https and http loopback are accepted, private addresses are not", async () => {
    const strict = await startTestEmulator();
    try {
      for (const url of ["http://127.0.0.1:9/hook", "https://127.0.0.1/hook", "https://localhost/hook", "http://[::1]:8080/"]) {
        const res = await strict.call("POST", "/email/webhooks", { key: strict.keys.email, body: { url, events: ["email.sent"] } });
        refused(res, 400, "INVALID_URL");
      }
    } finally {
      await strict.close();
    }
    for (const url of ["http://127.0.0.1:9/hook", "https://localhost/hook", "http://[::1]:8080/"]) ok(await api("POST", "/webhooks", { body: { url, events: ["email.sent"] } }), 201);
    for (const url of ["http://10.0.0.1/hook", "https://192.168.1.10/hook", "http://hooks.example.com/x"]) refused(await api("POST", "/webhooks", { body: { url, events: ["email.sent"] } }), 400, "INVALID_URL");
  });
});
