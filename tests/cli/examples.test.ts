/**
 * Every example runs under the real CLI (issue 42, acceptance 5): each reference page's example
 * (docs/examples/<Type>.ts, in a project as `pulumi new typescript` makes it) and each examples/*
 * Pulumi project is previewed and up'ed against an emulator: `pulumi up`, whose preview pass must
 * plan exactly the creates the up then makes. The examples run side by side, each on an emulator
 * of its own (several make the same names: example.org, mail.example.com). Most examples/* projects
 * already run preview and up under the CLI in their own test files (jest.realcli.config.js): those
 * are not run again here, and the last test fails when an example is run by neither.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestEmulator } from "../../tools/support/emulator";
import { engineStack, fixtureProject, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { useRealCli } from "../../tools/support/real-cli";
import { changeList, judgedUp, PASSWORD, PLAN, planId, program, reportOperations } from "./corpus/corpus";

afterAll(() => reportOperations("examples"));

/** What each example's config key is given: the values its comments and page ask for. */
const SECRET_CONFIG: Record<string, string> = { rootPassword: PASSWORD, ownerPhone: "+62.8123456789" };
/** The server plan of the examples whose comment asks for one that shares its address or holds snapshots; the small plan otherwise. */
const PLAN_OF: Record<string, string> = { VpsPortForward: PLAN.shared, VpsSshKey: PLAN.shared, VpsSnapshot: PLAN.shared };

/** examples/* Pulumi projects run here: the others' test files already run them under the CLI. */
const RUN_HERE: Record<string, { config: Record<string, string>; secrets: Record<string, string> }> = {
  // As tests/engine/account.test.ts configures it (that file runs under the test engine only).
  account: {
    config: { domain: "toko-budi.com", ownerName: "Budi Santoso", ownerEmail: "budi@example.com", suppress: "former-customer@example.org" },
    secrets: { ownerPhone: "+62.8123456789" },
  },
};

/** Runs `use` with a stack of the project on an emulator of its own, closed after. */
async function withStack(projectDir: string, use: (s: EngineStack) => Promise<void>): Promise<void> {
  const emulator = await startTestEmulator({ transitions: "immediate" });
  let s: EngineStack | undefined;
  try {
    s = await engineStack({ projectDir, stack: "cli-examples", sharedEmulator: emulator });
    await use(s);
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
      await runs(`docs/examples/${type}`, s);
    });
  });
}

for (const [dir, given] of Object.entries(RUN_HERE)) {
  program(`examples/${dir} previews and ups`, () =>
    withStack(join(ROOT, "examples", dir), async (s) => {
      const project = JSON.parse(readFileSync(join(ROOT, "examples", dir, "package.json"), "utf8")).name as string;
      for (const [k, v] of Object.entries(given.config)) s.config(`${project}:${k}`, v);
      for (const [k, v] of Object.entries(given.secrets)) s.config(`${project}:${k}`, v, true);
      await runs(`examples/${dir}`, s);
    }),
  );
}

test("every examples/* Pulumi project is previewed and up'ed under the CLI: here, or by a test file jest.realcli.config.js runs", () => {
  expect(useRealCli()).toBe(true);
  const realCliFiles = (require(join(ROOT, "jest.realcli.config.js")) as { testMatch: string[] }).testMatch
    .filter((m) => !m.includes("*"))
    .map((m) => readFileSync(m.replace("<rootDir>", ROOT), "utf8"));
  const projects = readdirSync(join(ROOT, "examples")).filter((d) => existsSync(join(ROOT, "examples", d, "Pulumi.yaml")));
  const unrun = projects.filter((d) => !(d in RUN_HERE) && !realCliFiles.some((text) => text.includes(`"examples/${d}"`) && /\.run\("up"/.test(text)));
  expect(unrun).toEqual([]);
  expect(projects.length).toBeGreaterThanOrEqual(7);
});
