/**
 * Issue 16, acceptance 2: a stack written by pulumi-svc 0.1.0 (tests/fixtures/state-v010: its state,
 * with the ~2 KB serialized shims that call `require("pulumi-svc/provider").run(…)`, its config, and
 * the emulator's world at that moment) keeps working with this version under the real `pulumi` CLI:
 * imported with `pulumi stack import`, a preview shows no changes and makes no write, and destroy
 * removes what the stack made.
 *
 * The fixture was saved by the project's former test engine (its own file format: secrets
 * AES-256-GCM under a scrypt key of the passphrase); it is never rewritten. The test reads it into
 * the deployment a `pulumi stack export --show-secrets` of that stack would hold — each resource of
 * the `pulumi-nodejs` default provider, its secrets as `plaintext`, which `stack import` encrypts
 * with the stack's own secrets provider (pkg/resource/stack/deployment.go, DeserializePropertyValue).
 * The default provider's inputs are the whole stack config, as the CLI stores them for a dynamic
 * provider (pkg/resource/deploy/target.go `GetPackageConfig`): a destroy configures the provider
 * from them, not from the stack's config of the moment.
 */
import { createDecipheriv, scryptSync } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ROOT } from "../../tools/support/engine-harness";
import { CliStack } from "../../tools/support/real-cli";
import { SECRET_SIG, SIG_KEY, type Props } from "../../tools/support/stack-state";
import { perFile } from "../support/per-file";

// js-yaml ships with @pulumi/pulumi (tools/support/project.ts reads Pulumi.yaml with it too).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require("js-yaml") as { load(text: string): { encryptionsalt: string; config: Record<string, unknown> } };

jest.setTimeout(90_000);

const FIXTURE = join(ROOT, "tests/fixtures/state-v010");
const PASSPHRASE = "state-fixture";
const STACK = "fixture";
type World = RunningEmulator["control"]["emu"]["world"];

interface V010Resource {
  urn: string;
  type: string;
  custom: boolean;
  id?: string;
  parent?: string;
  dependencies: string[];
  inputs: Props;
  outputs: Props;
}
interface V010State {
  salt: string;
  resources: V010Resource[];
}

/** A value the 0.1.0 fixture encrypted (`{secure: "v1:iv:tag:data"}`), in clear. */
function decrypter(salt: string): (secure: string) => unknown {
  const key = scryptSync(PASSPHRASE, Buffer.from(salt, "base64"), 32);
  return (secure) => {
    const [, iv, tag, data] = secure.split(":");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8"));
  };
}

const isSecure = (v: unknown): v is { secure: string } => typeof v === "object" && v !== null && typeof (v as Props).secure === "string";

type StackConfig = Record<string, { value: string; secret: boolean }>;
const secretValue = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) });

/** The fixture's state as the deployment `pulumi stack import` takes, on `empty` (the new stack's own export: its secrets provider), its default provider configured with `config`. */
function deploymentOf(state: V010State, empty: string, config: StackConfig): string {
  const clear = decrypter(state.salt);
  const bag = (props: Props): Props => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, isSecure(v) ? secretValue(clear(v.secure)) : v]));
  const providerInputs = Object.fromEntries(Object.entries(config).map(([k, c]) => [k, c.secret ? secretValue(c.value) : c.value]));
  const doc = JSON.parse(empty) as { deployment: { resources?: unknown[] } };
  const stack = state.resources.find((r) => r.type === "pulumi:pulumi:Stack")!;
  const provider = { urn: stack.urn.replace(/pulumi:pulumi:Stack::.*$/, "pulumi:providers:pulumi-nodejs::default"), id: "7a1c4e0e-0d0e-4b5e-9c1e-0000000000a1" };
  doc.deployment.resources = [
    { urn: stack.urn, custom: false, type: stack.type },
    { urn: provider.urn, custom: true, id: provider.id, type: "pulumi:providers:pulumi-nodejs", inputs: providerInputs, outputs: providerInputs },
    ...state.resources
      .filter((r) => r.custom)
      .map((r) => ({
        urn: r.urn,
        custom: true,
        id: r.id,
        type: r.type,
        inputs: bag(r.inputs),
        outputs: bag(r.outputs),
        parent: r.parent,
        dependencies: r.dependencies,
        provider: `${provider.urn}::${provider.id}`,
      })),
  ];
  return JSON.stringify(doc);
}

let emulator: RunningEmulator;
let cli: CliStack;
let tmp: string;

