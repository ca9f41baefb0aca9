/**
 * Resources of several types under one component, and under a component nested in another, as a
 * team's program declares them, run under the real CLI. Each child's inputs once carried its parent's
 * URN as an output: the Node SDK expands a dependency on a component into all of its children, so
 * every child waited for its siblings and the program never ended (and `up --skip-preview` deleted
 * what the program still declared). Each run here is bounded: a hang fails the test, it does not stall it.
 */
import { changes, fixtureProject, type EngineStack, type RunOptions } from "../../tools/support/engine-harness";
import type { Operation } from "../../tools/support/stack-state";
import { emailRecords, liveServers } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

const project = fixtureProject("components");
let s: EngineStack;
useEngineStack((stack) => (s = stack), {
  options: { projectDir: project.dir, stack: "components", removeProject: true },
  setup: (stack) => stack.config("svc-engine-components:planId", stack.world().catalog.vpsPlans[0].id),
});

/** One operation that must end within 3 minutes (the first CLI pass of a file starts Go and two Node processes). */
async function bounded(op: Operation, extra: RunOptions = {}) {
  return s.run(op, true, { ...extra, signal: AbortSignal.timeout(180_000) });
}

/**
 * `Group` holds two templates, a server and its firewall rule; `Inner`, a component inside `Group`,
 * a third template and a second rule on that server. `subject` and `port` are what a change edits.
 */
function program(subject: string, port: string, extra = ""): void {
  project.program(`
class Inner extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super("acme:infra:Inner", name, {}, opts);
    new svc.Template(name + "-t3", { name: name + "-t3", subject: ${JSON.stringify(subject)}, textBody: "three" }, { parent: this });
    new svc.VpsFirewallRule(name + "-http", { vpsId: args.vpsId, protocol: "tcp", action: "allow", port: "80", source: "0.0.0.0/0" }, { parent: this });
    this.registerOutputs({});
  }
}
class Group extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("acme:infra:Group", name, {}, opts);
    new svc.Template("t1", { name: "t1", subject: ${JSON.stringify(subject)}, textBody: "one" }, { parent: this });
    new svc.Template("t2", { name: "t2", subject: "Second", textBody: "two" }, { parent: this });
    const web = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "Fixture!pass2026" }, { parent: this });
    new svc.VpsFirewallRule("ssh", { vpsId: web.id, protocol: "tcp", action: "allow", port: ${JSON.stringify(port)}, source: "0.0.0.0/0" }, { parent: this });
    new Inner("inner", { vpsId: web.id }, { parent: this });
    this.serverId = web.id;
    this.registerOutputs({ serverId: web.id });
  }
}
const group = new Group("group");
${extra}
exports.serverId = group.serverId;
`);
}

const templates = () => emailRecords(s.world()).templates;
const rules = () => liveServers(s.world()).flatMap((v) => v.firewall.map((r) => `${r.protocol}/${r.port}`).sort());
const sorted = (xs: string[]) => [...xs].sort();

test("preview and up of children of three types under a component and a nested one end, and make each child once", async () => {
  program("First", "22");
  const preview = await bounded("preview");
  const planned = sorted(changes(preview));
  expect(planned).toEqual(sorted(["create group", "create inner", "create t1", "create t2", "create web", "create ssh", "create inner-t3", "create inner-http"]));
  expect(s.writes()).toEqual([]);

  const up = await bounded("up");
  expect(sorted(changes(up))).toEqual(planned);
  expect(sorted(templates().map((t) => t.name))).toEqual(["inner-t3", "t1", "t2"]);
  expect(liveServers(s.world())).toHaveLength(1);
  expect(rules()).toEqual(["tcp/22", "tcp/80"]);
  expect(up.outputs.serverId).toBe(liveServers(s.world())[0].id);

  const again = await bounded("preview");
  expect(changes(again)).toEqual([]);
});

test("a change inside both components updates in place; the next preview is empty", async () => {
  const [server] = liveServers(s.world());
  program("Changed", "2222");
  const preview = await bounded("preview");
  const planned = sorted(changes(preview));
  expect(planned).toContain("update t1");
  expect(planned).toContain("update inner-t3");
  expect(planned.some((c) => c.endsWith(" ssh"))).toBe(true);
  expect(planned.every((c) => !c.startsWith("delete") && !c.endsWith(" web"))).toBe(true);

  const up = await bounded("up");
  expect(sorted(changes(up))).toEqual(planned);
  expect(templates().filter((t) => t.subject === "Changed").map((t) => t.name).sort()).toEqual(["inner-t3", "t1"]);
  expect(rules()).toEqual(["tcp/2222", "tcp/80"]);
  expect(liveServers(s.world())).toEqual([expect.objectContaining({ id: server.id, status: "running" })]);
  expect(changes(await bounded("preview"))).toEqual([]);
});

test("up --skip-preview with a sibling added deletes nothing: the server and its rules stay", async () => {
  const [server] = liveServers(s.world());
  s.clearRequests();
  program("Changed", "2222", `new svc.Template("t4", { name: "t4", subject: "Fourth", textBody: "four" }, { parent: group });`);
  const up = await bounded("up", { skipPreview: true });
  expect(changes(up)).toEqual(["create t4"]);
  expect(s.writes().map((w) => `${w.method} ${w.path}`)).toEqual(["POST /email/templates"]);
  expect(liveServers(s.world())).toEqual([expect.objectContaining({ id: server.id, status: "running" })]);
  expect(rules()).toEqual(["tcp/2222", "tcp/80"]);
});

test("destroy removes every child of both components", async () => {
  const destroy = await bounded("destroy");
  expect(sorted(changes(destroy))).toEqual(sorted(["delete group", "delete inner", "delete t1", "delete t2", "delete t4", "delete web", "delete ssh", "delete inner-t3", "delete inner-http"]));
  expect(templates()).toEqual([]);
  expect(liveServers(s.world())).toEqual([]);
});
