/**
 * Webhook receiver example: receives the email service's signed events on 127.0.0.1, verifies
 * each one with `verifyWebhookSignature`, and drives one email through the API to see them.
 *
 *   1. starts an HTTP receiver on 127.0.0.1 (a free port)
 *   2. registers a webhook for the receiver's URL (POST /webhooks; the answer holds the secret)
 *   3. makes sure the sending domain is added and verified (POST /domains, POST /domains/{id}/verify)
 *   4. sends one email (POST /send) to the simulator's always-delivered address
 *   5. prints every verified event, and waits until `email.delivered` for that email arrived
 *   6. receives mail: enables receiving on the sending domain (PUT /domains/{id}/receiving), makes
 *      sure the mailbox `inbox@<domain>` exists (POST /inbound/addresses), has a message arrive for it
 *      (the emulator's `POST /_emulator/email/inbound`; with the real service, any mail sent to the
 *      address) and waits until its `email.received` event arrived, verified
 *   7. deletes the webhook and stops the receiver
 *
 * Environment: SVC_EMAIL_URL, SVC_EMAIL_API_KEY (from `npx svc-emulator --allow-local-webhooks`),
 * optionally SVC_EMAIL_FROM (default hello@mail.example-shop.dev), SVC_EMAIL_TO (default
 * delivered@simulator.svc.dev) and SVC_EMULATOR_CONTROL_URL (default: the emulator's `/_emulator` on
 * the email URL's origin). Exits 0 when `email.delivered` and `email.received` arrived, 1 otherwise.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "pulumi-svc";

export interface ExampleOptions {
  emailUrl: string;
  apiKey: string;
  from?: string;
  to?: string;
  /** How long to wait for `email.delivered` and `email.received` (default 30 s). */
  timeoutMs?: number;
  /** The emulator's control base, for a message to arrive (default: `/_emulator` on the email URL's origin). */
  controlUrl?: string;
  /** Receive a message too (step 6; default true). */
  receive?: boolean;
  log?: (line: string) => void;
}

export interface VerifiedEvent {
  type: string;
  createdAt: string;
  messageId: string;
  recipients: string[];
  /** The `t=` of the Svc-Signature header. */
  signedAt: number;
  // The event's `data.notification` block, as sent.
  notification: unknown;
}

export interface ExampleResult {
  webhookId: string;
  messageId: string;
  delivered: boolean;
  /** The received message's id (step 6), and whether its `email.received` arrived. */
  receivedMessageId?: string;
  received: boolean;
  events: VerifiedEvent[];
  /** Deliveries whose signature did not verify (answered 401). */
  rejected: number;
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  code?: string;
}

async function call<T>(options: ExampleOptions, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${options.emailUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${options.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (!envelope.success) throw new Error(`${method} ${path}: ${res.status} ${envelope.code}: ${envelope.error}`);
  return envelope.data as T;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds the sending domain if needed and waits until it is verified; answers its id. */
async function ensureVerifiedDomain(options: ExampleOptions, domain: string, deadline: number, log: (line: string) => void): Promise<string> {
  type Domain = { id: string; domain: string; status: string };
  let found = (await call<Domain[]>(options, "GET", "/domains")).find((d) => d.domain === domain);
  if (!found) {
    const { domainId } = await call<{ domainId: string }>(options, "POST", "/domains", { domain });
    log(`added sending domain ${domain}; publish its dnsRecords (the emulator does it for you)`);
    found = { id: domainId, domain, status: "pending" };
  }
  let verifyStarted = false;
  while (found.status !== "verified") {
    if (Date.now() > deadline) throw new Error(`sending domain ${domain} is not verified (status ${found.status})`);
    if (!verifyStarted || found.status === "failed" || found.status === "pending") {
      await call(options, "POST", `/domains/${found.id}/verify`);
      verifyStarted = true;
    }
    await sleep(250);
    found = await call<Domain>(options, "GET", `/domains/${found.id}`);
  }
  return found.id;
}

/** Receiving on the domain and the mailbox `inbox@<host>`; then a message arrives for it. Answers the message id. */
async function receiveOne(options: ExampleOptions, domainId: string, log: (line: string) => void): Promise<string> {
  const receiving = await call<{ host: string; mxRecords: { name: string; value: string; priority: number }[] }>(options, "PUT", `/domains/${domainId}/receiving`, {});
  const [mx] = receiving.mxRecords;
  log(`receiving on ${receiving.host}; publish MX ${mx.name} ${mx.priority} ${mx.value} (the emulator needs none)`);
  const address = `inbox@${receiving.host}`;
  const addresses = await call<{ address: string }[]>(options, "GET", "/inbound/addresses");
  if (!addresses.some((a) => a.address === address)) await call(options, "POST", "/inbound/addresses", { domainId, localPart: "inbox", type: "mailbox" });
  // With the real service, any mail sent to the address; the emulator has a control route for it.
  const controlUrl = options.controlUrl ?? `${new URL(options.emailUrl).origin}/_emulator`;
  const res = await fetch(`${controlUrl}/email/inbound`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from: "ana@customer-mail.dev", fromName: "Ana", to: [address], subject: "Hello inbox", text: "Does receiving work?" }),
  });
  const envelope = (await res.json()) as Envelope<{ messages: { id: string }[] }>;
  if (!envelope.success) throw new Error(`POST ${controlUrl}/email/inbound: ${res.status} ${envelope.code}: ${envelope.error}`);
  const [message] = envelope.data!.messages;
  log(`mail for ${address} arrived as message ${message.id}`);
  return message.id;
}

