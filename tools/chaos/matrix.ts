/**
 * The fault matrix (issue 8): resource type × operation × fault, as data, and the runner of one
 * group of it. A group is one operation and one fault kind applied to every type at once (one
 * program declares them all, so one `up` exercises up to eight cells): the fault rules of each
 * type's call for that operation are added, `up` runs, the rules are removed, a second `up` must
 * converge. Shared by tests/reliability/fault-matrix.test.ts (a bounded subset) and
 * tools/chaos/chaos.ts (all of it, and randomized groups).
 *
 * Fault kinds:
 * - a: 500 before acting;
 * - b: the connection dropped after the operation was committed (`afterCommit`, `drop`);
 * - c: a burst of three 429s, each with `retry-after: 1`;
 * - d: an answer slower than the client's whole-request timeout (committed, then the answer waits
 *   `SLOW_MS` while `svc:requestTimeoutSeconds` is `TIMEOUT_SECONDS`);
 * - e: the refusal the spec names for that call where it names one: 409 `VPS_BUSY` on server
 *   actions and firewall changes, 409 `NODE_NOT_READY` on backup activation and plan change, 503
 *   `BACKUP_NOT_CONFIGURED` on backup calls, 503 on the email API ("temporarily unavailable").
 */
import type { FaultRuleInput } from "../../emulator/core/faults";
import type { ApiErrorCode } from "../../contract/error-codes";
import type { EngineStack } from "../support/engine-harness";
import type { AcceptanceRow, Ids } from "../support/acceptance-rows";
import {
  ACCESS_TYPES,
  apply,
  baseline,
  Charges,
  createCharges,
  duplicateCount,
  effective,
  leaks,
  plansOf,
  RESOURCE_TYPES,
  ROW_ONLY,
  run,
  unclearErrors,
  updateCharges,
  updated,
  worldProblems,
  type Declared,
  type Plans,
  type AccessType,
  type ResourceType,
  type Run,
  type TunedType,
} from "./harness";

export { ACCESS_TYPES, type AccessType };

export type Op = "create" | "update" | "delete";
export type FaultKind = "a" | "b" | "c" | "d" | "e";
export const OPS: Op[] = ["create", "update", "delete"];
export const FAULT_KINDS: FaultKind[] = ["a", "b", "c", "d", "e"];
export const FAULT_NAMES: Record<FaultKind, string> = {
  a: "500 before acting",
  b: "connection dropped after commit",
  c: "burst of 429s with Retry-After",
  d: "answer slower than the client's timeout",
  e: "the spec's 503 / VPS_BUSY / NODE_NOT_READY",
};

export const TIMEOUT_SECONDS = 2;
export const SLOW_MS = TIMEOUT_SECONDS * 1000 + 1500;

interface Call {
  method: string;
  path: string;
  /** Matching requests to let through first (a registration's dry run at check). */
  skip?: number;
}

/**
 * The call each operation of each type makes, where the fault is injected; null: the operation
 * calls nothing at the API (a Domain delete leaves the registration, a verification's delete has
 * nothing to undo), so there is no cell. A webhook or rule "update" is a replace: its create call.
 * Operations without a write call (the sending domain's wait settings) fault their read.
 */
