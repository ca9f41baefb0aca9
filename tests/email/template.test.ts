/**
 * Template through the real dynamic-provider host against the emulator (issue 4: acceptance 1 and 3,
 * `variables`, out-of-band deletion, import, a failed create job).
 */
import { type ResourceHarness } from "../support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, UNKNOWN } from "../support/provider-host";
import { calls, emailCall, emailWorld, failure, fresh, outputsOf, type Props } from "./helpers";

const T = "Template";
let h: ResourceHarness;
useResourceHarness((x) => (h = x), fresh);

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
    expect(h.emu.control.requests()).toEqual([]);

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
    const alone = await h.host.check(T, {}, await h.inputs(T, { name: "t", htmlBody: "", textBody: "" }));
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
    h.emu.control.emu.world.projects[0].email.plan!.templates = 0;
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { name: "one-too-many", textBody: "x" })));
    expect(err.message).toMatch(/^create failed: POST \/templates 402 TEMPLATE_LIMIT_REACHED — Your plan allows 0 templates/);
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
    const result = await h.host.check(T, {}, await h.inputs(T, args));
    expect(result.failures.map((f) => f.property)).toEqual([property]);
    expect(result.failures[0].reason).toMatch(new RegExp(property));
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("limits themselves pass: 63-character name, 200,000-character bodies, 500-character subject", async () => {
    const result = await h.host.check(T, {}, await h.inputs(T, { name: "N".repeat(63), subject: "s".repeat(500), htmlBody: "x".repeat(200_000), textBody: "y".repeat(200_000) }));
    expect(result.failures).toEqual([]);
  });

  test("values unknown during preview are never a failure (not even for the one-body rule)", async () => {
    for (const args of [{ name: UNKNOWN, htmlBody: UNKNOWN }, { name: "t", subject: UNKNOWN, textBody: UNKNOWN }, { name: "t", subject: UNKNOWN, htmlBody: UNKNOWN, textBody: UNKNOWN }]) {
      const result = await h.host.check(T, {}, await h.inputs(T, args));
      expect(result.failures).toEqual([]);
    }
    expect(h.emu.control.requests()).toEqual([]);
  });
});
