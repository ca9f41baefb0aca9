/**
 * Every example runs under the real CLI (issue 42, acceptance 5): each reference page's example
 * (docs/examples/<Type>.ts, in a project as `pulumi new typescript` makes it) and each examples/*
 * Pulumi project is previewed and up'ed against an emulator: `pulumi up`, whose preview pass must
 * plan exactly the creates the up then makes. The examples run side by side, each on an emulator
 * of its own (several make the same names: example.org, mail.example.com), each with the config its
 * comments and page ask for. The last test fails when an example on disk was not run here.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { engineStack, fixtureProject, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { readProject } from "../../tools/support/project";
import { KEYS } from "../../tools/support/ssh-keys";
import { changeList, judgedUp, PASSWORD, PLAN, planId, program, reportOperations } from "./corpus/corpus";

afterAll(() => reportOperations("examples"));

/** What each docs example's config key is given: the values its comments and page ask for. */
const SECRET_CONFIG: Record<string, string> = { rootPassword: PASSWORD, ownerPhone: "+62.8123456789" };
/** The server plan of the examples whose comment asks for one that shares its address or holds snapshots; the small plan otherwise. */
const PLAN_OF: Record<string, string> = { VpsPortForward: PLAN.shared, VpsSshKey: PLAN.shared, VpsSnapshot: PLAN.shared };

/** A project's stack config: keys under its own namespace unless they name one (`svc:profiles`), plain and secret. */
interface ExampleConfig {
  config?: Record<string, string>;
  secrets?: Record<string, string>;
}

/**
 * Every examples/* Pulumi project, with the config its own test file (tests/engine/<name>.test.ts)
 * gives it: what a user sets with `pulumi config set` as the project's comments say. The most
 * resources first: they start first, so the file ends on the short docs examples, which keep both
 * cores busy until the last one ends.
 */
const PROJECTS: Record<string, (emu: TestEmulator) => ExampleConfig> = {
  // No plan set: the program picks its default, s-1vcpu-1gb, by name through getVpsPlans.
  quickstart: () => ({ config: { webhookUrl: "https://hooks.example.com/svc" }, secrets: { rootPassword: "Quick!start2026x" } }),
  "mail-setup": () => ({ config: { domain: "mail.receiving-example.dev", forwardTo: "oncall@example.org" } }),
  "vps-fleet": () => ({ config: { plan: "s-1vcpu-1gb" }, secrets: { rootPassword: "Fleet!pass2026" } }),
  "server-access": () => ({ config: { adminKey: KEYS.ed25519.publicKey, deployKey: KEYS.ecdsa256.publicKey }, secrets: { rootPassword: "Access!pass2026" } }),
  // The client's account through the profile "client": what `pulumi config set --path --secret 'svc:profiles.client.apiKey' …` leaves.
  "two-accounts": (emu) => ({
    secrets: {
      "svc:profiles": JSON.stringify({ client: { apiKey: emu.keys.secondAccount, emailApiKey: emu.keys.secondEmail, projectId: emu.secondAccountProject } }),
      rootPassword: "TwoAccounts!2026",
    },
  }),
  account: () => ({
    config: { domain: "toko-budi.com", ownerName: "Budi Santoso", ownerEmail: "budi@example.com", suppress: "former-customer@example.org" },
    secrets: { ownerPhone: "+62.8123456789" },
  }),
  domain: () => ({ config: { name: "engine-example.com" } }),
};

/** The examples whose preview and up passed here, by name (`docs/examples/Vps.ts`, `examples/quickstart`). */
const ran = new Set<string>();

/** Runs `use` with a stack of the project on an emulator of its own, closed after. */
async function withStack(projectDir: string, use: (s: EngineStack, emu: TestEmulator) => Promise<void>): Promise<void> {
  const emulator = await startTestEmulator({ transitions: "immediate" });
  let s: EngineStack | undefined;
  try {
    s = await engineStack({ projectDir, stack: "cli-examples", sharedEmulator: emulator });
    await use(s, emulator);
  } finally {
    await s?.close();
    await emulator.close();
  }
}

/** The up of an example: its preview pass plans the creates the up makes, and nothing else. */
async function runs(name: string, s: EngineStack): Promise<void> {
  const up = await judgedUp({ name, stack: s }, "preview and up");
  expect(up.steps.length).toBeGreaterThan(0);
  expect(changeList(up.steps)).toEqual(up.steps.map((step) => `create ${step.name}`).sort());
  ran.add(name);
}

for (const [dir, configOf] of Object.entries(PROJECTS)) {
  const projectDir = join(ROOT, "examples", dir);
  program(`examples/${dir} previews and ups`, () =>
    withStack(projectDir, async (s, emu) => {
      const project = readProject(projectDir).name;
      const { config = {}, secrets = {} } = configOf(emu);
      const key = (k: string) => (k.includes(":") ? k : `${project}:${k}`);
      for (const [k, v] of Object.entries(config)) s.config(key(k), v);
      for (const [k, v] of Object.entries(secrets)) s.config(key(k), v, true);
      await runs(`examples/${dir}`, s);
    }),
  );
}

const docsExamples = readdirSync(join(ROOT, "docs/examples")).filter((f) => f.endsWith(".ts"));

for (const file of docsExamples) {
  const type = file.replace(/\.ts$/, "");
  program(`docs/examples/${file} previews and ups`, async () => {
    const source = readFileSync(join(ROOT, "docs/examples", file), "utf8");
    const project = fixtureProject(`docs-${type}`, "typescript");
    writeFileSync(join(project.dir, "index.ts"), source);
    await withStack(project.dir, async (s) => {
      const keys = [...source.matchAll(/config\.(require|requireSecret|get|getSecret)\("([^"]+)"\)/g)].map((m) => m[2]);
      for (const key of keys) {
        if (key === "planId") s.config(`${project.project}:planId`, planId(s.world(), PLAN_OF[type] ?? PLAN.small));
        else if (key in SECRET_CONFIG) s.config(`${project.project}:${key}`, SECRET_CONFIG[key], true);
        else throw new Error(`docs/examples/${file} reads config ${key}: give it a value in tests/cli/examples.test.ts`);
      }
      await runs(`docs/examples/${file}`, s);
    });
  });
}

test("every docs/examples/*.ts and every examples/* Pulumi project was previewed and up'ed here, under the CLI", () => {
  const projects = readdirSync(join(ROOT, "examples")).filter((d) => ["Pulumi.yaml", "Pulumi.yml"].some((f) => existsSync(join(ROOT, "examples", d, f))));
  const onDisk = [...docsExamples.map((f) => `docs/examples/${f}`), ...projects.map((d) => `examples/${d}`)];
  expect(onDisk.filter((name) => !ran.has(name))).toEqual([]);
  expect(projects.length).toBeGreaterThanOrEqual(7);
});
