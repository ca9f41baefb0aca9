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

function signatureOf(fn: ts.FunctionDeclaration, source: ts.SourceFile): string {
  const params = fn.parameters.map((p) => p.getText(source)).join(", ");
  return `${fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ? "" : ""}${fn.name!.text}(${params}): ${fn.type?.getText(source) ?? "unknown"}`;
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
    const summary = docOf(fn, source);
    if (!summary) throw new Error(`sdk/data.ts: ${name} has no TSDoc`);
    const body = fn.body?.getText(source) ?? "";
    const routeId = /lookup\(\s*"[^"]+",\s*"[^"]+",\s*"([^"]+)"/.exec(body)?.[1] as RouteId | undefined;
    const route = routeId ? routes[routeId] : undefined;
    const output = functions.get(`${name}Output`);
    const out = [`# ${name}`, "", summary, "", "```typescript", `function ${signatureOf(fn, source)}`];
    if (output) out.push(`function ${signatureOf(output, source)}`);
    out.push("```", "");
    out.push(
      `\`${name}\` runs in the program (also during \`pulumi preview\`) and answers a promise; ${output ? `\`${name}Output\` takes Pulumi inputs and answers an \`Output\`, unknown during a preview while an input is.` : "it has no `Output` form."} ` +
        "Both take `profile`, the named profile whose account they read (default: the top-level settings), and use the resources' client: its rate limit, retries and errors (`" +
        `${name} failed: <method> <path> <status> <CODE> — …\`).`,
      "",
    );
    const argsType = fn.parameters.map((p) => p.type?.getText(source)).find((t) => t && interfaces.has(t) && t !== "ProfileOption");
    if (argsType) {
      out.push("## Arguments", "", "| argument | type | description |", "|---|---|---|");
      for (const member of interfaces.get(argsType)!.members) {
        if (!ts.isPropertySignature(member)) continue;
        out.push(`| \`${member.name.getText(source)}\` | \`${member.type?.getText(source) ?? ""}\` | ${docOf(member, source).replace(/\n/g, " ")} |`);
      }
      out.push("| `profile` | `string` | The named profile whose account it reads. |", "");
    }
    if (route) {
      out.push("## What it calls", "", `\`${route.method} ${route.path}\` of the ${route.service} API, once per call. The answer, as the route table checks it:`, "", "```typescript", tsTypeOf(route.response, false), "```", "");
    }
    docs.push({ name, summary: summary.split("\n\n")[0].replace(/\n/g, " "), page: out.join("\n") });
  }
  return docs;
}
