/**
 * `npm run docs`: writes, from each resource's schema (provider/schema.ts) and the data functions'
 * TSDoc (sdk/data.ts),
 *
 * - sdk/generated/<Type>.ts: the resource's args and outputs interfaces with their TSDoc;
 * - sdk/generated/data-types.ts: the plain types of what the data functions answer;
 * - the TSDoc of each sdk class (summary and example), in place above `export class <Type>`;
 * - docs/<Type>.md: one reference page per resource, docs/<function>.md one per data function, and
 *   docs/README.md, their index.
 *
 * `npm run docs -- --check` writes nothing and fails, naming them, while any of these files differs
 * from what the sources say (CI runs it).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { resources } from "../../provider/index";
import type { InputSpec, OutputSpec, ResourceSchema, SchemaResource } from "../../provider/schema";
import { dataFunctionPages, type DataFunctionDoc } from "./data-functions";
import { defaultOf, isOptional, ruleOf, tsTypeOf, tsTypeOfAnswer } from "./schema-text";
import * as schemas from "../../contract/schemas";

/** The checkout: the nearest folder above with a package.json (the tools run from build-tools/tools/docs). */
function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}
const ROOT = findRoot(__dirname);

const GENERATED_NOTE = "Written by `npm run docs` from the schema in";

