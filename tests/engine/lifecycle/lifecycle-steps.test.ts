/**
 * The lifecycle suite, second half: diffs, replacements, protect, retain, refresh, import, secrets,
 * outputs and the checks of registrations — each scenario named after the pulumi/pulumi
 * pkg/engine/lifecycletest test it mirrors (harness.ts: the provider and its switches).
 */
import { changes, lifecycleProject, stateIds, writes } from "./harness";

jest.setTimeout(240_000);

describe("diffs", () => {
  const lc = lifecycleProject("diffs");

  test("TestEmptyProgramLifecycle: an empty program makes no step and no provider call", async () => {
    lc.program("");
    const up = await lc.run("up", { skipPreview: true });
    expect(changes(up)).toEqual([]);
    expect(up.calls).toEqual([]);
    expect(stateIds(lc.state())).toEqual([]);
  });

  test("TestSingleResourceDiffUnavailable: DIFF_UNKNOWN gets the engine's own diff of the inputs: same when equal, update when not", async () => {
    lc.program(`new Res("a", { size: 1, diffUnknown: true });`);
    await lc.run("up", { skipPreview: true });
    const same = await lc.run("up", { skipPreview: true });
    expect(changes(same)).toEqual([]);
    expect(writes(same)).toEqual([]);
    lc.program(`new Res("a", { size: 2, diffUnknown: true });`);
    const up = await lc.run("up", { skipPreview: true });
    expect(changes(up)).toEqual(["update a"]);
    expect(writes(up)).toEqual(["update a"]);
    expect(lc.objects()["id-1"]).toMatchObject({ size: 2 });
  });

  test("TestSingleResourceIgnoreChanges: top-level and nested ignoreChanges paths keep the old inputs; no update", async () => {
    lc.program(`new Res("b", { size: 1, tags: { env: "dev", team: "x" } }, { ignoreChanges: ["size", "tags.env"] });`);
    await lc.run("up", { skipPreview: true });
    lc.program(`new Res("b", { size: 5, tags: { env: "prod", team: "x" } }, { ignoreChanges: ["size", "tags.env"] });`);
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up)).toEqual([]);
    const b = lc.state().resources.find((r) => r.name === "b")!;
    expect(b.inputs).toMatchObject({ size: 1, tags: { env: "dev", team: "x" } });
    lc.program(`new Res("b", { size: 5, tags: { env: "prod", team: "y" } }, { ignoreChanges: ["size", "tags.env"] });`);
    const team = await lc.run("up", { skipPreview: true });
    expect(writes(team)).toEqual(["update b"]);
    expect(lc.state().resources.find((r) => r.name === "b")!.inputs).toMatchObject({ size: 1, tags: { env: "dev", team: "y" } });
  });

  test("TestCheckFailureRecord: a check failure fails the preview with the property named; nothing is written", async () => {
    lc.program(`new Res("bad", { bad: true });`);
    const r = await lc.run("preview", { ok: false });
    expect(r.errors.join("\n")).toContain("pulumi-nodejs:dynamic/lc:Res resource 'bad': property bad value {true} has a problem: bad is set");
    expect(writes(r)).toEqual([]);
  });

  test("TestDuplicateURN: two resources of one URN fail the update (diag 2001)", async () => {
    lc.program(`new Res("twin", {});
new Res("twin", {});`);
    const r = await lc.run("up", { skipPreview: true, ok: false });
    expect(r.errors.join("\n")).toContain(`Duplicate resource URN 'urn:pulumi:dev::${lc.project}::pulumi-nodejs:dynamic/lc:Res::twin'; try giving it a unique name`);
  });

  test("provider_plugin.go Create: a create answering an empty id fails, and nothing is saved for it", async () => {
    lc.program(`new Res("noid", { emptyId: true });`);
    const r = await lc.run("up", { skipPreview: true, ok: false });
    expect(r.errors.join("\n")).toContain(`plugin returned empty resource.ID from create 'urn:pulumi:dev::${lc.project}::pulumi-nodejs:dynamic/lc:Res::noid'`);
    expect(lc.state().resources.some((x) => x.name === "noid")).toBe(false);
  });

  test("sdk/nodejs/dynamic: the SDK's default type pulumi-nodejs:dynamic:Resource runs like any other", async () => {
    lc.program(`class Plain extends pulumi.dynamic.Resource { constructor(name, args) { super(provider, name, { name, ...args }, undefined); } }
new Plain("plain", { size: 1 });`);
    const up = await lc.run("up", { skipPreview: true });
    // (The earlier scenarios' resources, no longer in the program, are deleted beside it.)
    expect(writes(up).filter((w) => w.endsWith(" plain"))).toEqual(["create plain"]);
    expect(lc.state().resources.find((r) => r.name === "plain")!.type).toBe("pulumi-nodejs:dynamic:Resource");
  });
});

