/**
 * Data functions (sdk/data.ts) against the emulator over real HTTP: typed data, the same settings
 * (stack config, then SVC_* variables) and the same clear errors as the resources, and the Output
 * forms (an unknown input stays unknown, as during a preview).
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../sdk";
import type { TestEmulator } from "../../tools/support/emulator";
import { failure } from "../../tools/support/resource-harness";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
const savedEnv = { ...process.env };

/** Settings as a user's shell has them after `eval "$(npx svc-emulator)"`. */
function useSettings(over: Record<string, string | undefined> = {}): void {
  for (const k of Object.keys(process.env)) if (k.startsWith("SVC_")) delete process.env[k];
  Object.assign(process.env, {
    SVC_API_URL: emu.urls.api,
    SVC_EMAIL_URL: emu.urls.email,
    SVC_AI_URL: emu.urls.ai,
    SVC_API_KEY: emu.keys.account,
    SVC_EMAIL_API_KEY: emu.keys.email,
    SVC_PROJECT_ID: emu.projects[0],
    ...over,
  });
  for (const [k, v] of Object.entries(over)) if (v === undefined) delete process.env[k];
}

/** Whatever a promise rejects with (fails the test if it resolves). */
const rejection = (p: Promise<unknown>) => failure<Error & { code?: string }>(p);

/** The value of an Output, or "unknown" when it is unknown (as in a preview). */
async function valueOf<T>(o: pulumi.Output<T>): Promise<T | "unknown"> {
  const known = await (o as unknown as { isKnown: Promise<boolean> }).isKnown;
  if (!known) return "unknown";
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

useEmulator((e) => (emu = e), {
  fresh: (emu) => {
    emu.control.reset();
    useSettings();
  },
  beforeClose: () => {
    process.env = savedEnv;
  },
});

async function createServer(): Promise<string> {
  const plan = emu.control.state().catalog.vpsPlans[0];
  const res = await emu.call("POST", "/api/vps", {
    key: emu.keys.account,
    body: { planId: plan.id, projectId: emu.projects[0], name: "web-1", osType: "ubuntu", osVersion: "24.04", rootPassword: "Sup3rSecret!23", billingPeriod: "monthly" },
  });
  expect([res.status, res.body.code]).toEqual([201, undefined]);
  return res.body.data.id;
}

describe("each function returns typed data from the emulator", () => {
  test("getVpsPlans: the catalogue, so a program can pick a plan by name", async () => {
    const plans = await svc.getVpsPlans();
    const catalogue = emu.control.state().catalog.vpsPlans;
    expect(plans.map((p) => p.id)).toEqual(catalogue.map((p) => p.id));
    const small = plans.find((p) => p.name === "s-1vcpu-1gb")!;
    expect(small).toMatchObject({ cpu: 1, memoryMb: 1024, region: "jkt" });
    expect(small.prices.monthly).toBe(75_000);
    expect(small.osTemplates).toContainEqual({ osType: "ubuntu", osVersion: "24.04" });
  });

  test("getBackupPlans: the plans a new add-on can use (retired ones are not offered)", async () => {
    const plans = await svc.getBackupPlans();
    expect(plans.map((p) => p.code)).toEqual(["backup-10", "backup-50", "backup-100"]);
    expect(plans.find((p) => p.code === "backup-10")).toMatchObject({ quotaGb: 10, price: 15_000 });
  });

  test("getVpsRenewalOptions: a price per billing period for that server", async () => {
    const id = await createServer();
    const options = await svc.getVpsRenewalOptions(id);
    expect(options.map((o) => o.billingPeriod).sort()).toEqual(["3month", "6month", "monthly", "yearly"]);
    expect(options.find((o) => o.billingPeriod === "monthly")).toMatchObject({ price: 75_000, currency: "IDR" });
  });

  test("getEmailStatus: plan, limits and platformPaused; a project without a plan reads plan null", async () => {
    const status = await svc.getEmailStatus();
    expect(status).toMatchObject({ projectId: emu.projects[0], platformPaused: false, sendingEnabled: true });
    expect(status.plan).toMatchObject({ name: "free", emailsPerDay: 100, emailsPerMonth: 3000, domains: 5, templates: 50, webhooks: 50 });

    useSettings({ SVC_EMAIL_API_KEY: emu.keys.emailNoPlan });
    expect(await svc.getEmailStatus()).toMatchObject({ projectId: emu.projects[1], plan: null });
  });

  test("getEmailStatus with the platform key names the configured project (X-Svc-Project)", async () => {
    useSettings({ SVC_EMAIL_API_KEY: undefined, SVC_PROJECT_ID: emu.projects[1] });
    expect(await svc.getEmailStatus()).toMatchObject({ projectId: emu.projects[1], plan: null });
  });

  test("getEmailAnalytics: counts and the reputation limits", async () => {
    const analytics = await svc.getEmailAnalytics();
    expect(analytics.limits).toEqual({ bounceRate: 0.02, complaintRate: 0.0008 });
    expect(typeof analytics.sent).toBe("number");
    expect(typeof analytics.bounceRate).toBe("number");
  });

  test("getNotifications: all, or only the unread ones", async () => {
    const n = (title: string) => emu.control.emu.notify({ type: "vps.job_failed", title, message: "m", link: null, projectId: emu.projects[0] });
    n("first");
    n("second");
    const all = await svc.getNotifications();
    expect(all.map((x) => x.title)).toEqual(["second", "first"]);
    const res = await emu.call("POST", `/api/account/notifications/${all[1].id}/read`, { key: emu.keys.account });
    expect(res.status).toBe(200);

    expect((await svc.getNotifications({ unreadOnly: true })).map((x) => x.title)).toEqual(["second"]);
    expect((await svc.getNotifications({ unreadOnly: false })).map((x) => x.title)).toEqual(["second", "first"]);
  });

  test("getProjectActivity: the project's feed; without an id, the configured project's", async () => {
    const id = await createServer();
    const feed = await svc.getProjectActivity(emu.projects[0]);
    expect(feed).toContainEqual(expect.objectContaining({ action: "vps.create", entityType: "vps", entityId: id, actor: "user" }));
    expect(await svc.getProjectActivity()).toEqual(feed);
    expect(await svc.getProjectActivity(emu.projects[1])).not.toContainEqual(expect.objectContaining({ entityId: id }));
  });

  test("getAiModels: the model ids the key may use", async () => {
    const models = await svc.getAiModels();
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) expect(m).toMatchObject({ id: expect.any(String), object: "model", owned_by: expect.any(String) });
    // The platform key is the default; a dedicated AI key setting wins.
    useSettings({ SVC_AI_API_KEY: emu.keys.revoked });
    const err = await rejection(svc.getAiModels());
    expect(err.message).toMatch(/^getAiModels failed: GET \/v1\/models 401 invalid_api_key — /);
    expect(err.code).toBe("invalid_api_key");
  });
});

