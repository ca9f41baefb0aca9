/**
 * Every output a class declares (the keys of its generated `<Type>Outputs` interface) is an Output
 * on every instance, also when the optional inputs it echoes were left out: `dynamic.Resource`
 * makes an Output only for a key its props hold. Each class is built with its required inputs only,
 * under Pulumi's mocks; the mock answers a provider-made `name`, which the Output then carries.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { resources } from "../../provider/index";
import { isOptional } from "../../tools/docs/schema-text";
import * as svc from "../../sdk/index";

const ROOT = join(__dirname, "..", "..");

/** The keys of `export interface <Type>Outputs { … }` as the generated file declares them. */
function declaredOutputs(type: string): string[] {
  const text = readFileSync(join(ROOT, "sdk", "generated", `${type}.ts`), "utf8");
  const body = new RegExp(`export interface ${type}Outputs \\{([\\s\\S]*?)\\n\\}`).exec(text)?.[1] ?? "";
  return [...body.matchAll(/^\s*readonly (\w+):/gm)].map((m) => m[1]);
}

/** A plain value of the schema's input type (the mocks check nothing; the class only needs a value). */
function sample(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { type?: string; enum?: unknown[]; anyOf?: { type?: string }[] };
  if (json.enum) return json.enum[0];
  const type = json.type ?? json.anyOf?.[0]?.type;
  return type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "array" ? [] : type === "object" ? {} : "x";
}

const created: Record<string, pulumi.Inputs> = {};
beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        created[args.name] = args.inputs;
        // What the provider answers for a server created without a name: the generated one.
        const state = args.name === "unnamed-server" ? { ...args.inputs, name: "unnamed-server-1a2b3c4" } : args.inputs;
        return { id: `${args.name}-id`, state };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    false,
  ),
);

const classes = svc as unknown as Record<string, new (name: string, args: object) => pulumi.CustomResource>;

test.each(Object.keys(resources))("%s: every declared output is an Output with only the required inputs given", async (type) => {
  const schema = resources[type].schema;
  const required = Object.entries(schema.inputs).filter(([, input]) => !input.internal && !isOptional(input.schema));
  const args = Object.fromEntries(required.map(([name, input]) => [name, sample(input.schema)]));
  const declared = declaredOutputs(type);
  expect(declared.length).toBeGreaterThan(0);
  const resource = classes[type] ? new classes[type](`bare-${type}`, args) : undefined;
  expect(resource).toBeDefined();
  const notOutputs = declared.filter((key) => !pulumi.Output.isInstance((resource as unknown as Record<string, unknown>)[key]));
  expect(notOutputs).toEqual([]);
  await new Promise<void>((resolve) => resource!.urn.apply(() => resolve()));
});

test("an unnamed server's `name` resolves to the name the provider answers", async () => {
  const server = new svc.Vps("unnamed-server", { planId: "plan", osType: "ubuntu", osVersion: "24.04", rootPassword: "Quick!start2026" });
  const name = await new Promise<string>((resolve) => server.name.apply((value) => resolve(value)));
  expect(name).toBe("unnamed-server-1a2b3c4");
  expect(created["unnamed-server"].name).toBeUndefined();
});
