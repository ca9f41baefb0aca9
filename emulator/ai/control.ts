/**
 * The AI gateway's control routes under `/_emulator/ai` (loopback only, `{ success, data }` like the
 * rest of the control API): models, balance, limits, per-key limits, stream settings, faults, usage.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { parseControlBody } from "../core/control";
import type { Emu } from "../core/emu";
import { faultKinds } from "./errors";
import { keyLimitsOf } from "./limits";
import { accountsOf } from "../core/world";
import { aiAccount, aiRuntime, aiState, heldTotal, runtimeAccountId, type AiAccountRec, type AiFaultKind, type AiModelRec } from "./state";

const style = z.enum(["openai", "anthropic"]);
const price = z.object({ input: z.number().min(0), output: z.number().min(0) });
const modelPatch = z.object({
  styles: z.array(style).min(1).optional(),
  ownedBy: z.string().min(1).optional(),
  created: z.number().int().optional(),
  price: price.optional(),
  outputLimit: z.number().int().min(1).optional(),
  contextWindow: z.number().int().min(1).optional(),
  enabled: z.boolean().optional(),
  retired: z.boolean().optional(),
  replacement: z.string().min(1).nullable().optional(),
  delayMs: z.number().int().min(0).nullable().optional(),
});
const modelInput = modelPatch.extend({ id: z.string().min(1), styles: z.array(style).min(1), price });
const faultInput = z.object({
  kind: z.enum(Object.keys(faultKinds) as [AiFaultKind, ...AiFaultKind[]]),
  count: z.number().int().min(1).default(1),
  model: z.string().min(1).nullable().default(null),
  mode: z.enum(["before", "mid-stream", "break"]).default("before"),
  afterChunks: z.number().int().min(0).optional(),
});
const settingsInput = z.object({
  keepAliveFirstMs: z.number().int().min(1).optional(),
  keepAliveEveryMs: z.number().int().min(1).optional(),
  delayMs: z.number().int().min(0).optional(),
  chunkDelayMs: z.number().int().min(0).optional(),
});
const limitsInput = z.object({ perMinute: z.number().int().min(1).optional(), concurrency: z.number().int().min(1).optional() });
const keyLimitsInput = z.object({
  perMinute: z.number().int().min(1).nullable().optional(),
  monthlySpendLimit: z.number().min(0).nullable().optional(),
  models: z.array(z.string().min(1)).nullable().optional(),
});

const notFound = (reply: FastifyReply, what: string) => reply.code(404).send({ success: false, error: `no ${what}`, code: "NOT_FOUND" });

const ok = (data: unknown) => ({ success: true, data });
/** The fields of a patch that were given (an undefined one leaves the value as it is). */
const given = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

/** `?account=<id>` names the account (default: the first); its AI record, or 404 answered and undefined. */
type AccountQuery = { Querystring: { account?: string } };
interface AccountView {
  id: string;
  rec: AiAccountRec;
  /** Runtime id (holds, in-flight counts). */
  rt: string;
  /** Values of the account's keys (its spend and key limits). */
  keys: Set<string>;
}
function accountOf(emu: Emu, request: FastifyRequest<AccountQuery>, reply: FastifyReply): AccountView | undefined {
  const id = request.query.account ?? emu.world.account.id;
  if (!accountsOf(emu.world).some((a) => a.id === id)) {
    void notFound(reply, `account ${id}`);
    return undefined;
  }
  const keys = new Set(emu.world.keys.filter((k) => (k.accountId ?? emu.world.account.id) === id).map((k) => k.key));
  return { id, rec: aiAccount(emu.world, id), rt: runtimeAccountId(emu.world, id), keys };
}
const ofKeys = <T>(byKey: Record<string, T>, keys: Set<string>) => Object.fromEntries(Object.entries(byKey).filter(([k]) => keys.has(k)));

export function registerAiControl(control: FastifyInstance, emu: Emu): void {
  const ai = () => aiState(emu.world);
  /** One account's view (`?account=<id>`, default the first): its balance, limits, keys' spend; the shared catalogue and settings. */
  control.get<AccountQuery>("/ai", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    const rt = aiRuntime(emu);
    const { models, settings, faults, nextFaultId, keyLimits, spend } = ai();
    return ok({
      accountId: account.id,
      balance: account.rec.balance,
      account: account.rec.account,
      models,
      keyLimits: ofKeys(keyLimits, account.keys),
      spend: ofKeys(spend, account.keys),
      settings,
      faults,
      nextFaultId,
      inFlight: rt.inFlight.get(account.rt) ?? 0,
      held: heldTotal(rt, account.rt),
    });
  });
  control.get<AccountQuery>("/ai/usage", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    return ok({ accountId: account.id, usage: account.rec.usage, spend: ofKeys(ai().spend, account.keys) });
  });
  registerModels(control, emu);
  registerMoney(control, emu);
  registerBehaviour(control, emu);
}

