/**
 * The provider process loads a resource type's module at the type's first call (issue 43, the
 * provider host's start): a stack of webhooks never loads the servers' code. The table lists every
 * type all the same.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The provider modules (from dist/provider/) a fresh process has loaded after running `code` on the entry `p`. */
function providerModulesAfter(code: string): { modules: string[]; types: string[] } {
  const script = [
    `const p = require(${JSON.stringify(join(ROOT, "dist/provider/index.js"))});`,
    code,
    `const modules = Object.keys(require.cache).filter((f) => f.includes("/dist/provider/")).map((f) => f.slice(f.indexOf("/dist/provider/") + "/dist/provider/".length));`,
    `console.log(JSON.stringify({ modules, types: Object.keys(p.resources) }));`,
  ].join("\n");
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" })) as { modules: string[]; types: string[] };
}

test("the entry loads no resource type's module; the table lists every type", () => {
  const { modules, types } = providerModulesAfter("");
  expect(modules).not.toContain("email/webhook.js");
  expect(modules).not.toContain("vps/vps.js");
  expect(types).toEqual(expect.arrayContaining(["Webhook", "Vps", "VpsFirewallRule", "SendingDomain", "Template", "Domain"]));
  expect(types).toHaveLength(19);
});

test("a type's first use loads its module, and not another type's", () => {
  const { modules } = providerModulesAfter("if (typeof p.resources.Webhook.check !== 'function') throw new Error('no check');");
  expect(modules).toContain("email/webhook.js");
  expect(modules).not.toContain("vps/vps.js");
});