describe("errors are the resources' errors: operation, method and path, status and the API code", () => {
  test("an invalid key", async () => {
    useSettings({ SVC_API_KEY: emu.keys.revoked });
    const err = await rejection(svc.getVpsPlans());
    expect(err.message).toMatch(/^getVpsPlans failed: GET \/vps\/plans 401 INVALID_API_KEY — /);
    expect(err.code).toBe("INVALID_API_KEY");
    expect(err.message).not.toContain(emu.keys.revoked);
  });

  test("a key without the product, an unknown server, an expired key", async () => {
    useSettings({ SVC_API_KEY: emu.keys.noVps });
    expect(await rejection(svc.getBackupPlans())).toMatchObject({ code: "SCOPE_NOT_ALLOWED", message: expect.stringMatching(/^getBackupPlans failed: GET \/backup\/plans 403 SCOPE_NOT_ALLOWED/) });

    useSettings();
    const missing = await rejection(svc.getVpsRenewalOptions("00000000-0000-4000-8000-000000000000"));
    expect(missing.message).toMatch(/^getVpsRenewalOptions failed: GET \/vps\/00000000-0000-4000-8000-000000000000\/renewal-options 404 /);

    useSettings({ SVC_EMAIL_API_KEY: undefined, SVC_API_KEY: emu.keys.expired });
    expect(await rejection(svc.getEmailAnalytics())).toMatchObject({ code: "API_KEY_EXPIRED" });
  });

  test("a setting that is missing names both the stack config key and the variable", async () => {
    useSettings({ SVC_API_URL: undefined });
    const err = await rejection(svc.getVpsPlans());
    expect(err.message).toMatch(/^getVpsPlans failed: .*svc:apiUrl.*SVC_API_URL/);
    useSettings({ SVC_PROJECT_ID: undefined });
    expect((await rejection(svc.getProjectActivity())).message).toMatch(/svc:projectId/);
  });

  test("a server id that is not given is refused before any call", async () => {
    emu.control.clearRequests();
    expect((await rejection(svc.getVpsRenewalOptions(""))).message).toMatch(/vpsId is required/);
    expect(emu.control.requests()).toEqual([]);
  });
});

