/**
 * What a zod rule says, in words and as a TypeScript type: the reference's "rule" column, the sdk's
 * argument types. Read from the schema itself (zod's JSON Schema for the type, its checks and their
 * messages for the rule), so a changed rule changes both.
 */
import { z } from "zod";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
};

/** A schema as JSON Schema: its input side (transforms apply after the check: the input is what a
 * program gives), or its output side (what a decoded API answer holds). */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema & { $schema?: string };
  return rest;
}

/**
 * The TypeScript type of a value, as a program gives it. `input`: each part is a `pulumi.Input`
 * (an argument); otherwise a plain value (inside an `Output`).
 */
export function tsTypeOf(schema: z.ZodType, input: boolean): string {
  return tsText(jsonSchemaOf(schema, "input"), input);
}

/** The TypeScript type of a decoded API answer: plain, with what the schema fills in (defaults) required. */
export function tsTypeOfAnswer(schema: z.ZodType): string {
  return tsText(jsonSchemaOf(schema, "output"), false);
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** Whether a type's text is a union outside any brackets (`A | B`, not `{ a: A | B }`): it needs parentheses before `[]`. */
function unionAtTop(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if ("{<([".includes(text[i])) depth++;
    else if ("}>)]".includes(text[i])) depth--;
    else if (depth === 0 && text.startsWith(" | ", i)) return true;
  }
  return false;
}

function tsText(s: JsonSchema, input: boolean): string {
  // Each part of an argument may be an Output too (`events: [someOutput]`), as in Pulumi's own sdks.
  const wrap = (text: string) => (input ? `pulumi.Input<${text}>` : text);
  if (s.const !== undefined) return literal(s.const);
  if (s.enum) return s.enum.map(literal).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map((part) => tsText(part, input)).join(" | ");
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return type.map((t) => tsText({ ...s, type: t }, input)).join(" | ");
  switch (type[0]) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
    {
      const item = wrap(tsText(s.items ?? {}, input));
      return `${unionAtTop(item) ? `(${item})` : item}[]`;
    }
    case "object": {
      if (s.properties) {
        const required = new Set(s.required ?? []);
        const parts = Object.entries(s.properties).map(([name, part]) => `${name}${required.has(name) ? "" : "?"}: ${wrap(tsText(part, input))}`);
        return `{ ${parts.join("; ")} }`;
      }
      if (s.additionalProperties && typeof s.additionalProperties === "object") return `Record<string, ${wrap(tsText(s.additionalProperties, input))}>`;
      return "Record<string, unknown>";
    }
    default:
      return "unknown";
  }
}

/** Whether a program may leave it out. */
export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  checks?: { _zod: { def: CheckDef } }[];
  format?: string;
  error?: (issue: object) => unknown;
  defaultValue?: unknown;
}

interface CheckDef {
  check: string;
  error?: (issue: object) => unknown;
  maximum?: number;
  minimum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A check's own message, when the schema gives one. */
function messageOf(def: { error?: (issue: object) => unknown }): string | undefined {
  const text = def.error?.({});
  return typeof text === "string" ? text : undefined;
}

/** The default a schema fills in, or undefined. */
export function defaultOf(schema: z.ZodType): unknown {
  let def = defOf(schema);
  for (;;) {
    if (def.type === "default" || def.type === "prefault") return typeof def.defaultValue === "function" ? (def.defaultValue as () => unknown)() : def.defaultValue;
    if (def.type === "pipe" && def.in) def = defOf(def.in);
    else if ((def.type === "optional" || def.type === "nullable") && def.innerType) def = defOf(def.innerType);
    else return undefined;
  }
}

/** The rule a schema checks, in words: its checks' messages (or what they check), its choices. */
export function ruleOf(schema: z.ZodType): string {
  // Each once: a min and a max may share one message ("1 to 65535").
  return [...new Set(rulesOf(schema))].join("; ");
}

function rulesOf(schema: z.ZodType): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case "pipe":
      return def.in ? rulesOf(def.in) : [];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
      return def.innerType ? rulesOf(def.innerType) : [];
    case "enum":
      return [`one of ${Object.values(def.entries ?? {}).map((v) => `\`${String(v)}\``).join(", ")}`];
    case "literal":
      return [messageOf(def) ?? `\`${String(def.values?.[0])}\``];
    case "union": {
      const own = messageOf(def);
      return [own ?? (def.options ?? []).map((o) => ruleOf(o) || typeWord(o)).join(", or ")];
    }
    case "record": {
      const each = def.valueType ? ruleOf(def.valueType) : "";
      return each ? [`each value: ${each}`] : [];
    }
    case "array": {
      const own = checksText(def);
      const each = def.element ? ruleOf(def.element) : "";
      return [...own.map((t) => t.replace(/characters/, "items")), ...(each ? [`each: ${each}`] : [])];
    }
    case "object":
      return [
        ...checksText(def),
        ...Object.entries(def.shape ?? {})
          .map(([name, part]) => [name, ruleOf(part)] as const)
          .filter(([, rule]) => rule)
          .map(([name, rule]) => `\`${name}\`: ${rule}`),
      ];
    default: {
      const own = messageOf(def);
      const format = def.format && def.format !== "regex" ? [own ?? `a ${def.format}`] : [];
      return [...format, ...checksText(def)];
    }
  }
}

function typeWord(schema: z.ZodType): string {
  return tsTypeOf(schema, false);
}

function checksText(def: Def): string[] {
  const out: string[] = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    const own = messageOf(c);
    if (own) {
      out.push(own);
      continue;
    }
    switch (c.check) {
      case "max_length":
        out.push(`at most ${c.maximum} characters`);
        break;
      case "min_length":
        out.push(`at least ${c.minimum} characters`);
        break;
      case "length_equals":
        out.push(`exactly ${c.length} characters`);
        break;
      case "greater_than":
        out.push(c.inclusive ? `at least ${c.value}` : `more than ${c.value}`);
        break;
      case "less_than":
        out.push(c.inclusive ? `at most ${c.value}` : `less than ${c.value}`);
        break;
      case "number_format":
        if (c.format === "safeint" || c.format === "int32" || c.format === "uint32") out.push("a whole number");
        break;
      case "string_format":
        out.push(c.format === "regex" ? `matches \`${String(c.pattern)}\`` : `a ${c.format}`);
        break;
      default:
        break;
    }
  }
  return out;
}
