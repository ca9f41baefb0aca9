/**
 * EmailTopic and EmailSegment through the real dynamic-provider host against the emulator: bad
 * input refused at check with the property named, create once (a lost answer settled by looking,
 * a same-named object stopping the create with the adoptId line), updates in place, refresh drift,
 * already-gone delete, adoptId, and the plan's limits explained.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { emailCall, failure, fresh, outputsOf, type Props } from "../email/helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const state = () => (h.emu.control.state().email as { audience?: { topics: Props[]; segments: Props[] } }).audience ?? { topics: [], segments: [] };
const RULE = { field: "email", operator: "contains", value: "@acme.dev" };

describe("EmailTopic", () => {
  const T = "EmailTopic";

  test("check refuses bad input with the property named, before any call", async () => {
    h.emu.control.clearRequests();
    expect((await h.check(T, { name: "" })).failures).toEqual([{ property: "name", reason: expect.stringContaining("must not be empty") }]);
    expect((await h.check(T, { name: "x", description: "d".repeat(501) })).failures).toEqual([{ property: "description", reason: expect.stringContaining("500") }]);
    expect((await h.check(T, { name: "x", colour: "red" })).failures).toEqual([{ property: "colour", reason: expect.stringContaining("unknown property") }]);
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("create, update in place, refresh drift, delete (already gone counts as deleted)", async () => {
    const created = await h.host.create(T, await h.checked(T, { name: "News", description: "Monthly" }));
    expect(outputsOf(created.properties)).toEqual({ name: "News", description: "Monthly", topicId: created.id, createdAt: expect.any(String) });
    const diff = await h.host.diff(T, created.id, created.properties, await h.checked(T, { name: "Newsletter" }, created.properties));
    expect(diff).toEqual(expect.objectContaining({ changes: "some", replaces: [] }));
    const updated = await h.host.update(T, created.id, created.properties, await h.checked(T, { name: "Newsletter" }, created.properties));
    expect(state().topics).toEqual([expect.objectContaining({ id: created.id, name: "Newsletter", description: null })]);
    await emailCall(h, "PATCH", `/topics/${created.id}`, { name: "Renamed by hand" });
    const read = await h.host.read(T, created.id, updated.properties);
    expect(outputsOf(read.inputs!)).toEqual({ name: "Renamed by hand" });
    await h.host.delete(T, created.id, updated.properties);
    expect(state().topics).toEqual([]);
    await h.host.delete(T, created.id, updated.properties);
    expect((await h.host.read(T, created.id, updated.properties)).id).toBe("");
  });

  test("a lost create answer is settled by looking: one topic", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/topics", afterCommit: true, drop: true, times: 1 });
    const created = await h.host.create(T, await h.checked(T, { name: "Lost" }));
    expect(state().topics).toEqual([expect.objectContaining({ id: created.id, name: "Lost" })]);
  });

  test("a topic of the same name already there stops the create with the adoptId line; adoptId takes it", async () => {
    const existing = await emailCall(h, "POST", "/topics", { name: "Taken" });
    const err = await failure(h.host.create(T, await h.checked(T, { name: "Taken" })));
    expect(err.message).toContain(`adoptId: "${existing.id}"`);
    const adopted = await h.host.create(T, await h.checked(T, { name: "Taken", adoptId: existing.id }));
    expect(adopted.id).toBe(existing.id);
    expect(state().topics).toHaveLength(1);
  });

  test("TOPIC_LIMIT_REACHED is explained", async () => {
    for (const name of ["a", "b", "c"]) await emailCall(h, "POST", "/topics", { name });
    const err = await failure(h.host.create(T, await h.checked(T, { name: "d" })));
    expect(err.message).toContain("402 TOPIC_LIMIT_REACHED");
    expect(err.message).toContain("choose a larger plan");
  });
});

describe("EmailSegment", () => {
  const T = "EmailSegment";

  test("check refuses 0 or 21 rules, an unknown operator and a missing value, naming the property", async () => {
    h.emu.control.clearRequests();
    expect((await h.check(T, { name: "s", rules: [] })).failures).toEqual([{ property: "rules", reason: expect.stringContaining("at least 1 rule") }]);
    expect((await h.check(T, { name: "s", rules: Array(21).fill(RULE) })).failures).toEqual([{ property: "rules", reason: expect.stringContaining("at most 20") }]);
    expect((await h.check(T, { name: "s", rules: [{ field: "email", operator: "like", value: "x" }] })).failures).toEqual([{ property: "rules", reason: expect.stringContaining("rules.0.operator") }]);
    expect((await h.check(T, { name: "s", rules: [{ field: "email", operator: "equals" }] })).failures).toEqual([{ property: "rules", reason: expect.stringContaining("rules.0.value") }]);
    expect(h.emu.control.requests()).toEqual([]);
    expect((await h.check(T, { name: "s", rules: [{ field: "vip", operator: "exists" }] })).failures).toEqual([]);
  });

  test("create, rules updated in place, refresh drift, delete", async () => {
    const created = await h.host.create(T, await h.checked(T, { name: "Acme", rules: [RULE] }));
    const news = await h.checked(T, { name: "Acme", rules: [RULE, { field: "vip", operator: "exists" }] }, created.properties);
    const diff = await h.host.diff(T, created.id, created.properties, news);
    expect(diff).toEqual(expect.objectContaining({ changes: "some", replaces: [] }));
    const updated = await h.host.update(T, created.id, created.properties, news);
    expect(state().segments).toEqual([expect.objectContaining({ id: created.id, rules: [RULE, { field: "vip", operator: "exists" }] })]);
    const same = await h.host.diff(T, created.id, updated.properties, news);
    expect(same.changes).toBe("none");
    await emailCall(h, "PATCH", `/segments/${created.id}`, { rules: [RULE] });
    expect(outputsOf((await h.host.read(T, created.id, updated.properties)).inputs!)).toEqual({ name: "Acme", rules: [RULE] });
    await h.host.delete(T, created.id, updated.properties);
    expect(state().segments).toEqual([]);
  });

  test("SEGMENT_LIMIT_REACHED is explained", async () => {
    for (const name of ["a", "b", "c"]) await emailCall(h, "POST", "/segments", { name, rules: [RULE] });
    const err = await failure(h.host.create(T, await h.checked(T, { name: "d", rules: [RULE] })));
    expect(err.message).toContain("402 SEGMENT_LIMIT_REACHED");
  });
});