/** Where each type's files are: its provider file and its sdk class file (found by the class they export). */
interface TypeFiles {
  provider: string;
  sdk: string;
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(root, path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

function filesOf(schema: ResourceSchema, root: string): TypeFiles {
  const find = (dir: string, pattern: RegExp) => {
    const found = sourceFiles(root, dir).filter((f) => !f.includes("generated") && pattern.test(readFileSync(join(root, f), "utf8")));
    if (found.length !== 1) throw new Error(`${schema.type}: expected one file in ${dir} matching ${pattern}, found ${found.length}`);
    return found[0];
  };
  return {
    provider: find("provider", new RegExp(`type: "${schema.type}",`)),
    sdk: find("sdk", new RegExp(`export class ${schema.type} extends`)),
  };
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

/** A TSDoc block at `indent`. */
function tsdoc(lines: string[], indent = ""): string {
  const body = lines.flatMap((l) => l.split("\n"));
  if (body.length === 1) return `${indent}/** ${body[0]} */`;
  return [`${indent}/**`, ...body.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`].join("\n");
}

function defaultText(input: InputSpec): string | undefined {
  if (input.default !== undefined) return input.default;
  const value = defaultOf(input.schema);
  return value === undefined ? undefined : `\`${JSON.stringify(value)}\``;
}

const CHANGE_WORDS: Record<InputSpec["change"], string> = {
  update: "updates in place",
  replace: "replaces the object",
  refused: "refused at preview",
  state: "recorded in the state only (no call)",
  depends: "depends on the value",
};

function changeText(input: InputSpec): string {
  return input.changeText ?? CHANGE_WORDS[input.change];
}

/** The facts under an input's description, as a list that goes with it: rule, default, what a change does. */
function inputFacts(input: InputSpec): string[] {
  const rule = ruleOf(input.schema);
  const facts = [rule && `Rule: ${rule}.`, defaultText(input) && `Default: ${defaultText(input)}.`, `A change: ${changeText(input)}.`, input.secret ? "Secret: stored encrypted, never printed." : ""];
  return (facts.filter(Boolean) as string[]).map((fact) => `- ${fact}`);
}

/** Inputs a program gives (not the ones the sdk class sets itself, nor the shared `adoptId`). */
function ownInputs(schema: ResourceSchema): [string, InputSpec][] {
  return Object.entries(schema.inputs).filter(([name, input]) => !input.internal && name !== "adoptId");
}

type AnyOutput = OutputSpec & { fromInput?: boolean; defaulted?: boolean };

/** The inputs echoed as outputs, then the schema's own outputs (one named like an input replaces its echo: the value the API settled on). */
function outputsOf(schema: ResourceSchema): [string, AnyOutput][] {
  const echoed = ownInputs(schema).filter(([name]) => !(name in schema.outputs)).map(([name, input]): [string, AnyOutput] => [name, echoedOutput(input)]);
  return [...echoed, ...Object.entries(schema.outputs)];
}

function outputType(output: AnyOutput): string {
  const type = output.fromInput ? tsTypeOf(output.schema, false) : output.tsType ?? tsTypeOf(output.schema, false);
  // An input the provider fills in when left out (a default) is always set as an output.
  return output.fromInput && isOptional(output.schema) && output.defaulted !== true ? `${type} | undefined` : type;
}

// ---- sdk/generated/<Type>.ts

function argMember(name: string, input: InputSpec): string {
  const type = input.tsType ?? `pulumi.Input<${tsTypeOf(input.schema, true)}>`;
  return `${tsdoc([input.description, ...inputFacts(input)], "  ")}\n  ${name}${isOptional(input.schema) ? "?" : ""}: ${type};`;
}

function outputMember(name: string, output: AnyOutput): string {
  return `${tsdoc([output.description + (output.secret ? " A secret output." : "")], "  ")}\n  readonly ${name}: pulumi.Output<${outputType(output)}>;`;
}

const echoedOutput = (input: InputSpec): AnyOutput => ({ schema: input.schema, description: input.description, secret: input.secret, tsType: input.tsType, fromInput: true, defaulted: defaultText(input) !== undefined });

function sdkTypes(schema: ResourceSchema, files: TypeFiles): string {
  const base = "adoptId" in schema.inputs ? "AdoptableArgs" : "CommonArgs";
  const args = ownInputs(schema).map(([name, input]) => argMember(name, input));
  const outputs = outputsOf(schema).map(([name, output]) => outputMember(name, output));
  // Every output key, the inputs' echoes included: `dynamic.Resource` makes an Output only for a key
  // its props hold, so an optional input left out would otherwise be an undefined member.
  const every = outputsOf(schema).map(([name]) => name);
  const secret = outputsOf(schema).filter(([, o]) => o.secret).map(([name]) => name);
  return [
    `// ${GENERATED_NOTE} ${files.provider}: edit the schema there, then run it.`,
    `import type * as pulumi from "@pulumi/pulumi";`,
    `import type { ${base} } from "../common";`,
    "",
    tsdoc([`The arguments of {@link ${schema.type}}. Reference: docs/${schema.type}.md.`]),
    `export interface ${schema.type}Args extends ${base} {`,
    args.join("\n"),
    "}",
    "",
    tsdoc([`The outputs of {@link ${schema.type}}: every argument as applied, and what the API makes.`]),
    `export interface ${schema.type}Outputs {`,
    outputs.join("\n"),
    "}",
    "",
    "// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.",
    `export const ${lowerFirst(schema.type)}Outputs = {`,
    `  computed: { ${every.map((n) => `${n}: undefined`).join(", ")} },`,
    `  secret: [${secret.map((n) => JSON.stringify(n)).join(", ")}] as string[],`,
    "};",
    "",
  ].join("\n");
}

// ---- sdk/generated/data-types.ts

/**
 * The types the data functions answer and the value types the classes export, as plain TypeScript
 * written from the schemas: the package's public declarations then reach no zod type (a program's
 * strict `tsc` without `skipLibCheck` would check zod's own declarations, which fail under the
 * `commonjs`/`node` settings most infra repos have). sdk/data.ts returns the decoded answers as these
 * types, so the compiler checks they still match the schemas.
 */
const DATA_TYPES: [name: string, schema: import("zod").ZodType, what: string][] = [
  ["VpsPlan", schemas.vpsPlan, "A server plan on sale (`getVpsPlans`)."],
  ["BackupPlan", schemas.backupPlan, "A backup add-on plan (`getBackupPlans`)."],
  ["RenewalOption", schemas.renewalOption, "What renewing a server for one billing period costs (`getVpsRenewalOptions`)."],
  ["EmailStatus", schemas.emailStatus, "The email service's state for the project (`getEmailStatus`)."],
  ["EmailAnalytics", schemas.emailAnalytics, "The project's sending analytics (`getEmailAnalytics`)."],
  ["Notification", schemas.notification, "An account notification (`getNotifications`)."],
  ["ActivityEntry", schemas.activityEntry, "One entry of a project's activity log (`getProjectActivity`)."],
  ["AiModel", schemas.aiModel, "A model of the AI gateway (`getAiModels`)."],
  ["InboundStats", schemas.inboundStats, "The project's inbox usage and plan limits (`getInboundStats`)."],
  ["InboundMessageSummary", schemas.inboundMessageSummary, "A received message (`getInboundMessages`)."],
  ["VpsSshKeyInfo", schemas.sshKey, "An SSH key on a server (`getVpsSshKeys`)."],
  ["VpsSnapshotInfo", schemas.snapshot, "A snapshot of a server (`getVpsSnapshots`)."],
  ["EmailPlanOffer", schemas.emailPlanOffer, "An email plan on sale (`getEmailPlans`)."],
  ["EmailSubscription", schemas.emailSubscription, "The project's email plan subscription (`getEmailPlan`)."],
  ["EmailSuppressionRow", schemas.emailSuppression, "An address on the project's suppression list (`getEmailSuppressions`)."],
];

function dataTypes(): string {
  const out = ["// Written by `npm run docs` from the schemas in contract/schemas.ts: edit them there, then run it.", ""];
  for (const [name, schema, what] of DATA_TYPES) out.push(tsdoc([what]), `export type ${name} = ${tsTypeOfAnswer(schema)};`, "");
  out.push(tsdoc(["A server's billing period: of the purchase, and of the renewals."]), `export type BillingPeriod = ${schemas.billingPeriods.map((p) => JSON.stringify(p)).join(" | ")};`, "");
  out.push(tsdoc(["A webhook event name."]), `export type WebhookEvent = ${schemas.webhookEventNames.map((e) => JSON.stringify(e)).join(" | ")};`, "");
  return out.join("\n");
}

// ---- the sdk class's TSDoc

function exampleOf(schema: ResourceSchema, root: string): string {
  return readFileSync(join(root, "docs", "examples", schema.example), "utf8").trimEnd();
}

function classDoc(schema: ResourceSchema, root: string): string {
  return tsdoc([schema.summary, "", "@example", "```typescript", exampleOf(schema, root), "```", "", `Reference: docs/${schema.type}.md (inputs, outputs, waits, adoption, errors).`]);
}

/** The sdk class file with its class comment replaced by the generated one. */
function withClassDoc(text: string, schema: ResourceSchema, file: string, root: string): string {
  const at = text.indexOf(`export class ${schema.type} extends`);
  if (at < 0) throw new Error(`${file}: no "export class ${schema.type} extends"`);
  const before = text.slice(0, at).trimEnd();
  const start = before.endsWith("*/") ? before.lastIndexOf("/**") : -1;
  const head = start >= 0 ? before.slice(0, start) : `${before}\n\n`;
  return `${head}${classDoc(schema, root)}\n${text.slice(at)}`;
}

// ---- docs/<Type>.md

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function page(schema: ResourceSchema, files: TypeFiles, root: string): string {
  const out: string[] = [];
  out.push(`# ${schema.type}`, "", schema.summary, "");
  out.push(`Token \`pulumi-nodejs:dynamic/svc:${schema.type}\` · calls the ${schema.service === "email" ? "email" : "platform"} API · behaviour: \`${files.provider}\` · class: \`${files.sdk}\` (in the pulumi-svc repository: the package ships the pages and the compiled code, not the sources)`, "");
  out.push("## Example", "", "```typescript", exampleOf(schema, root), "```", "");
  out.push("## Inputs", "");
  for (const [name, input] of ownInputs(schema)) {
    const type = input.tsType ?? tsTypeOf(input.schema, false);
    out.push(`### \`${name}\` · \`${type}\`${isOptional(input.schema) ? " · optional" : " · required"}`, "", input.description, "");
    const rule = ruleOf(input.schema);
    if (rule) out.push(`- Rule: ${rule}`);
    const def = defaultText(input);
    if (def) out.push(`- Default: ${def}`);
    out.push(`- A change: ${changeText(input)}`);
    if (input.secret) out.push("- Secret: stored encrypted in the state, never printed, and reported by name only when refused");
    out.push("");
  }
  if ("adoptId" in schema.inputs) out.push(`### \`adoptId\` · \`string\` · optional`, "", schema.inputs.adoptId.description, "", "- A change: recorded in the state only (no call). See [Adoption](#adoption).", "");
  out.push(
    "### `profile` · `string` · optional",
    "",
    "The named profile (a key of stack config `svc:profiles`) whose account the object lives in; default: the top-level settings. See the README, [Several accounts](../README.md#several-accounts).",
    "",
    `- A change: ${schema.type === "Domain" ? "refused at preview (a registration cannot move between accounts)" : "replaces the object (an object cannot move between accounts)"}`,
    "",
  );
  if (schema.rules?.length) {
    out.push("**Rules across inputs** (checked at preview, before any call):", "");
    for (const rule of schema.rules) out.push(`- ${rule.text}`);
    out.push("");
  }
  out.push("## Outputs", "", "Every input above is an output too, as applied. Besides:", "", "| output | type | description |", "|---|---|---|");
  for (const [name, output] of Object.entries(schema.outputs)) {
    out.push(`| \`${name}\` | \`${cell(outputType(output))}\` | ${cell(output.description)}${output.secret ? " **Secret output.**" : ""} |`);
  }
  out.push("");
  out.push("## Waits and timeouts", "");
  if (schema.waits?.length) {
    out.push("| waits for | default limit |", "|---|---|");
    for (const wait of schema.waits) out.push(`| ${cell(wait.what)} | ${cell(wait.limit)} |`);
    out.push("", "The resource option `customTimeouts` (create / update / delete) bounds these waits instead; see the README, [Timeouts](../README.md#timeouts).", "");
  } else out.push("Nothing to wait for: each operation is done when its call answers.", "");
  out.push("## Adoption", "");
  out.push(schema.adoption ? `${schema.adoption}\n\nSee the README, [Adopting existing objects](../README.md#adopting-existing-objects-adoptid).` : "This type makes no object of its own: it has no `adoptId`.", "");
  const foreseen = previewText(schema);
  if (foreseen) out.push("## What the preview foresees", "", foreseen, "");
  out.push("## After an interrupted `up`", "", schema.interrupted, "");
  out.push("## API errors", "", "Besides the errors every call may meet (see the README, [Errors](../README.md#errors-and-the-debug-log)):", "", "| code | what to do |", "|---|---|");
  for (const [code, what] of Object.entries(schema.errors)) out.push(`| \`${code}\` | ${cell(what!)} |`);
  out.push("");
  if (schema.notes) out.push("## Notes", "", schema.notes.trim(), "");
  return out.join("\n");
}

/**
 * The page's preview section: the type's own text, the email plan's presence for every email type,
 * and, once per page, what happens where the foresight and the platform disagree.
 */
function previewText(schema: ResourceSchema): string | undefined {
  const parts: string[] = [];
  if (schema.preview) parts.push(schema.preview);
  if (schema.service === "email" && schema.type !== "EmailPlan") {
    parts.push(
      "Before this object is made, the preview checks that the project has an email plan, or that the program declares an `EmailPlan` (checked before it: give this resource `dependsOn: [plan]`); without either it is refused at preview, pointing at `svc.EmailPlan`, instead of failing the `up` with `402 NO_PLAN`.",
    );
  }
  if (parts.length === 0) return undefined;
  parts.push(
    "The preview's foresight reads the wallet once per run, at the first check that needs it, and the counts from the project's lists: what someone else changes between the preview and the `up` — a limit reached, the wallet spent — is not foreseen. The `up` then still fails cleanly as before: the API refuses the step (`402`, `REQUEST_ERROR`), nothing is charged for it, the objects made before it stay in the state, and the next `up` goes on from there.",
  );
  return parts.join("\n\n");
}

/** The hand-written pages of docs/ (every .md there the generator does not write), with their titles. */
function guides(root: string, generated: ReadonlySet<string>): { file: string; title: string }[] {
  const dir = join(root, "docs");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md") && !generated.has(f) && f !== "README.md")
    .sort()
    .map((file) => ({ file, title: /^# (.+)$/m.exec(readFileSync(join(dir, file), "utf8"))?.[1] ?? file }));
}

function index(schemas: { schema: ResourceSchema; files: TypeFiles }[], functions: DataFunctionDoc[], written: { file: string; title: string }[]): string {
  const firstSentence = (text: string) => text.split(/(?<=\.)\s/)[0];
  const out = ["# pulumi-svc reference", "", "One page per resource and data function, written by `npm run docs` from the resources' schemas and the data functions' TSDoc.", ""];
  for (const service of ["platform", "email"] as const) {
    out.push(`## Resources: ${service === "platform" ? "servers and domains (platform API)" : "email"}`, "", "| resource | what it is |", "|---|---|");
    for (const { schema } of schemas.filter((s) => s.schema.service === service)) out.push(`| [${schema.type}](${schema.type}.md) | ${cell(firstSentence(schema.summary))} |`);
    out.push("");
  }
  out.push(
    "## Data functions",
    "",
    "Read-only lookups for programs, each a plain async function and an `...Output` form that takes Pulumi inputs. They run in the program's process (during `preview` too), " +
      "with the same settings (stack config, then `SVC_*`), the same client (rate limit, retries, timeouts) and the same errors as the resources: " +
      "`getVpsPlans failed: GET /vps/plans 401 INVALID_API_KEY — Invalid API key`, with the API's `code` on the error. An `...Output` form whose input is unknown " +
      "(a server not created yet, in a preview) answers an unknown value and calls nothing, as Pulumi's own invoke outputs do. Each page names the route it calls.",
    "",
    "| function | what it reads |",
    "|---|---|",
  );
  for (const fn of functions) out.push(`| [${fn.name}](${fn.name}.md) | ${cell(firstSentence(fn.summary))} |`);
  out.push("");
  if (written.length) {
    out.push("## Guides", "", "Written by hand, across resources:", "");
    for (const { file, title } of written) out.push(`- [${title}](${file})`);
    out.push("");
  }
  return out.join("\n");
}

// ---- main

/** Every file the sources say, by path from the checkout: what `npm run docs` writes. */
export function generate(root = ROOT, list: readonly SchemaResource[] = Object.values(resources)): Map<string, string> {
  const wanted = new Map<string, string>();
  const schemas: { schema: ResourceSchema; files: TypeFiles }[] = [];
  for (const impl of list) {
    const schema = impl.schema;
    const files = filesOf(schema, root);
    schemas.push({ schema, files });
    wanted.set(join("sdk", "generated", `${schema.type}.ts`), sdkTypes(schema, files));
    wanted.set(files.sdk, withClassDoc(readFileSync(join(root, files.sdk), "utf8"), schema, files.sdk, root));
    wanted.set(join("docs", `${schema.type}.md`), page(schema, files, root));
  }
  wanted.set(join("sdk", "generated", "data-types.ts"), dataTypes());
  const functions = dataFunctionPages(root);
  for (const fn of functions) wanted.set(join("docs", `${fn.name}.md`), fn.page);
  const generatedPages = new Set([...wanted.keys()].filter((f) => f.startsWith(`docs${sep}`)).map((f) => f.slice(5)));
  wanted.set(join("docs", "README.md"), index(schemas, functions, guides(root, generatedPages)));
  return wanted;
}

/** The files of `wanted` whose text on disk differs (written unless `check`). */
export function stalePaths(wanted: Map<string, string>, root = ROOT, check = true): string[] {
  const stale: string[] = [];
  for (const [file, text] of wanted) {
    const path = join(root, file);
    const now = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    if (now === text) continue;
    stale.push(file);
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  return stale;
}

function main(): void {
  const check = process.argv.includes("--check");
  const wanted = generate();
  const stale = stalePaths(wanted, ROOT, check);
  if (check && stale.length) {
    console.error(`docs: ${stale.length} file(s) differ from their schema or TSDoc; run \`npm run docs\` and commit:\n${stale.map((f) => `  ${f}`).join("\n")}`);
    process.exit(1);
  }
  console.log(check ? `docs: ${wanted.size} files up to date` : `docs: ${stale.length} of ${wanted.size} files written (${relative(process.cwd(), ROOT) || "."})`);
}

if (require.main === module) main();
