/**
 * The corpus (./corpus.ts), adoption: objects made by hand before the team used Pulumi (a server, a
 * firewall rule on it, a template), taken over by the `import` resource option and by `adoptId`.
 * Each `up` judged (a) preview pass = up, (b) the state holds the objects made by hand, with their
 * ids, and nothing else is made (no create call, nothing charged), (c) the next preview empty.
 */
import type { TestEmulator } from "../../../tools/support/emulator";
import { calls } from "../../../tools/support/engine-harness";
import { walletOf } from "../../../tools/support/world";
import { changeList, emptyPreview, idOf, judgedUp, PASSWORD, PLAN, planId, platformMatches, program, reportOperations, withProgram, worldView } from "./corpus";

afterAll(() => reportOperations("adoption"));

/** What a team made by hand in the dashboard: a server, an SSH rule on it, a template. */
async function madeByHand(emu: TestEmulator): Promise<{ server: string; rule: string; template: string; plan: string }> {
  const plan = planId(emu.control.state(), PLAN.small);
  const body = { planId: plan, projectId: emu.projects[0], name: "legacy-web", osType: "ubuntu", osVersion: "24.04", rootPassword: PASSWORD, billingPeriod: "monthly" };
  const server = await emu.call("POST", "/api/vps", { key: emu.keys.account, body });
  if (server.status !== 201) throw new Error(`POST /api/vps answered ${server.status}: ${JSON.stringify(server.body)}`);
  const id = server.body.data.id as string;
  const rules = await emu.call("POST", `/api/vps/${id}/firewall`, { key: emu.keys.account, body: { rules: [{ protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24" }] } });
  if (rules.status !== 201) throw new Error(`POST /api/vps/${id}/firewall answered ${rules.status}: ${JSON.stringify(rules.body)}`);
  const template = await emu.call("POST", "/email/templates", { key: emu.keys.email, body: { name: "welcome", subject: "Welcome", textBody: "Hello" } });
  if (template.status !== 202) throw new Error(`POST /email/templates answered ${template.status}: ${JSON.stringify(template.body)}`);
  return { server: id, rule: rules.body.data[0].id as string, template: (template.body.data ?? template.body).templateId as string, plan };
}

/** The program that takes them over: `adopt(name)` is the option or the argument that names the object's id. */
const adopting = (adopt: (configKey: string) => { args: string; opts: string }) => {
  const server = adopt("serverId");
  const rule = adopt("ruleId");
  const template = adopt("templateId");
  return `
// Made by hand before this stack: taken over, not made again.
const web = new svc.Vps("web", { name: "legacy-web", planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword")${server.args} }${server.opts});
new svc.VpsFirewallRule("ssh", { vpsId: web.id, protocol: "tcp", action: "allow", port: "22", source: "203.0.113.0/24"${rule.args} }${rule.opts});
new svc.Template("welcome", { name: "welcome", subject: "Welcome", textBody: "Hello"${template.args} }${template.opts});
`;
};

/** Runs an adopting program against objects made by hand; judges it. */
async function adoption(name: string, adopt: (configKey: string) => { args: string; opts: string }): Promise<void> {
  let made!: Awaited<ReturnType<typeof madeByHand>>;
  let wallet = 0;
  await withProgram(
    name,
    {
      code: adopting(adopt),
      config: (w) => ({ planId: planId(w, PLAN.small) }),
      secrets: { rootPassword: PASSWORD },
    },
    async (p) => {
      made = await madeByHand(p.stack.emu);
      p.config("serverId", made.server);
      p.config("ruleId", made.rule);
      p.config("templateId", made.template);
      const before = worldView(p.stack.world());
      wallet = walletOf(p.stack.emu);

      const up = await judgedUp(p, "takes over the server, its rule and the template");
      expect(changeList(up.steps)).toEqual(["create ssh", "create web", "create welcome"]);
      // Nothing made, nothing charged: the creates only read.
      expect(calls(p.stack.writes())).toEqual([]);
      expect(walletOf(p.stack.emu)).toBe(wallet);
      expect([idOf(p.stack, "web"), idOf(p.stack, "ssh"), idOf(p.stack, "welcome")]).toEqual([made.server, made.rule, made.template]);
      expect(worldView(p.stack.world())).toEqual(before);
      platformMatches("after the takeover", [p.stack], {});
      await emptyPreview(p, "after the takeover");
    },
  );
}

program("adoption by the import resource option: no create call, nothing charged, the hand-made ids in the state", () =>
  adoption("adopt-import", (key) => ({ args: "", opts: `, { import: config.require(${JSON.stringify(key)}) }` })),
);

program("adoption by adoptId: no create call, nothing charged, the hand-made ids in the state", () =>
  adoption("adopt-id", (key) => ({ args: `, adoptId: config.require(${JSON.stringify(key)})`, opts: "" })),
);