describe("Output forms", () => {
  test("resolve to the same data, taking Pulumi inputs", async () => {
    const id = await createServer();
    expect(await valueOf(svc.getVpsPlansOutput())).toEqual(await svc.getVpsPlans());
    expect(await valueOf(svc.getBackupPlansOutput())).toEqual(await svc.getBackupPlans());
    expect(await valueOf(svc.getVpsRenewalOptionsOutput(pulumi.output(id)))).toEqual(await svc.getVpsRenewalOptions(id));
    expect(await valueOf(svc.getEmailStatusOutput())).toEqual(await svc.getEmailStatus());
    expect(await valueOf(svc.getEmailAnalyticsOutput())).toEqual(await svc.getEmailAnalytics());
    expect(await valueOf(svc.getNotificationsOutput({ unreadOnly: pulumi.output(true) }))).toEqual(await svc.getNotifications({ unreadOnly: true }));
    expect(await valueOf(svc.getProjectActivityOutput(pulumi.output(emu.projects[0])))).toEqual(await svc.getProjectActivity(emu.projects[0]));
    expect(await valueOf(svc.getAiModelsOutput())).toEqual(await svc.getAiModels());
  });

  test("settings that cannot reach the API fail at the call, as config.require does, naming the function and the setting; no call", () => {
    useSettings({ SVC_API_KEY: undefined });
    emu.control.clearRequests();
    expect(() => svc.getVpsPlansOutput()).toThrow(/^getVpsPlans failed: the platform API key .* svc:apiKey .* SVC_API_KEY$/);
    expect(() => svc.getVpsSshKeysOutput(pulumi.output("a-server"), { profile: "nowhere" })).toThrow(/^getVpsSshKeys failed: profile: /);
    expect(() => svc.getNotificationsOutput({ unreadOnly: true })).toThrow(/^getNotifications failed: .*svc:apiKey/);
    expect(emu.control.requests()).toEqual([]);
  });

  test("an API error keeps its message when the SDK's serialization of a resource input (an Output form's answer) prefixes it", async () => {
    useSettings({ SVC_API_KEY: emu.keys.revoked });
    const err = await rejection(svc.getVpsPlans());
    const written = err.message;
    expect(written).toMatch(/^getVpsPlans failed: GET \/vps\/plans 401 /);
    // What sdk/nodejs/runtime/rpc.ts serializeFilteredProperties does to the same error, at each input it passes.
    err.message = `error serializing property "planId": ${err.message}`;
    expect(err.message).toBe(written);
  });

  test("an unknown input (a server not created yet, in a preview) gives an unknown result and no call", async () => {
    emu.control.clearRequests();
    const unknownId = pulumi.output(pulumi.unknown as unknown as string);
    expect(await valueOf(svc.getVpsRenewalOptionsOutput(unknownId))).toBe("unknown");
    expect(emu.control.requests()).toEqual([]);
  });
});

describe("email plan: getEmailPlans, getEmailPlan", () => {
  test("the catalogue and the project's plan, also as Output forms", async () => {
    const plans = await svc.getEmailPlans();
    expect(plans.map((p) => [p.code, p.monthlyPrice])).toEqual([["free", 0], ["starter", 150_000], ["business", 450_000]]);
    expect(plans[2].limits.topics).toBe(100);
    expect(await svc.getEmailPlan()).toEqual(expect.objectContaining({ planCode: "free", status: "active", scheduledPlanCode: null }));
    expect(await valueOf(svc.getEmailPlansOutput())).toEqual(plans);
    expect(await valueOf(svc.getEmailPlanOutput())).toEqual(await svc.getEmailPlan());
  });

  test("both answer for a project without a plan (status none)", async () => {
    useSettings({ SVC_EMAIL_API_KEY: emu.keys.emailNoPlan });
    expect(await svc.getEmailPlans()).toHaveLength(3);
    expect(await svc.getEmailPlan()).toEqual(expect.objectContaining({ planCode: null, status: "none" }));
  });

  test("an API error names the function, the call and the code", async () => {
    useSettings({ SVC_EMAIL_API_KEY: "svcm_" + "0".repeat(48) });
    const err = await rejection(svc.getEmailPlan());
    expect(err.message).toMatch(/^getEmailPlan failed: GET \/plan 401 INVALID_API_KEY/);
    expect(err.code).toBe("INVALID_API_KEY");
  });
});

describe("suppressions: getEmailSuppressions", () => {
  test("one page newest first, its cursor reads the next; the Output form answers the same", async () => {
    for (const email of ["a@acme-customer.dev", "b@acme-customer.dev", "c@acme-customer.dev"]) {
      expect((await emu.call("POST", "/email/suppressions", { key: emu.keys.email, body: { email } })).status).toBe(201);
    }
    const first = await svc.getEmailSuppressions({ limit: 2 });
    expect(first.suppressions.map((r) => [r.email, r.reason])).toEqual([["c@acme-customer.dev", "manual"], ["b@acme-customer.dev", "manual"]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await svc.getEmailSuppressions({ limit: 2, cursor: first.nextCursor! });
    expect(second).toEqual({ suppressions: [expect.objectContaining({ email: "a@acme-customer.dev" })], nextCursor: null });
    // Each answer holds a cursor of its own (the emulator's cursors serve one next page each).
    expect(await valueOf(svc.getEmailSuppressionsOutput({ limit: 2 }))).toEqual({ suppressions: first.suppressions, nextCursor: expect.any(String) });
  });

  test("a page size past the spec's 500 is the API's 422 VALIDATION, named with the function and the call", async () => {
    const err = await rejection(svc.getEmailSuppressions({ limit: 501 }));
    expect(err.message).toMatch(/^getEmailSuppressions failed: GET \/suppressions(\?\S*)? 422 VALIDATION — /);
    expect(err.code).toBe("VALIDATION");
  });
});
