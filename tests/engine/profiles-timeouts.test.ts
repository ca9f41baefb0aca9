/**
 * Issue 17 under the real `pulumi` CLI against the emulator: named profiles (`profile`, stack config
 * `svc:profiles`) and the resource option `customTimeouts`, which the sdk carries to the provider.
 *
 * Structured config is set here as its JSON text under `svc:profiles`: what the CLI hands a
 * dynamic provider for `pulumi config set --path 'svc:profiles.ops.apiKey' …` (the engine passes
 * every config value to Configure as a string; an object as its JSON).
 */
import { changes, onlySame, type EngineStack } from "../../tools/support/engine-harness";
import { liveServers } from "../../tools/support/world";
import { usePlanStack } from "./plan-stack";

jest.setTimeout(90_000);

const STACK = "engine-test-profiles";
const PASSWORD = "Profile!pass2026";

describe("profiles", () => {
  let s: EngineStack;
  const project = usePlanStack("profiles", STACK, (x) => (s = x));
  const vpsIn = (profile: string) => `
new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "${PASSWORD}", profile: "${profile}" });`;

  test("a profile that does not exist is refused at preview, naming the property and the profile; no call made", async () => {
    project.program(vpsIn("staging"));
    s.clearRequests();
    const r = await s.run("preview", false);
    expect(r.output.join("\n")).toMatch(/resource 'web': property profile value \{staging\} has a problem: profile "staging" is not configured: set stack config svc:profiles\.staging/);
    expect(s.emu.control.requests()).toEqual([]);
  });

  test("a profile without apiKey is refused at preview, naming the profile and the missing setting; no call made", async () => {
    s.config("svc:profiles", JSON.stringify({ staging: { projectId: s.emu.projects[0] } }), true);
    project.program(vpsIn("staging"));
    s.clearRequests();
    const r = await s.run("preview", false);
    expect(r.output.join("\n")).toMatch(/resource 'web': property profile value \{staging\} has a problem: profile "staging" has no apiKey: set it with pulumi config set --path --secret 'svc:profiles\.staging\.apiKey'/);
    expect(s.emu.control.requests()).toEqual([]);
  });

  test("a complete profile: the server is made with that profile's key and project; the state holds the profile's name, never its key", async () => {
    s.config("svc:profiles", JSON.stringify({ ops: { apiKey: s.emu.keys.project, projectId: s.emu.projects[0] } }), true);
    project.program(vpsIn("ops"));
    const r = await s.run("up");
    expect(changes(r)).toEqual(["create web"]);
    // Sent with the profile's key (the project key), not the top-level one (the account key).
    const create = s.emu.control.requests().find((q) => q.method === "POST" && q.path === "/api/vps");
    expect(create?.keyPrefix).toBe(s.emu.keys.project.slice(0, 12));
    const state = s.stateText();
    expect(state).toContain('"profile":"ops"');
    expect(state).not.toContain(s.emu.keys.project);
    expect(state).not.toContain(s.emu.keys.account);
    s.clearRequests();
    expect(onlySame(await s.run("preview"))).toBe(true);
    expect(s.writes()).toEqual([]);
  });

  test("changing the profile replaces the server (an object cannot move between accounts)", async () => {
    s.config("svc:profiles", JSON.stringify({ ops: { apiKey: s.emu.keys.project, projectId: s.emu.projects[0] }, ops2: { apiKey: s.emu.keys.account, projectId: s.emu.projects[0] } }), true);
    project.program(vpsIn("ops2"));
    const r = await s.run("preview");
    expect(r.steps.find((x) => x.name === "web")).toMatchObject({ op: "replace", diffs: expect.arrayContaining(["profile"]) });
    project.program("");
    await s.run("destroy", true, { skipPreview: true });
  });
});

describe("customTimeouts", () => {
  let s: EngineStack;
  // Server creates take 5 s here.
  const project = usePlanStack("timeouts", STACK, (x) => (s = x), { transitions: "time", transitionSeconds: 5 });
  const server = (timeouts: string) => `
new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: "${PASSWORD}" }, { customTimeouts: ${timeouts} });`;
  const servers = () => liveServers(s.world());

  test('create: "2s" against a 5 s create fails naming the 2 s timeout; the server stays in the state; the next up converges', async () => {
    project.program(server('{ create: "2s" }'));
    const failed = await s.run("up", false);
    const text = failed.output.join("\n");
    expect(text).toMatch(/timed out after 2 s waiting for server/);
    expect(text).toContain('The limit was customTimeouts.create "2s": raise it in the resource options');
    const kept = s.state().resources.find((r) => r.name === "web");
    expect(kept?.id).toBe(servers()[0].id);
    expect(servers()).toHaveLength(1);

    await new Promise((r) => setTimeout(r, 4_000));
    const again = await s.run("up");
    expect(again.ok).toBe(true);
    expect(servers()).toMatchObject([{ status: "running" }]);
    expect(servers()).toHaveLength(1);
  });

  test("changing only customTimeouts shows no changes and makes no write", async () => {
    project.program(server('{ create: "40m", delete: "10m" }'));
    s.clearRequests();
    const preview = await s.run("preview");
    expect(onlySame(preview)).toBe(true);
    const up = await s.run("up");
    expect(onlySame(up)).toBe(true);
    expect(s.writes()).toEqual([]);
    await s.run("destroy", true, { skipPreview: true });
  });
});
