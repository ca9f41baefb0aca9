/**
 * Issue 23, the acceptance matrix: every resource type exported by sdk/index.ts, one row each
 * (tools/support/acceptance-rows.ts), under the real `pulumi` CLI against the emulator (jest.realcli.config.js:
 * `npx jest -c jest.realcli.config.js tests/acceptance`). Every row is declared in one program, so
 * each step is one `pulumi` operation (or a few) for all rows (acceptance-matrix.ts says what each
 * step asserts). Each test is one step; it fails naming every row that failed it. The type × step
 * table, the wall times and the count of `pulumi` operations are printed after the file.
 */
import { readFileSync, rmSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as sdk from "../../sdk";
import { fixtureProject } from "../../tools/support/engine-harness";
import { SEEDED_WALLET } from "../../tools/support/world";
import { perFile } from "../support/per-file";
import { ROWS as ALL_ROWS } from "../../tools/support/acceptance-rows";

/** `SVC_ACCEPTANCE_ROWS=DomainRegistrant,EmailSuppression`: only these rows (a type's own run); default every row. */
const only = process.env.SVC_ACCEPTANCE_ROWS?.split(",").filter(Boolean);
const ROWS = only ? ALL_ROWS.filter((r) => only.includes(r.type)) : ALL_ROWS;
import {
  badInputs,
  comparable,
  computedOutputs,
  create500,
  declared,
  expectSteps,
  interruptedCreate,
  MatrixStack,
  programOf,
  sameAsState,
  table,
  type Ids,
  type RowProblems,
  type StepName,
} from "./acceptance-matrix";

// Scaled ×8 by jest.realcli.config.js: 16 min a step, each one to six `pulumi` operations for all rows (minutes on a busy two-core machine).
jest.setTimeout(120_000);

const project = fixtureProject("acceptance");
let a: MatrixStack;
let b: MatrixStack;
const started = Date.now();

perFile<MatrixStack>({
  start: async () => {
    project.program(programOf(ROWS));
    a = await MatrixStack.start(project.dir, project.project, "acceptance", ROWS);
    b = await MatrixStack.start(project.dir, project.project, "acceptance-adopter", ROWS, a.s.emu);
    return a;
  },
  set: () => undefined,
  close: async () => {
    await b?.s.close();
    await a.s.close();
    rmSync(project.dir, { recursive: true, force: true });
  },
});

const results = new Map<StepName, { problems: RowProblems; ms: number }>();
afterAll(() => {
  const ops = Object.entries(MatrixStack.operations);
  const counted = `${ops.reduce((n, [, k]) => n + (k ?? 0), 0)} pulumi operations: ${ops.map(([op, k]) => `${op} ${k}`).join(", ")}`;
  console.log(`acceptance matrix (${((Date.now() - started) / 1000).toFixed(1)} s in all; ${counted}):\n${table(ROWS, results)}`);
});

/** Runs one step for every row: `body` answers each row's problems; the test fails naming the rows that failed. */
async function step(name: StepName, body: () => Promise<RowProblems>): Promise<void> {
  const t0 = Date.now();
  let problems: RowProblems;
  try {
    problems = await body();
  } catch (err) {
    problems = Object.fromEntries(ROWS.map((r) => [r.type, [`the step threw: ${(err as Error).stack}`]]));
  }
  results.set(name, { problems, ms: Date.now() - t0 });
  const failed = Object.fromEntries(Object.entries(problems).filter(([, p]) => p.length));
  expect(failed).toEqual({});
}

/** Problems keyed by row type, each row's from `f`. */
const perRow = (f: (row: (typeof ROWS)[number]) => string[]): RowProblems => Object.fromEntries(ROWS.map((row) => [row.type, f(row)]));
const names = (row: (typeof ROWS)[number]) => declared(row).map((d) => d.name);

// What the first stack held before each out-of-band step (ids by resource name).
let created: Ids = {};
let live: Ids = {};

test("every resource class sdk/index.ts exports has exactly one row", () => {
  const classes = Object.entries(sdk)
    .filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof pulumi.CustomResource)
    .map(([k]) => k)
    .sort();
  expect(ALL_ROWS.map((r) => r.type).sort()).toEqual(classes);
});

test("create: one up makes every row's object", () =>
  step("create", async () => {
    a.configure({});
    const r = await a.run("up");
    created = a.ids();
    a.createCost = SEEDED_WALLET - a.s.world().account.wallet;
    return perRow((row) => [
      ...expectSteps(r, names(row), "create"),
      ...(row.list(a.s.world()).includes(created[row.name]) ? [] : [`${row.name} (${created[row.name]}) is not at the API`]),
      ...sameAsState(row, a),
    ]);
  }));

