/**
 * Template through the real dynamic-provider host against the emulator (issue 4: acceptance 1 and 3,
 * `variables`, out-of-band deletion, import, a failed create job; issue 15: the default name,
 * adoptId, repeated first creates, a lost answer).
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, programRegistrations, UNKNOWN } from "../../tools/support/provider-host";
import { calls, emailCall, emailWorld, failure, fresh, outputsOf, wallet, type Props } from "./helpers";

const T = "Template";
let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const templateRec = (id: string) => emailWorld(h).templates.find((t) => t.id === id);

const ARGS = {
  name: "order-shipped_v1",
  subject: "Hi {{ name }}, order {{order_id}} shipped",
  htmlBody: "<p>{{order_id}}: {{ amount }} to {{zeta}}</p>",
  textBody: "{{name}} {{alpha}} {{ amount }}",
};

describe("Template lifecycle", () => {
  test("check → create (waits for its job) → read → diff → update → replace → delete → delete again", async () => {
    const inputs = await h.checked(T, ARGS);
    expect(outputsOf(inputs)).toEqual(ARGS);
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);

    // create: posts the template and waits for the create_template job.
    const created = await h.host.create(T, inputs);
    const rec = templateRec(created.id)!;
    expect(rec).toMatchObject({ name: ARGS.name, subject: ARGS.subject, htmlBody: ARGS.htmlBody, textBody: ARGS.textBody });
    expect(created.properties).toEqual({
      ...ARGS,
      templateId: created.id,
      variables: ["alpha", "amount", "name", "order_id", "zeta"], // the {{token}} names, sorted
      createdAt: rec.createdAt,
      updatedAt: rec.updatedAt,
      __provider: inputs.__provider,
    });
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/templates", status: 202 }]);
    expect(calls(h).some((c) => /^GET \/email\/jobs\/job_/.test(c))).toBe(true);
    const job = (h.emu.control.state().email as { jobs: { type: string; targetId: string; status: string }[] }).jobs.find((j) => j.targetId === created.id)!;
    expect(job).toMatchObject({ type: "create_template", status: "completed" });

    // read: the same outputs and inputs from the live API.
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe(created.id);
    expect(read.properties).toEqual(created.properties);
    expect(outputsOf(read.inputs)).toEqual(ARGS);

    // diff: identical → none; name replaces; subject and bodies update (also when one is removed).
    const olds = created.properties;
    expect(await h.host.diff(T, created.id, olds, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    const diffOf = async (args: Props) => h.host.diff(T, created.id, olds, await h.checked(T, args));
    expect(await diffOf({ ...ARGS, name: "order-shipped_v2" })).toMatchObject({ changes: "some", replaces: ["name"] });
    expect(await diffOf({ ...ARGS, subject: "Shipped" })).toMatchObject({ changes: "some", replaces: [] });
    expect(await diffOf({ ...ARGS, htmlBody: "<p>shipped</p>" })).toMatchObject({ changes: "some", replaces: [] });
    expect(await diffOf({ ...ARGS, textBody: "shipped" })).toMatchObject({ changes: "some", replaces: [] });
    const { textBody: _dropped, ...withoutText } = ARGS;
    expect(await diffOf(withoutText)).toMatchObject({ changes: "some", replaces: [] });

    // update in place: new subject, textBody removed from the program → cleared at the API.
    await h.emu.ctl("POST", "/clock/advance", { seconds: 1 });
    h.emu.control.clearRequests();
    const news = await h.checked(T, { ...withoutText, subject: "Your order {{order_id}}" });
    const updated = await h.host.update(T, created.id, olds, news);
    const after = templateRec(created.id)!;
    expect(after).toMatchObject({ name: ARGS.name, subject: "Your order {{order_id}}", htmlBody: ARGS.htmlBody, textBody: null });
    expect(after.updatedAt > rec.updatedAt).toBe(true);
    expect(updated.properties).toEqual({
      name: ARGS.name,
      subject: "Your order {{order_id}}",
      htmlBody: ARGS.htmlBody,
      templateId: created.id,
      variables: ["amount", "order_id", "zeta"],
      createdAt: rec.createdAt,
      updatedAt: after.updatedAt,
      __provider: inputs.__provider,
    });
    expect(h.writes()).toEqual([{ method: "PATCH", path: `/email/templates/${created.id}`, status: 200 }]);
    expect(await h.host.diff(T, created.id, updated.properties, news)).toMatchObject({ changes: "none" });

    // replace (create-before-delete): a template of the new name, then the old one is deleted.
    const replacement = await h.host.create(T, await h.checked(T, { ...withoutText, name: "order-shipped_v2" }));
    expect(templateRec(replacement.id)).toMatchObject({ name: "order-shipped_v2" });
    await h.host.delete(T, created.id, updated.properties);
    expect(templateRec(created.id)).toBeUndefined();
    expect(emailWorld(h).templates.map((t) => t.id)).toEqual([replacement.id]);

    // delete, and delete again: the second answers 404 at the API and still succeeds.
    h.emu.control.clearRequests();
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(emailWorld(h).templates).toEqual([]);
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(h.writes()).toEqual([
      { method: "DELETE", path: `/email/templates/${replacement.id}`, status: 200 },
      { method: "DELETE", path: `/email/templates/${replacement.id}`, status: 404 },
    ]);
  });

  test("an empty subject or body is no value (the API stores none): no diff after a refresh", async () => {
    const args = { name: "empty-parts", subject: "", htmlBody: "", textBody: "Hi {{who}}" };
    const inputs = await h.checked(T, args);
    expect(outputsOf(inputs)).toEqual({ name: "empty-parts", textBody: "Hi {{who}}" });
    const created = await h.host.create(T, inputs);
    expect(templateRec(created.id)).toMatchObject({ subject: null, htmlBody: null, textBody: "Hi {{who}}" });
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.properties).toEqual(created.properties);
    expect(await h.host.diff(T, created.id, read.properties, await h.checked(T, args))).toMatchObject({ changes: "none" });
    // …and an empty body alone is no body: refused in check, as the API would (EMPTY_TEMPLATE).
    const alone = await h.check(T, { name: "t", htmlBody: "", textBody: "" });
    expect(alone.failures.map((f) => f.property)).toEqual(["htmlBody"]);
  });

  test("read of a template deleted out of band answers gone (empty id)", async () => {
    const created = await h.host.create(T, await h.checked(T, { name: "gone", textBody: "bye" }));
    await emailCall(h, "DELETE", `/templates/${created.id}`);
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");
  });

  test("import: a read with only the program's inputs answers the live template", async () => {
    const { templateId } = await emailCall(h, "POST", "/templates", { name: "imported", textBody: "Hello {{who}}" });
    const read = await h.host.read(T, templateId, await h.inputs(T, { name: "imported", textBody: "Hello {{who}}" }));
    expect(read.id).toBe(templateId);
    expect(outputsOf(read.inputs)).toEqual({ name: "imported", textBody: "Hello {{who}}" });
    expect(read.properties).toMatchObject({ name: "imported", textBody: "Hello {{who}}", templateId, variables: ["who"] });
    expect(read.properties).not.toHaveProperty("subject");
    expect(await h.host.diff(T, templateId, read.properties, await h.checked(T, { name: "imported", textBody: "Hello {{who}}" }))).toMatchObject({
      changes: "none",
    });
  });
});

describe("Template errors", () => {
  test("a failed create_template job: the error names the job and its reason; nothing is left behind", async () => {
    await h.emu.ctl("POST", "/job-failures", { kind: "email.create_template", reason: "storage unavailable" });
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { name: "broken", textBody: "x" })));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toMatch(/^create failed: job job_[0-9a-f]+ \(create_template\) failed: storage unavailable$/);
    expect(emailWorld(h).templates).toEqual([]);
  });

  test("TEMPLATE_LIMIT_REACHED: operation, method and path, status, code, the API's message", async () => {
    const inputs = await h.checked(T, { name: "one-too-many", textBody: "x" });
    // The plan shrinks after the check (which reads its limits): the API's own refusal is what the create meets.
    h.emu.control.emu.world.projects[0].email.plan!.templates = 0;
    const err = await failure<HostError>(h.host.create(T, inputs));
    expect(err.message).toMatch(/^create failed: POST \/templates 402 TEMPLATE_LIMIT_REACHED — Your plan allows 0 templates/);
  });
});

describe("Template naming, adoption and repeated creates (issue 15)", () => {
  const posts = () => h.writes().filter((w) => w.method === "POST" && w.path === "/email/templates");
  const BODY = { subject: "Hi {{name}}", textBody: "Hello {{name}}" };

  test("the sdk passes a deterministic defaultName; check takes name, else the old name, else defaultName; diff ignores defaultName and adoptId", async () => {
    const [registered] = await programRegistrations('new svc.Template("welcome", { textBody: "Hi" });');
    const defaultName = registered.inputs.defaultName as string;
    expect(defaultName).toMatch(/^welcome-[0-9a-f]{7}$/);
    const [again] = await programRegistrations('new svc.Template("welcome", { textBody: "Hi" });');
    expect(again.inputs.defaultName).toBe(defaultName);

    expect((await h.checked(T, { ...BODY, defaultName })).name).toBe(defaultName);
    expect((await h.checked(T, { ...BODY, name: "explicit", defaultName })).name).toBe("explicit");
    // A name already chosen stays when `name` leaves the program (no replace).
    const olds = { ...(await h.checked(T, { ...BODY, name: "chosen", defaultName })), templateId: "t-1" };
    const kept = await h.checked(T, { ...BODY, defaultName }, olds);
    expect(kept.name).toBe("chosen");
    expect(await h.host.diff(T, "t-1", olds, kept)).toMatchObject({ changes: "none", replaces: [] });
    // defaultName and adoptId never show as a change.
    expect(await h.host.diff(T, "t-1", olds, await h.checked(T, { ...BODY, name: "chosen", defaultName: "other-1234567", adoptId: "x" }))).toMatchObject({
      changes: "none",
      replaces: [],
    });
    const bad = await h.check(T, { ...BODY, defaultName: "not valid" });
    expect(bad.failures.map((f) => f.property)).toContain("defaultName");
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("repeated first create with the default name: the second adopts the first's template, no second POST", async () => {
    const program = { ...BODY, defaultName: "welcome-0a1b2c3" };
    const before = wallet(h);
    const first = await h.host.create(T, await h.checked(T, program));
    // The engine was killed: its state never got `first`. The next `up` checks with no olds and creates again.
    const second = await h.host.create(T, await h.checked(T, program));
    expect(second.id).toBe(first.id);
    expect(outputsOf(second.properties)).toEqual(outputsOf(first.properties));
    expect(posts()).toHaveLength(1);
    expect(emailWorld(h).templates).toHaveLength(1);
    expect(wallet(h)).toBe(before);
    expect(await h.host.diff(T, second.id, second.properties, await h.checked(T, program))).toMatchObject({ changes: "none" });
  });

  test("repeated first create after the program changed a body: adopted as it is, the next preview shows the update", async () => {
    const first = await h.host.create(T, await h.checked(T, { ...BODY, defaultName: "welcome-0a1b2c3" }));
    const news = await h.checked(T, { ...BODY, textBody: "Welcome {{name}}", defaultName: "welcome-0a1b2c3" });
    const second = await h.host.create(T, news);
    expect(second.id).toBe(first.id);
    expect(second.properties.textBody).toBe("Hello {{name}}"); // the live value
    expect(await h.host.diff(T, second.id, second.properties, news)).toMatchObject({ changes: "some", replaces: [] });
    expect(posts()).toHaveLength(1);
  });

  test("two templates with the default name: the create stops naming both (nothing adopted, nothing created)", async () => {
    const a = await emailCall(h, "POST", "/templates", { name: "welcome-0a1b2c3", textBody: "a" });
    const b = await emailCall(h, "POST", "/templates", { name: "welcome-0a1b2c3", textBody: "b" });
    h.emu.control.clearRequests();
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { ...BODY, defaultName: "welcome-0a1b2c3" })));
    expect(err.message).toContain(`2 templates already answer to this resource`);
    expect(err.message).toContain(a.templateId);
    expect(err.message).toContain(b.templateId);
    expect(err.message).toContain("adoptId");
    expect(h.writes()).toEqual([]);
  });

  test("repeated first create with an explicit name: the second stops with the id and adoptId line; with adoptId it converges", async () => {
    const program = { ...BODY, name: "order-shipped", defaultName: "t-0a1b2c3" };
    const first = await h.host.create(T, await h.checked(T, program));
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, program)));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toContain(`create failed: a template named "order-shipped" already exists (id ${first.id})`);
    expect(err.message).toContain(`adoptId: "${first.id}"`);
    expect(posts()).toHaveLength(1);

    const adopted = await h.host.create(T, await h.checked(T, { ...program, adoptId: first.id }));
    expect(adopted.id).toBe(first.id);
    // The same outputs: a template made by the create takes its timestamps from its job (not read
    // back, issue 16), which the same request stamped; an adopted one is read from the API.
    expect(outputsOf(adopted.properties)).toEqual({ ...outputsOf(first.properties), adoptId: first.id });
    expect(posts()).toHaveLength(1);
    expect(emailWorld(h).templates).toHaveLength(1);
  });

  test("adoptId: a template made out of band is read, not created; outputs are the live values; diff shows where the program differs", async () => {
    const { templateId } = await emailCall(h, "POST", "/templates", { name: "legacy", subject: "Old {{a}}", htmlBody: "<p>{{b}}</p>" });
    const before = wallet(h);
    h.emu.control.clearRequests();
    const program = { name: "legacy", subject: "Old {{a}}", htmlBody: "<p>{{b}}</p>", defaultName: "t-0a1b2c3", adoptId: templateId };
    const inputs = await h.checked(T, program);
    const created = await h.host.create(T, inputs);
    const rec = templateRec(templateId)!;
    expect(created.id).toBe(templateId);
    const { defaultName: _inputOnly, ...repeated } = program; // bookkeeping input, not repeated in the outputs
    expect(outputsOf(created.properties)).toEqual({
      ...repeated,
      templateId,
      variables: ["a", "b"],
      createdAt: rec.createdAt,
      updatedAt: rec.updatedAt,
    });
    expect(h.writes()).toEqual([]);
    expect(wallet(h)).toBe(before);

    const olds = created.properties;
    expect(await h.host.diff(T, templateId, olds, inputs)).toMatchObject({ changes: "none", replaces: [] });
    const { adoptId: _a, ...withoutAdopt } = program;
    expect(await h.host.diff(T, templateId, olds, await h.checked(T, withoutAdopt))).toMatchObject({ changes: "none", replaces: [] });
    expect(await h.host.diff(T, templateId, olds, await h.checked(T, { ...program, subject: "New" }))).toMatchObject({ changes: "some", replaces: [] });
    expect(await h.host.diff(T, templateId, olds, await h.checked(T, { ...program, name: "renamed" }))).toMatchObject({ changes: "some", replaces: ["name"] });
  });

  test("adoptId of a template that differs from the program: the live values are the outputs, so the next preview updates or replaces", async () => {
    const { templateId } = await emailCall(h, "POST", "/templates", { name: "live-name", textBody: "live body" });
    const inputs = await h.checked(T, { name: "program-name", textBody: "program body", adoptId: templateId });
    const created = await h.host.create(T, inputs);
    expect(created.properties).toMatchObject({ name: "live-name", textBody: "live body", adoptId: templateId });
    expect(await h.host.diff(T, templateId, created.properties, inputs)).toMatchObject({ changes: "some", replaces: ["name"] });
    const sameName = await h.checked(T, { name: "live-name", textBody: "program body", adoptId: templateId });
    expect(await h.host.diff(T, templateId, created.properties, sameName)).toMatchObject({ changes: "some", replaces: [] });
    expect(templateRec(templateId)).toMatchObject({ name: "live-name", textBody: "live body" }); // untouched
  });

  test("adoptId errors: an unknown id is named; a template whose create job fails while adopted is reported gone", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { name: "x", textBody: "x", adoptId: unknown })));
    expect(err.message).toMatch(new RegExp(`^create failed: GET /templates/${unknown} 404 TEMPLATE_NOT_FOUND — .*adoptId "${unknown}": no template with this id`));
    expect(posts()).toEqual([]);

    // Its create_template job still open when adopted (jobs take time here), then failing: the job
    // removes the template. The adoption waits for the open job, so it says so now.
    h.emu.control.setTransitions("time", 0.3);
    let gone: HostError;
    let templateId: string;
    try {
      await h.emu.ctl("POST", "/job-failures", { kind: "email.create_template", reason: "storage unavailable" });
      ({ templateId } = await emailCall(h, "POST", "/templates", { name: "doomed", textBody: "x" }));
      gone = await failure<HostError>(h.host.create(T, await h.checked(T, { name: "doomed", textBody: "x", adoptId: templateId })));
    } finally {
      h.emu.control.setTransitions("immediate");
    }
    expect(gone.initFailed).toBeUndefined();
    expect(gone.message).toContain(`Template ${templateId} is gone`);
    expect(emailWorld(h).templates).toEqual([]);
  });

  test("an answer lost after the template was made: found by its name and kept, one POST /templates", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/templates", afterCommit: true, drop: true, times: 1 });
    const created = await h.host.create(T, await h.checked(T, { ...BODY, name: "lost-answer" }));
    expect(emailWorld(h).templates.map((t) => t.id)).toEqual([created.id]);
    expect(created.properties).toMatchObject({ name: "lost-answer", ...BODY, templateId: created.id });
    expect(posts()).toEqual([{ method: "POST", path: "/email/templates", status: 0 }]);
  });
});

describe("Template check", () => {
  const body = "Hello";
  const cases: [string, Props, string][] = [
    ["name missing", { textBody: body }, "name"],
    ["name empty", { name: "", textBody: body }, "name"],
    ["name with a space", { name: "order shipped", textBody: body }, "name"],
    ["name with a dot", { name: "order.shipped", textBody: body }, "name"],
    ["name over 63 characters", { name: "n".repeat(64), textBody: body }, "name"],
    ["name of the wrong type", { name: 5, textBody: body }, "name"],
    ["neither htmlBody nor textBody", { name: "t", subject: "Hi" }, "htmlBody"],
    ["htmlBody over 200,000 characters", { name: "t", htmlBody: "x".repeat(200_001) }, "htmlBody"],
    ["textBody over 200,000 characters", { name: "t", textBody: "x".repeat(200_001) }, "textBody"],
    ["textBody of the wrong type", { name: "t", textBody: ["x"] }, "textBody"],
    ["subject with a line break", { name: "t", subject: "Hi\nthere", textBody: body }, "subject"],
    ["subject with a carriage return", { name: "t", subject: "Hi\rthere", textBody: body }, "subject"],
    ["subject over 500 characters", { name: "t", subject: "s".repeat(501), textBody: body }, "subject"],
    ["an unknown property", { name: "t", textBody: body, html: "<p/>" }, "html"],
  ];

  test.each(cases)("%s fails in check with the property named, before any call", async (_label, args, property) => {
    const result = await h.check(T, args);
    expect(result.failures.map((f) => f.property)).toEqual([property]);
    expect(result.failures[0].reason).toMatch(new RegExp(property));
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("limits themselves pass: 63-character name, 200,000-character bodies, 500-character subject", async () => {
    const result = await h.check(T, { name: "N".repeat(63), subject: "s".repeat(500), htmlBody: "x".repeat(200_000), textBody: "y".repeat(200_000) });
    expect(result.failures).toEqual([]);
  });

  test("values unknown during preview are never a failure (not even for the one-body rule)", async () => {
    for (const args of [{ name: UNKNOWN, htmlBody: UNKNOWN }, { name: "t", subject: UNKNOWN, textBody: UNKNOWN }, { name: "t", subject: UNKNOWN, htmlBody: UNKNOWN, textBody: UNKNOWN }]) {
      const result = await h.check(T, args);
      expect(result.failures).toEqual([]);
    }
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});
