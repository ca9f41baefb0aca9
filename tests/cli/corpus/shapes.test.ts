/**
 * The corpus (./corpus.ts), the shapes of a team's program: components (children of several types,
 * nested, `dependsOn` on a component), resources made in a loop and from a map in stack config,
 * `transforms` and `registerResourceTransform`, and the CLI's `--target`, `--exclude`, `--replace`.
 * Each program under the real CLI, each `up` judged (a) preview pass = up, (b) state = platform,
 * (c) the next preview empty. tests/cli/components.test.ts runs two and three children under a
 * component and a nested one through a change, `up --skip-preview` and destroy.
 */
import { serverRecords, emailRecords, liveServers } from "../../../tools/support/world";
import { changeList, emptyPreview, idOf, judgedUp, operation, PASSWORD, PLAN, planId, platformMatches, program, reportOperations, smallPlan, urnOf, withProgram, worldView } from "./corpus";

afterAll(() => reportOperations("shapes"));

const sorted = (xs: string[]) => [...xs].sort();

const components = (ports: string, subject: string) => `
interface NotificationsArgs {
  events: svc.WebhookEvent[];
  subject: string;
}

/** The mail a tier sends about itself: a template and a webhook for its events. */
class Notifications extends pulumi.ComponentResource {
  constructor(name: string, args: NotificationsArgs, opts?: pulumi.ComponentResourceOptions) {
    super("acme:mail:Notifications", name, {}, opts);
    new svc.Template(\`\${name}-template\`, { name: \`\${name}-template\`, subject: args.subject, textBody: "Hello {{firstName}}" }, { parent: this });
    new svc.Webhook(\`\${name}-hook\`, { url: \`https://hooks.example.com/\${name}\`, events: args.events }, { parent: this });
    this.registerOutputs({});
  }
}

interface WebTierArgs {
  planId: string;
  ports: number[];
}

/** A server, its firewall, its backups and its notifications. */
class WebTier extends pulumi.ComponentResource {
  readonly serverId: pulumi.Output<string>;

  constructor(name: string, args: WebTierArgs, opts?: pulumi.ComponentResourceOptions) {
    super("acme:web:WebTier", name, {}, opts);
    const server = new svc.Vps(\`\${name}-server\`, { planId: args.planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") }, { parent: this });
    for (const port of args.ports) {
      new svc.VpsFirewallRule(\`\${name}-allow-\${port}\`, { vpsId: server.id, protocol: "tcp", action: "allow", port: String(port), source: "0.0.0.0/0" }, { parent: this });
    }
    new svc.VpsBackup(\`\${name}-backup\`, { vpsId: server.id, planCode: "backup-10" }, { parent: this });
    new Notifications(\`\${name}-mail\`, { events: ["email.bounced"], subject: ${JSON.stringify(subject)} }, { parent: this });
    this.serverId = server.id;
    this.registerOutputs({ serverId: this.serverId });
  }
}

const web = new WebTier("web", { planId: config.require("planId"), ports: ${ports} });

// Announced once the whole tier is up: dependsOn a component waits for every resource in it.
new svc.Template("deploy-notice", { name: "deploy-notice", subject: "The web tier is ready", textBody: "Deployed." }, { dependsOn: [web] });
// A second component after the first one.
new Notifications("ops", { events: ["email.delivered"], subject: "Ops" }, { dependsOn: [web] });

export const serverId = web.serverId;
`;

program("components: children of four types, a nested component, dependsOn on a component; a change inside both", () =>
  withProgram("components", { code: components("[22, 443]", "Bounced"), config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    const up = await judgedUp(p, "first up");
    const web = ["web-server", "web-allow-22", "web-allow-443", "web-backup", "web-mail-template", "web-mail-hook"];
    expect(changeList(up.steps)).toEqual(sorted([...web, "web", "web-mail", "ops", "deploy-notice", "ops-template", "ops-hook"].map((n) => `create ${n}`)));
    platformMatches("first up", [p.stack]);
    // dependsOn [web]: the notice waits for every resource in the tier, the nested component's too.
    const state = p.stack.state();
    const inWeb = state.resources.filter((r) => r.custom && web.includes(r.name)).map((r) => r.urn);
    const notice = state.resources.find((r) => r.name === "deploy-notice")!;
    expect(sorted(notice.dependencies.filter((d) => inWeb.includes(d)))).toEqual(sorted(inWeb));
    expect(up.outputs.serverId).toBe(liveServers(p.stack.world())[0].id);
    await emptyPreview(p, "after the first up");

    p.program(components("[22, 443, 8080]", "Bounced mail"));
    const change = await judgedUp(p, "a port added, a nested child's subject changed");
    expect(changeList(change.steps)).toEqual(["create web-allow-8080", "update web-mail-template"]);
    platformMatches("after the change", [p.stack]);
    await emptyPreview(p, "after the change");
  }),
);

