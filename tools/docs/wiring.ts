/**
 * The files that wire each resource type into the package, written by `npm run docs` from the
 * provider files themselves: a type is a provider file exporting `<name>Schema = defineSchema({`
 * (its `type:` the first field) beside the resource object `<name>`. From that:
 *
 * - provider/generated/resources.ts: the `resources` map `run` dispatches on;
 * - sdk/dynamic/<Type>.ts: the module the state `require`s (package.json's one `./dynamic/*` pattern
 *   exports every type's: DYNAMIC_EXPORT);
 * - the sdk class, at the provider file's path under sdk/ (its `SPEC` from the schema's `sdk`);
 * - sdk/generated/resources.ts: the classes, their args and the types they export, for sdk/index.ts;
 * - sdk/generated/error-codes.ts: the error-code catalogue of contract/error-codes.ts for the sdk's
 *   public declarations (which reach no file of contract/).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import type { ResourceSchema } from "../../provider/schema";
import type { SdkTypeSpec } from "../../provider/sdk-class";
import * as errorCodes from "../../contract/error-codes";

/** A resource type as its provider file declares it. */
export interface DiscoveredType {
  type: string;
  /** Its provider file, by path from the checkout. */
  provider: string;
  /** The name of the resource object the file exports (`<name>Schema` is its schema). */
  exportName: string;
  /** Its sdk class file: the provider file's path under sdk/. */
  sdk: string;
}

