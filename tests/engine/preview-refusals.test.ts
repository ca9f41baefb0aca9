/**
 * The mistakes a preview now catches (issue 35, acceptance 1), under the real CLI against the
 * emulator: each refused at preview with no call that changes anything, naming the resource, the
 * limit or setting, the count, and the fix. (The same limit refused during an `up --skip-preview`:
 * tests/cli/limit-during-up.test.ts.)
 */
import { calls, fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(120_000);

const project = fixtureProject("refusals");
let s: EngineStack;
useEngineStack((x) => (s = x), { options: { projectDir: project.dir, stack: "engine-test-refusals", removeProject: true } });

const P = "pulumi-nodejs:dynamic/svc";
const seededKeys = () => s.emu.keys;

async function planLimits(limits: Record<string, unknown>): Promise<void> {
  expect((await s.emu.ctl("PATCH", "/email/plan-limits", limits)).status).toBe(200);
}

test("two Mailboxes on a plan that allows one: the second is refused at preview, with the count and the fix", async () => {
  await planLimits({ mailboxes: 1, receiving: true, forwarding: true });
  project.program(
    `const domain = new svc.SendingDomain("mail", { domain: "limits.example-shop.dev" });\n` +
      `const inbound = new svc.ReceivingDomain("inbound", { domainId: domain.domainId });\n` +
      `new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });\n` +
      `new svc.Mailbox("sales", { domainId: inbound.domainId, localPart: "sales" });\n`,
  );
  s.clearRequests();
  const r = await s.run("preview", false);
  expect(r.errors).toHaveLength(1);
  // (Each error of a resource is listed after its type and name, as the CLI's diagnostic names it.)
  expect(r.errors[0]).toMatch(new RegExp(`^svc:Mailbox (support|sales): ${P}:Mailbox resource '(support|sales)': property localPart `));
  expect(r.errors[0]).toContain("too many mailboxes for the email plan");
  expect(r.errors[0]).toContain("the plan allows 1, 0 exist and this run adds 2");
  expect(r.errors[0]).toContain("svc.EmailPlan");
  expect(calls(s.writes())).toEqual([]);
});

test("two Templates on a plan that allows one more: refused at preview; with room for both, the preview passes", async () => {
  await planLimits({ templates: 1 });
  project.program(`new svc.Template("welcome", { name: "welcome", subject: "Hi", textBody: "Hi" });\nnew svc.Template("bye", { name: "bye", subject: "Bye", textBody: "Bye" });\n`);
  s.clearRequests();
  const r = await s.run("preview", false);
  expect(r.errors.join("\n")).toContain("too many templates for the email plan free: the plan allows 1, 0 exist and this run adds 2");
  expect(calls(s.writes())).toEqual([]);

  await planLimits({ templates: 2 });
  await s.run("preview");
  expect(calls(s.writes())).toEqual([]);
});

describe("with the key of a project without an email plan", () => {
  beforeAll(() => s.config("svc:emailApiKey", seededKeys().emailNoPlan, true));
  afterAll(() => s.config("svc:emailApiKey", seededKeys().email, true));

test("no email plan and no EmailPlan in the program: refused at preview pointing at svc.EmailPlan; declared, the preview passes", async () => {
  project.program(`new svc.Template("welcome", { name: "welcome", subject: "Hi", textBody: "Hi" });\n`);
  s.clearRequests();
  const r = await s.run("preview", false);
  expect(r.errors).toHaveLength(1);
  expect(r.errors[0]).toContain(`${P}:Template resource 'welcome' has a problem: the project`);
  expect(r.errors[0]).toContain("has no email plan, and the program declares none: every email call would be refused (402 NO_PLAN)");
  expect(r.errors[0]).toContain('new svc.EmailPlan("plan", { planCode: "free" })');
  expect(r.errors[0]).toContain("dependsOn: [plan]");

  project.program(`const plan = new svc.EmailPlan("plan", { planCode: "free" });\nnew svc.Template("welcome", { name: "welcome", subject: "Hi", textBody: "Hi" }, { dependsOn: [plan] });\n`);
  s.clearRequests();
  await s.run("preview");
  // The plan's price: its free dry run (`?dryRun=true`), the one write a preview sends.
  expect(calls(s.writes())).toEqual(["POST /email/plan"]);
  expect(emailRecords(s.world()).templates).toEqual([]);
});
});

test("a wrong API key: the preview names the setting it came from, not the plan", async () => {
  s.config("svc:apiKey", seededKeys().revoked, true);
  project.program(`new svc.Vps("db", { planId: "00000000-0000-4000-8000-000000000000", osType: "ubuntu", osVersion: "22.04", rootPassword: pulumi.secret("Sup3rSecret!23") });\n`);
  const r = await s.run("preview", false);
  expect(r.errors.join("\n")).toContain("401");
  expect(r.errors.join("\n")).toContain("The API key was refused (wrong, expired or revoked): it comes from stack config svc:apiKey: set the right one with `pulumi config set --secret svc:apiKey <value>`");
  expect(r.errors.join("\n")).not.toContain("try again");
  s.config("svc:apiKey", seededKeys().account, true);
});

test("a data function that fails: one line (operation, code, fix), no stack, printed once; a profile's missing key named as the profile's", async () => {
  // Printed once by the program: one diagnostic, one line under the CLI's Diagnostics. The CLI shows
  // it a second time on the stack's row as it arrives (pulumi/pulumi v3.274.1
  // pkg/backend/display/rows.go getInfoColumn: not in a terminal, a row shows its last
  // diagnostic; progress.go printDiagnostics lists them all at the end).
  const failures = (r: { errors: string[]; output: string[] }) => {
    expect(r.errors.filter((e) => e.includes("getVpsPlans failed"))).toHaveLength(1);
    expect(r.output.filter((l) => /^\s+error: getVpsPlans failed/.test(l))).toHaveLength(1);
    expect(r.output.join("\n")).not.toMatch(/^\s+at /m);
    return r.errors.find((e) => e.includes("getVpsPlans failed"))!;
  };
  s.config("svc:profiles", JSON.stringify({ staging: { projectId: s.emu.projects[0] } }));
  project.program(`exports.plans = svc.getVpsPlansOutput({ profile: "staging" }).apply((p) => p.length);\n`);
  const r = await s.run("preview", false);
  const missing = failures(r);
  expect(missing).toContain("is not configured for profile \"staging\": set stack config svc:profiles.staging.apiKey");
  expect(missing).toContain("SVC_PROFILE_STAGING_API_KEY");
  expect(r.output.join("\n")).not.toContain("<ref *1>");

  s.config("svc:apiKey", seededKeys().revoked, true);
  project.program(`exports.plans = svc.getVpsPlansOutput().apply((p) => p.length);\n`);
  const bad = await s.run("preview", false);
  expect(failures(bad)).toMatch(/getVpsPlans failed: GET \/vps\/plans 401 \w+ — .*The API key was refused .* stack config svc:apiKey/);
  s.config("svc:apiKey", seededKeys().account, true);
});

test("an object deleted outside Pulumi, then a change: the preview says so and points at pulumi refresh", async () => {
  await planLimits({ templates: 10 });
  project.program(`new svc.Template("welcome", { name: "welcome-gone", subject: "Hi", textBody: "Hi" });\n`);
  await s.run("up", true, { skipPreview: true });
  const template = emailRecords(s.world()).templates.find((t) => t.name === "welcome-gone")!;
  expect((await s.emu.call("DELETE", `/email/templates/${template.id}`, { key: seededKeys().email })).status).toBe(200);

  project.program(`new svc.Template("welcome", { name: "welcome-gone", subject: "Hello", textBody: "Hi" });\n`);
  s.clearRequests();
  const r = await s.run("preview", false);
  expect(r.errors.join("\n")).toContain(`the Template ${template.id} that the state holds was deleted outside Pulumi: run \`pulumi refresh\``);
  expect(calls(s.writes())).toEqual([]);
});
