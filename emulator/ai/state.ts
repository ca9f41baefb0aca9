/**
 * The AI gateway's part of the world (`world.ai`): the model catalogue, the AI balance, limits,
 * per-key monthly spend, stream settings, injected AI faults and a capped usage ledger. Everything
 * here is JSON and persisted with the world; `POST /_emulator/reset` reseeds it.
 *
 * What must not survive a reset or a restart (in-flight requests, their holds, the per-minute
 * windows) lives in the runtime (`aiRuntime(emu)`), outside the world: a new world object (reset,
 * state-file load) starts a fresh runtime.
 */
import type { AiStyle } from "../../contract/routes";
import type { Emu } from "../core/emu";
import type { World } from "../core/world";

export interface AiModelRec {
  id: string;
  /** Request styles the model is served in (`unsupported_format` for the other one). */
  styles: AiStyle[];
  ownedBy: string;
  /** Unix seconds, as `GET /v1/models` answers it. */
  created: number;
  /** Rupiah per token. */
  price: { input: number; output: number };
  /** Most output tokens one answer may have; a larger `max_tokens` is lowered to it. */
  outputLimit: number;
  /** Most input tokens: more answers 413 `invalid_request` (the model refuses the prompt). */
  contextWindow: number;
  /** false = switched off: 404 `model_not_found`, hidden from the list. */
  enabled: boolean;
  /** Retired: 410 `model_retired` naming `replacement`, hidden from the list. */
  retired: boolean;
  replacement: string | null;
  /** Time the model takes before its first output (ms, real time); null = the global setting. */
  delayMs: number | null;
}

export interface AiKeyLimits {
  /** Requests per calendar minute for this key; null = only the account limit applies. */
  perMinute: number | null;
  /** Rupiah per UTC calendar month; null = none. */
  monthlySpendLimit: number | null;
  /** Model ids this key may use; null = all. */
  models: string[] | null;
}

export type AiFaultKind =
  | "upstream_error"
  | "upstream_unreachable"
  | "upstream_auth_error"
  | "upstream_unavailable"
  | "model_unavailable"
  | "server_busy"
  | "internal_error"
  | "pricing_unavailable"
  | "service_unavailable"
  | "rate_limited";

/**
 * - `before`: a normal error response with the real status (nothing sent before it).
 * - `mid-stream`: streams answer 200, send `afterChunks` text chunks, then the error as the last
 *   event; a request without `stream` gets the real status after the model's delay.
 * - `break`: streams answer 200, send `afterChunks` text chunks, then end without the end marker;
 *   a request without `stream` has its connection closed without an answer.
 */
export type AiFaultMode = "before" | "mid-stream" | "break";

export interface AiFaultRec {
  id: number;
  kind: AiFaultKind;
  mode: AiFaultMode;
  /** Requests left to fail. */
  remaining: number;
  /** Only requests for this model; null = any model. */
  model: string | null;
  afterChunks: number;
}

export interface AiSettings {
  /** Keep-alive comment after this long without output (the spec: about 10 s). */
  keepAliveFirstMs: number;
  /** Then one every this long while there is still no output (the spec: 15 s). */
  keepAliveEveryMs: number;
  /** Time every model takes before its first output, unless the model sets its own. */
  delayMs: number;
  /** Pause between two streamed text chunks. */
  chunkDelayMs: number;
}

export interface AiUsageRec {
  requestId: string;
  time: string;
  keyPrefix: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Rupiah charged. */
  cost: number;
  /** `completed`, `cancelled` (client closed), `broken` (stream broke), `failed` (error after output). */
  outcome: "completed" | "cancelled" | "broken" | "failed";
}

/**
 * One account's side of the gateway: its AI balance, its account-wide limits and its usage ledger.
 * Each account pays with its own balance and is limited by its own window and pool (ai-gateway.md,
 * Limits: "All keys of the account together").
 */
export interface AiAccountRec {
  /** AI balance in Rupiah (separate from the platform wallet). */
  balance: number;
  account: { perMinute: number; concurrency: number };
  /** Latest charges first, capped. */
  usage: AiUsageRec[];
}

/**
 * The first account's record is `world.ai` itself (its top-level `balance`, `account`, `usage`, as
 * state files have always held them); every other account's is in `otherAccounts`, by account id.
 */
export interface AiWorld extends AiAccountRec {
  models: AiModelRec[];
  otherAccounts?: Record<string, AiAccountRec>;
  /** By key value. */
  keyLimits: Record<string, AiKeyLimits>;
  /** Rupiah charged by key value and UTC month (`YYYY-MM`). */
  spend: Record<string, Record<string, number>>;
  settings: AiSettings;
  faults: AiFaultRec[];
  nextFaultId: number;
}

export const DEFAULT_OUTPUT_CAP = 16_384;
export const AI_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
export const USAGE_CAP = 1_000;

