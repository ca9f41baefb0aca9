/**
 * getEmailPlans and getEmailPlan (sdk/data.ts) against the emulator over real HTTP: typed data,
 * answered without a plan (the spec's NO_PLAN exception), errors that name the function, and the
 * Output forms.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../sdk";
import type { TestEmulator } from "../../tools/support/emulator";
import { failure } from "../../tools/support/resource-harness";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
const savedEnv = { ...process.env };

function useSettings(over: Record<string, string> = {}): void {
  for (const k of Object.keys(process.env)) if (k.startsWith("SVC_")) delete process.env[k];
  Object.assign(process.env, { SVC_API_URL: emu.urls.api, SVC_EMAIL_URL: emu.urls.email, SVC_API_KEY: emu.keys.account, SVC_EMAIL_API_KEY: emu.keys.email, SVC_PROJECT_ID: emu.projects[0], ...over });
}
const valueOf = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply((v) => resolve(v)));

useEmulator((e) => (emu = e), {
  fresh: (emu) => {
    emu.control.reset();
    useSettings();
  },
  beforeClose: () => {
    process.env = savedEnv;
  },
});

test("getEmailPlans lists the catalogue; getEmailPlan the project's plan", async () => {
  const plans = await svc.getEmailPlans();
  expect(plans.map((p) => [p.code, p.monthlyPrice])).toEqual([["free", 0], ["starter", 150_000], ["business", 450_000]]);
  expect(plans[2].limits.topics).toBe(100);
  expect(await svc.getEmailPlan()).toEqual(expect.objectContaining({ planCode: "free", status: "active", scheduledPlanCode: null }));
  expect((await valueOf(svc.getEmailPlansOutput())).length).toBe(3);
  expect((await valueOf(svc.getEmailPlanOutput())).planCode).toBe("free");
});

test("both answer for a project without a plan (status none)", async () => {
  useSettings({ SVC_EMAIL_API_KEY: emu.keys.emailNoPlan });
  expect((await svc.getEmailPlans()).length).toBe(3);
  expect(await svc.getEmailPlan()).toEqual(expect.objectContaining({ planCode: null, status: "none" }));
});

test("an API error names the function, the call and the code", async () => {
  useSettings({ SVC_EMAIL_API_KEY: "svcm_" + "0".repeat(48) });
  const err = await failure<Error & { code?: string }>(svc.getEmailPlan());
  expect(err.message).toMatch(/^getEmailPlan failed: GET \/plan 401 INVALID_API_KEY/);
  expect(err.code).toBe("INVALID_API_KEY");
});
