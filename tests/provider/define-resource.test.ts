/**
 * defineResource refuses a CRUD that leaves a default without what it needs (the default read's
 * `find` and `properties`, the default delete's `remove`): the compiler refuses it (the
 * `@ts-expect-error` lines fail the typecheck if it stops doing so), and a cast past the compiler
 * fails as the module loads, naming the type, not at the first read or delete.
 */
import { z } from "zod";
import { defineResource, defineSchema, type ResourceCrud } from "../../provider/schema";

const schema = defineSchema({
  type: "Widget",
  service: "platform",
  summary: "A widget.",
  example: `new svc.Widget("w", {});`,
  inputs: {},
  outputs: {},
  interrupted: "Nothing.",
  errors: {},
});

const create: ResourceCrud<typeof schema, { id: string }>["create"] = async () => ({ id: "w-1", outs: {} });
const find = async (id: string) => ({ id });
const properties = () => ({ inputs: {}, outputs: {} });
const remove = async () => undefined;

test("a CRUD with find, properties and remove defines the type", () => {
  expect(defineResource(schema, { create, find, properties, remove }).schema.type).toBe("Widget");
});

test("neither delete nor remove: defineResource throws at once, naming the type and what is missing", () => {
  // @ts-expect-error: the default delete needs remove.
  expect(() => defineResource(schema, { create, find, properties })).toThrow("Widget: defineResource needs delete, or remove");
});

test("neither read nor find with properties: defineResource throws at once, naming the type and what is missing", () => {
  // @ts-expect-error: the default read needs find and properties.
  expect(() => defineResource(schema, { create, find, remove })).toThrow("Widget: defineResource needs read, or find and properties");
});

test("a state value the schema refuses (drift a refresh stored) counts as absent: the diff shows the change, the delete runs", async () => {
  const hooks = defineSchema({
    type: "Hook",
    service: "email",
    summary: "A hook.",
    example: `new svc.Hook("h", { url: "https://hooks.example.com" });`,
    inputs: { url: { schema: z.string().startsWith("https://"), description: "Where.", change: "update" } },
    outputs: {},
    interrupted: "Nothing.",
    errors: {},
  });
  const removed: unknown[] = [];
  const hook = defineResource(hooks, {
    create: async (inputs) => ({ id: "h-1", outs: { url: inputs.url } }),
    find: async (id) => ({ id }),
    properties: (_object, props) => ({ inputs: {}, outputs: props }),
    remove: async (_id, props) => removed.push(props),
  });
  // What the API holds after a change out of band, which the input rule would refuse.
  const drifted = { url: "http://hooks.example.com/a" };
  const ctx = {} as never;
  await expect(hook.diff("h-1", drifted, { url: "https://hooks.example.com/a" }, ctx)).resolves.toMatchObject({ changes: true });
  await hook.delete("h-1", drifted, ctx);
  expect(removed).toEqual([{}]);
});
