/**
 * Shared steps of the server resource tests (the harness itself is tests/support/): a fresh world in
 * `time` mode with 1-second transitions, the plan catalogue by name, what the emulator holds, and
 * servers set up "out of band" straight at the API.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import type { ServerRec } from "../../emulator/vps/state";

import { answered, DAY_MS, freshWorld, PASSWORD, PLAN, serverRecords, walletOf, type Props } from "../../tools/support/world";

export { DAY_MS, PASSWORD, PLAN, type Props };
/** A root password other than PASSWORD that every server rule accepts (a password change). */
export const NEW_PASSWORD = "N3w^Passw0rd#x";

export interface Plan {
  id: string;
  name: string;
  family: string;
  region: string;
  prices: Record<"monthly" | "3month" | "6month" | "yearly", number>;
  osTemplates: { osType: string; osVersion: string }[];
}
export interface BackupPlan {
  code: string;
  quotaGb: number;
  price: number;
}

/** The catalogues as the API answers them (`GET /api/vps/plans`, `GET /api/backup/plans`). */
export async function catalogue(h: ResourceHarness): Promise<{ plan(name: string): Plan; backupPlan(code: string): BackupPlan }> {
  const plans = (await h.emu.call("GET", "/api/vps/plans", { key: h.emu.keys.account })).body.data as Plan[];
  const backupPlans = (await h.emu.call("GET", "/api/backup/plans", { key: h.emu.keys.account })).body.data as BackupPlan[];
  return {
    plan: (name) => plans.find((p) => p.name === name) ?? fail(`no plan ${name}`),
    backupPlan: (code) => backupPlans.find((p) => p.code === code) ?? fail(`no backup plan ${code}`),
  };
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * Back to the seeded world, a full rate-limit bucket, `time` transitions of 1 s by default (reset
 * restores the start options) and an empty request log.
 */
export const fresh = (h: ResourceHarness, transitionSeconds = 1): Promise<void> => freshWorld(h.emu, { mode: "time", seconds: transitionSeconds });

export const wallet = (h: ResourceHarness): number => walletOf(h.emu);

export function servers(h: ResourceHarness): ServerRec[] {
  return serverRecords(h.emu.control.state());
}

export function server(h: ResourceHarness, id: string): ServerRec {
  const s = servers(h).find((x) => x.id === id);
  if (!s) throw new Error(`the emulator has no server ${id}`);
  return s;
}

/** A call straight to the platform API with the account key (a change made out of band). */
export async function api(h: ResourceHarness, method: string, path: string, body?: unknown): Promise<Props> {
  const res = await h.emu.call(method, `/api${path}`, { key: h.emu.keys.account, body });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Waits (real time) until the emulator's server satisfies `ok`. */
export async function until(h: ResourceHarness, id: string, ok: (s: ServerRec) => boolean, what: string, timeoutMs = 10_000): Promise<ServerRec> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = server(h, id);
    if (ok(s)) return s;
    if (Date.now() > deadline) throw new Error(`server ${id} never became ${what}; status ${s.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A running server made straight at the API (not by the resource under test). */
export async function runningServer(h: ResourceHarness, planId: string, name = "fixture-1"): Promise<ServerRec> {
  const created = await api(h, "POST", "/vps", {
    planId,
    projectId: h.emu.projects[0],
    name,
    osType: "ubuntu",
    osVersion: "22.04",
    rootPassword: PASSWORD,
    billingPeriod: "monthly",
  });
  await h.emu.ctl("POST", "/transitions/settle");
  return server(h, created.id);
}

/** Every request the emulator answered since the last clear, as `METHOD /path STATUS [CODE]` (429s left out, see `writes`). */
export const calls = (h: ResourceHarness): string[] => answered(h.emu, { status: true, code: true });

export { failure, outputsOf } from "../../tools/support/resource-harness";

/** The emulator's prorating: round((new − old) × daysLeft / 30), daysLeft = ceil((expiresAt − now) / 1 day). */
export function prorated(newPrice: number, oldPrice: number, expiresAt: string, atIso: string): number {
  const daysLeft = Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.parse(atIso)) / DAY_MS));
  return Math.round(((newPrice - oldPrice) * daysLeft) / 30);
}

/** The emulator time at which it answered a request (`METHOD /path`), from its request log. */
export function answeredAt(h: ResourceHarness, method: string, path: string): string {
  const entry = h.emu.control.requests().find((r) => r.method === method && r.path === path);
  if (!entry) throw new Error(`no ${method} ${path} in the request log`);
  return entry.time;
}

/**
 * Write calls (not GET) the emulator acted on since the last clear. A 429 is left out: the API
 * refuses it before acting and the client sends it again (the client's bucket and the emulator's
 * can disagree by a request when answers arrive unevenly).
 */
export function writes(h: ResourceHarness): { method: string; path: string; status: number }[] {
  return h.writes().filter((w) => w.status !== 429);
}