const loop = `
const names = config.requireObject<string[]>("workers");

// One server per name, each with its SSH rule; a name removed from the list removes its server.
const workers = names.map((name) => {
  const server = new svc.Vps(name, { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
  new svc.VpsFirewallRule(\`\${name}-ssh\`, { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "10.0.0.0/8" });
  return server;
});

export const workerIps = workers.map((w) => w.publicIp);
`;

program("a loop: servers and their rules from a list; one name added, one removed", () =>
  withProgram("loop", { code: loop, config: (w) => ({ ...smallPlan(w), workers: JSON.stringify(["worker-a", "worker-b"]) }), secrets: { rootPassword: PASSWORD } }, async (p) => {
    const up = await judgedUp(p, "two workers");
    expect(changeList(up.steps)).toEqual(["create worker-a", "create worker-a-ssh", "create worker-b", "create worker-b-ssh"]);
    platformMatches("two workers", [p.stack]);
    await emptyPreview(p, "after two workers");
    const kept = liveServers(p.stack.world()).find((s) => s.name.startsWith("worker-b"))!;

    p.config("workers", JSON.stringify(["worker-b", "worker-c"]));
    const change = await judgedUp(p, "worker-a out, worker-c in");
    expect(changeList(change.steps)).toEqual(["create worker-c", "create worker-c-ssh", "delete worker-a", "delete worker-a-ssh"]);
    platformMatches("worker-a out, worker-c in", [p.stack]);
    expect(liveServers(p.stack.world()).map((s) => s.id)).toContain(kept.id);
    expect(serverRecords(p.stack.world()).filter((s) => s.status === "terminated").map((s) => s.name)).toEqual([expect.stringMatching(/^worker-a-/)]);
    await emptyPreview(p, "after the change");
  }),
);

const configMap = `
interface ServerSpec {
  plan: string;
  ports: string[];
}

// The servers by role, from stack config (Pulumi.<stack>.yaml: servers: {role: {plan, ports}}); plans picked by name.
const servers = config.requireObject<Record<string, ServerSpec>>("servers");
const plans = svc.getVpsPlansOutput();

export const ids: Record<string, pulumi.Output<string>> = {};
for (const [role, spec] of Object.entries(servers)) {
  const planId = plans.apply((all) => all.find((p) => p.name === spec.plan)!.id);
  const server = new svc.Vps(role, { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
  for (const port of spec.ports) {
    new svc.VpsFirewallRule(\`\${role}-\${port}\`, { vpsId: server.id, protocol: "tcp", action: "allow", port, source: "0.0.0.0/0" });
  }
  ids[role] = server.id;
}
`;

program("a map in stack config: servers by role; a role added, a role removed, a plan upgraded, a port added", () =>
  withProgram(
    "config-map",
    {
      code: configMap,
      config: { servers: JSON.stringify({ web: { plan: PLAN.small, ports: ["443"] }, db: { plan: PLAN.small, ports: ["5432"] } }) },
      secrets: { rootPassword: PASSWORD },
    },
    async (p) => {
      const up = await judgedUp(p, "web and db");
      expect(changeList(up.steps)).toEqual(["create db", "create db-5432", "create web", "create web-443"]);
      platformMatches("web and db", [p.stack]);
      await emptyPreview(p, "after web and db");

      const servers = { web: { plan: PLAN.medium, ports: ["443", "80"] }, cache: { plan: PLAN.small, ports: ["6379"] } };
      p.config("servers", JSON.stringify(servers));
      const change = await judgedUp(p, "db out, cache in, web upgraded and a port added");
      expect(changeList(change.steps)).toEqual(["create cache", "create cache-6379", "create web-80", "delete db", "delete db-5432", "update web"]);
      platformMatches("after the change", [p.stack]);
      expect(liveServers(p.stack.world()).find((s) => s.name.startsWith("web-"))!.planId).toBe(planId(p.stack.world(), PLAN.medium));
      await emptyPreview(p, "after the change");
    },
  ),
);

