/**
 * The data functions' pages, from sdk/data.ts itself: each exported `getX`'s TSDoc and signature,
 * its `getXOutput` form, and the route it calls (its `lookup(…, "<route id>", …)`) with the shape
 * of the answer from the route table. Written once, in the TSDoc; nothing to keep in step by hand.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { routes, type RouteId } from "../../contract/routes";
import { tsTypeOf } from "./schema-text";

export interface DataFunctionDoc {
  name: string;
  summary: string;
  page: string;
}

function docOf(node: ts.Node, source: ts.SourceFile): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const block = ranges.map((r) => source.text.slice(r.pos, r.end)).filter((t) => t.startsWith("/**")).pop();
  if (!block) return "";
  return block
    .replace(/^\/\*\*\s?/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

/** A TSDoc split into its text and its tags: `@param name text`, `@returns text`, `@example` (a code block). */
interface ParsedDoc {
  text: string;
  params: Map<string, string>;
  returns?: string;
  examples: string[];
}

function parseDoc(doc: string): ParsedDoc {
  const parsed: ParsedDoc = { text: "", params: new Map(), examples: [] };
  // Each tag runs to the next line that starts with a tag.
  const [text, ...tags] = doc.split(/\n(?=@(?:param|returns|example)\b)/);
  parsed.text = text.startsWith("@") ? "" : text.trim();
  for (const tag of text.startsWith("@") ? [text, ...tags] : tags) {
    const param = /^@param\s+(\w+)\s+(?:-\s+)?([\s\S]*)$/.exec(tag);
    if (param) parsed.params.set(param[1], param[2].trim().replace(/\n/g, " "));
    else if (tag.startsWith("@returns")) parsed.returns = tag.slice("@returns".length).trim();
    else if (tag.startsWith("@example")) parsed.examples.push(tag.slice("@example".length).trim());
  }
  return parsed;
}

function signatureOf(fn: ts.FunctionDeclaration, source: ts.SourceFile): string {
  const params = fn.parameters.map((p) => p.getText(source)).join(", ");
  return `${fn.name!.text}(${params}): ${fn.type?.getText(source) ?? "unknown"}`;
}

export function dataFunctionPages(root: string): DataFunctionDoc[] {
  const file = join(root, "sdk", "data.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const functions = new Map<string, ts.FunctionDeclaration>();
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return;
    if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, node);
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const docs: DataFunctionDoc[] = [];
  for (const [name, fn] of functions) {
    if (name.endsWith("Output")) continue;
    const doc = parseDoc(docOf(fn, source));
    const summary = doc.text;
    if (!summary) throw new Error(`sdk/data.ts: ${name} has no TSDoc`);
    const body = fn.body?.getText(source) ?? "";
    const routeId = /lookup\(\s*"[^"]+",\s*"[^"]+",\s*"([^"]+)"/.exec(body)?.[1] as RouteId | undefined;
    const route = routeId ? routes[routeId] : undefined;
    const output = functions.get(`${name}Output`);
    const out = [`# ${name}`, "", summary, "", "```typescript", `function ${signatureOf(fn, source)}`];
    if (output) out.push(`function ${signatureOf(output, source)}`);
    out.push("```", "");
    out.push(
      `\`${name}\` runs in the program (also during \`pulumi preview\`) and answers a promise; ${output ? `\`${name}Output\` takes Pulumi inputs and answers an \`Output\`: while an input is unknown (a resource not created yet, in a preview) it answers an unknown value and calls nothing, as Pulumi's own invoke outputs do.` : "it has no `Output` form."} ` +
        "Both read the settings the resources read (stack config `svc:*`, then the `SVC_*` environment variables) of the named `profile` (default: the top-level settings), and use the resources' client: its rate limit, retries and errors, with the API's `code` on the error (`" +
        `${name} failed: <method> <path> <status> <CODE> — …\`).`,
      "",
    );
    for (const example of doc.examples) out.push("## Example", "", example, "");
    const argsType = fn.parameters.map((p) => p.type?.getText(source)).find((t) => t && interfaces.has(t) && t !== "ProfileOption");
    const positional = fn.parameters.filter((p) => doc.params.has(p.name.getText(source)));
    if (argsType || positional.length) {
      out.push("## Arguments", "", "| argument | type | description |", "|---|---|---|");
      for (const p of positional) {
        const type = (p.type?.getText(source) ?? "") + (p.questionToken ? " (optional)" : "");
        out.push(`| \`${p.name.getText(source)}\` | \`${type}\` | ${doc.params.get(p.name.getText(source))} |`);
      }
      for (const member of argsType ? interfaces.get(argsType)!.members : []) {
        if (!ts.isPropertySignature(member)) continue;
        out.push(`| \`${member.name.getText(source)}\` | \`${member.type?.getText(source) ?? ""}\` | ${docOf(member, source).replace(/\n/g, " ")} |`);
      }
      out.push("| `profile` | `string` | The named profile whose account it reads. |", "");
    }
    if (doc.returns) out.push("## What it answers", "", doc.returns, "");
    if (route) {
      out.push("## What it calls", "", `\`${route.method} ${route.path}\` of the ${route.service} API, once per call. The API's answer, as the route table checks it:`, "", "```typescript", tsTypeOf(route.response, false), "```", "");
    }
    docs.push({ name, summary: summary.split("\n\n")[0].replace(/\n/g, " "), page: out.join("\n") });
  }
  return docs;
}
