/**
 * Issue 8, drift: objects changed out of band in the emulator, through the API with the seeded keys
 * (a webhook deleted, a firewall rule removed, the backup add-on cancelled, the server stopped, a
 * template body changed; then the plan upgraded; then the domain left to expire), under the real
 * `pulumi` CLI. `refresh` reports each (a delete for what is gone; a change, with the keys of the
 * provider's Diff of the read state against the program's: v3.274.1 resource/deploy/step.go
 * `RefreshStep.Apply`, `ResultOp`), and the
 * next `up` restores what the program declares (the re-activated backup is a new paid action: one
 * more charge, no other), except:
 * - an out-of-band plan upgrade cannot be undone (the API never downsizes): the next `up` is
 *   refused at preview naming `planId`, with no write call, until the program takes the new plan;
 * - an expired domain is kept, with its status `expired`: it is not registered (or paid) again.
 * No secret is in the state file, the printed output or the request log afterwards.
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { apply, baseline, backupPrice, Charges, createCharges, leaks, plansOf, PROGRAM, prorated, registered, run, servers, templates, webhooks, worldProblems, type Declared, type Plans, type Run } from "../../tools/chaos/harness";

jest.setTimeout(60_000);

const project = fixtureProject("drift");
let s: EngineStack;
let plans: Plans;
let declared: Declared;
const charges = new Charges();
const runs: Run[] = [];

useEngineStack((x) => (s = x), {
  before: () => project.program(PROGRAM),
  options: { projectDir: project.dir, stack: "reliability-drift", removeProject: true },
  setup: async (s) => {
    plans = plansOf(s.world());
    // Auto-renew off: the domain may lapse (the last test).
    declared = { ...baseline(plans), autoRenew: false };
    apply(s, project.project, declared);
    createCharges(charges, s.world(), declared, plans);
    const first = await run(s, "up");
    runs.push(first);
    if (!first.ok) throw new Error(first.output.join("\n"));
  },
});

const api = (method: string, path: string, body?: unknown) => s.emu.call(method, `/api${path}`, { key: s.emu.keys.account, body });
const email = (method: string, path: string, body?: unknown) => s.emu.call(method, `/email${path}`, { key: s.emu.keys.email, body });
const step = (r: Run, name: string) => r.steps.find((x) => x.name === name);

test("deleted webhook, removed rule, cancelled backup, stopped server, changed template: refresh reports each, up restores them", async () => {
  const [server] = servers(s.world());
  const [hook] = webhooks(s.world());
  const [tpl] = templates(s.world());
  expect((await email("DELETE", `/webhooks/${hook.id}`)).status).toBe(200);
  expect((await api("DELETE", `/vps/${server.id}/firewall`, { ids: [server.firewall[0].id] })).status).toBe(200);
  expect((await api("DELETE", `/vps/${server.id}/backup`)).status).toBe(200);
  expect((await api("POST", `/vps/${server.id}/stop`)).status).toBe(200);
  expect((await email("PATCH", `/templates/${tpl.id}`, { textBody: "Changed out of band" })).status).toBe(200);

  const refreshed = await run(s, "refresh");
  runs.push(refreshed);
  expect(refreshed.ok).toBe(true);
  expect(step(refreshed, "hook")).toMatchObject({ op: "delete" });
  expect(step(refreshed, "ssh")).toMatchObject({ op: "delete" });
  expect(step(refreshed, "bak")).toMatchObject({ op: "delete" });
  // The Diff compares inputs: the stopped server's `powerState`; its `status` output goes into the state.
  expect(step(refreshed, "srv")).toMatchObject({ op: "update", diffs: expect.arrayContaining(["powerState"]) });
  expect(step(refreshed, "tpl")).toMatchObject({ op: "update", diffs: expect.arrayContaining(["textBody"]) });
  expect(step(refreshed, "dom")).toMatchObject({ op: "same" });
  const names = s.state().resources.map((r) => r.name);
  expect(names.filter((n) => ["hook", "ssh", "bak"].includes(n))).toEqual([]);
  expect(s.state().resources.find((r) => r.name === "srv")?.inputs.powerState).toBe("stopped");
  expect(s.state().resources.find((r) => r.name === "srv")?.outputs.status).toBe("stopped");

  const restored = await run(s, "up");
  runs.push(restored);
  expect(restored.ok).toBe(true);
  const ops = Object.fromEntries(restored.steps.filter((x) => x.op !== "same").map((x) => [x.name, x.op]));
  expect(ops).toEqual({ hook: "create", ssh: "create", bak: "create", srv: "update", tpl: "update" });
  // The add-on bought again is a new paid action: one more charge of its plan, nothing else.
  charges.add("backup bought again", backupPrice(s.world(), declared.backupPlan));
  expect(worldProblems(s, declared, charges, [declared.domainName])).toEqual([]);
  expect(leaks(s, runs)).toEqual([]);
});

test("an out-of-band plan upgrade: refresh shows it, up refuses to downsize at preview (no write), the program's new plan converges", async () => {
  const [server] = servers(s.world());
  charges.add("upgrade out of band", prorated(plans.larger.monthly, plans.small.monthly, server.expiresAt, s.world()));
  expect((await api("POST", `/vps/${server.id}/upgrade`, { planId: plans.larger.id })).status).toBe(200);

  const refreshed = await run(s, "refresh");
  runs.push(refreshed);
  expect(step(refreshed, "srv")).toMatchObject({ op: "update", diffs: expect.arrayContaining(["planId"]) });

  s.clearRequests();
  const refused = await run(s, "up");
  runs.push(refused);
  expect(refused.ok).toBe(false);
  expect(refused.errors).toEqual([expect.stringMatching(/^svc:Vps srv: pulumi-nodejs:dynamic\/svc:Vps resource 'srv': property planId value \{\S+\} has a problem: plan \S+ is not larger than \S+: a server can only be upgraded, never downsized/)]);
  expect(s.writes()).toEqual([]);

  declared = { ...declared, planId: plans.larger.id };
  apply(s, project.project, declared);
  const converged = await run(s, "up");
  runs.push(converged);
  expect(converged.ok).toBe(true);
  expect(converged.steps.filter((x) => x.op !== "same")).toEqual([]);
  expect(worldProblems(s, declared, charges, [declared.domainName])).toEqual([]);
  expect(leaks(s, runs)).toEqual([]);
});

test("an expired domain: refresh shows status expired, up keeps it (not registered again)", async () => {
  const before = registered(s.world())[0];
  expect(before).toMatchObject({ name: declared.domainName, autoRenew: false });
  const days = Math.ceil((Date.parse(before.expiresAt) - Date.now() - s.world().clockOffsetMs) / 86_400_000) + 1;
  await s.emu.ctl("POST", "/clock/advance", { seconds: days * 86_400 });

  const refreshed = await run(s, "refresh");
  runs.push(refreshed);
  expect(refreshed.ok).toBe(true);
  // The refresh's result is the provider's Diff with sides swapped (step.go `RefreshStep.ResultOp`),
  // which compares inputs: the expiry changes outputs only, so the step is `same` while the state
  // takes the new outputs.
  expect(step(refreshed, "dom")).toMatchObject({ op: "same", diffs: [] });
  expect(s.state().resources.find((r) => r.name === "dom")?.outputs).toMatchObject({ statusLabel: "expired", status: 3 });

  s.clearRequests();
  const kept = await run(s, "up");
  runs.push(kept);
  expect(kept.errors).toEqual([]);
  expect(kept.ok).toBe(true);
  expect(step(kept, "dom")).toMatchObject({ op: "same" });
  expect(s.writes().filter((w) => w.path.startsWith("/api/domains"))).toEqual([]);
  expect(registered(s.world()).map((d) => [d.name, d.status])).toEqual([[declared.domainName, "expired"]]);
  expect(s.state().resources.find((r) => r.name === "dom")?.outputs.statusLabel).toBe("expired");
  expect(leaks(s, runs)).toEqual([]);
});
