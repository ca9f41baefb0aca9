/**
 * The lifecycle suite's world: a JavaScript Pulumi project (generated under
 * tests/fixtures/engine-lifecycle-<name>/, gitignored) whose program declares `Res`, a plain
 * `pulumi.dynamic.Resource` with a tiny provider of its own — objects in a JSON file, every provider
 * call appended to a log — run through the test engine. No emulator: the scenarios assert the steps,
 * the provider calls and the saved state, as pulumi/pulumi's pkg/engine/lifecycletest does with its
 * deploytest provider.
 *
 * The provider's behaviour is steered by the resource's own inputs: `replaceOn` (keys whose change
 * replaces), `dbr` (delete before replace), `diffUnknown` (no answer: DIFF_UNKNOWN), `failCreate`,
 * `failUpdate`, `failDelete`, `partial` (a create that fails after making the object), `emptyId`,
 * `bad` (refused at check), `slow` (ms the create waits), `echoConfig` (the create's output `config`
 * is the provider process's PULUMI_CONFIG).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStackState, runEngine, type EngineOptions, type Operation, type RunResult } from "../../../tools/engine/engine";
import { packageRoot } from "../../../tools/support/provider-host";
import { writeProjectFiles } from "../../../tools/support/engine-harness";
import { setConfig, type StackState } from "../../../tools/engine/state";

const ROOT = packageRoot(__dirname);
export const PASSPHRASE = "lifecycle-passphrase";

export interface Call {
  op: "check" | "diff" | "create" | "read" | "update" | "delete";
  name?: string;
  id?: string;
  /** check: whether olds were sent; read: the property keys sent. */
  olds?: boolean;
  keys?: string[];
}

export interface LifecycleRun extends RunResult {
  output: string[];
  /** The provider calls of this run (preview pass included), in the order they were made. */
  calls: Call[];
}

export interface Lifecycle {
  dir: string;
  project: string;
  /** Writes the program: `Res`, `pulumi` and `note(key, value)` (see `notes`) in scope. */
  program(code: string): void;
  run(op: Operation, o?: { ok?: boolean } & Partial<EngineOptions>): Promise<LifecycleRun>;
  /** `pulumi config set` (the key as given, namespaced). */
  config(key: string, value: string, secret?: boolean): void;
  state(): StackState;
  stateText(): string;
  /** The state file's path. */
  stateFile: string;
  /** The objects the provider holds, by id. */
  objects(): Record<string, Record<string, unknown>>;
  /** What the program noted with `note(key, value)` (inside an `apply`: only known values get here). */
  notes(): Record<string, unknown>[];
  close(): void;
}