const defaultSettings = (): AiSettings => ({ keepAliveFirstMs: 10_000, keepAliveEveryMs: 15_000, delayMs: 0, chunkDelayMs: 0 });

const model = (m: Partial<AiModelRec> & Pick<AiModelRec, "id" | "styles" | "ownedBy" | "price" | "outputLimit" | "contextWindow">): AiModelRec => ({
  created: 1_735_689_600, // 2025-01-01T00:00:00Z
  enabled: true,
  retired: false,
  replacement: null,
  delayMs: null,
  ...m,
});

/** The seeded catalogue and balance: fixed strings only (no draw from the world's generator). */
function seedAi(): AiWorld {
  return {
    balance: 10_000_000,
    models: [
      model({ id: "gpt-4o-mini", styles: ["openai"], ownedBy: "openai", price: { input: 2, output: 8 }, outputLimit: 16_384, contextWindow: 128_000 }),
      model({ id: "gpt-4o", styles: ["openai"], ownedBy: "openai", price: { input: 30, output: 120 }, outputLimit: 16_384, contextWindow: 128_000 }),
      model({ id: "claude-sonnet-4", styles: ["anthropic"], ownedBy: "anthropic", price: { input: 45, output: 225 }, outputLimit: 64_000, contextWindow: 200_000 }),
      model({ id: "claude-haiku-3-5", styles: ["anthropic"], ownedBy: "anthropic", price: { input: 12, output: 60 }, outputLimit: 8_192, contextWindow: 200_000 }),
      model({ id: "llama-3.3-70b", styles: ["openai", "anthropic"], ownedBy: "meta", price: { input: 10, output: 12 }, outputLimit: 4_096, contextWindow: 128_000 }),
      model({ id: "gpt-4-turbo", styles: ["openai"], ownedBy: "openai", price: { input: 150, output: 450 }, outputLimit: 4_096, contextWindow: 128_000, retired: true, replacement: "gpt-4o" }),
      model({ id: "mistral-large", styles: ["openai"], ownedBy: "mistral", price: { input: 30, output: 90 }, outputLimit: 8_192, contextWindow: 128_000, enabled: false }),
    ],
    account: { perMinute: 600, concurrency: 20 },
    keyLimits: {},
    spend: {},
    settings: defaultSettings(),
    faults: [],
    nextFaultId: 1,
    usage: [],
  };
}

/** `world.ai`: the seeded catalogue and balance the first time it is needed (a fresh world, or one from an older state file). */
export function aiState(world: World): AiWorld {
  const ai = (world.ai ??= {}) as Partial<AiWorld>;
  if (ai.models === undefined) Object.assign(ai, seedAi());
  return ai as AiWorld;
}

const seedAccount = (): AiAccountRec => ({ balance: 10_000_000, account: { perMinute: 600, concurrency: 20 }, usage: [] });

/** The AI record of an account (undefined: the first account), made with the seeded balance and limits on first use. */
export function aiAccount(world: World, accountId: string | undefined): AiAccountRec {
  const ai = aiState(world);
  if (accountId === undefined || accountId === world.account.id) return ai;
  return ((ai.otherAccounts ??= {})[accountId] ??= seedAccount());
}

/** A model that can be listed and called: not switched off, not retired. */
export const usable = (m: AiModelRec) => m.enabled && !m.retired;

// ---- runtime (outside the world) ----

/** Account id of the first account in the runtime's maps. */
export const FIRST_ACCOUNT = "";

export interface AiRuntime {
  world: World;
  /** Requests in progress by account id. */
  inFlight: Map<string, number>;
  /** Open holds by request id: Rupiah, and the account it is held against. */
  holds: Map<string, { accountId: string; amount: number }>;
  /** Per-minute counters: `account:<id>` or `key:<key>` → window. */
  windows: Map<string, { minute: number; count: number }>;
}

/** The runtime's id of an account: the first account under FIRST_ACCOUNT, whether named or not. */
export function runtimeAccountId(world: World, accountId: string | undefined): string {
  return accountId === undefined || accountId === world.account.id ? FIRST_ACCOUNT : accountId;
}

const runtimes = new WeakMap<Emu, AiRuntime>();

/** The runtime of the current world: a reset or a state-file load starts a fresh one. */
export function aiRuntime(emu: Emu): AiRuntime {
  let rt = runtimes.get(emu);
  if (!rt || rt.world !== emu.world) {
    rt = { world: emu.world, inFlight: new Map(), holds: new Map(), windows: new Map() };
    runtimes.set(emu, rt);
  }
  return rt;
}

/** Rupiah held by the account's requests in progress. */
export function heldTotal(rt: AiRuntime, accountId: string): number {
  let sum = 0;
  for (const h of rt.holds.values()) if (h.accountId === accountId) sum += h.amount;
  return sum;
}

export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}
