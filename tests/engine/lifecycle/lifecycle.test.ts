/**
 * The lifecycle suite: scenarios modelled on pulumi/pulumi pkg/engine/lifecycletest, each naming the
 * test it mirrors, run by the real `pulumi` CLI with a dynamic provider of the suite's own
 * (harness.ts). Each asserts the steps, the provider calls and the saved state, as the real tests do.
 */
import { changes, lifecycleProject, stateIds, writes } from "./harness";

jest.setTimeout(240_000);

describe("preview of an in-place update (provider_plugin.go Update: req.Preview && !supportsPreview)", () => {
  const lc = lifecycleProject("preview-update");

  test("TestProviderPreview: the provider is not called; outputs that are not inputs are unknown", async () => {
    lc.program(`const a = new Res("a", { size: 1 });
a.computed.apply((v) => note("computed", v));
a.size.apply((v) => note("size", v));
a.id.apply((v) => note("id", v));`);
    await lc.run("up", { skipPreview: true });
    lc.program(`const a = new Res("a", { size: 2 });
a.computed.apply((v) => note("computed", v));
a.size.apply((v) => note("size", v));
a.id.apply((v) => note("id", v));`);
    const before = lc.notes().length;
    const preview = await lc.run("preview");
    expect(changes(preview)).toEqual(["update a"]);
    expect(writes(preview)).toEqual([]);
    const seen = lc.notes().slice(before).filter((n) => n.dryRun);
    // The new inputs are the outputs: `size` is 2; the id is known; `computed` (not an input) is unknown.
    expect(seen).toEqual(expect.arrayContaining([{ key: "size", value: 2, dryRun: true }, { key: "id", value: "id-1", dryRun: true }]));
    expect(seen.some((n) => n.key === "computed")).toBe(false);
  });
});

describe("ReadResource (source_eval.go ReadResource, step.go ReadStep)", () => {
  const lc = lifecycleProject("read");

  test("TestReadResourceGolangLifecycle: a resource read by id is read with the program's properties, kept as external, and dropped with no delete", async () => {
    lc.program(`new Res("a", { size: 1 });`);
    await lc.run("up", { skipPreview: true });
    const [id] = Object.keys(lc.objects());
    lc.program(`new Res("a", { size: 1 });
const got = new Res("got", { size: undefined }, { id: ${JSON.stringify(id)} });
got.size.apply((v) => note("size", v));`);
    const up = await lc.run("up", { skipPreview: true });
    // A read step changes nothing: the harness lists it with the unchanged (real-cli.ts OP: read → same).
    expect(changes(up)).toEqual([]);
    // The program's properties carry __provider: the dynamic host can find the provider.
    expect(up.calls.filter((c) => c.op === "read")).toEqual([{ op: "read", name: "got", id, keys: ["__provider", "name"] }]);
    expect(lc.notes().filter((n) => !n.dryRun)).toContainEqual({ key: "size", value: 1, dryRun: false });
    expect(lc.state().resources.find((r) => r.name === "got")).toMatchObject({ id, external: true });
    lc.program(`new Res("a", { size: 1 });`);
    const dropped = await lc.run("up", { skipPreview: true });
    // The CLI's `discard` step (shown as a delete) calls no provider.
    expect(changes(dropped)).toEqual(["delete got"]);
    expect(writes(dropped)).toEqual([]);
    expect(Object.keys(lc.objects())).toEqual([id]);
    expect(stateIds(lc.state())).toEqual([`a ${id}`]);
  });

  test("step.go ReadStep.Apply: a read answering no id does not fail under the dynamic host (it fails only on no outputs, and the host always answers __provider): the requested id is kept, with no other output", async () => {
    lc.program(`new Res("a", { size: 1 });
new Res("missing", {}, { id: "id-404" });`);
    const r = await lc.run("up", { skipPreview: true });
    expect(r.errors).toEqual([]);
    expect(r.calls.filter((c) => c.op === "read")).toEqual([{ op: "read", name: "missing", id: "id-404", keys: ["__provider", "name"] }]);
    const missing = lc.state().resources.find((x) => x.name === "missing")!;
    expect(missing).toMatchObject({ id: "id-404", external: true });
    expect(Object.keys(missing.outputs)).toEqual(["__provider"]);
  });
});

