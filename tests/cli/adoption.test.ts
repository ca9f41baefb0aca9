/**
 * Adoption said out loud (issue 42), under the real `pulumi` CLI against the emulator, as a user's
 * program meets it: the CLI shows an adoption as `+ create` either way, so the provider prints one
 * line naming the existing object's id and that nothing was created or charged — in the preview
 * when the id is known then (`import:` and `adoptId`), and in the `up`; and for a create that finds
 * what an interrupted `up` made (create-once), in the `up`. The emulator sees no create and no charge.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureProject, ROOT, type EngineRun, type EngineStack } from "../../tools/support/engine-harness";
import { CLI_IMPORT_ERROR } from "../../tools/docs/docs";
import { liveServers, PASSWORD, PLAN, walletOf } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(600_000);

const project = fixtureProject("cli-adoption");
let s: EngineStack;
useEngineStack((x) => (s = x), { options: { projectDir: project.dir, stack: "cli-adoption", removeProject: true } });

/**
 * The lines the provider printed, as the CLI lists them under Diagnostics (indented, under the
 * stack), that start with `start`. The non-interactive display also echoes each message on the
 * stack's progress row (` +  pulumi:pulumi:Stack … create <message>`): that echo is the CLI's.
 */
const printedLines = (r: EngineRun, start: string): string[] => r.output.map((l) => l.trim()).filter((l) => l.startsWith(start));

const serverCreates = () => s.writes().filter((w) => w.method === "POST" && /\/vps$/.test(w.path));

/** A running server made straight at the API, outside Pulumi. */
async function serverAtTheApi(name: string): Promise<string> {
  const planId = s.world().catalog.vpsPlans.find((p) => p.name === PLAN.small)!.id;
  const created = await s.emu.call("POST", "/api/vps", {
    key: s.emu.keys.account,
    body: { planId, projectId: s.emu.projects[0], name, osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, billingPeriod: "monthly" },
  });
  expect(created.status).toBeLessThan(300);
  await s.emu.ctl("POST", "/transitions/settle");
  return (created.body as { data: { id: string } }).data.id;
}

const serverProgram = (name: string, extra: string, opts = "") =>
  `new svc.Vps("${name}", { planId: "${s.world().catalog.vpsPlans.find((p) => p.name === PLAN.small)!.id}", name: "${name}-existing", osType: "ubuntu", osVersion: "22.04", rootPassword: pulumi.secret("${PASSWORD}")${extra} }${opts});\n`;

test("the import resource option and adoptId: one line each in the preview and in the up, naming the id; no create call, nothing charged", async () => {
  const imported = await serverAtTheApi("web-existing");
  const adopted = await serverAtTheApi("db-existing");
  project.program(serverProgram("web", "", `, { import: "${imported}" }`) + serverProgram("db", `, adoptId: "${adopted}"`));
  const wallet = walletOf(s.emu);
  s.clearRequests();

  const preview = await s.run("preview");
  for (const id of [imported, adopted]) {
    expect(printedLines(preview, `Vps ${id}:`)).toEqual([`Vps ${id}: adopted by adoptId (or the import resource option): the existing object is taken over as it is: nothing is created or charged`]);
  }
  expect(serverCreates()).toEqual([]);

  const up = await s.run("up");
  // `pulumi up` prints its preview pass, then the update: the line once in each.
  for (const id of [imported, adopted]) expect(printedLines(up, `Vps ${id}: adopted by adoptId`)).toHaveLength(2);
  expect(Object.fromEntries(s.state().resources.filter((r) => r.type.endsWith(":Vps")).map((r) => [r.name, r.id]))).toEqual({ web: imported, db: adopted });
  expect(serverCreates()).toEqual([]);
  expect(walletOf(s.emu)).toBe(wallet);
  expect(liveServers(s.world())).toHaveLength(2);

  // Once in the stack, nothing is said again.
  const again = await s.run("preview");
  expect(again.output.join("\n")).not.toContain("adopted by adoptId");
  await s.run("destroy");
});

test("a create that finds the server an interrupted up made (create-once): one line in the up naming it; no second create, nothing charged", async () => {
  const planId = s.world().catalog.vpsPlans.find((p) => p.name === PLAN.small)!.id;
  // A default name (derived from the stack and the resource name): the server is provably this stack's.
  project.program(`new svc.Vps("app", { planId: "${planId}", osType: "ubuntu", osVersion: "22.04", rootPassword: pulumi.secret("${PASSWORD}") });\n`);
  await s.run("up", true, { skipPreview: true });
  const [made] = liveServers(s.world()).filter((x) => x.name.startsWith("app-"));
  // What an `up` killed before it saved the create leaves: the server, and a stack without it.
  s.resetState();
  const wallet = walletOf(s.emu);
  s.clearRequests();

  const up = await s.run("up");
  // Not known at preview (no call is made to look): said by the create, in the update only.
  const lines = printedLines(up, `server ${made.id} named "${made.name}"`);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain("the existing object is this stack's (an interrupted `pulumi up` made it, or the resource moved without aliases): adopted, nothing is created or charged");
  expect(s.state().resources.find((r) => r.name === "app")?.id).toBe(made.id);
  expect(serverCreates()).toEqual([]);
  expect(walletOf(s.emu)).toBe(wallet);
  await s.run("destroy");
});

test("`pulumi import` on the command line: the CLI's message is the one the README and the pages quote; nothing is written", async () => {
  const id = await serverAtTheApi("imported-by-cli");
  project.program(serverProgram("web", `, adoptId: "${id}"`));
  const before = s.state().resources.map((r) => r.urn);
  s.clearRequests();

  const r = await s.cli!.command(["import", "pulumi-nodejs:dynamic/svc:Vps", "cli-web", id, "--yes"]);
  expect(r.code).not.toBe(0);
  expect(`${r.stdout}\n${r.stderr}`).toContain(CLI_IMPORT_ERROR);
  expect(s.state().resources.map((x) => x.urn)).toEqual(before);
  expect(s.writes()).toEqual([]);

  expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`\`${CLI_IMPORT_ERROR}\``);
  expect(readFileSync(join(ROOT, "docs", "Vps.md"), "utf8")).toContain(`\`${CLI_IMPORT_ERROR}\``);

  // What they say to write instead adopts it.
  const up = await s.run("up");
  expect(printedLines(up, `Vps ${id}: adopted by adoptId`)).toHaveLength(2);
  expect(serverCreates()).toEqual([]);
  await s.run("destroy");
});
