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

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  constructor(private readonly cap = 20_000) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.cap) this.entries.splice(0, this.entries.length - this.cap);
  }
  all(): RequestLogEntry[] {
    return [...this.entries];
  }
  clear(): void {
    this.entries = [];
  }
}