const HEADER = (store: string, log: string, notes: string) => `
const pulumi = require("@pulumi/pulumi");
const STORE = ${JSON.stringify(store)};
const LOG = ${JSON.stringify(log)};
const NOTES = ${JSON.stringify(notes)};
function record(call) { require("fs").appendFileSync(LOG, JSON.stringify(call) + "\\n"); }
function load() { const fs = require("fs"); return fs.existsSync(STORE) ? JSON.parse(fs.readFileSync(STORE, "utf8")) : { next: 1, objects: {} }; }
function save(s) { require("fs").writeFileSync(STORE, JSON.stringify(s)); }
function plain(props) { const o = { ...props }; delete o.__provider; delete o.computed; return o; }
const provider = {
  async check(olds, news) {
    record({ op: "check", name: news.name, olds: Object.keys(olds).length > 0 });
    return { inputs: news, failures: news.bad ? [{ property: "bad", reason: "bad is set" }] : [] };
  },
  async diff(id, olds, news) {
    record({ op: "diff", name: news.name, id });
    if (news.diffUnknown) return {};
    const keys = [...new Set([...Object.keys(plain(olds)), ...Object.keys(plain(news))])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: keys.length > 0, replaces: keys.filter((k) => (news.replaceOn || []).includes(k)), deleteBeforeReplace: Boolean(news.dbr) };
  },
  async create(inputs) {
    record({ op: "create", name: inputs.name });
    if (inputs.slow) await new Promise((resolve) => setTimeout(resolve, inputs.slow));
    if (inputs.failCreate) throw new Error("create refused: " + inputs.failCreate);
    const s = load();
    const id = inputs.emptyId ? "" : "id-" + s.next++;
    s.objects[id] = plain(inputs);
    save(s);
    if (inputs.partial) throw Object.assign(new Error("not ready"), { id, properties: { ...inputs, computed: "c-" + id }, reasons: ["not ready"] });
    const outs = { ...inputs, computed: "c-" + id };
    if (inputs.echoConfig) outs.config = process.env.PULUMI_CONFIG;
    return { id, outs };
  },
  async read(id, props) {
    record({ op: "read", name: props.name, id, keys: Object.keys(props).sort() });
    const o = load().objects[id];
    if (!o) return { id: "", props: {} };
    return { id, props: { ...o, computed: "c-" + id } };
  },
  async update(id, olds, news) {
    record({ op: "update", name: news.name, id });
    if (news.failUpdate) throw new Error("update refused: " + news.failUpdate);
    const s = load();
    s.objects[id] = plain(news);
    save(s);
    return { outs: { ...news, computed: "c-" + id } };
  },
  async delete(id, props) {
    record({ op: "delete", name: props.name, id });
    if (props.failDelete) throw new Error("delete refused: " + props.failDelete);
    const s = load();
    delete s.objects[id];
    save(s);
  },
};
class Res extends pulumi.dynamic.Resource {
  constructor(name, args, opts) { super(provider, name, { name, computed: undefined, ...args }, opts, "lc", "Res"); }
}
function note(key, value) { require("fs").appendFileSync(NOTES, JSON.stringify({ key, value, dryRun: pulumi.runtime.isDryRun() }) + "\\n"); }
`;

const readLines = <T>(file: string): T[] => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as T) : []);

/** One project for the enclosing describe block (or the file), removed after its tests. */
export function lifecycleProject(name: string): Lifecycle {
  const lc = lifecycle(name);
  afterAll(() => lc.close());
  return lc;
}

export function lifecycle(name: string): Lifecycle {
  const dir = join(ROOT, "tests/fixtures", `engine-lifecycle-${name}`);
  const project = `lc-${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), "svc-lifecycle-"));
  const store = join(tmp, "store.json");
  const log = join(tmp, "calls.jsonl");
  const notesFile = join(tmp, "notes.jsonl");
  writeProjectFiles(dir, project);
  const options = { projectDir: dir, stack: "dev", passphrase: PASSPHRASE, stateFile: join(tmp, "state.json") };
  return {
    dir,
    project,
    program(code) {
      writeFileSync(join(dir, "index.js"), HEADER(store, log, notesFile) + code);
    },
    async run(op, o = {}) {
      const { ok = true, ...rest } = o;
      rmSync(log, { force: true });
      const output: string[] = [];
      const result = await runEngine(op, { ...options, print: (line) => output.push(line), ...rest });
      if (result.ok !== ok) throw new Error(`${op} ${result.ok ? "succeeded" : "failed"}, expected the opposite:\n${output.join("\n")}`);
      return { ...result, output, calls: readLines<Call>(log) };
    },
    config: (key, value, secret = false) => setConfig(dir, "dev", PASSPHRASE, key, value, secret),
    state: () => readStackState(options),
    stateText: () => readFileSync(options.stateFile, "utf8"),
    stateFile: options.stateFile,
    objects: () => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { objects: Record<string, Record<string, unknown>> }).objects : {}),
    notes: () => readLines(notesFile),
    close() {
      rmSync(dir, { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The steps other than `same`, as "op name". */
export const changes = (r: RunResult): string[] => r.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`);

/** The provider calls other than check and diff, as "op name". */
export const writes = (r: LifecycleRun): string[] => r.calls.filter((c) => c.op !== "check" && c.op !== "diff").map((c) => `${c.op} ${c.name}`);

/** The resources of a state, as "name id" (pending deletes marked). */
export const stateIds = (s: StackState): string[] => s.resources.filter((r) => r.custom).map((r) => `${r.name} ${r.id}${r.pendingDelete ? " (pending delete)" : ""}`);