describe("aliases (step_generator.go getOldResource)", () => {
  const lc = lifecycleProject("aliases");
  const COMPONENT = `class Box extends pulumi.ComponentResource { constructor(name, opts) { super("lc:index:Box", name, {}, opts); } }
const box = new Box("box");`;

  test("TestAliases: a resource moved under a parent with an alias of its old URN keeps its state: no create, no delete (the new component's own create calls no provider)", async () => {
    lc.program(`new Res("a", { size: 1 });`);
    await lc.run("up", { skipPreview: true });
    const [id] = Object.keys(lc.objects());
    lc.program(`${COMPONENT}
new Res("a", { size: 1 }, { parent: box, aliases: [{ parent: pulumi.rootStackResource }] });`);
    const up = await lc.run("up");
    expect(writes(up)).toEqual([]);
    expect(changes(up)).toEqual(["create box"]);
    const a = lc.state().resources.find((r) => r.name === "a")!;
    expect(a.urn).toBe(`urn:pulumi:dev::${lc.project}::lc:index:Box$pulumi-nodejs:dynamic/lc:Res::a`);
    expect(a.id).toBe(id);
    expect(stateIds(lc.state())).toEqual([`a ${id}`]);
  });

  test("TestAliases: moved back under the stack without an alias, the URN changes: create of the new, then delete of the old", async () => {
    const [id] = Object.keys(lc.objects());
    lc.program(`new Res("a", { size: 1 });`);
    const up = await lc.run("up", { skipPreview: true });
    expect(writes(up)).toEqual(["create a", "delete a"]);
    const [created] = Object.keys(lc.objects());
    expect(created).not.toBe(id);
    expect(stateIds(lc.state())).toEqual([`a ${created}`]);
  });
});

describe("the preview pass of up, destroy and refresh (the CLI without --skip-preview)", () => {
  const lc = lifecycleProject("preview-pass");

  test("TestPreviewWithPendingOperations-style: up previews first (checks twice, creates once); a failing preview stops before any change", async () => {
    lc.program(`new Res("a", { size: 1 });`);
    const up = await lc.run("up");
    expect(up.calls.map((c) => c.op)).toEqual(["check", "check", "create"]);
    expect(up.output[0]).toMatch(/^Previewing update \(dev\)/);
    expect(up.output).toContainEqual(expect.stringMatching(/^Updating \(dev\)/));
    lc.program(`new Res("a", { size: 2 });
new Res("b", { bad: true });`);
    const refused = await lc.run("up", { ok: false });
    expect(writes(refused)).toEqual([]);
    expect(refused.output.some((l) => l.startsWith("Updating"))).toBe(false);
    expect(lc.objects()).toEqual({ "id-1": { name: "a", size: 1 } });
  });

  test("destroy and refresh preview first: the preview of destroy calls nothing, that of refresh reads", async () => {
    lc.program(`new Res("a", { size: 1 });`);
    const refresh = await lc.run("refresh");
    expect(refresh.calls.filter((c) => c.op === "read")).toHaveLength(2);
    const destroy = await lc.run("destroy");
    expect(writes(destroy)).toEqual(["delete a"]);
    expect(destroy.output[0]).toMatch(/^Previewing destroy/);
  });
});

describe("replacements (step_generator.go continueStepsFromDiff, GenerateDeletes)", () => {
  const lc = lifecycleProject("replace");

  test("TestUpdatePartialFailure-style: a replacement whose create fails leaves the original as it was, once", async () => {
    lc.program(`new Res("a", { size: 1, replaceOn: ["size"] });`);
    await lc.run("up", { skipPreview: true });
    lc.program(`new Res("a", { size: 2, replaceOn: ["size"], failCreate: "400" });`);
    const failed = await lc.run("up", { skipPreview: true, ok: false });
    expect(writes(failed)).toEqual(["create a"]);
    expect(stateIds(lc.state())).toEqual(["a id-1"]);
    lc.program(`new Res("a", { size: 1, replaceOn: ["size"] });`);
    const back = await lc.run("up", { skipPreview: true });
    expect(writes(back)).toEqual([]);
    expect(stateIds(lc.state())).toEqual(["a id-1"]);
    expect(Object.keys(lc.objects())).toEqual(["id-1"]);
  });

  test("TestPendingDeleteOrder: an original left pending delete is deleted after the program, with the other deletes; not when the program fails", async () => {
    // a replaced (create-then-delete); then b's update fails before the original's delete runs.
    lc.program(`const a = new Res("a", { size: 1, replaceOn: ["size"] });
new Res("b", { size: 1 }, { dependsOn: [a] });`);
    await lc.run("up", { skipPreview: true });
    lc.program(`const a = new Res("a", { size: 2, replaceOn: ["size"] });
new Res("b", { size: 2, failUpdate: "500" }, { dependsOn: [a] });`);
    await lc.run("up", { skipPreview: true, ok: false });
    const original = lc.state().resources.find((r) => r.name === "a" && r.pendingDelete)!;
    expect(original).toBeDefined();
    lc.program(`const a = new Res("a", { size: 2, replaceOn: ["size"] });
new Res("b", { size: 2, failUpdate: "500" }, { dependsOn: [a] });`);
    const stillFailing = await lc.run("up", { skipPreview: true, ok: false });
    expect(writes(stillFailing)).toEqual(["update b"]);
    expect(lc.state().resources.filter((r) => r.pendingDelete).map((r) => r.id)).toEqual([original.id]);
    lc.program(`const a = new Res("a", { size: 2, replaceOn: ["size"] });
new Res("b", { size: 2 }, { dependsOn: [a] });`);
    const fixed = await lc.run("up", { skipPreview: true });
    expect(writes(fixed)).toEqual(["update b", "delete a"]);
    expect(lc.state().resources.some((r) => r.pendingDelete)).toBe(false);
    expect(lc.objects()[original.id!]).toBeUndefined();
  });
});