export const CALLS: Record<TunedType, Record<Op, Call | null>> = {
  SendingDomain: { create: { method: "POST", path: "/email/domains" }, update: { method: "GET", path: "/email/domains**" }, delete: { method: "DELETE", path: "/email/domains/*" } },
  SendingDomainVerification: { create: { method: "GET", path: "/email/domains**" }, update: { method: "GET", path: "/email/domains**" }, delete: null },
  Webhook: { create: { method: "POST", path: "/email/webhooks" }, update: { method: "POST", path: "/email/webhooks" }, delete: { method: "DELETE", path: "/email/webhooks/*" } },
  Template: { create: { method: "POST", path: "/email/templates" }, update: { method: "PATCH", path: "/email/templates/*" }, delete: { method: "DELETE", path: "/email/templates/*" } },
  Vps: { create: { method: "POST", path: "/api/vps" }, update: { method: "POST", path: "/api/vps/*/upgrade" }, delete: { method: "DELETE", path: "/api/vps/*" } },
  VpsFirewallRule: { create: { method: "POST", path: "/api/vps/*/firewall" }, update: { method: "POST", path: "/api/vps/*/firewall" }, delete: { method: "DELETE", path: "/api/vps/*/firewall" } },
  VpsBackup: { create: { method: "POST", path: "/api/vps/*/backup" }, update: { method: "PATCH", path: "/api/vps/*/backup" }, delete: { method: "DELETE", path: "/api/vps/*/backup" } },
  Domain: { create: { method: "POST", path: "/api/domains", skip: 1 }, update: { method: "POST", path: "/api/domains/*/whois-protection" }, delete: null },
  ReceivingDomain: {
    create: { method: "PUT", path: "/email/domains/*/receiving" },
    update: { method: "PUT", path: "/email/domains/*/receiving" },
    delete: { method: "DELETE", path: "/email/domains/*/receiving" },
  },
  // A mailbox and its alias share the address routes: the alias is created after its mailbox (its
  // rule lets the mailbox's POST through) and deleted before it (the mailbox's rule lets the alias's
  // DELETE through). An alias "update" is a replace: its create, the only POST of an update.
  Mailbox: {
    create: { method: "POST", path: "/email/inbound/addresses" },
    update: { method: "PATCH", path: "/email/inbound/addresses/*" },
    delete: { method: "DELETE", path: "/email/inbound/addresses/*", skip: 1 },
  },
  MailAlias: {
    create: { method: "POST", path: "/email/inbound/addresses", skip: 1 },
    update: { method: "POST", path: "/email/inbound/addresses" },
    delete: { method: "DELETE", path: "/email/inbound/addresses/*" },
  },
  // Create and update write the changed details with one PATCH (create reads them first); nothing
  // clears them, so delete calls nothing.
  DomainRegistrant: { create: { method: "PATCH", path: "/api/domains/registrant" }, update: { method: "PATCH", path: "/api/domains/registrant" }, delete: null },
  EmailTopic: { create: { method: "POST", path: "/email/topics" }, update: { method: "PATCH", path: "/email/topics/*" }, delete: { method: "DELETE", path: "/email/topics/*" } },
  EmailSegment: { create: { method: "POST", path: "/email/segments" }, update: { method: "PATCH", path: "/email/segments/*" }, delete: { method: "DELETE", path: "/email/segments/*" } },
  // A new address is a replace: the update's call is the new address's POST.
  EmailSuppression: {
    create: { method: "POST", path: "/email/suppressions" },
    update: { method: "POST", path: "/email/suppressions" },
    delete: { method: "DELETE", path: "/email/suppressions/*" },
  },
};

// The email spec's 503 ("temporarily unavailable") has no code of its own: the catalogue's generic one.
const EMAIL_503 = { status: 503, code: "INTERNAL_ERROR" } as const;
/** Fault e: what the spec names for the call, or null where it names nothing (then there is no e cell). */
export const SPEC_FAULT: Record<TunedType, Record<Op, { status: number; code: ApiErrorCode } | null>> = {
  SendingDomain: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  SendingDomainVerification: { create: EMAIL_503, update: EMAIL_503, delete: null },
  Webhook: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  Template: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  Vps: { create: null, update: { status: 409, code: "VPS_BUSY" }, delete: { status: 409, code: "VPS_BUSY" } },
  VpsFirewallRule: { create: { status: 409, code: "VPS_BUSY" }, update: { status: 409, code: "VPS_BUSY" }, delete: { status: 409, code: "VPS_BUSY" } },
  VpsBackup: { create: { status: 409, code: "NODE_NOT_READY" }, update: { status: 409, code: "NODE_NOT_READY" }, delete: { status: 503, code: "BACKUP_NOT_CONFIGURED" } },
  Domain: { create: null, update: null, delete: null },
  ReceivingDomain: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  Mailbox: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  MailAlias: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  // The owner details' PATCH names only refusals of the details themselves (INVALID_REGISTRANT), no transient one.
  DomainRegistrant: { create: null, update: null, delete: null },
  EmailTopic: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  EmailSegment: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
  EmailSuppression: { create: EMAIL_503, update: EMAIL_503, delete: EMAIL_503 },
};

