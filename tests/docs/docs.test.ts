/**
 * The reference comes from the schemas: the written files are what the sources say, and one edit of
 * a schema changes the check, the sdk type and the page together.
 */
import { z } from "zod";
import { join } from "node:path";
import { generate, stalePaths } from "../../tools/docs/docs";
import { template } from "../../provider/email/template";
import { checkSchema, type SchemaResource } from "../../provider/schema";

const ROOT = join(__dirname, "..", "..");

test("docs/, sdk/generated/ and the sdk classes' comments are what the schemas and TSDoc say (npm run docs)", () => {
  expect(stalePaths(generate(ROOT), ROOT, true)).toEqual([]);
});

test("one edit of a rule and a description changes the check, the sdk type and the page", () => {
  const edited: SchemaResource = {
    ...template,
    schema: {
      ...template.schema,
      inputs: {
        ...template.schema.inputs,
        name: { ...template.schema.inputs.name, schema: z.string().regex(/^[a-z]{1,8}$/, "1 to 8 lower-case letters").optional(), description: "What the dashboard lists it as." },
      },
    },
  };
  const before = generate(ROOT, [template]);
  const after = generate(ROOT, [edited]);
  const sdkFile = join("sdk", "generated", "Template.ts");
  const pageFile = join("docs", "Template.md");

  expect(before.get(sdkFile)).toContain("1 to 63 characters: letters, digits, underscore, hyphen");
  expect(after.get(sdkFile)).toContain("Rule: 1 to 8 lower-case letters.");
  expect(after.get(sdkFile)).toContain("What the dashboard lists it as.");
  expect(after.get(sdkFile)).not.toContain("1 to 63 characters");
  expect(after.get(pageFile)).toContain("- Rule: 1 to 8 lower-case letters");
  expect(after.get(pageFile)).toContain("What the dashboard lists it as.");

  const inputs = { name: "welcome_mail", textBody: "Hello" };
  expect(checkSchema(template.schema, inputs).failures).toEqual([]);
  expect(checkSchema(edited.schema, inputs).failures).toEqual([{ property: "name", reason: "name: 1 to 8 lower-case letters" }]);
});

test("the schema's example is the example file's program, the class's @example and the page's: one edit changes those three files only", () => {
  const edited: SchemaResource = { ...template, schema: { ...template.schema, example: template.schema.example.replace('"Welcome, {{firstName}}"', '"Hello, {{firstName}}"') } };
  const before = generate(ROOT, [template]);
  const after = generate(ROOT, [edited]);
  const exampleFile = join("docs", "examples", "Template.ts");
  const classFile = join("sdk", "email", "template.ts");
  const pageFile = join("docs", "Template.md");

  expect([...after.keys()].filter((f) => after.get(f) !== before.get(f)).sort()).toEqual([classFile, exampleFile, pageFile].sort());
  const [header, ...program] = after.get(exampleFile)!.split("\n");
  expect(header).toBe("// The example of docs/Template.md. Written by `npm run docs` from the schema in provider/email/template.ts of the pulumi-svc repository: edit its `example` there.");
  expect(program.join("\n")).toBe(`${edited.schema.example.trim()}\n`);
  expect(after.get(classFile)).toContain(' *   subject: "Hello, {{firstName}}",');
  expect(after.get(pageFile)).toContain(`\`\`\`typescript\n${edited.schema.example.trim()}\n\`\`\``);
  // The header is the file's alone: the TSDoc and the page show the program as a user copies it.
  for (const file of [classFile, pageFile]) expect(after.get(file)).not.toContain(header);
});

test("a change kind in the schema is what the diff does", async () => {
  const olds = { name: "a", subject: "s", textBody: "t" };
  const diff = (news: object) => template.diff("id", olds, { ...olds, ...news }, undefined as never);
  await expect(diff({ name: "b" })).resolves.toEqual({ changes: true, replaces: ["name"] });
  await expect(diff({ subject: "other" })).resolves.toEqual({ changes: true, replaces: [] });
  await expect(diff({})).resolves.toEqual({ changes: false, replaces: [] });
});