const transforms = `
// Every server of the stack protected: deleting one must be a decision (pulumi state unprotect).
pulumi.runtime.registerResourceTransform((args) =>
  args.type === "pulumi-nodejs:dynamic/svc:Vps" ? { props: args.props, opts: pulumi.mergeOptions(args.opts, { protect: true }) } : undefined,
);

// The team's create timeout, for everything in a component.
const slowCreates: pulumi.ResourceTransform = (args) => ({ props: args.props, opts: pulumi.mergeOptions(args.opts, { customTimeouts: { create: "45m" } }) });

class Site extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("acme:web:Site", name, {}, opts);
    const server = new svc.Vps(\`\${name}-server\`, { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") }, { parent: this });
    new svc.VpsFirewallRule(\`\${name}-https\`, { vpsId: server.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" }, { parent: this });
    this.registerOutputs({});
  }
}

new Site("shop", { transforms: [slowCreates] });
new svc.Vps("bastion", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
new svc.Template("welcome", { name: "welcome", subject: "Welcome", textBody: "Hello" });
`;

program("transforms: registerResourceTransform protects every server; a component's transforms give its children a create timeout, which the engine keeps and the provider does not see", () =>
  withProgram("transforms", { code: transforms, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    const up = await judgedUp(p, "first up");
    expect(changeList(up.steps)).toEqual(["create bastion", "create shop", "create shop-https", "create shop-server", "create welcome"]);
    platformMatches("first up", [p.stack]);
    const state = p.stack.state();
    expect(Object.fromEntries(state.resources.filter((r) => r.custom).map((r) => [r.name, r.protect]))).toEqual({ bastion: true, "shop-server": true, "shop-https": false, welcome: false });
    // The component's transform reaches the engine: the checkpoint holds the timeout (in seconds) for it and its children.
    const exported = JSON.parse(p.stack.stateText()) as { checkpoint: { latest: { resources: { urn: string; customTimeouts?: { create?: number } }[] } } };
    const timeouts = Object.fromEntries(exported.checkpoint.latest.resources.filter((r) => r.customTimeouts).map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), r.customTimeouts!.create]));
    expect(timeouts).toEqual({ shop: 2700, "shop-server": 2700, "shop-https": 2700 });
    // ...but not the provider's waits: a class copies customTimeouts into its inputs when it is
    // constructed, before any transform runs (README, "Timeouts").
    expect(state.resources.filter((r) => r.custom && r.inputs.timeouts !== undefined)).toEqual([]);
    await emptyPreview(p, "after the first up");

    // Protected by the transform: destroy refuses before deleting anything.
    const before = worldView(p.stack.world());
    const destroy = await operation(p, "destroy with the servers protected", "destroy", {}, false);
    expect(destroy.errors.join("\n")).toMatch(/protect/);
    expect(p.stack.writes()).toEqual([]);
    expect(worldView(p.stack.world())).toEqual(before);
  }),
);

const flags = (welcome: string, reset: string, httpsPort: string) => `
const server = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
new svc.VpsFirewallRule("https", { vpsId: server.id, protocol: "tcp", action: "allow", port: ${JSON.stringify(httpsPort)}, source: "0.0.0.0/0" });
new svc.Template("welcome", { name: "welcome", subject: ${JSON.stringify(welcome)}, textBody: "Hello" });
new svc.Template("reset", { name: "reset", subject: ${JSON.stringify(reset)}, textBody: "Your code" });
`;

program("--target and --exclude: each up does exactly what its preview pass planned, and leaves the rest for the next preview", () =>
  withProgram("target-exclude", { code: flags("Welcome", "Reset", "443"), config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    // Setup: its preview pass would only list the creates.
    await operation(p, "setup", "up", { skipPreview: true });
    const subject = (name: string) => emailRecords(p.stack.world()).templates.find((t) => t.name === name)!.subject;
    const ports = () => liveServers(p.stack.world())[0].firewall.map((r) => r.port);

    p.program(flags("Welcome!", "Reset!", "8443"));
    const targeted = await judgedUp(p, "three changes, one targeted", { target: [urnOf(p.stack, "welcome")] });
    expect(changeList(targeted.steps)).toEqual(["update welcome"]);
    expect([subject("welcome"), subject("reset"), ...ports()]).toEqual(["Welcome!", "Reset", "443"]);
    platformMatches("after --target", [p.stack]);

    const excluded = await judgedUp(p, "two left, one excluded", { exclude: [urnOf(p.stack, "reset")] });
    expect(changeList(excluded.steps)).toEqual(["replace https"]);
    expect([subject("reset"), ...ports()]).toEqual(["Reset", "8443"]);
    platformMatches("after --exclude", [p.stack]);
    // What the exclusion left is what the next preview plans; its up leaves nothing.
    const left = await operation(p, "after --exclude", "preview");
    expect(changeList(left.steps)).toEqual(["update reset"]);
    const last = await judgedUp(p, "the change left");
    expect(changeList(last.steps)).toEqual(["update reset"]);
    expect(subject("reset")).toBe("Reset!");
    platformMatches("after the last up", [p.stack]);
    await emptyPreview(p, "after the last up");
  }),
);

