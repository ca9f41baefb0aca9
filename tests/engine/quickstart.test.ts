/**
 * examples/quickstart under the real `pulumi` CLI against an emulator: the whole lifecycle of a real
 * program (issue 7, acceptance 2–6), each step confirmed in the emulator, the request log and the
 * state file.
 */
import { join } from "node:path";
import { calls, changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords, serverRecords } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(180_000);

const P = "svc-quickstart";
const ROOT_PASSWORD = "Quick!start2026x";
const CREATES = ["events", "https", "mail", "mail-verified", "ssh", "web", "web-backup", "welcome"].map((n) => `create ${n}`);

let s: EngineStack;
const email = () => emailRecords(s.world());
const servers = () => serverRecords(s.world());
const sorted = (a: string[]) => [...a].sort();

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/quickstart"), stack: "engine-test-quickstart" },
  setup: (s) => {
    // No plan set: the program picks its default, s-1vcpu-1gb, by name through getVpsPlans.
    s.config(`${P}:rootPassword`, ROOT_PASSWORD, true);
    s.config(`${P}:webhookUrl`, "https://hooks.example.com/svc");
  },
});

test("preview shows the eight creates and changes nothing", async () => {
  const r = await s.run("preview");
  expect(sorted(changes(r))).toEqual(CREATES);
  expect(s.writes()).toEqual([]);
  expect(email().webhooks).toEqual([]);
  expect(servers()).toEqual([]);
});

test("up creates everything, ready, and exports its outputs", async () => {
  const r = await s.run("up");
  expect(sorted(changes(r))).toEqual(CREATES);
  expect(email().domains).toMatchObject([{ domain: "mail.example.com", status: "verified" }]);
  expect(email().templates).toMatchObject([{ name: "welcome" }]);
  const [webhook] = email().webhooks;
  expect(email().webhooks).toMatchObject([{ url: "https://hooks.example.com/svc" }]);
  const [server] = servers();
  expect(servers()).toMatchObject([{ status: "running", backup: { planCode: "backup-10" } }]);
  expect(server.firewall.map((f) => f.port).sort()).toEqual(["22", "443"]);
  expect(r.outputs).toMatchObject({ serverIp: server.publicIp, webhookSecret: webhook.secret, domainStatus: "verified" });
  // Names padded so the colons align, as the CLI prints them.
  expect(r.output).toContainEqual(expect.stringMatching(/^ {4}webhookSecret +: \[secret\]$/));
  expect(r.output).toContainEqual(expect.stringMatching(new RegExp(`^ {4}serverIp +: "${server.publicIp!.replace(/\./g, "\\.")}"$`)));
  for (const secret of [webhook.secret, ROOT_PASSWORD]) expect(r.output.join("\n")).not.toContain(secret);
});

test("a second preview shows no changes and makes no write call", async () => {
  s.clearRequests();
  const r = await s.run("preview");
  expect(onlySame(r)).toBe(true);
  expect(r.counts).toEqual({ same: 8 });
  expect(calls(s.writes())).toEqual([]);
});

test("the server's plan upgraded: the preview lists exactly one update (the server) and no replace; the up upgrades it in place", async () => {
  const [before] = servers();
  s.config(`${P}:plan`, "s-2vcpu-2gb");
  const preview = await s.run("preview");
  expect(changes(preview)).toEqual(["update web"]);
  expect(preview.counts).toEqual({ update: 1, same: 7 });
  // The new address is not known before the upgrade ran: the stack output shows as unknown.
  const up = await s.run("up");
  expect(changes(up)).toEqual(["update web"]);
  const [after] = servers();
  expect(after.id).toBe(before.id);
  expect(after.planId).toBe(s.world().catalog.vpsPlans.find((p) => p.name === "s-2vcpu-2gb")!.id);
  expect(servers()).toHaveLength(1);
});

