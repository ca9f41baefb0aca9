/**
 * The lifecycle suite's world: a JavaScript Pulumi project (generated under
 * tests/fixtures/engine-lifecycle-<name>/, gitignored) whose program declares `Res`, a plain
 * `pulumi.dynamic.Resource` with a tiny provider of its own — objects in a JSON file, every provider
 * call appended to a log — run by the real `pulumi` CLI (tools/support/real-cli.ts: a stack `dev` in
 * a file backend of its own). No emulator: the scenarios assert the steps, the provider calls and the
 * saved state, as pulumi/pulumi's pkg/engine/lifecycletest does with its deploytest provider.
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
import { writeProjectFiles } from "../../../tools/support/engine-harness";
import { packageRoot } from "../../../tools/support/provider-host";
import { CliStack, type CliOutput, type CliRun, type CliRunOptions } from "../../../tools/support/real-cli";
import type { Operation, RunResult, StackState } from "../../../tools/support/stack-state";

const ROOT = packageRoot(__dirname);
const PASSPHRASE = "lifecycle-passphrase";

export interface Call {
  op: "check" | "diff" | "create" | "read" | "update" | "delete";
  name?: string;
  id?: string;
  /** check: whether olds were sent; read: the property keys sent. */
  olds?: boolean;
  keys?: string[];
}

export interface LifecycleRun extends CliRun {
  /** The provider calls of this run (preview pass included), in the order they were made. */
  calls: Call[];
}

type Objects = Record<string, Record<string, unknown>>;

export interface Lifecycle {
  dir: string;
  project: string;
  /** `pulumi stack init` of `dev` (the harness's own backend). */
  init(): void;
  /** Writes the program: `Res`, `pulumi` and `note(key, value)` (see `notes`) in scope. */
  program(code: string): void;
  run(op: Operation, o?: { ok?: boolean } & CliRunOptions): Promise<LifecycleRun>;
  /** `pulumi config set` (the key as given), written before the next command. */
  config(key: string, value: string, secret?: boolean): void;
  /** Any other `pulumi` command on the stack (`config set --path`, `config get`). */
  command(args: string[]): Promise<CliOutput>;
  state(): StackState;
  /** The checkpoint file as the backend stores it. */
  stateText(): string;
  /** The objects the provider holds, by id. */
  objects(): Objects;
  /** Changes the provider's objects out of band (drift). */
  editObjects(edit: (objects: Objects) => void): void;
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

/** One project and stack for the enclosing describe block (or the file): its stack made before its tests, all removed after. */
export function lifecycleProject(name: string): Lifecycle {
  const lc = lifecycle(name);
  beforeAll(() => lc.init());
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
  const cli = new CliStack(dir, project, "dev", PASSPHRASE, tmp);
  const objects = (): Objects => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { objects: Objects }).objects : {});
  return {
    dir,
    project,
    init: () => cli.init(),
    program(code) {
      writeFileSync(join(dir, "index.js"), HEADER(store, log, notesFile) + code);
    },
    async run(op, o = {}) {
      const { ok = true, ...rest } = o;
      rmSync(log, { force: true });
      const result = await cli.run(op, rest);
      if (result.ok !== ok) throw new Error(`${op} ${result.ok ? "succeeded" : "failed"}, expected the opposite:\n${result.output.join("\n")}`);
      return { ...result, calls: readLines<Call>(log) };
    },
    config: (key, value, secret = false) => cli.config(key, value, secret),
    command: (args) => cli.command(args),
    state: () => cli.state(),
    stateText: () => readFileSync(cli.stateFile, "utf8"),
    objects,
    editObjects(edit) {
      const s = JSON.parse(readFileSync(store, "utf8")) as { objects: Objects };
      edit(s.objects);
      writeFileSync(store, JSON.stringify(s));
    },
    notes: () => readLines(notesFile),
    close() {
      cli.close();
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