const replaced = `
const server = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
new svc.VpsFirewallRule("ssh", { vpsId: server.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" });
`;

/** The line the provider prints when a create of the deployment took the object over (provider/dispatch.ts). */
const KEPT = /is kept: a create of this deployment took it over .*deleteBeforeReplace: true/;

program("--replace of an unchanged firewall rule: kept as it is and said so; with deleteBeforeReplace a new rule in its place, the state the platform", () =>
  withProgram("replace-rule", { code: replaced, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = idOf(p.stack, "ssh");
    // The CLI checks a --replace target with no old inputs and diffs nothing: the create finds the rule and keeps it.
    const kept = await judgedUp(p, "--replace: the rule kept", { replace: [urnOf(p.stack, "ssh")] });
    expect(changeList(kept.steps)).toEqual(["replace ssh"]);
    expect(kept.output.join("\n")).toMatch(KEPT);
    expect(idOf(p.stack, "ssh")).toBe(before);
    expect(liveServers(p.stack.world())[0].firewall.map((r) => r.id)).toEqual([before]);
    platformMatches("after --replace", [p.stack]);

    p.program(replaced.replace('source: "203.0.113.0/24" });', 'source: "203.0.113.0/24" }, { deleteBeforeReplace: true });'));
    const up = await judgedUp(p, "--replace with deleteBeforeReplace: a new rule", { replace: [urnOf(p.stack, "ssh")] });
    expect(changeList(up.steps)).toEqual(["replace ssh"]);
    expect(liveServers(p.stack.world())[0].firewall.map((r) => r.port)).toEqual(["22"]);
    platformMatches("after --replace with deleteBeforeReplace", [p.stack]);
    expect(idOf(p.stack, "ssh")).not.toBe(before);
    await emptyPreview(p, "after --replace");
  }),
);

program("--replace of an unchanged server: kept and said so, nothing terminated; with deleteBeforeReplace a new server with its rule, the old one terminated", () =>
  withProgram("replace-server", { code: replaced, config: smallPlan, secrets: { rootPassword: PASSWORD } }, async (p) => {
    await operation(p, "setup", "up", { skipPreview: true });
    const before = idOf(p.stack, "web");
    // The preview plans the rule's replace too (the server's id is unknown until its create); the
    // create finds the server and keeps it, so the up leaves the rule as it is.
    const kept = await operation(p, "--replace: the server kept", "up", { replace: [urnOf(p.stack, "web")] });
    expect(changeList(kept.previewPass!.steps)).toEqual(["replace ssh", "replace web"]);
    expect(changeList(kept.steps)).toEqual(["replace web"]);
    expect(kept.output.join("\n")).toMatch(KEPT);
    expect(liveServers(p.stack.world()).map((s) => s.id)).toEqual([before]);
    expect(p.stack.writes()).toEqual([]);
    platformMatches("after --replace", [p.stack]);

    p.program(replaced.replace('config.requireSecret("rootPassword") });', 'config.requireSecret("rootPassword") }, { deleteBeforeReplace: true });'));
    const up = await judgedUp(p, "--replace with deleteBeforeReplace: a new server", { replace: [urnOf(p.stack, "web")] });
    expect(changeList(up.steps)).toEqual(["replace ssh", "replace web"]);
    const [server] = liveServers(p.stack.world());
    expect(server.id).not.toBe(before);
    expect(server.firewall.map((r) => r.port)).toEqual(["22"]);
    expect(serverRecords(p.stack.world()).find((s) => s.id === before)!.status).toBe("terminated");
    platformMatches("after --replace with deleteBeforeReplace", [p.stack]);
    await emptyPreview(p, "after --replace");
  }),
);

