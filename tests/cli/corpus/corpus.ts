/**
 * The corpus of programs as teams write them (issue 42): each a TypeScript project laid out as
 * `pulumi new typescript` lays it out (engine-harness `fixtureProject`), importing `pulumi-svc` by
 * name, run under the real CLI against the emulator, and judged on three things:
 *
 * (a) `judgedUp`: the preview pass of the `up` (the preview the CLI shows before it acts, the same
 *     engine pass as `pulumi preview`) plans exactly the changes the up then makes, kind by kind;
 * (b) `platformMatches`: the state after the up is the platform's world — every resource's id names
 *     a live object whose key fields are the state's, and every object the runs made is in a state;
 * (c) `emptyPreview`: a `pulumi preview` afterwards plans nothing.
 *
 * Each program has an emulator of its own unless it shares one on purpose (two stacks on one
 * account): judgement (b) holds the whole world to the stacks' states, both ways. Every operation is
 * recorded — the preview pass's steps and time, the up's steps, its time and the API writes it made —
 * and printed after the file's programs, and appended as JSON lines to the file SVC_CORPUS_REPORT
 * names (the issue's note takes its numbers from there).
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { World } from "../../../emulator";
import type { Step } from "../../../tools/support/stack-state";
import type { StackState } from "../../../tools/support/stack-state";
import { startTestEmulator, type TestEmulator } from "../../../tools/support/emulator";
import { calls, engineStack, fixtureProject, type EngineRun, type EngineStack, type RunOptions } from "../../../tools/support/engine-harness";
import type { CliOutput } from "../../../tools/support/real-cli";
import { domainRecords, emailRecords, liveServers, PASSWORD, PLAN, type Props } from "../../../tools/support/world";

export { PASSWORD, PLAN };

/** A program's name in the records and its stack. */
export interface ProgramStack {
  name: string;
  stack: EngineStack;
  /** Its emulator serves other stacks too: the API writes of its operations are not its own alone. */
  sharedEmulator?: boolean;
}

/** One program of the corpus: its generated project and its stack, on its emulator. */
export interface CorpusProgram extends ProgramStack {
  project: ReturnType<typeof fixtureProject>;
  /** Rewrites the program's index.ts (the TypeScript after `pulumi`, `svc` and `config` are in scope). */
  program(code: string): void;
  /** Sets a key of the program's own config namespace for the next run. */
  config(key: string, value: string, secret?: boolean): void;
}

/** Stack config of a program: fixed, or read from its emulator's world (plan ids). */
type ProgramConfig = Record<string, string> | ((world: World) => Record<string, string>);

/** The config most programs take: the seeded small plan's id. */
export const smallPlan = (world: World): Record<string, string> => ({ planId: planId(world, PLAN.small) });

