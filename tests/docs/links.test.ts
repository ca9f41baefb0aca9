/**
 * Every relative link of the README and of docs/ (generated and hand-written pages) reaches a file
 * that exists and, when it names a heading (`#anchor`), a heading of that file, as GitHub renders
 * them: the README is short and sends readers to these pages, so a broken link loses the text.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { generate } from "../../tools/docs/docs";

const ROOT = join(__dirname, "..", "..");

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    );
  return ["README.md", ...walk("docs")];
}

/** The text outside fenced code blocks, line by line. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(text)) {
    for (const m of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/i.test(m[1])) links.push(m[1]);
    }
  }
  return links;
}

test("every relative link of README.md and docs/*.md reaches an existing file and heading", () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    for (const link of relativeLinks(readFileSync(join(ROOT, file), "utf8"))) {
      const [path, anchor] = link.split("#");
      const target = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
      if (!existsSync(target)) {
        broken.push(`${file}: ${link} (no file ${relative(ROOT, target)})`);
      } else if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(readFileSync(target, "utf8")).has(anchor)) {
        broken.push(`${file}: ${link} (no heading #${anchor} in ${relative(ROOT, target)})`);
      }
    }
  }
  expect(broken).toEqual([]);
});

test("the README links every hand-written page of docs/", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const generated = new Set(generate(ROOT).keys());
  const handWritten = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md") && !generated.has(join("docs", name)));
  expect(handWritten.length).toBeGreaterThan(0);
  expect(handWritten.filter((name) => !readme.includes(`](docs/${name})`))).toEqual([]);
});
