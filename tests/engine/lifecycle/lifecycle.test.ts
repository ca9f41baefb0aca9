/**
 * The lifecycle suite: scenarios modelled on pulumi/pulumi pkg/engine/lifecycletest, each naming the
 * test it mirrors, run through the test engine with a dynamic provider of the suite's own
 * (harness.ts). Each asserts the steps, the provider calls and the saved state, as the real tests do.
 */
import { changes, lifecycle, stateIds, writes, type Lifecycle } from "./harness";

jest.setTimeout(60_000);

/** One project per describe block, removed after it. */
function project(name: string): Lifecycle {
  const lc = lifecycle(name);
  afterAll(() => lc.close());
  return lc;
}

describe("preview of an in-place update (provider_plugin.go Update: req.Preview && !supportsPreview)", () => {
  const lc = project("preview-update");

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