export interface Cell {
  type: ResourceType;
  op: Op;
  fault: FaultKind;
  rule: FaultRuleInput;
}

/**
 * A row-only type's calls (harness.ts `rowOnly`): its row's create call, with any id for what its
 * `needs` made (unknown while the rules are set); its update and delete calls are not in its row,
 * so they have no cell.
 */
export function rowCalls(row: AcceptanceRow): Record<Op, Call | null> {
  const anyIds = new Proxy({}, { get: () => "*" }) as Ids;
  const { method, path, skip } = row.createCall(anyIds);
  return { create: { method, path, ...(skip ? { skip } : {}) }, update: null, delete: null };
}

const isTuned = (type: ResourceType): type is TunedType => Object.hasOwn(CALLS, type);

/** The calls of a type: written above, else from its row. */
function callsOf(type: ResourceType): Record<Op, Call | null> {
  if (isTuned(type)) return CALLS[type];
  const row = ROW_ONLY.find((r) => r.type === type);
  if (!row) throw new Error(`no chaos cells for ${type}: not a type of the matrix's program`);
  return rowCalls(row);
}

/** The fault rule of one cell, or undefined where the cell does not exist. */
export function ruleOf(type: ResourceType, op: Op, fault: FaultKind, times = 1): FaultRuleInput | undefined {
  return ruleAt(callsOf(type)[op], isTuned(type) ? SPEC_FAULT[type][op] : null, fault, times);
}

/** The fault rule of one cell: `fault` on `call`; `spec`: the refusal the spec names for it (kind e). */
function ruleAt(call: Call | null, spec: { status: number; code: ApiErrorCode } | null, fault: FaultKind, times: number): FaultRuleInput | undefined {
  if (!call) return undefined;
  const at = { method: call.method, path: call.path, ...(call.skip ? { skip: call.skip } : {}) };
  switch (fault) {
    case "a":
      return { ...at, status: 500, code: "INTERNAL_ERROR", times };
    case "b":
      return { ...at, afterCommit: true, drop: true, times };
    case "c":
      return { ...at, status: 429, code: "RATE_LIMITED", times: 3 * times };
    case "d":
      return { ...at, afterCommit: true, delayMs: SLOW_MS, times };
    case "e":
      return spec ? { ...at, ...spec, times } : undefined;
  }
}

/**
 * The server-access types (issue 25), whose cells run through the provider host on a server that
 * shares its address (tests/reliability/access-faults.test.ts): their create and delete calls. An
 * update is a replace (their create call). Kind e: VPS_BUSY, which the spec lists for adding keys,
 * forwards and snapshots; their deletes name no such refusal.
 */
const BUSY = { status: 409, code: "VPS_BUSY" as const };
export const ACCESS_CALLS: Record<AccessType, Record<Op, Call | null>> = {
  VpsSshKey: { create: { method: "POST", path: "/api/vps/*/ssh-keys" }, update: { method: "POST", path: "/api/vps/*/ssh-keys" }, delete: { method: "DELETE", path: "/api/vps/*/ssh-keys/*" } },
  VpsPortForward: { create: { method: "POST", path: "/api/vps/*/port-forwards" }, update: { method: "POST", path: "/api/vps/*/port-forwards" }, delete: { method: "DELETE", path: "/api/vps/*/port-forwards/*" } },
  VpsSnapshot: { create: { method: "POST", path: "/api/vps/*/snapshots" }, update: { method: "POST", path: "/api/vps/*/snapshots" }, delete: { method: "DELETE", path: "/api/vps/*/snapshots/*" } },
};

export function accessRuleOf(type: AccessType, op: Op, fault: FaultKind, times = 1): FaultRuleInput | undefined {
  return ruleAt(ACCESS_CALLS[type][op], op === "delete" ? null : BUSY, fault, times);
}

