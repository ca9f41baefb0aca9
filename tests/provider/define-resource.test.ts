/**
 * defineResource refuses a CRUD that leaves a default without what it needs (the default read's
 * `find` and `properties`, the default delete's `remove`): the compiler refuses it (the
 * `@ts-expect-error` lines fail the typecheck if it stops doing so), and a cast past the compiler
 * fails as the module loads, naming the type, not at the first read or delete.
 */
import { defineResource, defineSchema, type ResourceCrud } from "../../provider/schema";

const schema = defineSchema({
  type: "Widget",
  service: "platform",
  summary: "A widget.",
  example: "widget.ts",
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
