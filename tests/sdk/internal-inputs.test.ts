/**
 * The internal inputs a class sets itself (sdk/common.ts, SvcResource): each one its schema's `sdk`
 * names is passed, also when it names more than one (no schema does today; the spec here is a
 * test's own, over the Template provider).
 */
import * as pulumi from "@pulumi/pulumi";
import provider = require("../../sdk/dynamic/Template");
import { SvcResource, type ClassSpec } from "../../sdk/common";

const registered: Record<string, Record<string, unknown>> = {};

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered[args.name] = args.inputs;
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  ),
);

const SPEC: ClassSpec = { type: "Template", outputs: { computed: {}, secret: [] }, defaultName: true, idempotencyScope: true };

class TwoInternalInputs extends SvcResource {
  constructor(name: string, args: object) {
    super(provider, SPEC, name, args, undefined);
  }
}

test("a spec naming defaultName and idempotencyScope: the class passes both", async () => {
  const r = new TwoInternalInputs("both", { subject: "Hi", textBody: "Hello" });
  await new Promise((resolve) => r.id.apply(resolve));
  expect(registered.both).toMatchObject({ defaultName: expect.stringMatching(/^both-/), idempotencyScope: expect.stringMatching(/^[0-9a-f]{24}$/) });
});
