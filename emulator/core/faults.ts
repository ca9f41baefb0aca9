/**
 * Fault rules (`POST /_emulator/faults`) and the request log (`GET /_emulator/requests`).
 */
import { z } from "zod";
import { AI_ERROR_CODES, API_ERROR_CODES, isAiErrorCode, type AiErrorCode, type ApiErrorCode } from "../../contract/error-codes";

export const faultRuleInput = z.object({
  method: z.string().toUpperCase().optional(),
  /** Glob over the full request path (with its `/api`, `/email` or `/ai` prefix): `*` within one
   * segment, `**` across segments. */
  path: z.string().min(1),
  status: z.number().int().min(100).max(599).optional(),
  /** A code of the catalogue (contract/error-codes.ts): the AI gateway's on an `/ai` path, else the platform's and email's. */
  code: z.enum([...API_ERROR_CODES, ...AI_ERROR_CODES] as [ApiErrorCode | AiErrorCode, ...(ApiErrorCode | AiErrorCode)[]]).optional(),
  /** Destroy the connection without an answer. */
  drop: z.boolean().optional(),
  delayMs: z.number().int().min(0).optional(),
  /** Carry the operation out first, then fail or drop: the ambiguous failure. */
  afterCommit: z.boolean().optional(),
  /**
   * `"after-client-left"`: the request gets no answer; it is held until its client gives up (closes
   * the connection, as a client does on its time-out), and only then, `delayMs` later, carried out.
   * The case "the API committed after the client timed out": the client saw a time-out and the
   * object appears afterwards. Only for the envelope APIs (`/api`, `/email`); `delayMs` counts from
   * the client leaving, and the fault takes no `status`, `drop` or `afterCommit`.
   */
  commit: z.enum(["after-client-left"]).optional(),
  times: z.number().int().min(1).optional(),
  /** Let the first N matching requests through untouched (a registration's dry run before the real call). */
  skip: z.number().int().min(0).optional(),
  probability: z.number().min(0).max(1).optional(),
}).superRefine((rule, ctx) => {
  if (rule.code === undefined) return;
  const ai = /^\/?(\*\*\/)?ai(\/|$)/.test(rule.path);
  if (ai !== isAiErrorCode(rule.code)) {
    ctx.addIssue({ code: "custom", path: ["code"], message: `${rule.code} is not a code of the ${ai ? "AI gateway" : "platform and email APIs"} (contract/error-codes.ts)` });
  }
});
export type FaultRuleInput = z.infer<typeof faultRuleInput>;
export interface FaultRule extends FaultRuleInput {
  id: number;
  matcher: RegExp;
  used: number;
  skipped: number;
}

