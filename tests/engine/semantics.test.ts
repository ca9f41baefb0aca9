/**
 * The engine semantics the package relies on, as the real `pulumi` CLI runs them, one small
 * JavaScript program each (generated under tests/fixtures/engine-<name>/), confirmed in the emulator
 * and its request log:
 * dependency order and dependsOn, replace order (and the original kept when the update fails),
 * deletion order, partial failures, ignoreChanges, retainOnDelete and the `import` option (adopts, as adoptId). `protect` is
 * proven on the quickstart (quickstart.test.ts).
 */
import type { EmulatorOptions } from "../../emulator";
import { calls, changes, fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords, serverRecords } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(60_000);

const STACK = "engine-test-semantics";

/** A fresh emulator and fixture project for one describe block; `program` rewrites its index.js. */
function fixture(name: string, emulator?: EmulatorOptions) {
  const project = fixtureProject(name);
  const ctx = { s: undefined as unknown as EngineStack, program: project.program };
  useEngineStack((s) => (ctx.s = s), { options: { projectDir: project.dir, stack: STACK, emulator, removeProject: true } });
  return ctx;
}

const SERVER = `
const server = new svc.Vps("srv", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "Fixture!pass2026" });`;

describe("order", () => {
  const f = fixture("order");
  const servers = () => serverRecords(f.s.world());

  test("a rule is created once its server is ready; dependsOn waits the same way", async () => {
    f.s.config("svc-engine-order:planId", f.s.world().catalog.vpsPlans[0].id);
    f.program(`${SERVER}
new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" });
new svc.Template("after-server", { name: "after-server", subject: "Hi", textBody: "Hello" }, { dependsOn: [server] });
`);
    const r = await f.s.run("up");
    const [server] = servers();
    expect(changes(r).slice(0, 1)).toEqual(["create srv"]);
    expect(server).toMatchObject({ status: "running", firewall: [expect.anything()] });
    // The server's create (its POST, then polling until running) ends before either dependent starts.
    const log = calls(f.s.emu.control.requests());
    const ready = Math.max(...log.map((c, i) => (c.startsWith(`GET /api/vps/${server.id}`) && !c.includes("/firewall") ? i : -1)));
    expect(ready).toBeGreaterThan(log.indexOf("POST /api/vps"));
    expect(log.indexOf(`POST /api/vps/${server.id}/firewall`)).toBeGreaterThan(ready);
    expect(log.indexOf("POST /email/templates")).toBeGreaterThan(ready);
  });

  test("resources removed from the program are deleted in reverse dependency order", async () => {
    const [server] = servers();
    f.program("");
    f.s.clearRequests();
    const r = await f.s.run("up");
    expect(changes(r).slice(-1)).toEqual(["delete srv"]);
    expect(changes(r).slice(0, 2).sort()).toEqual(["delete after-server", "delete ssh"]);
    const log = calls(f.s.writes());
    expect(log[log.length - 1]).toBe(`DELETE /api/vps/${server.id}`);
    expect(log.indexOf(`DELETE /api/vps/${server.id}/firewall`)).toBeLessThan(log.length - 1);
    expect(servers()).toMatchObject([{ status: "terminated", firewall: [] }]);
  });
});

