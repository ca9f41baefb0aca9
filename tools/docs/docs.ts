/**
 * `npm run docs`: writes, from each resource's schema (provider/schema.ts) and the data functions'
 * TSDoc (sdk/data.ts),
 *
 * - sdk/generated/<Type>.ts: the resource's args and outputs interfaces with their TSDoc;
 * - sdk/generated/data-types.ts: the plain types of what the data functions answer;
 * - each sdk class (sdk/<dir>/<file>.ts, beside its provider file's path): its TSDoc (summary and
 *   example), its `SPEC` and the types it exports, from the schema;
 * - what wires each type into the package (./wiring.ts): the provider's `resources` map,
 *   sdk/dynamic/<Type>.ts, package.json's one `./dynamic/*` export, the sdk's resource exports,
 *   and the error-code catalogue of the sdk's declarations;
 * - docs/<Type>.md: one reference page per resource, docs/<function>.md one per data function, and
 *   docs/README.md, their index;
 * - docs/examples/<Type>.ts: the schema's example program, as a file the tests type-check and run
 *   (under mocks, and under the CLI) and the package ships.
 *
 * `npm run docs -- --check` writes nothing and fails, naming them, while any of these files differs
 * from what the sources say (CI runs it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { resources } from "../../provider/generated/resources";
import { adoptionLine } from "../../provider/create-once";
import { adviceWords, type ErrorAdvice, type InputSpec, type OutputSpec, type ResourceSchema, type SchemaResource } from "../../provider/schema";
import { dataFunctionPages, type DataFunctionDoc } from "./data-functions";
import { defaultOf, isOptional, ruleOf, tsTypeOf, tsTypeOfAnswer } from "./schema-text";
import * as schemas from "../../contract/schemas";
import {
  discoverTypes, dynamicModule, packageJson, resourcesModule, sdkClass, sdkErrorCodes, sdkResources,
  type DiscoveredType, RESOURCES_MODULE, SDK_ERROR_CODES, SDK_RESOURCES_MODULE,
} from "./wiring";

/** The checkout: the nearest folder above with a package.json (the tools run from build-tools/tools/docs). */
function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}
const ROOT = findRoot(__dirname);

const GENERATED_NOTE = "Written by `npm run docs` from the schema in";

/**
 * What `pulumi import '<token>' <name> <id>` prints under the real CLI (v3.274.1), quoted by the
 * README and each page's Adoption (tests/cli/adoption.test.ts runs the command and checks it): the
 * engine's import reads by id alone, and the Node dynamic-provider host, given no serialized
 * provider, fails before any code of this package runs.
 */
export const CLI_IMPORT_ERROR = "error: Preview failed: code must be a string, not undefined";

/** The Adoption section's paragraph on what the CLI shows and on `pulumi import`. */
function adoptionInTheCli(schema: ResourceSchema): string {
  return [
    `The preview and the \`up\` show an adopted resource as \`+ create\`, and print one line for it (under the stack, in the CLI's Diagnostics: a dynamic provider cannot attach a message to its resource): \`${adoptionLine(schema.type, "<id>", schema.adoptionRemakes)}\`.`,
    `\`pulumi import 'pulumi-nodejs:dynamic/svc:${schema.type}' <name> <id>\` fails, writing nothing: \`${CLI_IMPORT_ERROR}\`. Write the resource in the program with the id instead — \`{ import: "<id>" }\` in its resource options, or \`adoptId: "<id>"\` in its arguments — and run \`pulumi up\`.`,
  ].join(" ");
}

/** Where each type's files are: its provider file and its sdk class file. */
type TypeFiles = DiscoveredType;

