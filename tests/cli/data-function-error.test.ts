/**
 * A data function's error as the real `pulumi` CLI shows it (issue 42): a program picks its plan with
 * `getVpsPlansOutput`, wires it into a `Vps` and the server into a rule, and exports the address.
 * With no API key configured, or a key the API refuses, the run stops with one error that names the
 * function and the setting — not wrapped in the SDK's `error serializing property "vpsId": …` chain
 * of the inputs that waited on it, nor after `PromiseRejectionHandledWarning` lines — and nothing is
 * written.
 */
import { fixtureProject, type EngineRun, type EngineStack } from "../../tools/support/engine-harness";
import { PASSWORD, PLAN } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(600_000);

const project = fixtureProject("cli-data-error");
let s: EngineStack;
useEngineStack((x) => (s = x), { options: { projectDir: project.dir, stack: "cli-data-error", removeProject: true } });

const program =
  `const planId = svc.getVpsPlansOutput().apply((plans) => plans.find((p) => p.name === "${PLAN.small}").id);\n` +
  `const web = new svc.Vps("web", { planId, osType: "ubuntu", osVersion: "24.04", rootPassword: pulumi.secret("${PASSWORD}") });\n` +
  `new svc.VpsFirewallRule("ssh", { vpsId: web.id, protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" });\n` +
  `exports.publicIp = web.publicIp;\n`;

function expectOneClearError(r: EngineRun, message: RegExp): void {
  const printed = r.output.join("\n");
  expect(r.ok).toBe(false);
  expect(r.errors).toHaveLength(1);
  expect(r.errors[0]).toMatch(message);
  expect(printed).not.toContain("error serializing property");
  expect(printed).not.toContain("PromiseRejectionHandledWarning");
  expect(printed).not.toMatch(/^\s+at /m);
  expect(s.writes()).toEqual([]);
}

test("no API key configured: one error naming getVpsPlans and svc:apiKey, in the preview and in the up", async () => {
  project.program(program);
  const rm = await s.cli!.command(["config", "rm", "svc:apiKey"]);
  expect(rm.code).toBe(0);
  s.clearRequests();
  expectOneClearError(await s.run("preview", false), /^getVpsPlans failed: the platform API key .* is not configured: set stack config svc:apiKey .* or the environment variable SVC_API_KEY$/);
  expectOneClearError(await s.run("up", false), /^getVpsPlans failed: the platform API key .* is not configured: set stack config svc:apiKey/);
  expect(s.state().resources).toEqual([]);
});

test("a key the API refuses: one error naming getVpsPlans, the call, the code and the setting", async () => {
  project.program(program);
  s.config("svc:apiKey", s.emu.keys.revoked, true);
  s.clearRequests();
  expectOneClearError(await s.run("preview", false), /^getVpsPlans failed: GET \/vps\/plans 401 INVALID_API_KEY — .*stack config svc:apiKey/);
});
