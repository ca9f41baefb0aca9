/**
 * The test engine refreshes as the real engine does (CONFORMANCE.md, "refresh: reads in parallel"):
 * every resource's read is under way at once, up to `--parallel` at a time, the new state keeps the
 * old order; `up --refresh` and `preview --refresh` read first and compare the program with what the
 * reads found. The provider process answers those concurrent reads with one call per list.
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { runEngine, type EngineOptions, type RunResult } from "../../tools/engine/engine";
import type { ProviderHost } from "../../tools/support/provider-host";
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

/** Runs the engine with `options`, counting the provider's reads under way at the same time. */
async function run(op: "refresh" | "up" | "preview", options: Partial<EngineOptions>): Promise<RunResult & { mostReadsAtOnce: number }> {
  let underWay = 0;
  let mostReadsAtOnce = 0;
  const countReads = (host: ProviderHost) => {
    const read = host.read.bind(host);
    host.read = async (...args) => {
      mostReadsAtOnce = Math.max(mostReadsAtOnce, ++underWay);
      try {
        return await read(...args);
      } finally {
        underWay--;
      }
    };
  };
  // One pass of reads is measured: the CLI's preview pass (which reads too) is skipped.
  const result = await runEngine(op, { ...s.options, skipPreview: true, ...options, onProviderHost: countReads });
  if (!result.ok) throw new Error(`${op} failed: ${result.errors.join("\n")}`);
  return { ...result, mostReadsAtOnce };
}

const gets = () => s.emu.control.requests().filter((r) => r.method === "GET").map((r) => r.route);

test("refresh reads up to --parallel resources at once; the state keeps its order; one GET per list", async () => {
  const before = s.state().resources.map((r) => r.urn);
  s.clearRequests();
  const wide = await run("refresh", { parallel: 4 });
  expect(wide.mostReadsAtOnce).toBe(4);
  expect(wide.steps.filter((x) => x.op !== "same")).toEqual([]);
  expect(s.state().resources.map((r) => r.urn)).toEqual(before);
  expect(gets().sort()).toEqual(["email.templates.list", "email.webhooks.list"]);

  const serial = await run("refresh", { parallel: 1 });
  expect(serial.mostReadsAtOnce).toBe(1);
  expect(serial.steps).toHaveLength(10);
});

test("up --refresh: a webhook deleted out of band is found gone and made again in the same run; preview --refresh shows it", async () => {
  const hook = s.state().resources.find((r) => r.name === "hook-0")!;
  const gone = await s.emu.call("DELETE", `/email/webhooks/${hook.id}`, { key: s.emu.keys.email });
  expect(gone.status).toBe(200);

  const preview = await run("preview", { refresh: true, parallel: 8 });
  expect(preview.steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`)).toEqual(["delete hook-0", "create hook-0"]);

  const up = await run("up", { refresh: true, parallel: 8 });
  expect(up.mostReadsAtOnce).toBe(8);
  expect(up.steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`)).toEqual(["delete hook-0", "create hook-0"]);
  const again = s.state().resources.find((r) => r.name === "hook-0")!;
  expect(again.id).not.toBe(hook.id);
  const plain = await run("preview", {});
  expect(plain.steps.every((x) => x.op === "same")).toBe(true);
});
