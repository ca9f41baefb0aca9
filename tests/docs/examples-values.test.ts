/**
 * The values written in the reference pages' examples (docs/examples/*.ts) pass the checks the
 * preview runs on them: each example is run as a program under Pulumi's mocks, and every resource
 * it registers has its inputs checked by its type's schema (its rules included: an SSH key's
 * encoding, a port, a host name). A literal a user copies is then known to be accepted; what needs
 * the API (a plan's price, the wallet) is for the examples' runs under the CLI.
 */
import * as pulumi from "@pulumi/pulumi";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { resources } from "../../provider/generated/resources";
import { without } from "../../provider/common-inputs";
import { checkSchema } from "../../provider/schema";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { PASSWORD, PLAN } from "../../tools/support/world";

const EXAMPLES = join(__dirname, "..", "..", "docs", "examples");
const TOKEN = "pulumi-nodejs:dynamic/svc:";

const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];

/** A secret input as the mock monitor hands it over (`{ <sig>: <secret sig>, value }`), as its value. */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const revealed = (v: unknown): unknown => (v && typeof v === "object" && Object.values(v).includes(SECRET_SIG) ? (v as { value: unknown }).value : v);
let emu: TestEmulator;

beforeAll(async () => {
  // Vps.ts picks its plan with getVpsPlansOutput, a call of the program's own: the emulator answers it.
  emu = await startTestEmulator();
  const planId = emu.control.state().catalog.vpsPlans.find((p) => p.name === PLAN.shared)!.id;
  pulumi.runtime.setAllConfig(
    { "svc:apiUrl": emu.urls.api, "svc:emailUrl": emu.urls.email, "svc:apiKey": emu.keys.account, "svc:projectId": emu.projects[0], "project:planId": planId, "project:rootPassword": PASSWORD, "project:ownerPhone": "+62.8123456789" },
    ["project:rootPassword", "project:ownerPhone"],
  );
  await pulumi.runtime.setMocks(
    {
      // Every object's id is a UUID, as most of the API's are: what the examples wire from one
      // resource into another (`vpsId: server.id`) is then a value of the right shape.
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: randomUUID(), state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

afterAll(() => emu.close());

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".ts"));

test("there is an example per resource type", () => {
  expect(files.map((f) => f.replace(/\.ts$/, "")).sort()).toEqual(Object.keys(resources).sort());
});

test.each(files)("docs/examples/%s: every resource's inputs pass its type's checks", async (file) => {
  registered.length = 0;
  // Each example is a program of its own: the types declared once per project (EmailPlan) forget
  // the previous example's declaration (sdk/common.ts keeps them on globalThis, per program).
  for (const key of Object.getOwnPropertySymbols(globalThis)) if (/^pulumi-svc\..+\.profiles$/.test(key.description ?? "")) delete (globalThis as Record<symbol, unknown>)[key];
  // Each example is a module of its own, loaded once: its resources register as it loads.
  const program = require(join(EXAMPLES, file)) as Record<string, unknown>;
  // The exports resolve once every resource they read was registered.
  await new Promise((resolve) => pulumi.output(program).apply(resolve));
  const ours = registered.filter((r) => r.type.startsWith(TOKEN));
  expect(ours.length).toBeGreaterThan(0);
  for (const r of ours) {
    const impl = resources[r.type.slice(TOKEN.length)];
    const { __provider: _provider, ...given } = r.inputs;
    const inputs = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, revealed(v)]));
    expect({ resource: `${r.type} ${r.name}`, failures: checkSchema(impl.schema, without(inputs)).failures }).toEqual({ resource: `${r.type} ${r.name}`, failures: [] });
  }
});