export async function runWebhookReceiver(options: ExampleOptions): Promise<ExampleResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const from = options.from ?? "hello@mail.example-shop.dev";
  const to = options.to ?? "delivered@simulator.svc.dev";
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const events: VerifiedEvent[] = [];
  let secret: string | undefined;
  let rejected = 0;
  let onEvent: () => void = () => undefined;

  // 1. The receiver: verify over the raw body bytes, before any JSON parsing.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers["svc-signature"];
      const check = secret ? verifyWebhookSignature(raw, Array.isArray(header) ? header[0] : header, secret) : { valid: false as const, reason: "no secret yet" };
      if (!check.valid) {
        rejected++;
        log(`rejected a delivery: ${check.reason}`);
        res.writeHead(401).end();
        return;
      }
      const event = JSON.parse(raw.toString("utf8")) as { type: string; createdAt: string; data: { messageId: string; recipients: string[]; notification: unknown } };
      // Events can arrive twice: keep one per type, message and recipients.
      if (!events.some((e) => e.type === event.type && e.messageId === event.data.messageId && e.recipients.join() === event.data.recipients.join())) {
        events.push({ type: event.type, createdAt: event.createdAt, messageId: event.data.messageId, recipients: event.data.recipients, signedAt: check.timestamp, notification: event.data.notification });
        log(`verified ${event.type} for ${event.data.messageId} → ${event.data.recipients.join(", ")}`);
      }
      res.writeHead(200).end();
      onEvent();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc-events`;
  log(`receiver listening on ${url}`);

  let webhookId: string | undefined;
  try {
    // 2. The webhook: the secret is only in this answer.
    const webhook = await call<{ id: string; secret: string }>(options, "POST", "/webhooks", { url, events: ["email.sent", "email.delivered", "email.bounced", "email.complained", "email.received"] });
    webhookId = webhook.id;
    secret = webhook.secret;
    log(`registered webhook ${webhook.id}`);

    // 3. and 4.
    const domainId = await ensureVerifiedDomain(options, from.slice(from.lastIndexOf("@") + 1), deadline, log);
    const { id: messageId } = await call<{ id: string }>(options, "POST", "/send", {
      from,
      to: [to],
      subject: "Hello from the webhook receiver example",
      text: "If you read this, the events arrive.",
      idempotencyKey: `webhook-receiver-${webhook.id}`,
    });
    log(`sent email ${messageId} to ${to}`);

    // 5.
    const arrived = (type: string, id: string) => () => events.some((e) => e.type === type && e.messageId === id);
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        onEvent = () => {
          if (!done()) return;
          clearTimeout(timer);
          resolve();
        };
        onEvent();
      });
    const delivered = arrived("email.delivered", messageId);
    await until(delivered);
    log(delivered() ? "email.delivered arrived" : "email.delivered did not arrive in time");

    // 6.
    let receivedMessageId: string | undefined;
    let received = false;
    if (options.receive ?? true) {
      receivedMessageId = await receiveOne(options, domainId, log);
      const done = arrived("email.received", receivedMessageId);
      await until(done);
      received = done();
      log(received ? "email.received arrived" : "email.received did not arrive in time");
    }
    return { webhookId: webhook.id, messageId, delivered: delivered(), receivedMessageId, received, events: [...events], rejected };
  } finally {
    // 7.
    if (webhookId) await call(options, "DELETE", `/webhooks/${webhookId}`).catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (require.main === module) {
  const emailUrl = process.env.SVC_EMAIL_URL;
  const apiKey = process.env.SVC_EMAIL_API_KEY;
  if (!emailUrl || !apiKey) {
    console.error("Set SVC_EMAIL_URL and SVC_EMAIL_API_KEY (eval the output of `npx svc-emulator --allow-local-webhooks`).");
    process.exit(2);
  }
  runWebhookReceiver({ emailUrl, apiKey, from: process.env.SVC_EMAIL_FROM, to: process.env.SVC_EMAIL_TO, controlUrl: process.env.SVC_EMULATOR_CONTROL_URL })
    .then((result) => process.exit(result.delivered && result.received ? 0 : 1))
    .catch((err: Error) => {
      console.error(`webhook-receiver: ${err.message}`);
      process.exit(1);
    });
}
