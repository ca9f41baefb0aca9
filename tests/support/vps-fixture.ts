/**
 * Shared steps of the VPS emulator tests: a fresh world, calls that never trip the per-key rate
 * limit (each moves the emulator clock by 0.1 s, which refills one token), plans by name, and a
 * server created and settled in one step.
 */
import { startTestEmulator, type CallOptions, type CallResult, type TestEmulator } from "../../tools/support/emulator";

import { PASSWORD, PLAN } from "../../tools/support/world";

export { PASSWORD, PLAN };

export interface VpsFixture {
  emu: TestEmulator;
  /** `api("POST", "/vps", { body })`: platform call with the account key unless `key` is given. */
  api(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  planId(name: string): string;
  planPrice(name: string, period?: "monthly" | "3month" | "6month" | "yearly"): number;
  /** POST /vps with a valid body (overridable); answers the raw result. */
  create(overrides?: Record<string, unknown>, key?: string): Promise<CallResult>;
  /** Creates a server and lets it reach `running`; answers its id. */
  running(overrides?: Record<string, unknown>): Promise<string>;
  get(id: string): Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  wallet(): number;
  fresh(): Promise<void>;
  mode(mode: "immediate" | "time" | "manual"): Promise<void>;
  settle(): Promise<void>;
  failNext(kind: string, reason?: string): Promise<void>;
}

export async function vpsFixture(): Promise<VpsFixture> {
  const emu = await startTestEmulator();
  const plans = () => emu.control.state().catalog.vpsPlans;
  const plan = (name: string) => {
    const p = plans().find((x) => x.name === name);
    if (!p) throw new Error(`no plan ${name}`);
    return p;
  };
  const api = async (method: string, path: string, options: CallOptions = {}) => {
    emu.control.advanceClock(0.1);
    return emu.call(method, `/api${path}`, { key: emu.keys.account, ...options });
  };
  const create = (overrides: Record<string, unknown> = {}, key?: string) =>
    api("POST", "/vps", {
      key: key ?? emu.keys.account,
      body: {
        planId: plan(PLAN.small).id,
        projectId: emu.projects[0],
        name: "web-1",
        osType: "ubuntu",
        osVersion: "22.04",
        rootPassword: PASSWORD,
        billingPeriod: "monthly",
        ...overrides,
      },
    });
  const fixture: VpsFixture = {
    emu,
    api,
    planId: (name) => plan(name).id,
    planPrice: (name, period = "monthly") => plan(name).prices[period],
    create,
    running: async (overrides) => {
      const res = await create(overrides);
      if (res.status !== 201) throw new Error(`create answered ${res.status} ${JSON.stringify(res.body)}`);
      await fixture.settle();
      return res.body.data.id as string;
    },
    get: async (id) => {
      const res = await api("GET", `/vps/${id}`);
      if (res.status !== 200) throw new Error(`GET /vps/${id} answered ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    wallet: () => emu.control.state().account.wallet,
    fresh: async () => {
      await emu.ctl("POST", "/reset");
      await emu.ctl("POST", "/transitions", { mode: "immediate" });
      emu.control.advanceClock(2);
    },
    mode: async (mode) => {
      await emu.ctl("POST", "/transitions", { mode });
    },
    settle: async () => {
      await emu.ctl("POST", "/transitions/settle");
    },
    failNext: async (kind, reason = `${kind} broke`) => {
      await emu.ctl("POST", "/job-failures", { kind, reason });
    },
  };
  return fixture;
}
