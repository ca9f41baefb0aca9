/**
 * Issue 45: per-type behaviour is declared on the resource's own schema or definition, so the shared
 * code — the dispatcher, the common inputs, each API's foresight (the email plan's limits) and the
 * reference's generator — knows no resource type by name (a new type changes none of them). A message
 * may still tell the user which class to write (`svc.EmailPlan`): that is advice, not behaviour, so a
 * `svc.<Type>` does not count.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resources } from "../../provider";

const ROOT = join(__dirname, "../..");

const SHARED = ["provider/dispatch.ts", "provider/common-inputs.ts", "provider/service-foresight.ts", "provider/email/plan-limits.ts", "tools/docs/docs.ts"];

/** The resource types `text` names, besides in `svc.<Type>`. */
function typesNamedIn(text: string): string[] {
  const code = text.replace(/\bsvc\.[A-Z]\w*/g, "");
  return Object.keys(resources).filter((type) => new RegExp(`\\b${type}\\b`).test(code));
}

test("the count finds a type named in code, a comment or a string, not in a `svc.<Type>` advice", () => {
  expect(typesNamedIn('if (type === "EmailPlan") return [];')).toEqual(["EmailPlan"]);
  expect(typesNamedIn("const RULES = { Mailbox: rule };\n// a Webhook's url")).toEqual(["Mailbox", "Webhook"]);
  expect(typesNamedIn('reason: "declare one: new svc.EmailPlan(\\"plan\\")"; // sending domains, templates')).toEqual([]);
});

test.each(SHARED)("%s names no resource type", (file) => {
  expect(Object.keys(resources).length).toBeGreaterThan(10);
  expect(typesNamedIn(readFileSync(join(ROOT, file), "utf8"))).toEqual([]);
});