test("the state file holds no plaintext key, root password or webhook secret; the passphrase recovers them", async () => {
  const [webhook] = email().webhooks;
  const text = s.stateText();
  expect(text).toContain(servers()[0].id); // the state is there...
  for (const secret of [s.emu.keys.account, s.emu.keys.email, ROOT_PASSWORD, webhook.secret]) expect(text).not.toContain(secret); // ...its secrets are not
  const state = s.state();
  const byName = (name: string) => state.resources.find((r) => r.name === name)!;
  expect(byName("web").inputs.rootPassword).toBe(ROOT_PASSWORD);
  expect(byName("web").outputs.rootPassword).toBe(ROOT_PASSWORD);
  expect(byName("events").outputs.secret).toBe(webhook.secret);
  expect(state.outputs.webhookSecret).toBe(webhook.secret);
  expect(state.secretOutputs).toEqual(["webhookSecret"]);
});

test("a webhook URL change replaces exactly the webhook: the new one is created, then the old one deleted", async () => {
  const [old] = email().webhooks;
  s.config(`${P}:webhookUrl`, "https://hooks.example.com/svc-v2");
  expect(changes(await s.run("preview"))).toEqual(["replace events"]);
  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["replace events"]);
  expect(r.steps.find((x) => x.name === "events")!.diffs).toEqual(["url"]);
  expect(r.counts).toEqual({ replace: 1, same: 7 });
  expect(calls(s.writes())).toEqual(["POST /email/webhooks", `DELETE /email/webhooks/${old.id}`]);
  expect(email().webhooks).toMatchObject([{ url: "https://hooks.example.com/svc-v2" }]);
  expect(email().webhooks[0].id).not.toBe(old.id);
  expect(r.outputs.webhookSecret).toBe(email().webhooks[0].secret);
});

test("a webhook deleted out of band: refresh reports it gone, the next up recreates it", async () => {
  const [gone] = email().webhooks;
  expect((await s.emu.call("DELETE", `/email/webhooks/${gone.id}`, { key: s.emu.keys.email })).status).toBe(200);
  const refreshed = await s.run("refresh");
  expect(refreshed.steps.filter((x) => x.op === "delete").map((x) => x.name)).toEqual(["events"]);
  expect(s.state().resources.map((r) => r.name)).not.toContain("events");

  s.clearRequests();
  const r = await s.run("up");
  expect(changes(r)).toEqual(["create events"]);
  expect(calls(s.writes())).toEqual(["POST /email/webhooks"]);
  expect(email().webhooks).toMatchObject([{ url: "https://hooks.example.com/svc-v2" }]);
  expect(email().webhooks[0].id).not.toBe(gone.id);
});

test("destroy refuses while the server is protected, and deletes nothing", async () => {
  s.clearRequests();
  const r = await s.run("destroy", false);
  expect(r.errors).toEqual([expect.stringMatching(/^svc:Vps web: Preview failed: resource "urn:[^"]+::web" cannot be deleted\s+because it is protected\. To unprotect the resource/)]);
  // Stopped at the destroy's preview pass, which lists the deletes it planned before the protected
  // one failed: nothing ran.
  expect(r.steps.filter((x) => x.op !== "delete")).toEqual([]);
  expect(s.writes()).toEqual([]);
  expect(s.state().resources.filter((x) => x.custom)).toHaveLength(8);
});

test("unprotected in the program, destroy leaves nothing of the stack in the emulator", async () => {
  s.config(`${P}:protectServer`, "false");
  expect(onlySame(await s.run("up", true, { skipPreview: true }))).toBe(true);
  const r = await s.run("destroy");
  expect(sorted(changes(r))).toEqual(CREATES.map((c) => c.replace("create", "delete")));
  // Dependents first: the rules and the backup before their server, the verification before its domain.
  const order = changes(r).map((c) => c.replace("delete ", ""));
  for (const dependent of ["ssh", "https", "web-backup"]) expect(order.indexOf(dependent)).toBeLessThan(order.indexOf("web"));
  expect(order.indexOf("mail-verified")).toBeLessThan(order.indexOf("mail"));
  expect(email()).toMatchObject({ domains: [], webhooks: [], templates: [] });
  expect(servers()).toMatchObject([{ status: "terminated", firewall: [], backup: null }]);
  expect(s.state().resources).toEqual([]);
});