// The fixture is the copied project and the temp dir; the emulator starts on the world written there
// (setup), so both are removed after all even when it fails to start.
perFile({
  start: async () => {
    const tmp = mkdtempSync(join(tmpdir(), "svc-state-v010-"));
    // The project runs inside the repository (it resolves @pulumi/pulumi from the root), under a
    // generated name: the fixture itself is never written to. Its stack config is set anew below.
    const projectDir = join(ROOT, "tests/fixtures/engine-state-v010");
    rmSync(projectDir, { recursive: true, force: true });
    cpSync(FIXTURE, projectDir, { recursive: true, filter: (src) => src.endsWith("package.json") || (!/\.(json|md|yaml)$/.test(src)) || src.endsWith("Pulumi.yaml") });
    const world = JSON.parse(readFileSync(join(FIXTURE, "world.json"), "utf8")) as World;
    // The emulator's clock is set back to when the fixture was written, or its servers would have
    // expired and renewed in the meantime.
    const servers = (world.vps as { servers: { createdAt: string }[] }).servers;
    world.clockOffsetMs = Math.max(...servers.map((s) => Date.parse(s.createdAt))) + 60_000 - Date.now();
    writeFileSync(join(tmp, "world.json"), JSON.stringify(world));
    return { tmp, projectDir };
  },
  set: (f) => (tmp = f.tmp),
  setup: async (f) => {
    emulator = await startEmulator({ port: 0, seed: 1, stateFile: join(tmp, "world.json") });
    cli = new CliStack(f.projectDir, "svc-state-v010", STACK, PASSPHRASE, join(tmp, "cli"));
    cli.init();
    // The fixture's stack config, its secrets in clear, the URLs this emulator's.
    const file = yaml.load(readFileSync(join(FIXTURE, `Pulumi.${STACK}.yaml`), "utf8"));
    const clear = decrypter(file.encryptionsalt);
    const config: StackConfig = Object.fromEntries(
      Object.entries(file.config).map(([key, value]) => [key, isSecure(value) ? { value: clear(value.secure) as string, secret: true } : { value: String(value), secret: false }]),
    );
    config["svc:apiUrl"] = { value: emulator.urls.api, secret: false };
    config["svc:emailUrl"] = { value: emulator.urls.email, secret: false };
    for (const [key, c] of Object.entries(config)) cli.config(key, c.value, c.secret);
    const file010 = join(tmp, "deployment.json");
    writeFileSync(file010, deploymentOf(JSON.parse(readFileSync(join(FIXTURE, "state.json"), "utf8")) as V010State, await exported(), config));
    const imported = await cli.command(["stack", "import", "--file", file010]);
    if (imported.code !== 0) throw new Error(`pulumi stack import failed:\n${imported.stdout}\n${imported.stderr}`);
  },
  close: async (f) => {
    cli?.close();
    await emulator?.close();
    rmSync(f.projectDir, { recursive: true, force: true });
    rmSync(f.tmp, { recursive: true, force: true });
  },
});

async function exported(): Promise<string> {
  const r = await cli.command(["stack", "export"]);
  if (r.code !== 0) throw new Error(`pulumi stack export failed:\n${r.stderr}`);
  return r.stdout;
}

test("the 0.1.0 state holds the old serialized shims, and so does the stack after `pulumi stack import`", () => {
  const state = JSON.parse(readFileSync(join(FIXTURE, "state.json"), "utf8")) as V010State;
  const shims = state.resources.filter((r) => r.custom).map((r) => (r.inputs.__provider as string | undefined) ?? "");
  expect(shims).toHaveLength(8);
  for (const shim of shims) {
    expect(shim).toContain('require("pulumi-svc/provider").run');
    expect(Buffer.byteLength(shim)).toBeGreaterThan(1900);
  }
  const imported = cli.state().resources;
  expect(imported.map((r) => r.inputs.__provider)).toEqual(shims);
  // Its secrets kept secret: the Vps's root password, the Webhook's signing secret.
  expect(imported.find((r) => r.name === "web")!.secrets).toContain("rootPassword");
  expect(imported.find((r) => r.name === "events")!.secrets).toContain("secret");
});

test("preview with this version: no changes, no write", async () => {
  emulator.control.clearRequests();
  const r = await cli.run("preview");
  expect(r.errors).toEqual([]);
  expect(r.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
  expect(r.steps).toHaveLength(8);
  expect(emulator.control.requests().filter((q) => q.method !== "GET")).toEqual([]);
});

test("destroy with this version removes what the stack made", async () => {
  const r = await cli.run("destroy", { skipPreview: true });
  expect(r.errors).toEqual([]);
  const world = emulator.control.state();
  expect((world.vps as { servers: { status: string }[] }).servers.map((s) => s.status)).toEqual(["terminated"]);
  expect((world.email as { templates: unknown[] }).templates).toEqual([]);
  expect((world.email as { webhooks: unknown[] }).webhooks).toEqual([]);
  expect((world.email as { domains: unknown[] }).domains).toEqual([]);
  expect(cli.state().resources).toEqual([]);
});
