/**
 * The corpus (./corpus.ts), refactors of a team's program: a rename with `aliases`, a move into a
 * component and out of one, each with `aliases` and without. With `aliases` the engine moves the
 * resource in the state: each `up` judged (a) preview pass = up (nothing but the component's own
 * step), (b) state = platform, the ids kept, (c) the next preview empty. Without `aliases` the CLI
 * plans a create of the new URN and a delete of the old one, and the up takes those steps but makes
 * no API write and keeps every id (README, "Moving a resource under a component"); the preview also
 * plans a replace of what takes the moved resource's id, which the up does not do. Those tests
 * assert what the preview shows and what the up does, each as it is.
 */
import { calls } from "../../../tools/support/engine-harness";
import { changeList, emptyPreview, idOf, judgedUp, operation, PASSWORD, platformMatches, program, reportOperations, smallPlan, stepList, withProgram, worldView, type CorpusProgram } from "./corpus";

afterAll(() => reportOperations("refactors"));

const server = (name: string, opts = "") =>
  `new svc.Vps(${JSON.stringify(name)}, { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") }${opts ? `, ${opts}` : ""})`;
const rule = (name: string, vpsId: string, opts = "") =>
  `new svc.VpsFirewallRule(${JSON.stringify(name)}, { vpsId: ${vpsId}, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" }${opts ? `, ${opts}` : ""})`;

/** Ids and platform before the refactor: the judged up must keep both. */
function snapshot(p: CorpusProgram, names: string[]) {
  return { ids: Object.fromEntries(names.map((n) => [n, idOf(p.stack, n)])), world: worldView(p.stack.world()) };
}

program("a rename with aliases: the server and its rule keep their ids; nothing planned, nothing written", () =>
  withProgram("rename", { code: `const web = ${server("web")};\n${rule("web-ssh", "web.id")};\n`, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = snapshot(p, ["web", "web-ssh"]);

    p.program(`// Renamed: the aliases name what these were called.
const frontend = ${server("frontend", `{ aliases: [{ name: "web" }] }`)};
${rule("frontend-ssh", "frontend.id", `{ aliases: [{ name: "web-ssh" }] }`)};
`);
    const up = await judgedUp(p, "renamed with aliases");
    expect(changeList(up.steps)).toEqual([]);
    expect(stepList(up.steps)).toEqual(["same frontend", "same frontend-ssh"]);
    expect(p.stack.writes()).toEqual([]);
    expect([idOf(p.stack, "frontend"), idOf(p.stack, "frontend-ssh")]).toEqual([before.ids.web, before.ids["web-ssh"]]);
    expect(worldView(p.stack.world())).toEqual(before.world);
    platformMatches("after the rename", [p.stack]);
    await emptyPreview(p, "after the rename");
  }),
);

const database = (aliased: boolean) => `
/** The database server and its SSH rule, as one unit. */
class Database extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("acme:data:Database", name, {}, opts);
    // They were declared at the top of the program before this component existed.
    const previously = ${aliased ? "{ aliases: [{ parent: pulumi.rootStackResource }] }" : "{}"};
    const db = ${server("db", "{ parent: this, ...previously }")};
    ${rule("db-ssh", "db.id", "{ parent: this, ...previously }")};
    this.registerOutputs({});
  }
}
new Database("database");
`;

program("a move into a component with aliases: only the component is new; the server and its rule keep their ids", () =>
  withProgram("move-in-aliased", { code: `const db = ${server("db")};\n${rule("db-ssh", "db.id")};\n`, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = snapshot(p, ["db", "db-ssh"]);

    p.program(database(true));
    const up = await judgedUp(p, "moved in with aliases");
    expect(stepList(up.steps)).toEqual(["create database", "same db", "same db-ssh"]);
    expect(p.stack.writes()).toEqual([]);
    expect(snapshot(p, ["db", "db-ssh"])).toEqual(before);
    expect(p.stack.state().resources.filter((r) => r.custom).every((r) => r.parent?.endsWith("::database"))).toBe(true);
    platformMatches("after the move", [p.stack]);
    await emptyPreview(p, "after the move");
  }),
);

const cache = `
/** The cache server and its SSH rule, as one unit. */
class Cache extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("acme:data:Cache", name, {}, opts);
    const cache = ${server("cache", "{ parent: this }")};
    ${rule("cache-ssh", "cache.id", "{ parent: this }")};
    this.registerOutputs({});
  }
}
new Cache("cache-unit");
`;