test("secret values (a password given as a plain string, a secret the API made) are nowhere in clear: state file, output", () =>
  step("secrets: none in clear", async () => {
    const stateFile = readFileSync(a.s.options.stateFile, "utf8");
    const printed = a.runs.flatMap((r) => [...r.output, ...r.messages, ...r.errors]).join("\n");
    return perRow((row) => {
      if (!row.secrets) return [];
      const values = row.secrets(a.s.world(), created);
      if (!values.length) return ["the row names no secret value: the cell proves nothing"];
      return values.flatMap((v) => [
        ...(stateFile.includes(v) ? [`the state file holds ${v.slice(0, 3)}… in clear`] : []),
        ...(printed.includes(v) ? [`the output shows ${v.slice(0, 3)}…`] : []),
      ]);
    });
  }));

test("preview after up plans nothing and writes nothing", () =>
  step("preview: no changes", async () => {
    a.s.clearRequests();
    const r = await a.run("preview");
    const writes = a.s.writes().map((w) => `${w.method} ${w.path}`);
    return perRow((row) => [...expectSteps(r, names(row), "same"), ...(writes.length ? [`the preview wrote: ${writes.join(", ")}`] : [])]);
  }));

test("refresh after up reads no change: same steps, the same outputs", () =>
  step("refresh: no changes", async () => {
    const before = a.state();
    const r = await a.run("refresh");
    const after = a.state();
    return perRow((row) =>
      names(row).flatMap((name) => {
        const was = before.resources.find((x) => x.name === name);
        const now = after.resources.find((x) => x.name === name);
        const changed = JSON.stringify(was?.outputs) !== JSON.stringify(now?.outputs) ? [`${name}: refresh changed its outputs: ${JSON.stringify(was?.outputs)} → ${JSON.stringify(now?.outputs)}`] : [];
        return [...expectSteps(r, [name], "same"), ...changed];
      }),
    );
  }));

test("an in-place update's preview (wired as the examples wire it) shows the update and nothing else: no replace down the chain", () =>
  step("preview: in-place update", async () => {
    a.configure({ changed: true });
    a.s.clearRequests();
    const r = await a.run("preview");
    a.configure({});
    return perRow((row) => {
      if ("none" in row.inPlace) return [];
      const updates = row.inPlace.updates;
      return [...expectSteps(r, updates, "update"), ...expectSteps(r, names(row).filter((n) => !updates.includes(n)), "same")];
    });
  }));

test("<Type>.get(name, id) reads the live object: its outputs are the managed resource's, and nothing is written", () =>
  step("get", async () => {
    const ids = a.ids();
    a.configure({ get: Object.fromEntries(ROWS.map((row) => [row.name, ids[row.name]])) });
    a.s.clearRequests();
    const r = await a.run("up");
    const writes = a.s.writes().map((w) => `${w.method} ${w.path}`);
    a.configure({});
    // The read resources leave the stack again (a later step's program has no get).
    await a.run("up");
    return perRow((row) => {
      const got = r.outputs?.[`get_${row.name}`] as Record<string, unknown> | undefined;
      if (!r.ok) return [`the up with get failed: ${r.errors.join(" | ")}`];
      if (!got) return [`no output get_${row.name}`];
      const managed = a.resource(row.name)!;
      const problems = got.id === ids[row.name] ? [] : [`get answered id ${String(got.id)}, not ${ids[row.name]}`];
      const keys = Object.keys(computedOutputs(row.type)).filter((k) => !(k in (row.adoptionDiffers ?? {})));
      for (const k of keys) {
        if (JSON.stringify(got[k] ?? null) !== JSON.stringify(managed.outputs[k] ?? null)) problems.push(`${k}: get answered ${JSON.stringify(got[k])}, the managed resource holds ${JSON.stringify(managed.outputs[k])}`);
      }
      if (writes.length) problems.push(`the up with get wrote: ${writes.join(", ")}`);
      return problems;
    });
  }));

