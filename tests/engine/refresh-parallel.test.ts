/**
 * `pulumi refresh` of 10 resources, and `up --refresh` / `preview --refresh` after one was deleted
 * out of band, under the real CLI: the refresh finds no change and keeps the state's order, whatever
 * `--parallel` says; the provider process answers the CLI's concurrent `Read`s with one call per
 * list (docs/client.md, "Reads that coalesce"); a resource found gone is made again in the same run.
 * How many `Read`s are under way at once is the CLI's own step executor's (`--parallel`,
 * pkg/resource/deploy/step_executor.go): not ours to test.
 */
import { fixtureProject, type EngineRun, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

const project = fixtureProject("refresh-parallel");
const PROGRAM = `
for (let i = 0; i < 6; i++) new svc.Webhook(\`hook-\${i}\`, { url: \`https://hooks.acme-shop.com/svc/\${i}\`, events: ["email.delivered"] });
for (let i = 0; i < 4; i++) new svc.Template(\`tpl-\${i}\`, { name: \`refresh-\${i}\`, textBody: "Hello {{name}}" });
`;
let s: EngineStack;

useEngineStack((x) => (s = x), {
  before: () => project.program(PROGRAM),
  options: { projectDir: project.dir, stack: "engine-refresh-parallel", removeProject: true },
  setup: async (s) => {
    await s.run("up", true, { skipPreview: true });
  },
});

const gets = () => s.emu.control.requests().filter((r) => r.method === "GET").map((r) => r.route);
const changed = (r: EngineRun) => r.steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);

test("refresh --parallel 4 and --parallel 1: no change, the state keeps its order, one GET per list", async () => {
  const before = s.state().resources.map((r) => r.urn);
  s.clearRequests();
  // One pass of reads is counted: the preview pass (which reads too) is skipped.
  const wide = await s.run("refresh", true, { parallel: 4, skipPreview: true });
  expect(changed(wide)).toEqual([]);
  expect(wide.steps).toHaveLength(10);
  expect(s.state().resources.map((r) => r.urn)).toEqual(before);
  expect(gets().sort()).toEqual(["email.templates.list", "email.webhooks.list"]);

  s.clearRequests();
  const serial = await s.run("refresh", true, { parallel: 1, skipPreview: true });
  expect(changed(serial)).toEqual([]);
  expect(serial.steps).toHaveLength(10);
  expect(s.state().resources.map((r) => r.urn)).toEqual(before);
  expect(gets().sort()).toEqual(["email.templates.list", "email.webhooks.list"]);
});

test("up --refresh: a webhook deleted out of band is found gone and made again in the same run; preview --refresh shows it", async () => {
  const hook = s.state().resources.find((r) => r.name === "hook-0")!;
  const gone = await s.emu.call("DELETE", `/email/webhooks/${hook.id}`, { key: s.emu.keys.email });
  expect(gone.status).toBe(200);

  s.clearRequests();
  const preview = await s.run("preview", true, { refresh: true });
  expect(changed(preview)).toEqual(["delete hook-0"]);
  expect(preview.output.join("\n")).toMatch(/\+ {1,2}pulumi-nodejs:dynamic\/svc:Webhook hook-0 create/);
  expect(s.writes()).toEqual([]);

  const up = await s.run("up", true, { refresh: true, parallel: 8, skipPreview: true });
  expect(changed(up)).toEqual(["delete hook-0"]);
  expect(up.output.join("\n")).toMatch(/\+ {1,2}pulumi-nodejs:dynamic\/svc:Webhook hook-0 created/);
  expect(s.writes().map((w) => `${w.method} ${w.route}`)).toEqual(["POST email.webhooks.create"]);
  const again = s.state().resources.find((r) => r.name === "hook-0")!;
  expect(again.id).not.toBe(hook.id);
  const plain = await s.run("preview");
  expect(plain.steps.every((x) => x.op === "same")).toBe(true);
});