/** Every cell of the matrix. */
export function allCells(): Cell[] {
  const cells: Cell[] = [];
  for (const type of RESOURCE_TYPES) for (const op of OPS) for (const fault of FAULT_KINDS) {
    const rule = ruleOf(type, op, fault);
    if (rule) cells.push({ type, op, fault, rule });
  }
  return cells;
}

/** The fault each type's call gets in a group; `times` repeats it, `probability` makes it random. */
export type Assignment = Partial<Record<ResourceType, { fault: FaultKind; times?: number; probability?: number }>>;

/** Every type on one fault kind: a group of the full matrix. */
export const allOn = (fault: FaultKind, types: ResourceType[] = RESOURCE_TYPES): Assignment => Object.fromEntries(types.map((t) => [t, { fault }]));

/**
 * The bounded subset for `npm test`: one group per operation, each type's cell on a fault kind that
 * rotates with the type and the seed (`(seed + op + type) mod 5`, the next kind where the cell does
 * not exist), so every group mixes the five kinds.
 */
export function rotation(seed: number): { op: Op; assignment: Assignment }[] {
  return OPS.map((op, i) => {
    const assignment: Assignment = {};
    RESOURCE_TYPES.forEach((type, j) => {
      for (let k = 0; k < FAULT_KINDS.length; k++) {
        const fault = FAULT_KINDS[(seed + i + j + k) % FAULT_KINDS.length];
        if (ruleOf(type, op, fault)) {
          assignment[type] = { fault };
          break;
        }
      }
    });
    return { op, assignment };
  });
}

export interface GroupResult {
  op: Op;
  cells: Cell[];
  /** Whether the faulted `up` succeeded (else it failed with clear errors, or problems say not). */
  faultedOk: boolean;
  faultsInjected: number;
  converged: boolean;
  duplicates: number;
  doubleCharges: number;
  leaks: string[];
  problems: string[];
  runs: Run[];
  ms: number;
}

export interface MatrixEnv {
  s: EngineStack;
  project: string;
  /** A preview after converging must plan nothing (default true; the bounded test leaves it out). */
  previewAfter?: boolean;
}

/** A fresh start: the seeded world (faults and request log cleared), no state, the stack's config reset. */
async function reset(env: MatrixEnv): Promise<void> {
  await env.s.emu.ctl("POST", "/reset");
  env.s.resetState();
  env.s.config("svc:requestTimeoutSeconds", String(TIMEOUT_SECONDS));
}

/**
 * Runs one group from a fresh world: `op` with each assigned type's call faulted as assigned (cells
 * that do not exist are skipped; two types sharing a call share its first rule). Unless a rule has
 * a probability, every rule must be hit.
 */