describe("replace", () => {
  const f = fixture("replace");
  const webhooks = () => emailRecords(f.s.world()).webhooks;
  const byUrl = (suffix: string) => webhooks().find((w) => w.url.endsWith(suffix))!;
  // "b" waits for "a" (dependsOn), so the request log shows each replacement's own order.
  const WEBHOOKS = `
const events = ["email.delivered"];
const a = new svc.Webhook("a", { url: config.require("urlA"), events });
new svc.Webhook("b", { url: config.require("urlB"), events }, { deleteBeforeReplace: true, dependsOn: [a] });`;

  test("replace creates the new one before deleting the old, unless deleteBeforeReplace", async () => {
    f.s.config("svc-engine-replace:urlA", "https://hooks.example.com/a1");
    f.s.config("svc-engine-replace:urlB", "https://hooks.example.com/b1");
    f.program(WEBHOOKS);
    await f.s.run("up", true, { skipPreview: true });
    const [oldA, oldB] = [byUrl("/a1"), byUrl("/b1")];
    f.s.config("svc-engine-replace:urlA", "https://hooks.example.com/a2");
    f.s.config("svc-engine-replace:urlB", "https://hooks.example.com/b2");
    f.s.clearRequests();
    const r = await f.s.run("up");
    expect(changes(r)).toEqual(["replace a", "replace b"]);
    // a: POST (new a) … DELETE old a at the end; b: DELETE old b, then POST (new b).
    expect(calls(f.s.writes())).toEqual(["POST /email/webhooks", `DELETE /email/webhooks/${oldB.id}`, "POST /email/webhooks", `DELETE /email/webhooks/${oldA.id}`]);
    expect(webhooks().map((w) => w.url).sort()).toEqual(["https://hooks.example.com/a2", "https://hooks.example.com/b2"]);
  });

  test("an update that fails after a replacement keeps the original, and the next up deletes it", async () => {
    const oldA = byUrl("/a2");
    f.s.config("svc-engine-replace:urlA", "https://hooks.example.com/a3");
    f.program(`${WEBHOOKS}
new svc.Template("t", { name: "t", subject: "Hi", textBody: "Hello" }, { dependsOn: [a] });`);
    await f.s.emu.ctl("POST", "/faults", { method: "POST", path: "/email/templates", status: 500, code: "INTERNAL_ERROR", times: 1 });
    const failed = await f.s.run("up", false);
    expect(changes(failed)).toEqual(["replace a", "create t"]);
    expect(failed.errors).toEqual([expect.stringMatching(/^svc:Template t: /)]);
    expect(webhooks().map((w) => w.id)).toContain(oldA.id); // the original still exists...
    expect(f.s.state().resources.filter((x) => x.pendingDelete).map((x) => x.id)).toEqual([oldA.id]); // ...and is tracked

    f.s.clearRequests();
    const r = await f.s.run("up");
    // The leftover original is deleted with the run's other deletes, after the program's creates
    // (pulumi/pulumi v3.274.1 step_generator.go GenerateDeletes, which deployment_executor.go calls
    // once the program is done): a `Delete`-marked old state gets a delete-replaced step there
    // (NewDeleteReplacementStep), under a's URN, so the CLI's steps of `a` read as its replacement
    // ending; the calls below show it ran last.
    expect(changes(r)).toEqual(["replace a", "create t"]);
    expect(calls(f.s.writes()).slice(-1)).toEqual([`DELETE /email/webhooks/${oldA.id}`]);
    expect(webhooks().map((w) => w.url).sort()).toEqual(["https://hooks.example.com/a3", "https://hooks.example.com/b2"]);
    expect(f.s.state().resources.some((x) => x.pendingDelete)).toBe(false);
  });
});

describe("partial failure", () => {
  // DNS records count as published only when the test says so.
  const f = fixture("partial", { dns: "manual" });
  const DOMAIN = "mail.partial-example.com";
  const domains = () => emailRecords(f.s.world()).domains;

  test("a create that times out is kept with its id; the next up runs update, never a second create", async () => {
    f.program(`new svc.SendingDomain("mail", { domain: "${DOMAIN}", verificationTimeoutSeconds: 1 });`);
    const failed = await f.s.run("up", false);
    expect(failed.errors).toEqual([expect.stringMatching(/^svc:SendingDomain mail: /)]);
    const [domain] = domains();
    expect(domain.status).not.toBe("verified");
    const [kept] = f.s.state().resources.filter((x) => x.custom);
    expect(kept).toMatchObject({ name: "mail", id: domain.id, initErrors: [expect.any(String)] });

    expect((await f.s.emu.ctl("POST", "/dns/publish", { domain: DOMAIN })).status).toBe(200);
    const r = await f.s.run("up");
    expect(changes(r)).toEqual(["update mail"]);
    expect(domains()).toMatchObject([{ id: domain.id, status: "verified" }]);
    expect(calls(f.s.emu.control.requests()).filter((c) => c === "POST /email/domains")).toHaveLength(1);
    expect(f.s.state().resources.find((x) => x.name === "mail")!.initErrors).toBeUndefined();
  });
});