test("a second stack adopts every object with adoptId: no create call, the same outputs (secrets aside)", () =>
  step("adopt: outputs equal", async () => {
    const adopt: Ids = {};
    for (const row of ROWS) {
      for (const name of names(row)) {
        const r = a.resource(name)!;
        adopt[name] = name === row.name && row.adoptId ? row.adoptId(r.id!, r.outputs) : r.id!;
      }
    }
    b.configure({ adopt });
    const wallet = a.s.world().account.wallet;
    a.s.clearRequests();
    const r = await b.run("up");
    const writes = a.s.writes().map((w) => `${w.method} ${w.path}`);
    live = b.ids();
    const problems = perRow((row) => {
      const list: string[] = [...expectSteps(r, names(row), "create")];
      for (const name of names(row)) {
        const differs = name === row.name ? row.adoptionDiffers : undefined;
        const mine = comparable(a.resource(name), differs);
        const theirs = comparable(b.resource(name), differs);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) list.push(`${name}: adopted outputs ${JSON.stringify(theirs)} ≠ created ${JSON.stringify(mine)}`);
      }
      const objects = row.list(a.s.world());
      if (row.remadeOnAdoption) {
        if (live[row.name] === created[row.name] || !objects.includes(live[row.name]) || objects.includes(created[row.name])) {
          list.push(`made anew on adoption (${row.remadeOnAdoption}), yet the API holds ${JSON.stringify(objects)} (created ${created[row.name]}, adopted ${live[row.name]})`);
        }
      } else {
        if (live[row.name] !== created[row.name]) list.push(`adopted ${live[row.name]}, not the object ${created[row.name]}`);
        const call = row.createCall(created);
        if (writes.includes(`${call.method} ${call.path}`)) list.push(`adopting sent its create call ${call.method} ${call.path}`);
      }
      return list;
    });
    if (a.s.world().account.wallet !== wallet) for (const row of ROWS) problems[row.type].push(`adopting charged the wallet ${wallet - a.s.world().account.wallet}`);
    // The adopting stack is forgotten (`pulumi stack rm --force`): its objects stay the first stack's.
    b.s.resetState();
    return problems;
  }));

test("each object deleted out of band is gone at the API", () =>
  step("deleted out of band", async () =>
    Object.fromEntries(
      await Promise.all(
        ROWS.map(async (row) => {
          if (row.undeletable || !row.deleteOutOfBand) return [row.type, row.undeletable ? [] : ["the row has no deleteOutOfBand and says no reason"]] as const;
          await row.deleteOutOfBand(a.s.emu, live[row.name], live);
          return [row.type, row.list(a.s.world()).includes(live[row.name]) ? [`${live[row.name]} is still at the API`] : []] as const;
        }),
      ),
    ),
  ));

test("refresh drops what was deleted out of band, and only that", () =>
  step("refresh drops it", async () => {
    const r = await a.run("refresh");
    const ids = a.ids();
    return perRow((row) => {
      const dropped = row.undeletable ? [] : (row.dropped ?? [row.name]);
      const kept = names(row).filter((n) => !dropped.includes(n));
      return [...expectSteps(r, dropped, "delete"), ...expectSteps(r, kept, "same"), ...dropped.filter((n) => ids[n]).map((n) => `${n} is still in the state`)];
    });
  }));

test("up makes each dropped object again; the API holds exactly what the state names", () =>
  step("up makes it again", async () => {
    const r = await a.run("up");
    return perRow((row) => {
      const dropped = row.undeletable ? [] : (row.dropped ?? [row.name]);
      const kept = names(row).filter((n) => !dropped.includes(n));
      return [...expectSteps(r, dropped, "create"), ...expectSteps(r, kept, "same"), ...sameAsState(row, a)];
    });
  }));

let beforeDestroy: Record<string, string[]> = {};

test("destroy deletes every resource of the stack", () =>
  step("destroy", async () => {
    beforeDestroy = Object.fromEntries(ROWS.map((row) => [row.type, row.list(a.s.world()).sort()]));
    const r = await a.run("destroy");
    const left = a.state().resources.map((x) => x.name);
    return perRow((row) => [...expectSteps(r, names(row), "delete"), ...names(row).filter((n) => left.includes(n)).map((n) => `${n} is still in the state`)]);
  }));

test("nothing of any type is left at the API (CheckDestroy; a Domain's registration stays)", () =>
  step("nothing left", async () =>
    perRow((row) => {
      const objects = row.list(a.s.world()).sort();
      const secrets = [...a.leaks(), ...b.leaks()];
      if (row.keptAfterDestroy) {
        return JSON.stringify(objects) === JSON.stringify(beforeDestroy[row.type]) ? secrets : [...secrets, `${JSON.stringify(objects)} after destroy, ${JSON.stringify(beforeDestroy[row.type])} before (${row.keptAfterDestroy})`];
      }
      return objects.length ? [...secrets, `left at the API: ${objects.join(", ")}`] : secrets;
    }),
  ));

test("500 on each type's create: the up fails clearly or recovers, the next up converges, no duplicate", () => step("500 on create", () => create500(a)));

test("provider host killed after each type's create reached the API: the rerun adopts or names adoptId, then converges, no duplicate", () =>
  step("interrupted create", () => interruptedCreate(a)));

test("bad input of each type is refused at preview, naming the property, with no API call", () => step("bad input at preview", () => badInputs(a, project.dir)));