/** The model catalogue: list, add, change. */
function registerModels(control: FastifyInstance, emu: Emu): void {
  const ai = () => aiState(emu.world);
  control.get("/ai/models", async () => ok(ai().models));
  control.post("/ai/models", async (request, reply) => {
    const input = parseControlBody(modelInput, request, reply);
    if (!input) return reply;
    if (ai().models.some((m) => m.id === input.id)) return reply.code(409).send({ success: false, error: `model ${input.id} exists`, code: "CONFLICT" });
    const rec: AiModelRec = {
      created: Math.floor(emu.nowMs() / 1000),
      ownedBy: "emulator",
      outputLimit: 8_192,
      contextWindow: 128_000,
      enabled: true,
      retired: false,
      replacement: null,
      delayMs: null,
      ...input,
    };
    ai().models.push(rec);
    return reply.code(201).send(ok(rec));
  });
  control.patch<{ Params: { id: string } }>("/ai/models/:id", async (request, reply) => {
    const rec = ai().models.find((m) => m.id === request.params.id);
    if (!rec) return notFound(reply, `model ${request.params.id}`);
    const input = parseControlBody(modelPatch, request, reply);
    if (!input) return reply;
    Object.assign(rec, given(input));
    return ok(rec);
  });
}

/** Balance and account limits (of `?account=<id>`, default the first account), and per-key limits. */
function registerMoney(control: FastifyInstance, emu: Emu): void {
  const ai = () => aiState(emu.world);
  control.get<AccountQuery>("/ai/balance", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    return ok({ balance: account.rec.balance, held: heldTotal(aiRuntime(emu), account.rt), currency: "IDR" });
  });
  control.patch<AccountQuery>("/ai/balance", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    const input = parseControlBody(z.object({ balance: z.number().min(0) }), request, reply);
    if (!input) return reply;
    account.rec.balance = input.balance;
    return ok({ balance: input.balance, currency: "IDR" });
  });

  control.get<AccountQuery>("/ai/limits", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    return ok({ account: account.rec.account, keys: ofKeys(ai().keyLimits, account.keys) });
  });
  control.patch<AccountQuery>("/ai/limits", async (request, reply) => {
    const account = accountOf(emu, request, reply);
    if (!account) return reply;
    const input = parseControlBody(limitsInput, request, reply);
    if (!input) return reply;
    Object.assign(account.rec.account, input);
    return ok(account.rec.account);
  });
  /** `:key` is the key itself or a seeded key's label (`account`, `project`, …). */
  control.patch<{ Params: { key: string } }>("/ai/keys/:key", async (request, reply) => {
    const key = emu.world.keys.find((k) => k.key === request.params.key) ?? emu.world.keys.find((k) => k.label === request.params.key);
    if (!key) return notFound(reply, "such key");
    const input = parseControlBody(keyLimitsInput, request, reply);
    if (!input) return reply;
    const next = { ...keyLimitsOf(emu, key.key), ...given(input) };
    ai().keyLimits[key.key] = next;
    return ok(next);
  });
}

/** Stream settings and faults. */
function registerBehaviour(control: FastifyInstance, emu: Emu): void {
  const ai = () => aiState(emu.world);
  control.get("/ai/settings", async () => ok(ai().settings));
  control.patch("/ai/settings", async (request, reply) => {
    const input = parseControlBody(settingsInput, request, reply);
    if (!input) return reply;
    Object.assign(ai().settings, given(input));
    return ok(ai().settings);
  });

  control.get("/ai/faults", async () => ok(ai().faults));
  control.post("/ai/faults", async (request, reply) => {
    const input = parseControlBody(faultInput, request, reply);
    if (!input) return reply;
    const state = ai();
    const rec = {
      id: state.nextFaultId++,
      kind: input.kind,
      mode: input.mode,
      remaining: input.count,
      model: input.model,
      afterChunks: input.afterChunks ?? (input.mode === "break" ? 2 : 0),
    };
    state.faults.push(rec);
    return reply.code(201).send(ok(rec));
  });
  control.delete("/ai/faults", async () => {
    ai().faults = [];
    return ok({ cleared: true });
  });
}