describe("replacements", () => {
  const lc = lifecycleProject("replacements");

  test("TestDeleteBeforeReplace: the old object is deleted before the new one is created", async () => {
    lc.program(`new Res("a", { size: 1, replaceOn: ["size"], dbr: true });`);
    await lc.run("up", { skipPreview: true });
    lc.program(`new Res("a", { size: 2, replaceOn: ["size"], dbr: true });`);
    const up = await lc.run("up", { skipPreview: true });
    expect(changes(up)).toEqual(["replace a"]);
    expect(writes(up)).toEqual(["delete a", "create a"]);
    expect(stateIds(lc.state())).toEqual(["a id-2"]);
  });

  test("TestExplicitDeleteBeforeReplace / create-before-delete: without it, the replacement is created first and the original deleted after the program", async () => {
    lc.program(`new Res("a", { size: 3, replaceOn: ["size"] });`);
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up)).toEqual(["create a", "delete a"]);
    expect(Object.keys(lc.objects())).toEqual(["id-3"]);
    // A replacement's check gets no olds (step_generator.go continueStepsFromDiff).
    expect(up.calls.filter((c) => c.op === "check").map((c) => c.olds)).toEqual([true, false]);
  });

  test("TestUpdatePartialFailure: a create that fails after making the object is kept with its id and init errors; the next up updates it", async () => {
    lc.program(`new Res("p", { partial: true });`);
    await lc.run("up", { skipPreview: true, ok: false });
    const p = lc.state().resources.find((r) => r.name === "p")!;
    expect(p.initErrors).toEqual(["not ready"]);
    expect(p.id).toBeTruthy();
    lc.program(`new Res("p", {});`);
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up).filter((w) => w.endsWith(" p"))).toEqual(["update p"]);
    expect(lc.state().resources.find((r) => r.name === "p")!.initErrors).toBeUndefined();
  });
});

describe("delete-before-replace and its dependents", () => {
  const lc = lifecycleProject("dbr-dependents");
  // "b" takes "a"'s output into `parentId`, a replace field; "c" takes it into `note`, an update field;
  // "d" only depends on "a" (dependsOn); "e" takes "b"'s output (a dependent of a dependent).
  const chain = (size: number, bOpts = "{}") => `
const a = new Res("a", { size: ${size}, replaceOn: ["size"], dbr: true });
const b = new Res("b", { parentId: a.computed, replaceOn: ["parentId"] }, ${bOpts});
new Res("c", { note: a.computed });
new Res("d", {}, { dependsOn: [a] });
new Res("e", { parentId: b.computed, replaceOn: ["parentId"] });`;

  test("TestDeleteBeforeReplace (dependents): the dependents the change would replace are deleted first, newest first, then made again; the others are updated or left", async () => {
    lc.program(chain(1));
    await lc.run("up", { skipPreview: true });
    const idOf = () => Object.fromEntries(lc.state().resources.filter((r) => r.custom).map((r) => [r.name, r.id]));
    const before = idOf();
    lc.program(chain(2));
    const up = await lc.run("up");
    // e (from b) and b (from a) before a, newest first; made again once a exists (b before e); c
    // updated in place (concurrently with b's create); d untouched.
    const w = writes(up);
    expect(w.slice(0, 4)).toEqual(["delete e", "delete b", "delete a", "create a"]);
    expect(w.slice(4).sort()).toEqual(["create b", "create e", "update c"]);
    expect(w.indexOf("create b")).toBeLessThan(w.indexOf("create e"));
    expect(changes(up).sort()).toEqual(["replace a", "replace b", "replace e", "update c"]);
    // The dependents' Diffs with a's outputs unknown: in the preview pass and in the update.
    expect(up.calls.filter((c) => c.op === "diff" && (c.name === "b" || c.name === "e")).length).toBeGreaterThanOrEqual(4);
    const after = idOf();
    for (const name of ["a", "b", "e"]) expect(after[name]).not.toBe(before[name]);
    for (const name of ["c", "d"]) expect(after[name]).toBe(before[name]);
    expect(Object.keys(lc.objects()).sort()).toEqual(Object.values(after).sort());
    expect(lc.state().resources.some((r) => r.pendingReplacement)).toBe(false);
  });

  test("TestDBRProtect: a protected dependent stops the replacement with the CLI's message; nothing is deleted", async () => {
    lc.program(chain(2, "{ protect: true }"));
    await lc.run("up", { skipPreview: true });
    lc.program(chain(3, "{ protect: true }"));
    const r = await lc.run("up", { ok: false });
    expect(r.errors.join("\n")).toContain('unable to replace resource "urn:pulumi:dev::lc-dbr-dependents::pulumi-nodejs:dynamic/lc:Res::b" as part of replacing "urn:pulumi:dev::lc-dbr-dependents::pulumi-nodejs:dynamic/lc:Res::a" as it is currently marked for protection');
    expect(writes(r)).toEqual([]);
  });

  test("a dependent no longer declared after its delete is dropped in the same run, with no second delete (its pending replacement removed: step_generator.go GenerateDeletes)", async () => {
    // protect lifted first (the check reads the old state's protect, as the CLI's), then replaced.
    lc.program(chain(2));
    await lc.run("up", { skipPreview: true });
    lc.program(chain(3));
    await lc.run("up", { skipPreview: true });
    // e leaves the program in the run that replaces a: deleted as a dependent of b, not made again.
    lc.program(chain(4).replace(/\nnew Res\("e".*/, ""));
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up).filter((w) => w.endsWith(" e"))).toEqual(["delete e"]);
    // The CLI shows the dependent's delete as part of a replacement (a `delete-replaced` step).
    expect(changes(up)).toContain("replace e");
    expect(lc.state().resources.some((r) => r.name === "e")).toBe(false);
    expect(lc.state().resources.some((r) => r.pendingReplacement)).toBe(false);
  });
});