export function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${escaped}$`);
}

export class FaultBook {
  private rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = { ...input, id: this.nextId++, matcher: globToRegExp(input.path), used: 0, skipped: 0 };
    this.rules.push(rule);
    return rule;
  }

  clear(): void {
    this.rules = [];
  }

  list(): Omit<FaultRule, "matcher">[] {
    return this.rules.map(({ matcher: _m, ...rule }) => rule);
  }

  /** The first rule that applies to this request, counted as used. */
  match(method: string, path: string, random: () => number): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.method && rule.method !== method) continue;
      if (!rule.matcher.test(path)) continue;
      if (rule.times !== undefined && rule.used >= rule.times) continue;
      if (rule.skip !== undefined && rule.skipped < rule.skip) {
        rule.skipped++;
        continue;
      }
      if (rule.probability !== undefined && random() >= rule.probability) continue;
      rule.used++;
      return rule;
    }
    return undefined;
  }
}

export interface RequestLogEntry {
  time: string;
  /** First 12 characters of the key, as the dashboard shows them; never the key. */
  keyPrefix: string | null;
  method: string;
  path: string;
  route: string | null;
  status: number;
  code: string | null;
  fault: number | null;
  dropped: boolean;
  /** The Idempotency-Key header as sent, on routes that read one. */
  idempotencyKey?: string;
  /** Answered with the first answer of the same Idempotency-Key (nothing acted). */
  replayed?: boolean;
}

/** Longest path the log keeps: a longer one is cut, and says how long it was. */
export const LOGGED_PATH_CHARS = 256;
/** The log's budget: the oldest entries leave once the entries' estimated size, or their count, is over. */
export const REQUEST_LOG_BYTES = 8 * 1024 * 1024;
export const REQUEST_LOG_ENTRIES = 20_000;
/** `GET /_emulator/requests` answers at most this many entries a page (default REQUEST_PAGE_DEFAULT). */
export const REQUEST_PAGE_MAX = 5_000;
export const REQUEST_PAGE_DEFAULT = 1_000;
/** An entry's fixed cost in the estimate: the object and its fields, past their strings' characters. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * A copy of `text` that holds no reference to the string it was cut from: V8 keeps a substring of 13
 * or more characters as a view of its parent, so a short path cut from a 15 KB URL would keep the
 * whole URL alive in the log.
 */
function detached(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** A client-sent string as the log keeps it: at most `max` characters, a longer one cut and marked with its length. */
export function loggedText(text: string, max: number): string {
  return detached(text.length > max ? `${text.slice(0, max)}…[${text.length} chars]` : text);
}

function entryBytes(e: RequestLogEntry): number {
  return ENTRY_OVERHEAD_BYTES + e.time.length + e.method.length + e.path.length + (e.keyPrefix?.length ?? 0) + (e.route?.length ?? 0) + (e.code?.length ?? 0) + (e.idempotencyKey?.length ?? 0);
}

/** One page of the log: entries after a position, and the position to ask from next (null at the end). */
export interface RequestLogPage {
  entries: RequestLogEntry[];
  next: string | null;
  /** Entries that left the log (over its budget) since it was last cleared. */
  evicted: number;
}

/**
 * The request log, bounded in bytes whatever clients send: client-sent strings are cut
 * (LOGGED_PATH_CHARS), and the oldest entries leave once the log is over REQUEST_LOG_BYTES or
 * REQUEST_LOG_ENTRIES. Positions (`after`) count every entry ever added, so a reader paging through
 * while entries leave resumes where it was.
 */
export class RequestLog {
  /** Held entries from `head` on; the evicted ones before it are emptied at once and cut off in batches. */
  private entries: (RequestLogEntry | undefined)[] = [];
  private sizes: number[] = [];
  /** Position of entries[0]; positions of evicted entries are below it. */
  private firstPosition = 0;
  private head = 0;
  private bytes = 0;
  private evictedCount = 0;
  constructor(
    private readonly maxEntries = REQUEST_LOG_ENTRIES,
    private readonly maxBytes = REQUEST_LOG_BYTES,
  ) {}

  add(entry: RequestLogEntry): void {
    const kept: RequestLogEntry = {
      ...entry,
      method: loggedText(entry.method, 16),
      path: loggedText(entry.path, LOGGED_PATH_CHARS),
      ...(entry.keyPrefix !== null ? { keyPrefix: loggedText(entry.keyPrefix, 12) } : {}),
      ...(entry.idempotencyKey !== undefined ? { idempotencyKey: loggedText(entry.idempotencyKey, 128) } : {}),
    };
    const size = entryBytes(kept);
    this.entries.push(kept);
    this.sizes.push(size);
    this.bytes += size;
    while (this.entries.length - this.head > this.maxEntries || (this.bytes > this.maxBytes && this.entries.length - this.head > 1)) {
      this.bytes -= this.sizes[this.head];
      this.entries[this.head] = undefined;
      this.head++;
      this.evictedCount++;
    }
    // Evicted entries are cut off in one splice once they are as many as the kept ones (amortized O(1)).
    if (this.head > 0 && this.head * 2 >= this.entries.length) {
      this.entries.splice(0, this.head);
      this.sizes.splice(0, this.head);
      this.firstPosition += this.head;
      this.head = 0;
    }
  }

  /** Every entry held, oldest first. */
  all(): RequestLogEntry[] {
    return this.entries.slice(this.head) as RequestLogEntry[];
  }

  /** Up to `limit` entries after position `after` (from the oldest held without one), oldest first. */
  page(after: number | undefined, limit: number): RequestLogPage {
    const oldest = this.firstPosition + this.head;
    const from = Math.max(oldest, after === undefined ? oldest : after + 1);
    const index = from - this.firstPosition;
    const entries = this.entries.slice(index, index + limit) as RequestLogEntry[];
    const last = from + entries.length - 1;
    const more = index + entries.length < this.entries.length;
    return { entries, next: more ? String(last) : null, evicted: this.evictedCount };
  }

  /** The entries' estimated size in bytes (what the budget counts). */
  heldBytes(): number {
    return this.bytes;
  }

  /** Empties the log (its memory is given back); positions go on counting. */
  clear(): void {
    this.firstPosition += this.entries.length;
    this.entries = [];
    this.sizes = [];
    this.head = 0;
    this.bytes = 0;
    this.evictedCount = 0;
  }
}