const toPosix = (path: string) => path.split(sep).join(posix.sep);

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated") out.push(...sourceFiles(root, path));
    } else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const SCHEMA_EXPORT = /^export const (\w+)Schema = defineSchema\(\{\s*\n\s*type: "(\w+)",/gm;

/** Every resource type under provider/, sorted by type name. */
export function discoverTypes(root: string): DiscoveredType[] {
  const found: DiscoveredType[] = [];
  for (const file of sourceFiles(root, "provider")) {
    const text = readFileSync(join(root, file), "utf8");
    for (const [, exportName, type] of text.matchAll(SCHEMA_EXPORT)) {
      if (!new RegExp(`^export const ${exportName}\\b(?!Schema)`, "m").test(text)) {
        throw new Error(`${file}: exports ${exportName}Schema (${type}) but no resource object \`export const ${exportName}\``);
      }
      found.push({ type, provider: toPosix(file), exportName, sdk: toPosix(join("sdk", relative("provider", file))) });
    }
  }
  const byType = new Map<string, DiscoveredType>();
  for (const t of found) {
    const other = byType.get(t.type);
    if (other) throw new Error(`resource type ${t.type} declared twice: ${other.provider} and ${t.provider}`);
    byType.set(t.type, t);
  }
  return found.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

/** `to` as an import path from the file `from` (both by path from the checkout, without .ts). */
function importPath(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to.replace(/\.ts$/, ""));
  return path.startsWith(".") ? path : `./${path}`;
}

// ---- provider/generated/resources.ts

export const RESOURCES_MODULE = join("provider", "generated", "resources.ts");

export function resourcesModule(types: readonly DiscoveredType[]): string {
  const from = toPosix(RESOURCES_MODULE);
  return [
    "// Written by `npm run docs` from the provider files that export a `ResourceSchema`: add a type by its own file, then run it.",
    `import type { SchemaResource } from "${importPath(from, "provider/schema")}";`,
    "",
    "/** The table's entries, each loading its type's module at its first read. */",
    "function loadedOnFirstUse(loaders: Record<string, () => SchemaResource>): Record<string, SchemaResource> {",
    "  const table: Record<string, SchemaResource> = {};",
    "  for (const [type, load] of Object.entries(loaders)) {",
    "    Object.defineProperty(table, type, {",
    "      enumerable: true,",
    "      configurable: true,",
    "      get: () => {",
    "        const impl = load();",
    "        Object.defineProperty(table, type, { enumerable: true, value: impl });",
    "        return impl;",
    "      },",
    "    });",
    "  }",
    "  return table;",
    "}",
    "",
    "/**",
    " * Each resource type's behaviour, by the type name in its token `pulumi-nodejs:dynamic/svc:<Type>`.",
    " * A provider process loads the modules of the types its stack holds, at their first call (issue 43:",
    " * the provider host's start).",
    " */",
    "export const resources: Record<string, SchemaResource> = loadedOnFirstUse({",
    ...types.map((t) => {
      const path = importPath(from, t.provider);
      // Typed by the annotation (require answers `any`), not by a cast.
      return `  ${t.type}: () => {\n    const loaded: typeof import("${path}") = require("${path}");\n    return loaded.${t.exportName};\n  },`;
    }),
    "});",
    "",
  ].join("\n");
}

// ---- sdk/dynamic/<Type>.ts and package.json's exports

export function dynamicModule(type: string): string {
  return [
    `// The provider of every ${type}: this module's exports are the object \`__provider\` stores (see ../shim.ts).`,
    `import { providerShim } from "../shim";`,
    "",
    `export = providerShim("${type}");`,
    "",
  ].join("\n");
}

/**
 * The one `./dynamic/*` export that serves every type's module (the path the state `require`s):
 * `pulumi-svc/dynamic/<Type>` is dist/sdk/dynamic/<Type>.js, and @pulumi/pulumi's closure serializer
 * maps that file back to the same path through the pattern (runtime/closure/package.js,
 * `WildcardMap`), so a new type needs no entry of its own.
 */
export const DYNAMIC_EXPORT = { "./dynamic/*": { types: "./dist/sdk/dynamic/*.d.ts", default: "./dist/sdk/dynamic/*.js" } };

/** package.json with DYNAMIC_EXPORT in place of any `./dynamic/…` export (where the first was, else before `./package.json`), the other exports as they are. */
export function packageJson(text: string): string {
  const pkg = JSON.parse(text) as { exports: Record<string, unknown> };
  const out: Record<string, unknown> = {};
  let placed = false;
  const place = () => {
    if (!placed) Object.assign(out, DYNAMIC_EXPORT);
    placed = true;
  };
  for (const [key, value] of Object.entries(pkg.exports)) {
    if (key.startsWith("./dynamic/")) place();
    else {
      if (key === "./package.json") place();
      out[key] = value;
    }
  }
  place();
  return `${JSON.stringify({ ...pkg, exports: out }, null, 2)}\n`;
}

// ---- the sdk class

function typeDeclaration(spec: Exclude<SdkTypeSpec, { dataType: string }>, tsdoc: (lines: string[]) => string): string {
  return `${tsdoc([spec.doc])}\n${spec.interface ? `export interface ${spec.name} ${spec.type}` : `export type ${spec.name} = ${spec.type};`}`;
}

/** A value as a TypeScript literal (plain keys, spaced braces), as the class files write them by hand. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value && typeof value === "object") {
    const fields = Object.entries(value).map(([key, v]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(v)}`);
    return `{ ${fields.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The class's `SPEC`: its type, its outputs, and what its schema's `sdk` says (but the exported types, which the file declares). */
function classSpec(schema: ResourceSchema): string {
  const { types: _types, ...behaviour } = schema.sdk ?? {};
  const outputs = `${lowerFirst(schema.type)}Outputs`;
  const fields = [`type: ${JSON.stringify(schema.type)}`, `outputs: ${outputs}`, ...Object.entries(behaviour).map(([key, value]) => `${key}: ${literal(value)}`)];
  const oneLine = `const SPEC: ClassSpec = { ${fields.join(", ")} };`;
  return oneLine.length <= 140 ? oneLine : ["const SPEC: ClassSpec = {", ...fields.map((f) => `  ${f},`), "};"].join("\n");
}

/** The sdk class file: everything from the schema, the class comment given (`doc`). */
export function sdkClass(schema: ResourceSchema, files: DiscoveredType, doc: string, tsdoc: (lines: string[]) => string, note: string): string {
  const type = schema.type;
  const types = schema.sdk?.types ?? [];
  const dataTypes = types.flatMap((t) => ("dataType" in t ? [t.dataType] : []));
  const declared = types.flatMap((t) => ("dataType" in t ? [] : [t]));
  const at = (path: string) => importPath(files.sdk, path);
  const out = [
    `// ${note} ${files.provider}: edit the schema there, then run it.`,
    `import * as pulumi from "@pulumi/pulumi";`,
    "",
    "// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).",
    `import provider = require("${at(`sdk/dynamic/${type}`)}");`,
    `import { SvcResource, type ClassSpec } from "${at("sdk/common")}";`,
    `import { ${lowerFirst(type)}Outputs, type ${type}Args, type ${type}Outputs } from "${at(`sdk/generated/${type}`)}";`,
  ];
  if (dataTypes.length) out.push(`import type { ${dataTypes.join(", ")} } from "${at("sdk/generated/data-types")}";`);
  out.push("", `export type { ${[`${type}Args`, ...dataTypes].join(", ")} };`, "");
  for (const spec of declared) out.push(typeDeclaration(spec, tsdoc), "");
  out.push(
    classSpec(schema),
    "",
    doc,
    `export class ${type} extends SvcResource {`,
    `  constructor(name: string, args: ${type}Args, opts?: pulumi.CustomResourceOptions) {`,
    "    super(provider, SPEC, name, args, opts);",
    "  }",
    "}",
    `// The outputs, with their TSDoc, from the schema (${at(`sdk/generated/${type}`)}.ts).`,
    `export interface ${type} extends ${type}Outputs {}`,
    "",
  );
  return out.join("\n");
}

// ---- sdk/generated/resources.ts

export const SDK_RESOURCES_MODULE = join("sdk", "generated", "resources.ts");

/** The classes, their args and the types they export, as sdk/index.ts re-exports them. */
export function sdkResources(entries: readonly { schema: ResourceSchema; files: DiscoveredType }[]): string {
  const from = toPosix(SDK_RESOURCES_MODULE);
  const lines = entries.map(({ schema, files }) => {
    const extra = (schema.sdk?.types ?? []).map((t) => ("dataType" in t ? t.dataType : t.name));
    const names = [schema.type, ...[`${schema.type}Args`, ...extra].map((n) => `type ${n}`)];
    return `export { ${names.join(", ")} } from "${importPath(from, files.sdk)}";`;
  });
  return ["// Written by `npm run docs` from the resources' schemas: each class, its args and the types its schema names.", ...lines, ""].join("\n");
}

// ---- sdk/generated/error-codes.ts

export const SDK_ERROR_CODES = join("sdk", "generated", "error-codes.ts");

/** Strings as a wrapped array literal at `indent`. */
function stringArray(values: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const value of values.map((v) => `${JSON.stringify(v)},`)) {
    if (line && indent.length + 2 + line.length + 1 + value.length > 130) {
      lines.push(line);
      line = value;
    } else line = line ? `${line} ${value}` : value;
  }
  if (line) lines.push(line);
  return ["[", ...lines.map((l) => `${indent}  ${l}`), `${indent}]`].join("\n");
}

function groups(name: string, doc: string, value: Record<string, readonly string[]>): string[] {
  return [`/** ${doc} */`, `export const ${name} = {`, ...Object.entries(value).map(([key, codes]) => `  ${key}: ${stringArray(codes, "  ")},`), "} as const;"];
}

export function sdkErrorCodes(): string {
  return [
    "// Written by `npm run docs` from contract/error-codes.ts: edit the catalogue there, then run it.",
    "",
    ...groups("apiErrorCodeGroups", "The platform and email APIs' codes (the `code` of the failure envelope), by table of the spec documents.", errorCodes.apiErrorCodeGroups),
    "",
    "export type ApiErrorCode = (typeof apiErrorCodeGroups)[keyof typeof apiErrorCodeGroups][number];",
    "",
    ...groups("aiErrorCodeGroups", "The AI gateway's codes, by table.", errorCodes.aiErrorCodeGroups),
    "",
    "export type AiErrorCode = (typeof aiErrorCodeGroups)[keyof typeof aiErrorCodeGroups][number];",
    "",
    "/** Every platform and email code once. */",
    `export const API_ERROR_CODES: readonly ApiErrorCode[] = ${stringArray(errorCodes.API_ERROR_CODES, "")};`,
    "/** Every AI gateway code once. */",
    `export const AI_ERROR_CODES: readonly AiErrorCode[] = ${stringArray(errorCodes.AI_ERROR_CODES, "")};`,
    "",
  ].join("\n");
}