/** A file backend two stacks share (a StackReference, `state move`), removed by `close`. */
export function sharedBackend(): { dir: string; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), "svc-corpus-backend-"));
  return { dir, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The id of a seeded server plan, by name. */
export const planId = (world: World, name: string): string => {
  const plan = world.catalog.vpsPlans.find((p) => p.name === name);
  if (!plan) throw new Error(`no seeded server plan ${name}`);
  return plan.id;
};

/**
 * Starts program `name` (project `svc-engine-corpus-<name>`, stack `stack`) with its first program
 * text, on an emulator of its own unless `emulator` is given, its stack config set (the provider's
 * URLs and keys by the harness; `config` and the secret `secrets` under the project's namespace).
 * `use` runs with it and it is closed after, whatever happens.
 */
export async function withProgram<T>(
  name: string,
  o: { code: string; stack?: string; emulator?: TestEmulator; backendDir?: string; config?: ProgramConfig; secrets?: Record<string, string> },
  use: (p: CorpusProgram) => Promise<T>,
): Promise<T> {
  const project = fixtureProject(`corpus-${name}`, "typescript");
  project.program(o.code);
  const emulator = o.emulator ?? (await startTestEmulator({ transitions: "immediate" }));
  let stack: EngineStack | undefined;
  try {
    stack = await engineStack({ projectDir: project.dir, stack: o.stack ?? "dev", sharedEmulator: emulator, backendDir: o.backendDir, removeProject: true });
    const s = stack;
    const config = (key: string, value: string, secret = false) => s.config(`${project.project}:${key}`, value, secret);
    for (const [k, v] of Object.entries(typeof o.config === "function" ? o.config(emulator.control.state()) : (o.config ?? {}))) config(k, v);
    for (const [k, v] of Object.entries(o.secrets ?? {})) config(k, v, true);
    return await use({ name, project, stack, sharedEmulator: o.emulator !== undefined, program: (code) => project.program(code), config });
  } finally {
    await stack?.close();
    if (!o.emulator) await emulator.close();
  }
}

/** "op name" of every step, `same` included, sorted: what a plan and a run are compared by. */
export const stepList = (steps: Step[]): string[] => steps.map((s) => `${s.op} ${s.name}`).sort();
/** "op name" of the steps that change something, sorted. */
export const changeList = (steps: Step[]): string[] => stepList(steps.filter((s) => s.op !== "same"));

interface OperationRecord {
  program: string;
  label: string;
  command: string;
  ok: boolean;
  ms: number;
  /** The preview pass of an up: its changes, the time until the CLI printed its plan, the pass's own time. */
  preview?: { changes: string[]; ms: number; engineMs: number };
  changes: string[];
  unchanged: number;
  /** The API writes made meanwhile; null where the emulator serves other stacks running too. */
  writes: string[] | null;
}

const records: OperationRecord[] = [];

/** The command line an operation's flags make, for the record. */
function commandOf(op: string, flags: RunOptions): string {
  const urnName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
  const parts = [`pulumi ${op}`];
  for (const [flag, urns] of [["--target", flags.target], ["--replace", flags.replace], ["--exclude", flags.exclude]] as const) for (const u of urns ?? []) parts.push(`${flag} ${urnName(u)}`);
  if (flags.skipPreview) parts.push("--skip-preview");
  return parts.join(" ");
}

/** One operation of a program, recorded: its steps, its time, the API writes it made. Throws when it fails unless `expectOk` is false. */
export async function operation(p: ProgramStack, label: string, op: "up" | "preview" | "destroy", flags: RunOptions = {}, expectOk = true): Promise<EngineRun> {
  p.stack.clearRequests();
  // An up's preview pass, read from the plan it prints (`--json`) unless skipped.
  const r = await p.stack.run(op, expectOk, op === "up" && !flags.skipPreview ? { ...flags, previewPlan: true } : flags);
  records.push({
    program: p.name,
    label,
    command: commandOf(op, flags),
    ok: r.ok,
    ms: r.ms,
    ...(r.previewPass ? { preview: { changes: changeList(r.previewPass.steps), ms: r.previewPass.ms, engineMs: r.previewPass.engineMs } } : {}),
    changes: changeList(r.steps),
    unchanged: r.steps.filter((s) => s.op === "same").length,
    writes: p.sharedEmulator ? null : calls(p.stack.writes()),
  });
  return r;
}

/** `pulumi state move` of resources (by name) from one program's stack to another's, recorded. */
export async function stateMove(from: ProgramStack, to: ProgramStack, names: string[], label: string): Promise<CliOutput> {
  const t0 = Date.now();
  const r = await from.stack.cli!.stateMove(to.stack.cli!, names.map((n) => urnOf(from.stack, n)));
  records.push({ program: from.name, label, command: `pulumi state move --dest ${to.name} ${names.join(" ")}`, ok: r.code === 0, ms: Date.now() - t0, changes: [], unchanged: 0, writes: null });
  return r;
}

/**
 * (a) An `up` whose preview pass (not skipped) plans exactly the changes the up makes: every step
 * that is not `same`, by resource and kind (the plan the CLI prints lists only those). Answers the up.
 */
export async function judgedUp(p: ProgramStack, label: string, flags: Omit<RunOptions, "skipPreview"> = {}): Promise<EngineRun> {
  const up = await operation(p, label, "up", flags);
  if (!up.previewPass) throw new Error(`${p.name} ${label}: the up ran no preview pass (the CLI's output:\n${up.output.join("\n")})`);
  expect({ program: p.name, label, changes: changeList(up.steps) }).toEqual({ program: p.name, label, changes: changeList(up.previewPass.steps) });
  return up;
}

/** (c) A `pulumi preview` that plans nothing and writes nothing. */
export async function emptyPreview(p: ProgramStack, label: string, flags: RunOptions = {}): Promise<EngineRun> {
  const preview = await operation(p, label, "preview", flags);
  expect({ program: p.name, label, changes: changeList(preview.steps), writes: calls(p.stack.writes()) }).toEqual({ program: p.name, label, changes: [], writes: [] });
  return preview;
}

/** The key fields of an object, by `Type id`: as the platform holds them, or as a state records them. */
type View = Record<string, Props>;

/** Every live object of the world the corpus's programs make, with its key fields. */
export function worldView(w: World): View {
  const view: View = {};
  for (const s of liveServers(w)) {
    view[`Vps ${s.id}`] = { name: s.name, planId: s.planId, status: s.status, publicIp: s.publicIp };
    for (const r of s.firewall) view[`VpsFirewallRule ${r.id}`] = { vpsId: s.id, protocol: r.protocol, action: r.action, port: r.port, source: r.source };
    if (s.backup) view[`VpsBackup ${s.id}`] = { vpsId: s.id, planCode: s.backup.planCode, status: s.backup.status };
  }
  const email = emailRecords(w);
  for (const t of email.templates) view[`Template ${t.id}`] = { name: t.name, subject: t.subject };
  for (const h of email.webhooks) view[`Webhook ${h.id}`] = { url: h.url, events: [...h.events].sort() };
  for (const d of email.domains) view[`SendingDomain ${d.id}`] = { domain: d.domain, status: d.status };
  for (const d of domainRecords(w)) view[`Domain ${d.name}`] = { whoisProtection: d.whoisProtection };
  return view;
}

/** What a state says of the same objects: the key fields of each resource's outputs, by `Type id`. */
export function stateView(state: StackState): View {
  const pick = (o: Props, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));
  const fields: Record<string, (o: Props) => Props> = {
    Vps: (o) => pick(o, ["name", "planId", "status", "publicIp"]),
    VpsFirewallRule: (o) => pick(o, ["vpsId", "protocol", "action", "port", "source"]),
    VpsBackup: (o) => pick(o, ["vpsId", "planCode", "status"]),
    Template: (o) => pick(o, ["name", "subject"]),
    Webhook: (o) => ({ url: o.url, events: [...(o.events as string[])].sort() }),
    SendingDomain: (o) => pick(o, ["domain", "status"]),
    Domain: (o) => pick(o, ["whoisProtection"]),
  };
  const view: View = {};
  for (const r of state.resources) {
    // The platform's objects only: not a StackReference, nor what a delete left pending.
    if (!r.custom || r.pendingDelete || !r.type.startsWith("pulumi-nodejs:dynamic/svc:")) continue;
    const type = r.type.replace(/^pulumi-nodejs:dynamic\/svc:/, "");
    if (!fields[type]) throw new Error(`the corpus has no platform view of ${r.type} (resource ${r.name}): add one to worldView and stateView`);
    view[`${type} ${r.id}`] = fields[type](r.outputs);
  }
  return view;
}

