/**
 * examples/mail-receiving through the test engine against an emulator (issue 26): a verified sending
 * domain, receiving on it, a mailbox forwarding to an outside address, an alias and a webhook for
 * `email.received` — preview changes nothing, up makes them (mail to the alias then lands in the
 * mailbox and is forwarded), a second preview is a no-op, destroy removes them all.
 */
import { join } from "node:path";
import type { AddressRec, InboundMessageRec, ReceivingRec } from "../../emulator/email/state";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(60_000);

const P = "svc-mail-receiving";
const DOMAIN = "mail.receiving-example.dev";
const CREATES = ["help", "inbound", "mail", "received", "support"].map((n) => `create ${n}`);

let s: EngineStack;
let balance: number;
const sorted = (a: string[]) => [...a].sort();
function inbox(): { receiving: ReceivingRec[]; addresses: AddressRec[]; inbound: InboundMessageRec[] } {
  const email = s.world().email as Partial<ReturnType<typeof inbox>>;
  return { receiving: email.receiving ?? [], addresses: email.addresses ?? [], inbound: email.inbound ?? [] };
}

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/mail-receiving"), stack: "engine-test-mail-receiving" },
  setup: async (s) => {
    s.config(`${P}:domain`, DOMAIN);
    s.config(`${P}:forwardTo`, "oncall@example.org");
    // The free plan has no forwarding: this project's plan gets it (the plan branch's EmailPlan buys it).
    expect((await s.emu.ctl("POST", "/email/inbox-plan", { forwarding: true })).status).toBe(200);
    balance = walletOf(s.emu);
  },
});

test("preview shows the five creates and changes nothing", async () => {
  const r = await s.run("preview");
  expect(sorted(changes(r))).toEqual(CREATES);
  expect(s.writes()).toEqual([]);
  expect(inbox().receiving).toEqual([]);
});

test("up: receiving on the verified domain, the mailbox forwarding, the alias, the webhook; outputs the MX record and addresses", async () => {
  const r = await s.run("up");
  expect(sorted(changes(r))).toEqual(CREATES);
  const [domain] = emailRecords(s.world()).domains;
  expect(domain).toMatchObject({ domain: DOMAIN, status: "verified" });
  expect(inbox().receiving).toMatchObject([{ domainId: domain.id, host: DOMAIN }]);
  const [mailbox, alias] = inbox().addresses;
  expect(inbox().addresses).toMatchObject([
    { type: "mailbox", localPart: "support", name: "Support desk", forwardTo: ["oncall@example.org"] },
    { type: "alias", localPart: "help", mailboxId: mailbox.id },
  ]);
  expect(alias.domainId).toBe(domain.id);
  const [hook] = emailRecords(s.world()).webhooks;
  expect(hook.events).toEqual(["email.received"]);
  expect(r.outputs).toMatchObject({
    mxRecords: [{ type: "MX", name: DOMAIN, value: "inbound-smtp.mail.svc-platform.net", priority: 10 }],
    supportAddress: `support@${DOMAIN}`,
    helpAddress: `help@${DOMAIN}`,
    webhookSecret: hook.secret,
  });
  expect(r.output.join("\n")).not.toContain(hook.secret);
  expect(walletOf(s.emu)).toBe(balance);

  // Mail to the alias lands in the mailbox and is forwarded to the outside address.
  const arrived = await s.emu.ctl("POST", "/email/inbound", { from: "ana@customer-mail.dev", to: [`help@${DOMAIN}`], subject: "Hi", text: "Hello" });
  expect(arrived.status).toBe(200);
  expect(inbox().inbound).toMatchObject([{ recipient: `help@${DOMAIN}`, mailbox: `support@${DOMAIN}`, forwardedTo: ["oncall@example.org"] }]);
});

test("a second preview shows no changes and makes no write call; a refresh finds no drift", async () => {
  s.clearRequests();
  const r = await s.run("preview");
  expect(onlySame(r)).toBe(true);
  expect(r.counts).toEqual({ same: 5 });
  expect(calls(s.writes())).toEqual([]);
  const refreshed = await s.run("refresh");
  expect(changes(refreshed)).toEqual([]);
  expect(calls(s.writes())).toEqual([]);
});

test("destroy removes the rest: alias and mailbox before receiving, receiving before the domain", async () => {
  const r = await s.run("destroy");
  expect(sorted(changes(r))).toEqual(CREATES.map((c) => c.replace("create", "delete")));
  const order = changes(r).map((c) => c.replace("delete ", ""));
  expect(order.indexOf("help")).toBeLessThan(order.indexOf("support"));
  expect(order.indexOf("support")).toBeLessThan(order.indexOf("inbound"));
  expect(order.indexOf("inbound")).toBeLessThan(order.indexOf("mail"));
  expect(inbox().receiving).toEqual([]);
  expect(inbox().addresses).toEqual([]);
  expect(emailRecords(s.world())).toMatchObject({ domains: [], webhooks: [] });
  expect(s.state().resources).toEqual([]);
  expect(walletOf(s.emu)).toBe(balance);
});