describe("resource options", () => {
  const f = fixture("options");
  const templates = () => emailRecords(f.s.world()).templates;
  /** `adopted` takes the existing template through the `import` option or through `adoptId`. */
  const OPTIONS = (withRetained: boolean, adopt: "import" | "adoptId" = "adoptId") => `
new svc.Template("kept-subject", { name: "kept-subject", subject: config.require("subject"), textBody: "Hello" }, { ignoreChanges: ["subject"] });
${withRetained ? 'new svc.Template("retained", { name: "retained", subject: "Hi", textBody: "Hello" }, { retainOnDelete: true });' : ""}
new svc.Template("adopted", { name: "adopted", subject: config.get("adoptedSubject") ?? "Hi", textBody: "Hello"${adopt === "adoptId" ? ', adoptId: config.require("importId")' : ""} }${adopt === "import" ? ', { import: config.require("importId") }' : ""});`;

  test("the import option adopts as adoptId does (the class turns it into adoptId): no create call; the next preview shows no change, then an update where the program differs", async () => {
    const made = await f.s.emu.call("POST", "/email/templates", { key: f.s.emu.keys.email, body: { name: "adopted", subject: "Hi", textBody: "Hello" } });
    expect(made.status).toBe(202);
    const adopted = templates().find((t) => t.name === "adopted")!;
    f.s.config("svc-engine-options:importId", adopted.id);
    f.s.config("svc-engine-options:subject", "First subject");

    // The engine never sees the option (its import step would Read with the id alone, which the
    // dynamic host cannot serve): the class passes it to the provider as adoptId.
    f.program(OPTIONS(true, "import"));
    f.s.clearRequests();
    const r = await f.s.run("up");
    expect(r.errors).toEqual([]);
    expect(changes(r).sort()).toEqual(["create adopted", "create kept-subject", "create retained"]);
    expect(calls(f.s.writes())).toEqual(["POST /email/templates", "POST /email/templates"]); // kept-subject and retained only
    expect(templates()).toHaveLength(3);
    expect(f.s.state().resources.find((x) => x.name === "adopted")!.id).toBe(adopted.id);

    // The option moved to the argument: no change.
    f.program(OPTIONS(true, "adoptId"));
    f.s.clearRequests();
    expect(changes(await f.s.run("preview"))).toEqual([]);
    f.s.config("svc-engine-options:adoptedSubject", "Changed");
    expect(changes(await f.s.run("preview"))).toEqual(["update adopted"]);
    expect(f.s.writes()).toEqual([]);
    f.s.config("svc-engine-options:adoptedSubject", "Hi");
  }, 300_000); // an up and three previews, each with its preview pass

  test("ignoreChanges keeps the old input; retainOnDelete drops the resource from the stack but not the object", async () => {
    f.s.config("svc-engine-options:subject", "Second\nsubject, never sent: ignored");
    f.program(OPTIONS(false));
    f.s.clearRequests();
    const r = await f.s.run("up");
    expect(changes(r)).toEqual(["delete retained"]);
    expect(f.s.writes()).toEqual([]); // no PATCH of the subject, no DELETE of the retained template
    expect(templates().find((t) => t.name === "kept-subject")!.subject).toBe("First subject");
    expect(templates().map((t) => t.name).sort()).toEqual(["adopted", "kept-subject", "retained"]);
    expect(f.s.state().resources.map((x) => x.name)).not.toContain("retained");
  });
});