describe("protect and retainOnDelete", () => {
  const lc = lifecycleProject("protect");

  test("TestMultipleProtectedDeletes: every protected resource to delete is reported; nothing is deleted", async () => {
    lc.program(`new Res("p1", {}, { protect: true });
new Res("p2", {}, { protect: true });
new Res("free", {});`);
    await lc.run("up", { skipPreview: true });
    lc.program("");
    const r = await lc.run("up", { ok: false });
    expect(r.errors.filter((e) => e.includes("protected")).length).toBe(2);
    expect(r.errors.join("\n")).toMatch(/p1[\s\S]*p2|p2[\s\S]*p1/);
    expect(writes(r)).toEqual([]);
    expect(Object.keys(lc.objects())).toHaveLength(3);
  });

  test("TestRetainOnDelete: a retained resource leaves the state with no delete call; the object stays", async () => {
    lc.program(`new Res("p1", {}, { protect: false });
new Res("p2", {}, { protect: false, retainOnDelete: true });
new Res("free", {});`);
    await lc.run("up", { skipPreview: true });
    lc.program(`new Res("p1", {});
new Res("free", {});`);
    const r = await lc.run("up", { skipPreview: true });
    expect(writes(r)).toEqual([]);
    expect(changes(r)).toEqual(["delete p2"]);
    expect(Object.keys(lc.objects())).toHaveLength(3);
    expect(lc.state().resources.some((x) => x.name === "p2")).toBe(false);
  });
});

describe("refresh", () => {
  const lc = lifecycleProject("refresh");
  /** The id the state holds for the resource `name`. */
  const idOf = (name: string): string => lc.state().resources.find((x) => x.name === name)!.id!;

  test("TestRefreshBasics: a refresh reads each resource with its outputs and inputs; drift is shown (as an update: step.go RefreshStep.ResultOp, the provider's Diff of the inputs against what it read) and saved", async () => {
    lc.program(`new Res("a", { size: 1 });
new Res("b", { size: 1 });`);
    await lc.run("up", { skipPreview: true });
    // Drift out of band: a's size changed at the "API" (ids come in the order the creates ran, which is not fixed).
    lc.editObjects((objects) => (objects[idOf("a")].size = 9));
    const r = await lc.run("refresh", { skipPreview: true });
    expect(r.calls.filter((c) => c.op === "read").map((c) => c.id).sort()).toEqual(["id-1", "id-2"]);
    expect(changes(r)).toEqual(["update a"]);
    expect(lc.state().resources.find((x) => x.name === "a")!.outputs.size).toBe(9);
  });

  test("TestRefreshWithDelete: a resource gone at the API leaves the state (a's drift is still shown); the next up creates it", async () => {
    const a = idOf("a");
    lc.editObjects((objects) => delete objects[idOf("b")]);
    const r = await lc.run("refresh", { skipPreview: true });
    // The reads run side by side (--parallel): the steps come in no fixed order.
    expect(changes(r).sort()).toEqual(["delete b", "update a"]);
    expect(stateIds(lc.state())).toEqual([`a ${a}`]);
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up).sort()).toEqual(["create b", "update a"]);
  });

  test("TestRefreshInitFailure / step.go RefreshStep.Apply: a successful read clears the init errors; the next up then updates only if Diff says so", async () => {
    lc.program(`new Res("p", { partial: true });`);
    await lc.run("up", { skipPreview: true, ok: false });
    expect(lc.state().resources.find((r) => r.name === "p")!.initErrors).toEqual(["not ready"]);
    await lc.run("refresh", { skipPreview: true });
    expect(lc.state().resources.find((r) => r.name === "p")!.initErrors).toBeUndefined();
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up).filter((w) => w.endsWith(" p"))).toEqual([]);
  });
});