function filesOf(schema: ResourceSchema, types: readonly DiscoveredType[]): TypeFiles {
  const found = types.find((t) => t.type === schema.type);
  if (!found) throw new Error(`${schema.type}: no provider file exports its schema as \`export const <name>Schema: ResourceSchema = { type: "${schema.type}", …\``);
  return found;
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

/** The schema's example program, without the blank lines its template literal opens and closes with. */
const exampleOf = (schema: ResourceSchema): string => schema.example.trim();

function classDoc(schema: ResourceSchema): string {
  return tsdoc([schema.summary, "", "@example", "```typescript", exampleOf(schema), "```", "", `Reference: docs/${schema.type}.md (inputs, outputs, waits, adoption, errors).`]);
}

// ---- docs/examples/<Type>.ts

/**
 * The example as a program of its own; its first line, not shown on the page nor in the TSDoc, says
 * what it is to a user (the package ships it, not the sources) and where a contributor edits it.
 */
function exampleFile(schema: ResourceSchema, files: TypeFiles): string {
  return `// The example of docs/${schema.type}.md. ${GENERATED_NOTE} ${files.provider} of the pulumi-svc repository: edit its \`example\` there.\n${exampleOf(schema)}\n`;
}

// ---- docs/<Type>.md

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** An error's row text: its status, when the advice names one, before the words ("402: …"). */
const adviceText = (advice: ErrorAdvice): string => (typeof advice === "string" ? advice : `${advice.status}: ${adviceWords(advice)}`);

function page(schema: ResourceSchema, files: TypeFiles): string {
  const out: string[] = [];
  out.push(`# ${schema.type}`, "", schema.summary, "");
  out.push(`Token \`pulumi-nodejs:dynamic/svc:${schema.type}\` · calls the ${schema.service === "email" ? "email" : "platform"} API · behaviour: \`${files.provider}\` · class: \`${files.sdk}\` (in the pulumi-svc repository: the package ships the pages and the compiled code, not the sources)`, "");
  out.push("## Example", "", "```typescript", exampleOf(schema), "```", "");
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
    `- A change: ${schema.moveRefused ? `refused at preview (${schema.moveRefused.inShort})` : "replaces the object (an object cannot move between accounts)"}`,
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
  out.push(
    schema.adoption
      ? `${schema.adoption}\n\n${adoptionInTheCli(schema)}\n\nSee the README, [Adopting existing objects](../README.md#adopting-existing-objects-adoptid).`
      : "This type makes no object of its own: it has no `adoptId`.",
    "",
  );
  const foreseen = previewText(schema);
  if (foreseen) out.push("## What the preview foresees", "", foreseen, "");
  out.push("## After an interrupted `up`", "", schema.interrupted, "", INTERRUPTED_STEPS, "");
  out.push("## API errors", "", "Besides the errors every call may meet (see the README, [Errors](../README.md#errors-and-the-debug-log)):", "", "| code | what to do |", "|---|---|");
  for (const [code, advice] of Object.entries(schema.errors)) out.push(`| \`${code}\` | ${cell(adviceText(advice!))} |`);
  out.push("");
  if (schema.notes) out.push("## Notes", "", schema.notes.trim(), "");
  return out.join("\n");
}

/**
 * The steps every page's "After an interrupted `up`" section ends with: the README's (one place for
 * their detail), with the CLI's own words for the lock a killed `pulumi up` leaves (pulumi v3.274.1,
 * pkg/backend/diy/lock.go `checkForLock`; cmd/pulumi/cancel/cancel.go).
 */
const INTERRUPTED_STEPS = [
  "The steps (the README, [After an interrupted `up`](../README.md#after-an-interrupted-up)): run `pulumi up` again. After a killed CLI a self-managed backend still holds the stack's lock and the CLI stops with `` error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`. ``, naming the lock's pid: once that process has ended, run `pulumi cancel` (`The currently running update for '<stack>' has been canceled!`), then `pulumi up`, where the create runs again as above.",
  "Once `pulumi up` has succeeded and every resource the CLI listed as `interrupted while creating` is in the stack with an id, `pulumi refresh --clear-pending-creates` drops the CLI's pending-create records; not before, while such a record is the only trace of an object.",
].join(" ");

/** The type that is the service's plan (its schema's `isServicePlan`), by the whole table: a page may be written alone. */
function servicePlanOf(service: ResourceSchema["service"]): string {
  const plan = Object.values(resources).find((impl) => impl.schema.service === service && impl.schema.isServicePlan);
  if (!plan) throw new Error(`no resource type of the ${service} service declares isServicePlan`);
  return plan.schema.type;
}

/**
 * The page's preview section: the type's own text, the email plan's presence for every email type
 * but the plan itself (email/plan-limits.ts), and, once per page, what happens where the foresight
 * and the platform disagree.
 */
function previewText(schema: ResourceSchema): string | undefined {
  const parts: string[] = [];
  if (schema.preview) parts.push(schema.preview);
  if (schema.service === "email" && !schema.isServicePlan) {
    const plan = servicePlanOf(schema.service);
    parts.push(
      `Before this object is made, the preview checks that the project has an email plan, or that the program declares an \`${plan}\` (checked before it: give this resource \`dependsOn: [plan]\`); without either it is refused at preview, pointing at \`svc.${plan}\`, instead of failing the \`up\` with \`402 NO_PLAN\`.`,
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

/** The first line of every page `npm run docs` writes: what tells its pages from the guides written by hand. */
const PAGE_NOTE = "<!-- Written by `npm run docs` from the sources (a resource's schema, a data function's TSDoc): edit those, then run it. -->";

/** A page of docs/ (docs/examples/ holds programs, not pages). */
const isPage = (file: string): boolean => dirname(file) === "docs" && file.endsWith(".md");

/** The directories whose every file `npm run docs` writes. */
const GENERATED_DIRS = [join("provider", "generated"), join("sdk", "generated"), join("sdk", "dynamic"), join("docs", "examples")];

/** Every file the sources say, by path from the checkout: what `npm run docs` writes. */
export function generate(root = ROOT, list: readonly SchemaResource[] = Object.values(resources)): Map<string, string> {
  const wanted = new Map<string, string>();
  const types = discoverTypes(root);
  wanted.set(RESOURCES_MODULE, resourcesModule(types));
  for (const t of types) wanted.set(join("sdk", "dynamic", `${t.type}.ts`), dynamicModule(t.type));
  wanted.set("package.json", packageJson(readFileSync(join(root, "package.json"), "utf8")));
  const schemas: { schema: ResourceSchema; files: TypeFiles }[] = [];
  for (const impl of list) {
    const schema = impl.schema;
    const files = filesOf(schema, types);
    schemas.push({ schema, files });
    wanted.set(join("sdk", "generated", `${schema.type}.ts`), sdkTypes(schema, files));
    wanted.set(files.sdk, sdkClass(schema, files, classDoc(schema), (lines) => tsdoc(lines), GENERATED_NOTE));
    wanted.set(join("docs", `${schema.type}.md`), page(schema, files));
    wanted.set(join("docs", "examples", `${schema.type}.ts`), exampleFile(schema, files));
  }
  wanted.set(SDK_RESOURCES_MODULE, sdkResources(schemas));
  wanted.set(join("sdk", "generated", "data-types.ts"), dataTypes());
  wanted.set(SDK_ERROR_CODES, sdkErrorCodes());
  const functions = dataFunctionPages(root);
  for (const fn of functions) wanted.set(join("docs", `${fn.name}.md`), fn.page);
  const generatedPages = new Set([...wanted.keys()].filter(isPage).map((f) => f.slice(5)));
  wanted.set(join("docs", "README.md"), index(schemas, functions, guides(root, generatedPages)));
  for (const [file, text] of wanted) if (isPage(file)) wanted.set(file, `${PAGE_NOTE}\n\n${text}`);
  return wanted;
}

const filesUnder = (root: string, dir: string): string[] =>
  existsSync(join(root, dir)) ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(root, join(dir, e.name)) : [join(dir, e.name)])) : [];

/**
 * Files an earlier run wrote that no source makes any more (a type or a data function removed):
 * any file of the generated directories, a page that starts with the pages' note, an sdk class
 * with the generated note, that `wanted` does not hold.
 */
export function leftovers(wanted: ReadonlyMap<string, string>, root = ROOT): string[] {
  const isLeft = (file: string) => !wanted.has(file);
  const starts = (file: string, note: string) => readFileSync(join(root, file), "utf8").startsWith(note);
  const holds = (file: string, note: string) => readFileSync(join(root, file), "utf8").includes(note);
  return [
    ...GENERATED_DIRS.flatMap((dir) => filesUnder(root, dir)).filter(isLeft),
    ...filesUnder(root, "docs").filter((f) => f.endsWith(".md") && isLeft(f) && starts(f, PAGE_NOTE)),
    ...filesUnder(root, "sdk").filter((f) => f.endsWith(".ts") && isLeft(f) && !GENERATED_DIRS.some((d) => f.startsWith(d + sep)) && holds(f, GENERATED_NOTE)),
  ].sort();
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
  // The schemas come from the `resources` map this run was compiled with: a type added or removed
  // since is written into the map first, then the tool runs again on the map it wrote.
  const map = resourcesModule(discoverTypes(ROOT));
  if (!check && stalePaths(new Map([[RESOURCES_MODULE, map]]), ROOT, false).length) {
    console.log(`docs: ${RESOURCES_MODULE} written; running again on it`);
    process.exit(spawnSync(process.execPath, [join(ROOT, "tools", "run.js"), "docs/docs.js", ...process.argv.slice(2)], { stdio: "inherit" }).status ?? 1);
  }
  const wanted = generate();
  const stale = stalePaths(wanted, ROOT, check);
  const left = leftovers(wanted);
  if (check && (stale.length || left.length)) {
    if (stale.length) console.error(`docs: ${stale.length} file(s) differ from their schema or TSDoc; run \`npm run docs\` and commit:\n${stale.map((f) => `  ${f}`).join("\n")}`);
    if (left.length) console.error(`docs: ${left.length} file(s) written by an earlier run that no source makes any more; run \`npm run docs\` (it deletes them) and commit:\n${left.map((f) => `  ${f}`).join("\n")}`);
    process.exit(1);
  }
  if (!check) for (const file of left) rmSync(join(ROOT, file));
  console.log(
    check
      ? `docs: ${wanted.size} files up to date`
      : `docs: ${stale.length} of ${wanted.size} files written${left.length ? `, ${left.length} left over deleted (${left.join(", ")})` : ""} (${relative(process.cwd(), ROOT) || "."})`,
  );
}

if (require.main === module) main();
