/** A Pulumi project on disk: its name and program directory (Pulumi.yaml), and the package linked into it as `npm install` would. */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./provider-host";

// js-yaml ships with @pulumi/pulumi (the real CLI's project files are YAML too).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require("js-yaml") as { load(text: string): unknown };

const ROOT = packageRoot(__dirname);

export interface Project {
  name: string;
  /** Directory of the program (Pulumi.yaml's `main`, or the project directory). */
  programDir: string;
}

export function readProject(projectDir: string): Project {
  const file = join(projectDir, "Pulumi.yaml");
  if (!existsSync(file)) throw new Error(`no Pulumi.yaml in ${projectDir}`);
  const doc = yaml.load(readFileSync(file, "utf8")) as { name?: string; runtime?: unknown; main?: string };
  if (!doc?.name) throw new Error(`${file} has no name`);
  return { name: doc.name, programDir: doc.main ? join(projectDir, doc.main) : projectDir };
}

/** What `npm install` gives a user's project: `node_modules/pulumi-svc` is this package. */
export function ensurePackageLink(projectDir: string): void {
  const modules = join(projectDir, "node_modules");
  const link = join(modules, "pulumi-svc");
  if (existsSync(link) || (existsSync(modules) && lstatSync(modules).isSymbolicLink())) return;
  mkdirSync(modules, { recursive: true });
  symlinkSync(ROOT, link, "dir");
}