export async function runGroup(env: MatrixEnv, op: Op, assignment: Assignment): Promise<GroupResult> {
  const types = Object.keys(assignment) as ResourceType[];
  const random = types.some((t) => assignment[t]?.probability !== undefined);
  const started = Date.now();
  const { s, project } = env;
  await reset(env);
  const plans: Plans = plansOf(s.world());
  const charges = new Charges();
  const runs: Run[] = [];
  const problems: string[] = [];
  const step = async (what: string, expectOk: boolean | undefined, extra: { skipPreview?: boolean } = {}) => {
    const r = await run(s, "up", undefined, undefined, extra);
    runs.push(r);
    if (expectOk !== undefined && r.ok !== expectOk) problems.push(`${what}: up ${r.ok ? "succeeded" : "failed"}:\n${r.output.join("\n")}`);
    return r;
  };

  // Before the faulted run: what the operation starts from.
  let declared: Declared = baseline(plans, op === "delete" ? RESOURCE_TYPES : RESOURCE_TYPES);
  const everRegistered: string[] = [];
  if (op !== "create") {
    apply(s, project, declared);
    createCharges(charges, s.world(), declared, plans);
    // What the operation starts from: no preview pass (`--skip-preview`), no fault is on yet. The
    // faulted rounds and the converging up keep theirs: a preview's reads may meet the faults.
    await step("setup", true, { skipPreview: true });
    everRegistered.push(declared.domainName);
  }
  const target: Declared =
    op === "create" ? baseline(plans) : op === "update" ? updated(declared, plans) : { ...declared, types: RESOURCE_TYPES.filter((t) => !types.includes(t) || !callsOf(t).delete) };
  // A delete group removes the types under test (a type whose delete calls nothing stays, so the
  // program still declares the rest). Dependents go with their server / domain.
  if (op === "delete") target.types = [...effective(target.types)];

  const cells: Cell[] = [];
  const injected: FaultRuleInput[] = [];
  for (const type of types) {
    const { fault, times, probability } = assignment[type]!;
    const rule = ruleOf(type, op, fault, times);
    if (!rule) continue;
    // Only cells whose resource takes part in the operation.
    if (op === "delete" && effective(target.types).has(type)) continue;
    const withChance = probability !== undefined ? { ...rule, probability } : rule;
    cells.push({ type, op, fault, rule: withChance });
    // Two types may share a call (the sending domain and its verification read the same domain).
    if (!injected.some((r) => r.method === rule.method && r.path === rule.path && r.skip === rule.skip)) injected.push(withChance);
  }
  // A rule that lets the first requests through is matched first: those requests go on to the rule
  // of the type that makes them (a mailbox's POST, before its alias's).
  injected.sort((a, b) => (b.skip ?? 0) - (a.skip ?? 0));
  for (const rule of injected) await s.emu.ctl("POST", "/faults", rule);

  if (op === "create") createCharges(charges, s.world(), target, plans);
  if (op === "update") updateCharges(charges, s.world(), declared, target, plans);
  apply(s, project, target);
  // A resource whose dependency failed under its own fault is not reached: the faulted `up` runs
  // again (the spent rules no longer match) until every rule was hit, or a run succeeds.
  type Listed = { used: number; path: string; method?: string; times?: number };
  const listed = async () => (await s.emu.ctl("GET", "/faults")).body.data as Listed[];
  // A failed step also stops the run from starting others (as the real engine does), so a round may
  // leave rules unmet that a later one meets; a round that meets none ends it.
  let faulted: Run;
  let hits = 0;
  for (let round = 1; ; round++) {
    faulted = await step(`${op} under faults (round ${round})`, undefined);
    const unclear = faulted.ok ? [] : unclearErrors(faulted);
    if (unclear.length) problems.push(`unclear errors: ${unclear.join(" | ")}`);
    const now = await listed();
    const hitsNow = now.reduce((n, r) => n + r.used, 0);
    if (faulted.ok || random || hitsNow === hits || round > injected.length || now.every((r) => r.used > 0)) break;
    hits = hitsNow;
  }
  const used = await listed();
  const faultsInjected = used.reduce((n, r) => n + r.used, 0);
  const kindOf = (r: Listed & { skip?: number }) => cells.find((c) => c.rule.method === r.method && c.rule.path === r.path && c.rule.skip === r.skip)?.fault;
  if (!random) for (const r of used) if (r.used === 0) problems.push(`fault ${kindOf(r)} on ${r.method} ${r.path} was never hit: the cell proves nothing`);
  await s.emu.ctl("DELETE", "/faults");
  declared = target;
  if (declared.types.includes("Domain")) everRegistered.push(declared.domainName);

  const converge = await step("converge (second up, no faults)", true);
  const again = converge.ok && env.previewAfter !== false ? await run(s, "preview") : undefined;
  if (again) runs.push(again);
  if (again && !(again.steps.length > 0 && again.steps.every((x) => x.op === "same"))) problems.push(`a preview after converging still plans: ${again.output.join("\n")}`);
  const world = worldProblems(s, declared, charges, everRegistered);
  problems.push(...world);
  const wallet = s.world().account.wallet;
  const found = leaks(s, runs);
  problems.push(...found.map((l) => `secret leaked: ${l}`));
  return {
    op,
    cells,
    faultedOk: faulted.ok,
    faultsInjected,
    converged: converge.ok && world.length === 0,
    duplicates: duplicateCount(s, declared),
    doubleCharges: wallet < 50_000_000 - charges.total() ? 1 : 0,
    leaks: found,
    problems,
    runs,
    ms: Date.now() - started,
  };
}