program("a move out of a component with aliases: the component goes; the server and its rule keep their ids", () =>
  withProgram("move-out-aliased", { code: cache, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = snapshot(p, ["cache", "cache-ssh"]);

    p.program(`// They were in the component "cache-unit", which is gone.
const previously = { aliases: [{ parent: \`urn:pulumi:\${pulumi.getStack()}::\${pulumi.getProject()}::acme:data:Cache::cache-unit\` }] };
const cache = ${server("cache", "previously")};
${rule("cache-ssh", "cache.id", "previously")};
`);
    const up = await judgedUp(p, "moved out with aliases");
    expect(stepList(up.steps)).toEqual(["delete cache-unit", "same cache", "same cache-ssh"]);
    expect(p.stack.writes()).toEqual([]);
    expect(snapshot(p, ["cache", "cache-ssh"])).toEqual(before);
    expect(p.stack.state().resources.every((r) => !r.parent)).toBe(true);
    platformMatches("after the move", [p.stack]);
    await emptyPreview(p, "after the move");
  }),
);

/** The steps that change something, as "op type::name" with the parent's type in the type (two steps may share a name). */
const stepsByUrn = (steps: { op: string; urn: string }[]) =>
  steps
    .filter((s) => s.op !== "same")
    .map((s) => `${s.op} ${s.urn.split("::").slice(2).join("::")}`)
    .sort();

program("a move into a component without aliases: the preview plans a create, a delete and a replace; the up makes no API write and keeps the ids", () =>
  withProgram("move-in-unaliased", { code: `const web = ${server("web")};\n${rule("ssh", "web.id")};\n`, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = snapshot(p, ["web", "ssh"]);

    p.program(`
class Frontend extends pulumi.ComponentResource {
  readonly serverId: pulumi.Output<string>;
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("acme:web:Frontend", name, {}, opts);
    this.serverId = ${server("web", "{ parent: this }")}.id;
    this.registerOutputs({});
  }
}
const frontend = new Frontend("frontend");
${rule("ssh", "frontend.serverId")};
`);
    const up = await operation(p, "moved in without aliases", "up");
    const VPS = "pulumi-nodejs:dynamic/svc:Vps";
    // The preview: the server under the component is a new URN (create), its old URN goes (delete),
    // and the rule's server id is not known before the create: a replace.
    expect(stepsByUrn(up.previewPass!.steps)).toEqual(
      [`create acme:web:Frontend::frontend`, `create acme:web:Frontend$${VPS}::web`, `delete ${VPS}::web`, `replace pulumi-nodejs:dynamic/svc:VpsFirewallRule::ssh`].sort(),
    );
    // The up: the create finds the server by its name and takes it, the delete of the old URN leaves it;
    // the rule's server id is the same, so the rule is unchanged.
    expect(stepsByUrn(up.steps)).toEqual([`create acme:web:Frontend::frontend`, `create acme:web:Frontend$${VPS}::web`, `delete ${VPS}::web`].sort());
    expect(calls(p.stack.writes())).toEqual([]);
    expect(snapshot(p, ["web", "ssh"])).toEqual(before);
    platformMatches("after the move", [p.stack]);
    await emptyPreview(p, "after the move");
  }),
);

program("a move out of a component without aliases: the preview plans creates and deletes; the up makes no API write and keeps the ids", () =>
  withProgram("move-out-unaliased", { code: cache, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = snapshot(p, ["cache", "cache-ssh"]);

    p.program(`const cache = ${server("cache")};\n${rule("cache-ssh", "cache.id")};\n`);
    const up = await operation(p, "moved out without aliases", "up");
    const VPS = "pulumi-nodejs:dynamic/svc:Vps";
    const RULE = "pulumi-nodejs:dynamic/svc:VpsFirewallRule";
    const planned = [`create ${VPS}::cache`, `create ${RULE}::cache-ssh`, `delete acme:data:Cache$${VPS}::cache`, `delete acme:data:Cache$${RULE}::cache-ssh`, `delete acme:data:Cache::cache-unit`].sort();
    expect(stepsByUrn(up.previewPass!.steps)).toEqual(planned);
    expect(stepsByUrn(up.steps)).toEqual(planned);
    expect(calls(p.stack.writes())).toEqual([]);
    expect(snapshot(p, ["cache", "cache-ssh"])).toEqual(before);
    platformMatches("after the move", [p.stack]);
    await emptyPreview(p, "after the move");
  }),
);
