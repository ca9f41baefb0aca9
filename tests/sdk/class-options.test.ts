/**
 * What the sdk classes do with their options before anything is registered (sdk/common.ts,
 * SvcResource): the `import` option becomes `adoptId`, refused where it cannot apply.
 */
import * as pulumi from "@pulumi/pulumi";

const registered: { type: string; name: string; inputs: Record<string, unknown>; importId?: string }[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        // The mock monitor hands a registration's `import` id over as `id`.
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, importId: args.id });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

// Loaded after the mocks are set, as a program would run under them.
const svc = () => require("../../sdk") as typeof import("../../sdk");

test("the import option is passed as adoptId, and not to the engine", async () => {
  const t = new (svc().Template)("imported", { name: "imported", subject: "Hi", textBody: "Hello" }, { import: "tpl-123" });
  await new Promise((resolve) => t.id.apply(resolve));
  const r = registered.find((x) => x.name === "imported")!;
  expect(r.inputs).toMatchObject({ adoptId: "tpl-123" });
  expect(r.importId || undefined).toBeUndefined();
});

test("import and a different adoptId: refused at once, naming both and the line to keep", () => {
  expect(() => new (svc().Template)("both", { name: "both", subject: "Hi", textBody: "Hello", adoptId: "tpl-1" }, { import: "tpl-2" })).toThrow(
    'Template "both": both the resource option import and the argument adoptId are given: keep one (`adoptId: "tpl-2"` is the argument this package reads)',
  );
});

test("import on a SendingDomainVerification: refused, saying to adopt its SendingDomain", () => {
  expect(() => new (svc().SendingDomainVerification)("v", { domainId: "dom_1" }, { import: "dom_1" })).toThrow(/SendingDomainVerification "v": the resource option import does not apply: .*adopt that one with adoptId/);
});

test("an output that is the object's id is the resource's id", async () => {
  const d = new (svc().SendingDomain)("mail", { domain: "mail.example.com" });
  const [id, domainId] = await new Promise<[string, string]>((resolve) => pulumi.all([d.id, d.domainId]).apply(resolve));
  expect(domainId).toBe(id);
  expect(id).toBe("mail-id");
});

test("a declaration leaves the program's stack trace limit as it was", async () => {
  const before = Error.stackTraceLimit;
  Error.stackTraceLimit = 17;
  let hook: import("../../sdk").Webhook;
  try {
    hook = new (svc().Webhook)("limit", { url: "https://hooks.example.com/svc", events: ["email.delivered"] });
    expect(Error.stackTraceLimit).toBe(17);
  } finally {
    Error.stackTraceLimit = before;
  }
  // Registered to the end (its provider serialized once, for the declaration below as well).
  await new Promise((resolve) => hook.id.apply(resolve));
});

test("an error the registration throws at once keeps its message and a stack from the declaring line, and leaves the limit as it was", () => {
  const before = Error.stackTraceLimit;
  function declareWithABadParent(): void {
    new (svc().Webhook)("bad-parent", { url: "https://hooks.example.com/svc", events: ["email.delivered"] }, { parent: {} as pulumi.Resource });
  }
  let thrown: unknown;
  try {
    declareWithABadParent();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as Error).message).toMatch(/^Resource parent is not a valid Resource/);
  expect((thrown as Error).stack).toMatch(/\n\s+at declareWithABadParent /);
  expect(Error.stackTraceLimit).toBe(before);
});
