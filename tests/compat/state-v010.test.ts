/**
 * Issue 16, acceptance 2: a stack written by pulumi-svc 0.1.0 (tests/fixtures/state-v010: its state,
 * with the ~2 KB serialized shims that call `require("pulumi-svc/provider").run(…)`, and the
 * emulator's world at that moment) keeps working with this version: a preview shows no changes and
 * makes no write, and destroy removes what the stack made.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { runEngine, type EngineOptions } from "../../tools/engine/engine";
import { setConfig } from "../../tools/engine/state";
import { ROOT } from "../../tools/support/engine-harness";
import { perFile } from "../support/per-file";

jest.setTimeout(90_000);

const FIXTURE = join(ROOT, "tests/fixtures/state-v010");
const PASSPHRASE = "state-fixture";
const STACK = "fixture";
type World = RunningEmulator["control"]["emu"]["world"];

let emulator: RunningEmulator;
let projectDir: string;
let tmp: string;
let options: EngineOptions;

// The fixture is the copied project and the temp dir; the emulator starts on the world written there
// (setup), so both are removed after all even when it fails to start.
perFile({
  start: async () => {
    const tmp = mkdtempSync(join(tmpdir(), "svc-state-v010-"));
    // The project runs inside the repository (it resolves @pulumi/pulumi from the root), under a
    // generated name: the fixture itself is never written to.
    const projectDir = join(ROOT, "tests/fixtures/engine-state-v010");
    rmSync(projectDir, { recursive: true, force: true });
    cpSync(FIXTURE, projectDir, { recursive: true, filter: (src) => src.endsWith("package.json") || (!src.endsWith(".json") && !src.endsWith(".md")) });
    cpSync(join(FIXTURE, "state.json"), join(tmp, "state.json"));
    const world = JSON.parse(readFileSync(join(FIXTURE, "world.json"), "utf8")) as World;
    // The emulator's clock is set back to when the fixture was written, or its servers would have
    // expired and renewed in the meantime.
    const servers = (world.vps as { servers: { createdAt: string }[] }).servers;
    world.clockOffsetMs = Math.max(...servers.map((s) => Date.parse(s.createdAt))) + 60_000 - Date.now();
    writeFileSync(join(tmp, "world.json"), JSON.stringify(world));
    return { tmp, projectDir };
  },
  set: (f) => ({ tmp, projectDir } = f),
  setup: async () => {
    emulator = await startEmulator({ port: 0, seed: 1, stateFile: join(tmp, "world.json") });
    setConfig(projectDir, STACK, PASSPHRASE, "svc:apiUrl", emulator.urls.api);
    setConfig(projectDir, STACK, PASSPHRASE, "svc:emailUrl", emulator.urls.email);
    options = { projectDir, stack: STACK, passphrase: PASSPHRASE, stateFile: join(tmp, "state.json") };
  },
  close: async (f) => {
    await emulator?.close();
    rmSync(f.projectDir, { recursive: true, force: true });
    rmSync(f.tmp, { recursive: true, force: true });
  },
});

test("the 0.1.0 state holds the old serialized shims", () => {
  const state = JSON.parse(readFileSync(join(FIXTURE, "state.json"), "utf8")) as { resources: { custom: boolean; inputs: { __provider?: string } }[] };
  const shims = state.resources.filter((r) => r.custom).map((r) => r.inputs.__provider ?? "");
  expect(shims).toHaveLength(8);
  for (const shim of shims) {
    expect(shim).toContain('require("pulumi-svc/provider").run');
    expect(Buffer.byteLength(shim)).toBeGreaterThan(1900);
  }
});

test("preview with this version: no changes, no write", async () => {
  emulator.control.clearRequests();
  const lines: string[] = [];
  const r = await runEngine("preview", { ...options, print: (l) => lines.push(l) });
  expect(r.errors).toEqual([]);
  expect(r.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
  expect(r.steps).toHaveLength(8);
  expect(emulator.control.requests().filter((q) => q.method !== "GET")).toEqual([]);
});

test("destroy with this version removes what the stack made", async () => {
  const r = await runEngine("destroy", { ...options, print: () => undefined });
  expect(r.errors).toEqual([]);
  const world = emulator.control.state();
  expect((world.vps as { servers: { status: string }[] }).servers.map((s) => s.status)).toEqual(["terminated"]);
  expect((world.email as { templates: unknown[] }).templates).toEqual([]);
  expect((world.email as { webhooks: unknown[] }).webhooks).toEqual([]);
  expect((world.email as { domains: unknown[] }).domains).toEqual([]);
  expect(JSON.parse(readFileSync(join(tmp, "state.json"), "utf8")).resources).toEqual([]);
});