/**
 * (b) The states of `stacks` (one emulator's stacks) are the platform: the objects made since
 * `before` (the world's view when the programs started) and the objects the states hold are the same
 * set, each with the state's key fields.
 */
export function platformMatches(label: string, stacks: EngineStack[], before: View = {}): void {
  const held: View = Object.assign({}, ...stacks.map((s) => stateView(s.state())));
  const now = worldView(stacks[0].world());
  const platform = Object.fromEntries(Object.entries(now).filter(([key, fields]) => key in held || JSON.stringify(before[key]) !== JSON.stringify(fields)));
  expect({ label, objects: platform }).toEqual({ label, objects: held });
}

/** The URN of a resource a stack's state holds, by name (and type, where two share a name). */
export function urnOf(s: EngineStack, name: string, type?: string): string {
  const found = s.state().resources.filter((r) => r.name === name && (!type || r.type.endsWith(`:${type}`)) && !r.pendingDelete);
  if (found.length !== 1) throw new Error(`${found.length} resources named ${name} in the state of ${s.options.stack}`);
  return found[0].urn;
}

/** The id a stack's state holds for a resource, by name. */
export function idOf(s: EngineStack, name: string): string {
  const r = s.state().resources.find((x) => x.name === name && !x.pendingDelete);
  if (!r?.id) throw new Error(`no resource ${name} with an id in the state of ${s.options.stack}`);
  return r.id;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Prints the file's records, one line an operation, and appends them to SVC_CORPUS_REPORT (JSON lines). */
export function reportOperations(file: string): void {
  if (!records.length) return;
  const count = (changes: string[]) => {
    const by: Record<string, number> = {};
    for (const c of changes) by[c.split(" ")[0]] = (by[c.split(" ")[0]] ?? 0) + 1;
    return Object.entries(by).map(([op, n]) => `${op} ${n}`).join(", ") || "no change";
  };
  const lines = records.map((r) => {
    const preview = r.preview ? `preview pass ${count(r.preview.changes)} (plan printed after ${seconds(r.preview.ms)}, the pass ${seconds(r.preview.engineMs)}); ` : "";
    const result = r.command.startsWith("pulumi state") ? "state only" : `${r.command.startsWith("pulumi preview") ? "planned" : "did"} ${count(r.changes)}, ${r.unchanged} same`;
    const writes = r.writes ? `${r.writes.length} API writes` : "API writes not counted (a shared emulator)";
    return `${r.program} · ${r.label} · ${r.command}: ${preview}${result}; ${writes}; ${seconds(r.ms)}${r.ok ? "" : " (failed)"}`;
  });
  console.log(`corpus ${file}, ${records.length} operations:\n${lines.join("\n")}`);
  if (process.env.SVC_CORPUS_REPORT) appendFileSync(process.env.SVC_CORPUS_REPORT, records.map((r) => JSON.stringify({ file, ...r })).join("\n") + "\n");
}

/**
 * A program test: its programs run side by side (`test.concurrent`: each program's operations are
 * CLI processes waiting on one another, and the corpus's programs share nothing), one after another
 * with SVC_CORPUS_SERIAL=1 (to time each program alone). The time allowed is per program.
 */
export const program = (name: string, fn: () => Promise<void>, timeoutMs = 20 * 60_000): void =>
  process.env.SVC_CORPUS_SERIAL ? test(name, fn, timeoutMs) : test.concurrent(name, fn, timeoutMs);
