/**
 * Issue 24, reads that coalesce, counted in the emulator's request log: one provider process (the
 * real dynamic-provider host, as the CLI starts one per operation) answering many concurrent `Read`
 * RPCs spends one call per list, not one per resource — webhooks and templates one list each, all
 * servers one `GET /vps`, each server's firewall list (and keys, forwards, snapshots) once for all its objects, topics, segments
 * and receiving addresses (mailboxes and aliases) one list each; a backup add-on or a domain's receiving setting, which
 * have no list, one GET each. A list answered a moment ago serves later reads of that kind until the
 * process writes; after a write the next read asks again.
 */
import { providerFor, serializedProviders, startProviderHost, stackConfig, type ProviderHost } from "../../tools/support/provider-host";
import type { ResourceHarness } from "../../tools/support/resource-harness";
import type { RequestLogEntry } from "../../emulator";
import { useResourceHarness } from "../support/per-file";
import { freshWorld } from "../../tools/support/world";
import { api, catalogue, PLAN, runningServer, type Props } from "../vps/helpers";
import { newEd25519PublicKey } from "../../tools/support/ssh-keys";

jest.setTimeout(60_000);

let h: ResourceHarness;
/** A host with the provider's own read settings (the harness's host turns list reuse off). */
let host: ProviderHost;
let smallPlan: string;

useResourceHarness((x) => (h = x), {
  options: { transitions: "immediate" },
  setup: async (h) => {
    smallPlan = (await catalogue(h)).plan("s-1vcpu-1gb").id;
  },
  fresh: async (h) => {
    await freshWorld(h.emu, { mode: "immediate" });
    // A host per test: what one operation's provider process has read stays its own.
    await host?.stop();
    host = await startProviderHost();
    await host.configure(stackConfig({ apiUrl: h.emu.urls.api, emailUrl: h.emu.urls.email, apiKey: h.emu.keys.account, emailApiKey: h.emu.keys.email, projectId: h.emu.projects[0] }));
  },
  beforeClose: () => host?.stop(),
});

/** A call straight to the email API (out of band), waiting out the key's rate limit. */
const email = async (method: string, path: string, body?: unknown): Promise<Props> => {
  let res = await h.emu.call(method, `/email${path}`, { key: h.emu.keys.email, body });
  for (let i = 0; res.status === 429 && i < 20; i++) {
    await new Promise((r) => setTimeout(r, 200));
    res = await h.emu.call(method, `/email${path}`, { key: h.emu.keys.email, body });
  }
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
};

/**
 * From here on the request log counts: once the keys have rested. The test's own out-of-band calls
 * above spent the key's allowance (10 at once, 10 a second), which the provider process, started
 * fresh, cannot know of; a read it sends into an empty allowance is refused (429) and sent again,
 * two calls where the test counts one. A second refills the whole allowance.
 */
async function countFromHere(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1_000));
  h.emu.control.clearRequests();
}

/** GETs the emulator answered since the last clear, by route. */
function reads(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of h.emu.control.requests().filter((x: RequestLogEntry) => x.method === "GET")) counts[r.route ?? r.path] = (counts[r.route ?? r.path] ?? 0) + 1;
  return counts;
}

/** Each type's `__provider`, made once for the file: each is a program run in a node process of its own. */
const providerOf = serializedProviders();

/** The state a create left for a resource: what a refresh sends back to `read`. */
async function stateOf(type: string, id: string, outputs: Props): Promise<Props> {
  return { ...outputs, __provider: await providerOf(type, {}), id };
}

async function readAll(targets: { type: string; id: string; props: Props }[]) {
  return Promise.all(targets.map((t) => host.read(t.type, t.id, t.props)));
}

test("eight webhooks and five templates read at once: one GET /webhooks and one GET /templates; read again, no call; after a write, one call again", async () => {
  const hooks = await Promise.all(Array.from({ length: 8 }, (_, i) => email("POST", "/webhooks", { url: `https://hooks.acme-shop.com/svc/${i}`, events: ["email.delivered"] })));
  const templates = await Promise.all(Array.from({ length: 5 }, (_, i) => email("POST", "/templates", { name: `coalesced-${i}`, textBody: `Hello {{name}} ${i}` })));
  await h.emu.ctl("POST", "/transitions/settle");
  const targets = [
    ...(await Promise.all(hooks.map(async (w) => ({ type: "Webhook", id: w.id as string, props: await stateOf("Webhook", w.id, { url: w.url, events: w.events, secret: w.secret }) })))),
    ...(await Promise.all(templates.map(async (t) => ({ type: "Template", id: t.templateId as string, props: await stateOf("Template", t.templateId, { name: "x" }) })))),
  ];
  await countFromHere();

  const first = await readAll(targets);
  expect(first.map((r) => r.id)).toEqual(targets.map((t) => t.id));
  expect(first.slice(0, 8).map((r) => r.properties.url)).toEqual(hooks.map((w) => w.url));
  expect(first.slice(8).map((r) => r.properties.name)).toEqual(templates.map((_, i) => `coalesced-${i}`));
  expect(reads()).toEqual({ "email.webhooks.list": 1, "email.templates.list": 1 });

  // The answers of a moment ago serve the next reads: this process has written nothing since.
  h.emu.control.clearRequests();
  await readAll(targets);
  expect(reads()).toEqual({});

  // A write of this process: the next read asks the API again (and sees the write).
  const made = await host.create("Webhook", { ...(await providerFor("Webhook", {})).inputs, url: "https://hooks.acme-shop.com/svc/new", events: ["email.bounced"] });
  h.emu.control.clearRequests();
  const again = await readAll([...targets.slice(0, 8), { type: "Webhook", id: made.id, props: made.properties }]);
  expect(again.map((r) => r.id)).toEqual([...hooks.map((w) => w.id), made.id]);
  expect(reads()).toEqual({ "email.webhooks.list": 1 });
});