describe("import, secrets, outputs and config", () => {
  const lc = lifecycleProject("misc");

  test("TestImportOption: the import step reads with the id alone; the dynamic host fails before any provider code", async () => {
    lc.program(`new Res("a", {});`);
    await lc.run("up", { skipPreview: true });
    lc.program(`new Res("a", {});
new Res("imported", {}, { import: "id-1" });`);
    const r = await lc.run("up", { ok: false });
    // The import's Read gets no properties, so no __provider: cmd/dynamic-provider cannot load the provider's code.
    expect(r.errors.join("\n")).toContain("lc:Res imported: Preview failed: code must be a string, not undefined");
    expect(r.calls.filter((c) => c.op === "read")).toEqual([]);
  });

  test("TestAdditionalSecretOutputs: a plain input stays plain in the state's inputs; the outputs it names are encrypted; a secret input is encrypted in both", async () => {
    lc.program(`new Res("s", { password: "plain-pass-123", token: pulumi.secret("secret-token-456") }, { additionalSecretOutputs: ["password"] });`);
    await lc.run("up", { skipPreview: true });
    const text = lc.stateText();
    expect(text).not.toContain("secret-token-456");
    const stored = (JSON.parse(text) as { checkpoint: { latest: { resources: { urn: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] } } }).checkpoint.latest.resources.find((r) => r.urn.endsWith("::s"))!;
    expect(stored.inputs.password).toBe("plain-pass-123");
    // The checkpoint's secrets: the signature and the passphrase provider's ciphertext (pkg/resource/stack/deployment.go).
    expect(stored.outputs.password).toHaveProperty("ciphertext");
    expect(stored.inputs.token).toHaveProperty("ciphertext");
    expect(stored.outputs.token).toHaveProperty("ciphertext");
  });

  test("TestStackOutputsProgramError: a failed program keeps the stack outputs it did not register again", async () => {
    lc.program(`new Res("a", {});
module.exports = { first: "one", second: "two" };`);
    await lc.run("up", { skipPreview: true });
    expect(lc.state().outputs).toEqual({ first: "one", second: "two" });
    lc.program(`new Res("a", {});
throw new Error("program error");`);
    await lc.run("up", { skipPreview: true, ok: false });
    expect(lc.state().outputs).toEqual({ first: "one", second: "two" });
  });

  test("pkg/host/host.go Provider: the provider process gets the pulumi-nodejs: config as PULUMI_CONFIG; a bare key and --path values as the CLI stores them", async () => {
    lc.config("pulumi-nodejs:flavor", "mint");
    lc.config("lc-misc:other", "not for the provider");
    lc.program(`new Res("cfg", { echoConfig: true });`);
    await lc.run("up", { skipPreview: true });
    const cfg = lc.state().resources.find((r) => r.name === "cfg")!;
    expect(JSON.parse(cfg.outputs.config as string)).toEqual({ flavor: "mint" });
    // `config set k v` stores `<project>:k`; `--path` stores whole numbers and booleans as such, a
    // leading 0 keeps a string (sdk/go/common/resource/config/object.go `coerce`).
    const set = await lc.command(["config", "set-all", "--path", "--plaintext", "region=eu", "--plaintext", "limits.max=5", "--plaintext", "limits.on=true", "--plaintext", "limits.zip=0123"]);
    expect(set.code).toBe(0);
    const all = await lc.command(["config", "--json"]);
    const values = Object.fromEntries(Object.entries(JSON.parse(all.stdout) as Record<string, { value: string }>).map(([k, v]) => [k, v.value]));
    expect(values).toMatchObject({ [`${lc.project}:region`]: "eu", "pulumi-nodejs:flavor": "mint" });
    expect(JSON.parse(values[`${lc.project}:limits`])).toEqual({ max: 5, on: true, zip: "0123" });
  });
});