test("two servers, their six rules and two backup add-ons read at once: one GET /vps, each firewall list once, one GET per add-on", async () => {
  const servers = [await runningServer(h, smallPlan, "coalesced-a"), await runningServer(h, smallPlan, "coalesced-b")];
  const targets: { type: string; id: string; props: Props }[] = [];
  for (const s of servers) {
    targets.push({ type: "Vps", id: s.id, props: await stateOf("Vps", s.id, { rootPassword: "Sup3rSecret!23", username: "root" }) });
    const rules = await api(h, "POST", `/vps/${s.id}/firewall`, { rules: ["22", "80", "443"].map((port) => ({ protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" })) });
    for (const r of rules as unknown as Props[]) targets.push({ type: "VpsFirewallRule", id: r.id, props: await stateOf("VpsFirewallRule", r.id, { vpsId: s.id }) });
    await api(h, "POST", `/vps/${s.id}/backup`, { planCode: "backup-10" });
    targets.push({ type: "VpsBackup", id: s.id, props: await stateOf("VpsBackup", s.id, { vpsId: s.id }) });
  }
  await h.emu.ctl("POST", "/transitions/settle");
  await countFromHere();

  const answers = await readAll(targets);
  expect(answers.map((r) => r.id)).toEqual(targets.map((t) => t.id));
  expect(answers.filter((_, i) => targets[i].type === "VpsFirewallRule").map((r) => r.properties.port)).toEqual(["22", "80", "443", "22", "80", "443"]);
  expect(reads()).toEqual({ "vps.list": 1, "vps.firewall.list": 2, "vps.backup.get": 2 });
});

test("a server made after the list was read is read by id; one deleted out of band reads as gone", async () => {
  const a = await runningServer(h, smallPlan, "coalesced-a");
  const stateA = await stateOf("Vps", a.id, { rootPassword: "Sup3rSecret!23", username: "root" });
  expect((await host.read("Vps", a.id, stateA)).id).toBe(a.id);
  const b = await runningServer(h, smallPlan, "coalesced-b");
  h.emu.control.clearRequests();
  // Not in the list answered a moment ago: made since, so asked for by id.
  expect((await host.read("Vps", b.id, await stateOf("Vps", b.id, { rootPassword: "Sup3rSecret!23", username: "root" }))).id).toBe(b.id);
  expect(reads()).toEqual({ "vps.get": 1 });

  const hook = await email("POST", "/webhooks", { url: "https://hooks.acme-shop.com/svc/gone", events: ["email.delivered"] });
  await email("DELETE", `/webhooks/${hook.id}`);
  expect((await host.read("Webhook", hook.id, await stateOf("Webhook", hook.id, { url: hook.url, events: hook.events }))).id).toBe("");
});

test("a shared-address server's three keys, two port forwards and its snapshot read at once: each of its lists once", async () => {
  const server = await runningServer(h, (await catalogue(h)).plan(PLAN.shared).id, "coalesced-access");
  const targets: { type: string; id: string; props: Props }[] = [];
  for (const [i, publicKey] of [newEd25519PublicKey("a@example"), newEd25519PublicKey("b@example"), newEd25519PublicKey("c@example")].entries()) {
    const key = await api(h, "POST", `/vps/${server.id}/ssh-keys`, { publicKey, label: `key-${i}` });
    targets.push({ type: "VpsSshKey", id: key.fingerprint as string, props: await stateOf("VpsSshKey", key.fingerprint as string, { vpsId: server.id, publicKey }) });
  }
  for (const privatePort of [22, 5432]) {
    const forward = await api(h, "POST", `/vps/${server.id}/port-forwards`, { protocol: "tcp", privatePort });
    targets.push({ type: "VpsPortForward", id: forward.id as string, props: await stateOf("VpsPortForward", forward.id as string, { vpsId: server.id, protocol: "tcp", privatePort }) });
  }
  const snapshot = await api(h, "POST", `/vps/${server.id}/snapshots`, { name: "coalesced" });
  await h.emu.ctl("POST", "/transitions/settle");
  targets.push({ type: "VpsSnapshot", id: snapshot.id as string, props: await stateOf("VpsSnapshot", snapshot.id as string, { vpsId: server.id, name: "coalesced" }) });
  await countFromHere();

  const answers = await readAll(targets);
  expect(answers.map((r) => r.id)).toEqual(targets.map((t) => t.id));
  // The forwards' states hold no address (as after a `get`): the server's, one list for both.
  expect(reads()).toEqual({ "vps.sshKeys.list": 1, "vps.portForwards.list": 1, "vps.snapshots.list": 1, "vps.list": 1 });
});

test("topics, segments, mailboxes and aliases read at once: one list call per kind; each receiving domain once (no list); one gone out of band reads as gone", async () => {
  await h.emu.ctl("PATCH", "/email/plan-limits", { mailboxes: 10 });
  const topics = await Promise.all(["news", "offers", "updates"].map((name) => email("POST", "/topics", { name })));
  const segments = await Promise.all(["a", "b", "c"].map((name) => email("POST", "/segments", { name: `segment-${name}`, rules: [{ field: "email", operator: "contains", value: `@${name}.example` }] })));
  const domains: string[] = [];
  for (const name of ["in1.acme-shop.com", "in2.acme-shop.com"]) {
    const { domainId } = await email("POST", "/domains", { domain: name });
    await h.emu.ctl("POST", "/transitions/settle");
    await email("POST", `/domains/${domainId}/verify`);
    await h.emu.ctl("POST", "/transitions/settle");
    await email("PUT", `/domains/${domainId}/receiving`, {});
    domains.push(domainId as string);
  }
  const mailboxes = await Promise.all(["info", "sales", "support"].map((localPart) => email("POST", "/inbound/addresses", { domainId: domains[0], localPart, type: "mailbox" })));
  const aliases = await Promise.all(["hello", "contact"].map((localPart) => email("POST", "/inbound/addresses", { domainId: domains[0], localPart, type: "alias", mailboxId: mailboxes[0].id })));
  const targets: { type: string; id: string; props: Props }[] = [
    ...(await Promise.all(topics.map(async (t) => ({ type: "EmailTopic", id: t.id as string, props: await stateOf("EmailTopic", t.id, { name: t.name }) })))),
    ...(await Promise.all(segments.map(async (s) => ({ type: "EmailSegment", id: s.id as string, props: await stateOf("EmailSegment", s.id, { name: s.name, rules: s.rules }) })))),
    ...(await Promise.all(mailboxes.map(async (m) => ({ type: "Mailbox", id: m.id as string, props: await stateOf("Mailbox", m.id, { domainId: domains[0], localPart: m.address.split("@")[0] }) })))),
    ...(await Promise.all(aliases.map(async (a) => ({ type: "MailAlias", id: a.id as string, props: await stateOf("MailAlias", a.id, { mailboxId: mailboxes[0].id, localPart: a.address.split("@")[0] }) })))),
    ...(await Promise.all(domains.map(async (d, i) => ({ type: "ReceivingDomain", id: d, props: await stateOf("ReceivingDomain", d, { domainId: d, domain: `in${i + 1}.acme-shop.com` }) })))),
  ];
  await countFromHere();

  const answers = await readAll(targets);
  expect(answers.map((r) => r.id)).toEqual(targets.map((t) => t.id));
  expect(answers.slice(0, 3).map((r) => r.properties.name)).toEqual(["news", "offers", "updates"]);
  expect(answers.slice(3, 6).map((r) => r.properties.name)).toEqual(["segment-a", "segment-b", "segment-c"]);
  expect(answers.slice(6, 11).map((r) => r.properties.address)).toEqual([...mailboxes, ...aliases].map((a) => a.address));
  expect(answers.slice(11).map((r) => r.properties.host)).toEqual(["in1.acme-shop.com", "in2.acme-shop.com"]);
  expect(reads()).toEqual({ "email.topics.list": 1, "email.segments.list": 1, "email.addresses.list": 1, "email.receiving.get": 2 });

  // Gone out of band: a fresh process (no answer of a moment ago) finds it missing from the list, asks by id, and reads it as gone.
  await email("DELETE", `/topics/${topics[1].id}`);
  await email("DELETE", `/inbound/addresses/${aliases[1].id}`);
  await host.stop();
  host = await startProviderHost();
  await host.configure(stackConfig({ apiUrl: h.emu.urls.api, emailUrl: h.emu.urls.email, apiKey: h.emu.keys.account, emailApiKey: h.emu.keys.email, projectId: h.emu.projects[0] }));
  await countFromHere();
  const again = await readAll(targets.slice(0, 11));
  expect(again.map((r) => r.id)).toEqual(targets.slice(0, 11).map((t, i) => (i === 1 || i === 10 ? "" : t.id)));
  expect(reads()).toEqual({ "email.topics.list": 1, "email.topics.get": 1, "email.segments.list": 1, "email.addresses.list": 1, "email.addresses.get": 1 });
});
