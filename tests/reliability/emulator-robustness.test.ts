/**
 * Issue 8, emulator robustness: 20 concurrent clients send 2,000 mixed valid and invalid requests
 * (bad JSON, bodies over the spec's limits and over the transport limit, wrong types, unknown and
 * undecodable routes, other projects' ids, missing / expired / revoked / unknown keys, valid creates
 * and deletes of email webhooks, templates and VPS firewall rules, a few paid server creates, reads)
 * while a fault rule injects 500s at random. The mix is drawn from a small seeded generator (set
 * SVC_ROBUSTNESS_SEED to replay a mix; the seed is in every failure message; the interleaving of the
 * clients is the scheduler's). Every 20 answers the emulator clock moves one second, which refills
 * every key's bucket: 429s remain possible and are counted, never a failure.
 *
 * Asserted:
 * - no 5xx but the injected ones (the request log agrees: every 5xx it holds carries a fault id);
 * - every answer is the envelope (`{success:true,data}` or `{success:false,error,code}`) with the
 *   status the spec's tables give its code, and one of the outcomes its request allows;
 * - afterwards the world is consistent: exactly the webhooks, templates, firewall rules and servers
 *   whose creates were answered as successes and whose deletes were not, each complete (a webhook
 *   holds the secret its create answered, valid url and events; a template has a body and a
 *   completed create job; no job left queued or running; every rule valid, none duplicated; nothing
 *   changed in the other project);
 * - the wallet: paid calls are in the mix (server creates); the wallet equals the balance before the
 *   storm minus the price of every create answered 201, and nothing else (refused creates and
 *   everything else charge nothing).
 * Set SVC_ROBUSTNESS_REPORT=1 to print the figures.
 */
import { seededRandom as seeded } from "../../tools/support/world";
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";
import { webhookEventNames } from "../../contract/schemas";
import type { JobRec, TemplateRec, WebhookRec } from "../../emulator/email/state";
import type { FirewallRuleRec, ServerRec } from "../../emulator/vps/state";
import { pathParams, routes, type RouteDef } from "../../contract/routes";
import { SERVICE_PREFIX } from "../../emulator/core/module";
import { flood } from "../../tools/support/flood";

const SEED = Number(process.env.SVC_ROBUSTNESS_SEED ?? 8_2024);
const CLIENTS = 20;
const TOTAL = 2000;
/** Answers between two one-second moves of the emulator clock (which refill every rate bucket). */
const TICK_EVERY = 20;
const FAULT_PROBABILITY = 0.015;
const INJECTED_MESSAGE = "Injected fault";

/** The status the spec's tables give each code this mix can meet. */
const STATUS_OF: Record<string, number> = {
  VALIDATION: 422,
  PARSE: 400,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  NO_API_KEY: 401,
  INVALID_API_KEY: 401,
  API_KEY_EXPIRED: 401,
  SCOPE_NOT_ALLOWED: 403,
  PROJECT_REQUIRED: 400,
  PROJECT_NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  INVALID_URL: 400,
  NO_EVENTS: 400,
  WEBHOOK_LIMIT_REACHED: 402,
  WEBHOOK_NOT_FOUND: 404,
  INVALID_TEMPLATE_NAME: 400,
  EMPTY_TEMPLATE: 400,
  TEMPLATE_LIMIT_REACHED: 402,
  TEMPLATE_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  INSTANCE_NOT_FOUND: 404,
  VPS_BUSY: 409,
  INVALID_BILLING_PERIOD: 400,
  INSUFFICIENT_BALANCE: 402,
  INVALID_FIREWALL_RULE: 400,
  REQUEST_ERROR: 400,
  FIREWALL_RULE_NOT_FOUND: 404,
};

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any


interface Req {
  kind: string;
  method: string;
  path: string;
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  /** Allowed outcomes: a success status ("201") or a failure code. RATE_LIMITED and injected faults are always allowed. */
  allowed: string[];
  /** Bookkeeping on a success answer. */
  onSuccess?: (data: Json) => void;
  /** Bookkeeping on any other answer (an id taken from a pool and not used up goes back). */
  onFailure?: () => void;
}

const VALID_URLS = [
  ...Array.from({ length: 8 }, (_, i) => `https://hooks${i}.example.com/svc/events`),
  "https://hooks.example.com:8443/in?x=1",
  "https://hooks.example.xn--p1ai/in",
];
const INVALID_URLS = [
  "http://hooks.example.com/in",
  "ftp://hooks.example.com/in",
  "https://localhost/in",
  "https://hooks/in",
  "https://hooks.svc.internal/in",
  "https://127.0.0.1/in",
  "https://10.0.0.5/in",
  "https://192.168.1.1/in",
  "https://169.254.169.254/latest/meta-data",
  "https://[::1]/in",
  "https://[fc00::1]/in",
  "https://user:pass@hooks.example.com/in",
  "https://@hooks.example.com/in",
  "https://hooks.exam\nple.com/in",
  "not a url",
];
const SOURCES = ["0.0.0.0/0", "203.0.113.0/24", "198.51.100.7", "2001:db8::/32", "::/0"];
const BAD_RULES = [
  { protocol: "sctp", action: "allow", port: "22", source: "0.0.0.0/0" },
  { protocol: "tcp", action: "accept", port: "22", source: "0.0.0.0/0" },
  { protocol: "tcp", action: "allow", port: "0", source: "0.0.0.0/0" },
  { protocol: "tcp", action: "allow", port: "65536", source: "0.0.0.0/0" },
  { protocol: "tcp", action: "allow", port: "8100-8000", source: "0.0.0.0/0" },
  { protocol: "tcp", action: "allow", source: "0.0.0.0/0" },
  { protocol: "icmp", action: "allow", port: "22", source: "0.0.0.0/0" },
  { protocol: "udp", action: "deny", port: "53", source: "300.1.1.1" },
  { protocol: "udp", action: "deny", port: "53", source: "10.0.0.0/33" },
  { protocol: "TCP", action: "allow", port: "22", source: "0.0.0.0/0" },
];
/** A rule no request ever adds: removing it must answer FIREWALL_RULE_NOT_FOUND. */
const NEVER_ADDED = { protocol: "tcp", action: "deny", port: "65535", source: "192.0.2.255" };

let emu: TestEmulator;
let serverA: string; // project A
let serverB: string; // project B
let projectA: string;
let projectB: string;
let plans: { id: string; name: string; prices: Record<string, number> }[];

useEmulator((e) => (emu = e), {
  options: { seed: 1 },
  setup: async (emu) => {
    [projectA, projectB] = emu.projects;
    // The second project gets an email plan too, so its key can try the first project's ids.
    emu.control.emu.world.projects[1].email.plan = { name: "free", emailsPerDay: 100, emailsPerMonth: 3000, domains: 5, templates: 50, webhooks: 50 };
    plans = (await emu.call("GET", "/api/vps/plans", { key: emu.keys.account })).body.data;
    const create = async (projectId: string, name: string) => {
      const res = await emu.call("POST", "/api/vps", {
        key: emu.keys.account,
        body: { planId: plans[0].id, projectId, name, osType: "ubuntu", osVersion: "22.04", rootPassword: "Sup3rSecret!23", billingPeriod: "monthly" },
      });
      if (res.status !== 201) throw new Error(`setup: create answered ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as string;
    };
    serverA = await create(projectA, "storm-a");
    serverB = await create(projectB, "storm-b");
    emu.control.settle();
  },
  startTimeoutMs: 30_000,
});

/** Runs `body`, prefixing any failure with the seed that replays the mix. */
async function withSeed(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof Error) err.message = `seed ${SEED} (replay with SVC_ROBUSTNESS_SEED=${SEED}): ${err.message}`;
    throw err;
  }
}

test("20 concurrent clients, 2,000 mixed requests, injected 500s: only envelopes with the spec's statuses, no unexpected 5xx, a consistent world and wallet", async () => {
  await withSeed(async () => {
    const started = Date.now();
    const { keys } = emu;
    const servers0 = (emu.control.state().vps as { servers: ServerRec[] }).servers;
    expect(servers0.map((s) => s.status)).toEqual(["running", "running"]);
    const wallet0 = emu.control.state().account.wallet;
    expect(wallet0).toBe(50_000_000 - 2 * plans[0].prices.monthly);

    // ---- what the clients know, and the ledger of what the answers say happened ----
    const pool = { webhooks: [] as string[], templates: [] as string[], jobs: [] as string[], rules: [] as string[] };
    const ledger = {
      webhooks: new Map<string, { secret: string; url: string }>(),
      webhooksDeleted: new Set<string>(),
      templates: new Set<string>(),
      templatesDeleted: new Set<string>(),
      jobs: new Set<string>(),
      rules: new Set<string>(),
      rulesRemoved: new Set<string>(),
      servers: new Map<string, number>(), // id → price charged
    };

    /** Everything wrong with an answer, as one line each (checked at the end, with the seed). */
    const problems: string[] = [];

    const emailKeys = [
      { key: keys.email, headers: {} },
      { key: keys.project, headers: {} },
      { key: keys.account, headers: { "x-svc-project": projectA } },
    ];
    const platformKeys = [keys.account, keys.project, keys.vpsOnly];
    const otherEmailKey = keys.emailNoPlan; // project B's email key (B has a plan here)

    const randomUuid = (rng: () => number) =>
      "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx".replace(/x/g, () => Math.floor(rng() * 16).toString(16));
    const one = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
    /** An id drawn from a pool and removed from it (so one client uses it up), or undefined. */
    const take = (rng: () => number, items: string[]): string | undefined => (items.length ? items.splice(Math.floor(rng() * items.length), 1)[0] : undefined);
    const events = (rng: () => number) => {
      const n = 1 + Math.floor(rng() * 4);
      const picked = Array.from({ length: n }, () => one(rng, webhookEventNames));
      return rng() < 0.2 ? [...picked, "email.exploded"] : picked; // unknown names are dropped by the API
    };
    const rule = (rng: () => number) =>
      rng() < 0.1
        ? { protocol: "icmp", action: one(rng, ["allow", "deny"]), source: one(rng, SOURCES) }
        : { protocol: one(rng, ["tcp", "udp"]), action: one(rng, ["allow", "deny"]), port: String(1 + Math.floor(rng() * 400)), source: one(rng, SOURCES) };
    const validServer = (rng: () => number) => {
      const plan = one(rng, plans.slice(0, 2));
      const billingPeriod = one(rng, ["monthly", "3month", "6month", "yearly"]);
      return { plan, billingPeriod, body: { planId: plan.id, projectId: projectA, name: `storm-${Math.floor(rng() * 1e6)}`, osType: "ubuntu", osVersion: "24.04", rootPassword: "Storm!pass1234", billingPeriod } };
    };

    // ---- the mix: [weight, request maker] ----
    type Maker = (rng: () => number) => Req;
    const email = (rng: () => number) => one(rng, emailKeys);
    const mix: [number, Maker][] = [
      // webhooks
      [6, (rng) => ({ kind: "webhook.list", method: "GET", path: "/email/webhooks", ...email(rng), allowed: ["200"] })],
      [8, (rng) => ({
        kind: "webhook.create", method: "POST", path: "/email/webhooks", ...email(rng), body: { url: one(rng, VALID_URLS), events: events(rng) },
        allowed: ["201", "WEBHOOK_LIMIT_REACHED"],
        onSuccess: (d) => {
          ledger.webhooks.set(d.id, { secret: d.secret, url: d.url });
          pool.webhooks.push(d.id);
        },
      })],
      [1, (rng) => ({
        kind: "webhook.create.protoKeys", method: "POST", path: "/email/webhooks", ...email(rng),
        rawBody: `{"url": "${one(rng, VALID_URLS)}", "events": ["email.sent"], "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}`,
        allowed: ["201", "WEBHOOK_LIMIT_REACHED"],
        onSuccess: (d) => {
          ledger.webhooks.set(d.id, { secret: d.secret, url: d.url });
          pool.webhooks.push(d.id);
        },
      })],
      [4, (rng) => ({ kind: "webhook.create.badUrl", method: "POST", path: "/email/webhooks", ...email(rng), body: { url: one(rng, INVALID_URLS), events: ["email.sent"] }, allowed: ["INVALID_URL"] })],
      [2, (rng) => ({ kind: "webhook.create.noEvents", method: "POST", path: "/email/webhooks", ...email(rng), body: { url: one(rng, VALID_URLS), events: ["email.exploded", ""] }, allowed: ["NO_EVENTS"] })],
      [2, (rng) => ({ kind: "webhook.create.longUrl", method: "POST", path: "/email/webhooks", ...email(rng), body: { url: `https://hooks.example.com/${"p".repeat(2000)}`, events: ["email.sent"] }, allowed: ["INVALID_URL", "VALIDATION"] })],
      [2, (rng) => ({ kind: "webhook.create.21events", method: "POST", path: "/email/webhooks", ...email(rng), body: { url: one(rng, VALID_URLS), events: Array<string>(21).fill("email.sent") }, allowed: ["VALIDATION"] })],
      [2, (rng) => ({ kind: "webhook.create.wrongTypes", method: "POST", path: "/email/webhooks", ...email(rng), body: one(rng, [{ url: 42, events: ["email.sent"] }, { url: VALID_URLS[0], events: "email.sent" }, { events: ["email.sent"] }, [1, 2], null]), allowed: ["VALIDATION"] })],
      [2, (rng) => ({ kind: "webhook.create.badJson", method: "POST", path: "/email/webhooks", ...email(rng), rawBody: one(rng, ['{"url": "https://hooks.example.com/in", "events": [', "{bad", "'single'", "\u0000"]), allowed: ["VALIDATION"] })],
      [5, (rng) => {
        const id = take(rng, pool.webhooks);
        if (!id) return { kind: "webhook.delete.unknown", method: "DELETE", path: `/email/webhooks/${randomUuid(rng)}`, ...email(rng), allowed: ["WEBHOOK_NOT_FOUND"] };
        return { kind: "webhook.delete", method: "DELETE", path: `/email/webhooks/${id}`, ...email(rng), allowed: ["200"], onSuccess: () => ledger.webhooksDeleted.add(id), onFailure: () => pool.webhooks.push(id) };
      }],
      [2, (rng) => ({ kind: "webhook.delete.unknown", method: "DELETE", path: `/email/webhooks/${one(rng, [randomUuid(rng), "not-an-id", "..%2F..%2Fetc", "a".repeat(300)])}`, ...email(rng), allowed: ["WEBHOOK_NOT_FOUND"] })],
      [2, (rng) => ({ kind: "webhook.delete.otherProject", method: "DELETE", path: `/email/webhooks/${one(rng, pool.webhooks.length ? pool.webhooks : [randomUuid(rng)])}`, key: otherEmailKey, allowed: ["WEBHOOK_NOT_FOUND"] })],

      // templates and jobs
      [4, (rng) => ({ kind: "template.list", method: "GET", path: "/email/templates", ...email(rng), allowed: ["200"] })],
      [7, (rng) => {
        const variant = Math.floor(rng() * 3);
        const body = { name: `tpl_${Math.floor(rng() * 1e6)}`, subject: "Hello {{name}}", ...(variant !== 1 ? { htmlBody: "<p>Hi {{name}}</p>" } : {}), ...(variant !== 0 ? { textBody: "Hi {{name}}" } : {}) };
        return {
          kind: "template.create", method: "POST", path: "/email/templates", ...email(rng), body, allowed: ["202", "TEMPLATE_LIMIT_REACHED"],
          onSuccess: (d) => {
            ledger.templates.add(d.templateId);
            ledger.jobs.add(d.jobId);
            pool.templates.push(d.templateId);
            pool.jobs.push(d.jobId);
          },
        };
      }],
      [3, (rng) => ({ kind: "template.create.badName", method: "POST", path: "/email/templates", ...email(rng), body: { name: one(rng, ["x'; DROP TABLE--", "order shipped", "n".repeat(64), "a\u0000b", "a\nb", ""]), textBody: "x" }, allowed: ["INVALID_TEMPLATE_NAME"] })],
      [2, (rng) => ({ kind: "template.create.empty", method: "POST", path: "/email/templates", ...email(rng), body: one(rng, [{ name: "empty" }, { name: "empty", htmlBody: "", textBody: "" }]), allowed: ["EMPTY_TEMPLATE"] })],
      [2, (rng) => ({ kind: "template.create.oversized", method: "POST", path: "/email/templates", ...email(rng), body: { name: "big", [one(rng, ["htmlBody", "textBody"])]: "b".repeat(200_001) }, allowed: ["VALIDATION"] })],
      [2, (rng) => ({ kind: "template.create.wrongTypes", method: "POST", path: "/email/templates", ...email(rng), body: one(rng, [{ name: 5, textBody: "x" }, { name: "t", textBody: ["x"] }, { textBody: "x" }, "template"]), allowed: ["VALIDATION"] })],
      [4, (rng) => ({ kind: "template.get", method: "GET", path: `/email/templates/${one(rng, pool.templates.length ? pool.templates : [randomUuid(rng)])}`, ...email(rng), allowed: ["200", "TEMPLATE_NOT_FOUND"] })],
      [3, (rng) => ({ kind: "template.update", method: "PATCH", path: `/email/templates/${one(rng, pool.templates.length ? pool.templates : [randomUuid(rng)])}`, ...email(rng), body: one(rng, [{ subject: "Updated {{name}}" }, { textBody: "New text" }, { htmlBody: "<p>new</p>" }]), allowed: ["200", "TEMPLATE_NOT_FOUND"] })],
      [2, (rng) => ({ kind: "template.update.oversized", method: "PATCH", path: `/email/templates/${one(rng, pool.templates.length ? pool.templates : [randomUuid(rng)])}`, ...email(rng), body: { textBody: "t".repeat(200_001) }, allowed: ["VALIDATION", "TEMPLATE_NOT_FOUND"] })],
      [4, (rng) => {
        const id = take(rng, pool.templates);
        if (!id) return { kind: "template.delete.unknown", method: "DELETE", path: `/email/templates/${randomUuid(rng)}`, ...email(rng), allowed: ["TEMPLATE_NOT_FOUND"] };
        return { kind: "template.delete", method: "DELETE", path: `/email/templates/${id}`, ...email(rng), allowed: ["200"], onSuccess: () => ledger.templatesDeleted.add(id), onFailure: () => pool.templates.push(id) };
      }],
      [2, (rng) => ({ kind: "template.otherProject", method: one(rng, ["GET", "DELETE"]), path: `/email/templates/${one(rng, pool.templates.length ? pool.templates : [randomUuid(rng)])}`, key: otherEmailKey, allowed: ["TEMPLATE_NOT_FOUND"] })],
      [2, (rng) => ({ kind: "job.get", method: "GET", path: `/email/jobs/${one(rng, pool.jobs.length ? pool.jobs : ["job_0"])}`, ...email(rng), allowed: pool.jobs.length ? ["200"] : ["JOB_NOT_FOUND"] })],
      [1, (rng) => ({ kind: "job.get.otherProject", method: "GET", path: `/email/jobs/${one(rng, pool.jobs.length ? pool.jobs : ["job_0"])}`, key: otherEmailKey, allowed: ["JOB_NOT_FOUND"] })],
      [2, (rng) => ({ kind: "job.list", method: "GET", path: "/email/jobs", ...email(rng), allowed: ["200"] })],
      [2, (rng) => ({ kind: "email.status", method: "GET", path: "/email/status", ...email(rng), allowed: ["200"] })],

      // email authentication
      [1, () => ({ kind: "email.noKey", method: "GET", path: "/email/webhooks", key: null, allowed: ["UNAUTHORIZED"] })],
      [1, (rng) => ({ kind: "email.badKey", method: "POST", path: "/email/webhooks", key: one(rng, [keys.revoked, `svcm_${"0".repeat(48)}`, "x".repeat(500)]), body: { url: VALID_URLS[0], events: ["email.sent"] }, allowed: ["INVALID_API_KEY"] })],
      [1, () => ({ kind: "email.expiredKey", method: "POST", path: "/email/templates", key: keys.expired, body: { name: "t", textBody: "x" }, allowed: ["API_KEY_EXPIRED"] })],
      [1, () => ({ kind: "email.scope", method: "GET", path: "/email/templates", key: keys.vpsOnly, allowed: ["SCOPE_NOT_ALLOWED"] })],
      [1, () => ({ kind: "email.projectRequired", method: "GET", path: "/email/webhooks", key: keys.account, allowed: ["PROJECT_REQUIRED"] })],
      [1, (rng) => ({ kind: "email.unknownProject", method: "GET", path: "/email/webhooks", key: keys.account, headers: { "x-svc-project": randomUuid(rng) }, allowed: ["PROJECT_NOT_FOUND"] })],

      // firewall rules of server A (project A), and server B (project B) seen with a project-A key
      [3, (rng) => ({ kind: "firewall.list", method: "GET", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), allowed: ["200"] })],
      [8, (rng) => ({
        kind: "firewall.add", method: "POST", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys),
        body: { rules: rng() < 0.2 ? [rule(rng), rule(rng)] : [rule(rng)] }, allowed: ["201", "REQUEST_ERROR"],
        onSuccess: (d: { id: string }[]) => d.forEach((r) => (ledger.rules.add(r.id), pool.rules.push(r.id))),
      })],
      [4, (rng) => ({ kind: "firewall.add.invalid", method: "POST", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: { rules: rng() < 0.5 ? [one(rng, BAD_RULES)] : [rule(rng), one(rng, BAD_RULES)] }, allowed: ["INVALID_FIREWALL_RULE"] })],
      [1, (rng) => ({ kind: "firewall.add.none", method: "POST", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: { rules: [] }, allowed: ["INVALID_FIREWALL_RULE"] })],
      [2, (rng) => ({ kind: "firewall.add.wrongTypes", method: "POST", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: one(rng, [{ rules: "tcp 22" }, { rules: [{ protocol: 6, action: "allow", source: "0.0.0.0/0" }] }, { rules: [null] }, {}]), allowed: ["VALIDATION"] })],
      [2, (rng) => ({ kind: "firewall.add.badJson", method: "POST", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), rawBody: one(rng, ['{"rules": [{"protocol": "tcp"', "rules=tcp", "{'rules': []}"]), allowed: ["PARSE"] })],
      [5, (rng) => {
        const ids = [take(rng, pool.rules), rng() < 0.3 ? take(rng, pool.rules) : undefined].filter((x): x is string => x !== undefined);
        if (ids.length === 0) return { kind: "firewall.remove.unknown", method: "DELETE", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: { ids: [randomUuid(rng)] }, allowed: ["FIREWALL_RULE_NOT_FOUND"] };
        return {
          kind: "firewall.remove", method: "DELETE", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: { ids }, allowed: ["200"],
          onSuccess: () => ids.forEach((id) => ledger.rulesRemoved.add(id)),
          onFailure: () => pool.rules.push(...ids),
        };
      }],
      [2, (rng) => ({ kind: "firewall.remove.unknown", method: "DELETE", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: one(rng, [{ ids: [randomUuid(rng)] }, { rules: [NEVER_ADDED] }]), allowed: ["FIREWALL_RULE_NOT_FOUND"] })],
      [1, (rng) => ({ kind: "firewall.remove.invalid", method: "DELETE", path: `/api/vps/${serverA}/firewall`, key: one(rng, platformKeys), body: one(rng, [{}, { ids: [] }, { ids: [randomUuid(rng)], rules: [NEVER_ADDED] }]), allowed: ["INVALID_FIREWALL_RULE"] })],
      [3, (rng) => {
        const method = one(rng, ["GET", "POST", "DELETE"]);
        const body = method === "POST" ? { rules: [rule(rng)] } : method === "DELETE" ? { ids: [randomUuid(rng)] } : undefined;
        return { kind: "firewall.otherProject", method, path: `/api/vps/${serverB}/firewall`, key: keys.project, body, allowed: ["INSTANCE_NOT_FOUND"] };
      }],

      // servers
      [3, (rng) => ({ kind: "vps.read", method: "GET", path: one(rng, ["/api/vps", `/api/vps/${serverA}`, "/api/vps/plans", "/api/backup/plans", "/api/account/wallet"]), key: one(rng, platformKeys), allowed: ["200"] })],
      [2, (rng) => ({ kind: "vps.get.otherProject", method: "GET", path: `/api/vps/${one(rng, [serverB, randomUuid(rng), "not-an-id"])}`, key: keys.project, allowed: ["INSTANCE_NOT_FOUND"] })],
      [5, (rng) => {
        const { body } = validServer(rng);
        const broken = one(rng, [
          ["REQUEST_ERROR", { rootPassword: "short" }],
          ["REQUEST_ERROR", { rootPassword: "x'; DROP TABLE--xx" }],
          ["REQUEST_ERROR", { name: "ab" }],
          ["REQUEST_ERROR", { planId: randomUuid(rng) }],
          ["REQUEST_ERROR", { osType: "windows", osVersion: "2022" }],
          ["INVALID_BILLING_PERIOD", { billingPeriod: "weekly" }],
          ["PROJECT_REQUIRED", { projectId: "" }],
          ["PROJECT_NOT_FOUND", { projectId: randomUuid(rng) }],
          ["VALIDATION", { rootPassword: 123456789012 }],
          ["VALIDATION", { billingPeriod: undefined }],
        ] as [string, Record<string, unknown>][]);
        return { kind: `vps.create.invalid.${broken[0]}`, method: "POST", path: "/api/vps", key: one(rng, platformKeys), body: { ...body, ...broken[1] }, allowed: [broken[0]] };
      }],
      [1, (rng) => ({ kind: "vps.create.otherProject", method: "POST", path: "/api/vps", key: keys.project, body: { ...validServer(rng).body, projectId: projectB }, allowed: ["PROJECT_NOT_FOUND"] })],
      [1, (rng) => ({ kind: "vps.create.badJson", method: "POST", path: "/api/vps", key: one(rng, platformKeys), rawBody: '{"planId": ', allowed: ["PARSE"] })],
      [0.4, (rng) => {
        const { plan, billingPeriod, body } = validServer(rng);
        return {
          kind: "vps.create", method: "POST", path: "/api/vps", key: one(rng, [keys.account, keys.project]), body, allowed: ["201"],
          onSuccess: (d) => {
            ledger.servers.set(d.id, plan.prices[billingPeriod]);
            if (d.charged !== plan.prices[billingPeriod]) problems.push(`vps.create: charged ${d.charged}, the plan's ${billingPeriod} price is ${plan.prices[billingPeriod]}`);
          },
        };
      }],
      [0.15, (rng) => {
        const [path, key] = one(rng, [["/api/vps", keys.account], ["/email/templates", keys.email]]);
        return { kind: "body.overTransportLimit", method: "POST", path, key, rawBody: JSON.stringify({ name: "huge", textBody: "h".repeat(13 * 1024 * 1024) }), allowed: ["VALIDATION"] };
      }],

      // platform authentication
      [1, () => ({ kind: "api.noKey", method: "GET", path: "/api/vps", key: null, allowed: ["NO_API_KEY"] })],
      [1, (rng) => ({ kind: "api.badKey", method: "GET", path: "/api/vps", key: one(rng, [keys.revoked, keys.email, `svc_${"f".repeat(48)}`]), allowed: ["INVALID_API_KEY"] })],
      [1, () => ({ kind: "api.expiredKey", method: "POST", path: `/api/vps/${serverA}/firewall`, key: keys.expired, body: { rules: [NEVER_ADDED] }, allowed: ["API_KEY_EXPIRED"] })],
      [1, () => ({ kind: "api.scope", method: "POST", path: `/api/vps/${serverA}/firewall`, key: keys.noVps, body: { rules: [NEVER_ADDED] }, allowed: ["SCOPE_NOT_ALLOWED"] })],

      // routes that do not exist
      [3, (rng) => {
        const [method, path] = one(rng, [
          ["GET", "/api/nothing-here"],
          ["PUT", "/email/webhooks"],
          ["PATCH", "/api/vps"],
          ["POST", "/email/webhooks/abc/rotate"],
          ["GET", "/api/models"],
          ["DELETE", "/api/account/wallet"],
          ["GET", "/email/templates/%E0%A4%A"],
          ["GET", "/api/vps/%"],
          ["GET", "/email"],
          ["OPTIONS", "/api/vps"],
        ]);
        return { kind: "route.unknown", method, path, key: one(rng, [keys.account, keys.email]), allowed: ["NOT_FOUND"] };
      }],
    ];
    const totalWeight = mix.reduce((sum, [w]) => sum + w, 0);
    const draw = (rng: () => number): Req => {
      let x = rng() * totalWeight;
      for (const [w, make] of mix) {
        if ((x -= w) < 0) return make(rng);
      }
      return mix[mix.length - 1][1](rng);
    };

    // ---- faults, then the storm ----
    await emu.ctl("POST", "/faults", { path: "/**", status: 500, code: "INTERNAL_ERROR", probability: FAULT_PROBABILITY });
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
    emu.control.clearRequests();

    const byStatus = new Map<number, number>();
    const byKind = new Map<string, number>();
    let injected = 0;
    let rateLimited = 0;
    let answered = 0;
    let ticks = Promise.resolve();

    const judge = (req: Req, res: CallResult): void => {
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
      byKind.set(req.kind, (byKind.get(req.kind) ?? 0) + 1);
      const b = res.body;
      const where = `${req.kind}: ${req.method} ${req.path.slice(0, 80)} → ${res.status} ${JSON.stringify(b).slice(0, 200)}`;
      if (!b || typeof b !== "object" || Array.isArray(b)) return void problems.push(`${where}: not a JSON object`);
      let outcome: string;
      if (b.success === true) {
        if (!("data" in b) || "error" in b || "code" in b) problems.push(`${where}: success envelope with wrong fields`);
        if (res.status < 200 || res.status > 202) problems.push(`${where}: success with status ${res.status}`);
        outcome = String(res.status);
      } else if (b.success === false) {
        if (typeof b.error !== "string" || !b.error || typeof b.code !== "string") problems.push(`${where}: failure envelope without error and code`);
        const extra = Object.keys(b).filter((k) => !["success", "error", "code", "required", "available"].includes(k));
        if (extra.length) problems.push(`${where}: unexpected envelope fields ${extra.join(", ")}`);
        if (STATUS_OF[b.code] === undefined) problems.push(`${where}: code ${b.code} not in the status table`);
        else if (STATUS_OF[b.code] !== res.status) problems.push(`${where}: code ${b.code} answered ${res.status}, the spec says ${STATUS_OF[b.code]}`);
        outcome = b.code;
      } else return void problems.push(`${where}: no success flag`);

      if (res.status >= 500) {
        if (res.status === 500 && b.error === INJECTED_MESSAGE) injected++;
        else problems.push(`${where}: unexpected ${res.status}`);
        req.onFailure?.();
        return;
      }
      if (res.status === 429) {
        rateLimited++;
        if (!(Number(res.headers.get("retry-after")) >= 1)) problems.push(`${where}: 429 without retry-after`);
        req.onFailure?.();
        return;
      }
      if (!req.allowed.includes(outcome)) problems.push(`${where}: expected one of ${req.allowed.join(", ")}`);
      if (b.success === true) req.onSuccess?.(b.data);
      else req.onFailure?.();
    };

    const client = async (index: number) => {
      const rng = seeded(SEED * 31 + index);
      for (let i = 0; i < TOTAL / CLIENTS; i++) {
        // The first requests of the clients make one request of every kind (the rare ones too); then the draw.
        const first = i * CLIENTS + index;
        const req = first < mix.length ? mix[first][1](rng) : draw(rng);
        const res = await emu.call(req.method, req.path, { key: req.key, headers: req.headers, body: req.body, rawBody: req.rawBody });
        judge(req, res);
        if (++answered % TICK_EVERY === 0) ticks = ticks.then(() => emu.ctl("POST", "/clock/advance", { seconds: 1 }).then(() => undefined));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    await ticks;
    const seconds = (Date.now() - started) / 1000;

    expect(answered).toBe(TOTAL);
    expect(problems).toEqual([]);
    expect(injected).toBeGreaterThan(0);
    // Bodies with __proto__ / constructor keys changed no prototype of the (in-process) emulator.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // ---- the request log agrees: one entry per request, every 5xx an injected fault ----
    const log = emu.control.requests();
    expect(log).toHaveLength(TOTAL);
    expect(log.filter((e) => e.status >= 500 && e.fault === null)).toEqual([]);
    expect(log.filter((e) => e.fault !== null)).toHaveLength(injected);

    // ---- the world afterwards ----
    await emu.ctl("DELETE", "/faults");
    emu.control.settle();
    const world = emu.control.state();
    const emailWorld = world.email as { webhooks: WebhookRec[]; templates: TemplateRec[]; jobs: JobRec[] };
    const sortIds = (ids: Iterable<string>) => [...ids].sort();

    // Webhooks: exactly those created and not deleted, each whole, with the secret its create answered.
    const liveWebhooks = [...ledger.webhooks.keys()].filter((id) => !ledger.webhooksDeleted.has(id));
    expect(sortIds(emailWorld.webhooks.map((w) => w.id))).toEqual(sortIds(liveWebhooks));
    for (const w of emailWorld.webhooks) {
      expect(w.projectId).toBe(projectA);
      expect(w.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(w.secret).toBe(ledger.webhooks.get(w.id)!.secret);
      expect(VALID_URLS).toContain(w.url);
      expect(w.events.length).toBeGreaterThanOrEqual(1);
      expect(w.events.length).toBeLessThanOrEqual(20);
      expect(new Set(w.events).size).toBe(w.events.length);
      for (const e of w.events) expect(webhookEventNames).toContain(e);
    }
    expect(new Set(emailWorld.webhooks.map((w) => w.secret)).size).toBe(emailWorld.webhooks.length);

    // Templates: exactly those created and not deleted, each valid, each with its create job completed.
    const liveTemplates = [...ledger.templates].filter((id) => !ledger.templatesDeleted.has(id));
    expect(sortIds(emailWorld.templates.map((t) => t.id))).toEqual(sortIds(liveTemplates));
    for (const t of emailWorld.templates) {
      expect(t.projectId).toBe(projectA);
      expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,63}$/);
      expect(t.htmlBody !== null || t.textBody !== null).toBe(true);
      for (const text of [t.htmlBody, t.textBody]) expect((text ?? "").length).toBeLessThanOrEqual(200_000);
      const jobs = emailWorld.jobs.filter((j) => j.targetId === t.id);
      expect(jobs.map((j) => [j.type, j.status])).toEqual([["create_template", "completed"]]);
    }
    // Jobs: every one answered exists; none is left queued or running.
    expect(sortIds(emailWorld.jobs.map((j) => j.jobId))).toEqual(sortIds(ledger.jobs));
    expect(emailWorld.jobs.filter((j) => j.status === "queued" || j.status === "running")).toEqual([]);

    // Firewall: server A holds exactly the rules added and not removed, all valid, none twice; B none.
    const vps = world.vps as { servers: ServerRec[] };
    const a = vps.servers.find((s) => s.id === serverA)!;
    const liveRules = [...ledger.rules].filter((id) => !ledger.rulesRemoved.has(id));
    expect(sortIds(a.firewall.map((r) => r.id))).toEqual(sortIds(liveRules));
    const ruleKey = (r: FirewallRuleRec) => `${r.protocol} ${r.action} ${r.port ?? "-"} ${r.source}`;
    expect(new Set(a.firewall.map(ruleKey)).size).toBe(a.firewall.length);
    for (const r of a.firewall) {
      expect(["tcp", "udp", "icmp"]).toContain(r.protocol);
      expect(["allow", "deny"]).toContain(r.action);
      if (r.protocol === "icmp") expect(r.port).toBeUndefined();
      else expect(Number(r.port)).toBeGreaterThanOrEqual(1);
      expect(SOURCES).toContain(r.source);
    }
    const b = vps.servers.find((s) => s.id === serverB)!;
    expect(b.firewall).toEqual([]);

    // Servers and wallet: one server per create answered 201, all settled; the wallet paid exactly those.
    expect(sortIds(vps.servers.map((s) => s.id))).toEqual(sortIds([serverA, serverB, ...ledger.servers.keys()]));
    expect(vps.servers.filter((s) => s.status !== "running")).toEqual([]);
    for (const s of vps.servers) if (ledger.servers.has(s.id)) expect(s.projectId).toBe(projectA);
    const charged = [...ledger.servers.values()].reduce((sum, price) => sum + price, 0);
    expect(world.account.wallet).toBe(wallet0 - charged);
    await emu.ctl("POST", "/clock/advance", { seconds: 2 });
    expect((await emu.call("GET", "/api/account/wallet", { key: keys.account })).body.data.balance).toBe(wallet0 - charged);

    // Project B: nothing of its own was created, and none of A's things were touched through it.
    expect(emailWorld.webhooks.filter((w) => w.projectId === projectB)).toEqual([]);
    expect(emailWorld.templates.filter((t) => t.projectId === projectB)).toEqual([]);

    expect(seconds).toBeLessThan(20);
    if (process.env.SVC_ROBUSTNESS_REPORT) {
      const statuses = [...byStatus].sort(([x], [y]) => x - y).map(([s, n]) => `${s}: ${n}`).join(", ");
      // eslint-disable-next-line no-console
      console.log(
        `seed ${SEED}: ${answered} requests by ${CLIENTS} clients in ${seconds.toFixed(1)} s; by status ${statuses}; ` +
          `429s ${rateLimited}; injected 500s ${injected}; unexpected 5xx 0; ` +
          `webhooks ${ledger.webhooks.size} created / ${ledger.webhooksDeleted.size} deleted; templates ${ledger.templates.size} / ${ledger.templatesDeleted.size}; ` +
          `rules ${ledger.rules.size} / ${ledger.rulesRemoved.size}; servers created ${ledger.servers.size} (IDR ${charged.toLocaleString("en-US")}); kinds ${byKind.size}`,
      );
    }
  });
}, 60_000);

// ---------------------------------------------------------------------------------------------
// Generated from the route table: every route of contract/routes.ts × every kind of bad input. A
// route added to the table is covered by construction. Each answer must be a 4xx carrying a code of
// the spec's tables (the envelope's `code`; the AI gateway's `error.code` / `error.type`), never a
// 5xx. One emulator, requests in parallel; every request gets its own key (cloned from the seeded
// ones) so the per-key rate limit never answers for the route.
// ---------------------------------------------------------------------------------------------

/** Every code of the spec documents' tables (email-service.md, platform-api.md, assumed-routes.md). */
const SPEC_CODES = new Set(
  (
    "ACCOUNT_KEY_REQUIRED AGENT_OFFLINE ALREADY_SUBSCRIBED API_KEY_EXPIRED BACKUP_ERROR BACKUP_NOT_CONFIGURED BONUS_IN_USE BUSY " +
    "DOMAIN_ALREADY_IN_ACCOUNT DOMAIN_NOT_FOUND DOMAIN_NOT_LINKED DOMAIN_PENDING_PROFILE DOMAIN_UNAVAILABLE FEATURE_NOT_AVAILABLE " +
    "FIREWALL_RULE_NOT_FOUND INSTANCE_NOT_FOUND INSTANCE_NOT_RUNNING INSUFFICIENT_BALANCE INVALID_API_KEY INVALID_BILLING_PERIOD " +
    "INVALID_FIREWALL_RULE INVALID_PORT INVALID_REGISTRANT INVALID_SNAPSHOT_NAME INVALID_SSH_KEY LIMIT NODE_NOT_READY NOT_ELIGIBLE " +
    "NOT_FOUND NOT_RUNNABLE NOT_SUBSCRIBED NO_API_KEY NO_BLUEPRINT OVER_NEW_QUOTA PARSE PERIOD_NOT_SUPPORTED PLAN_NOT_FOUND " +
    "PORT_NOT_FOUND PORT_TAKEN PREMIUM_NOT_SUPPORTED PRICE_UNAVAILABLE PRIVATE_KEY_REJECTED PROJECT_NOT_FOUND PROJECT_REQUIRED " +
    "RATE_LIMITED REGISTRANT_INCOMPLETE REGISTRAR_REJECTED RENEW_IN_PROGRESS REQUEST_ERROR REQUEST_IN_PROGRESS " +
    "SCOPE_NOT_ALLOWED SNAPSHOT_NOT_FOUND SSH_KEY_EXISTS SSH_KEY_LIMIT SSH_KEY_NOT_FOUND TLD_NOT_SUPPORTED VALIDATION VALIDATION_ERROR " +
    "VPS_BUSY VPS_NOT_RUNNING WHOIS_PROTECTION_ACTIVE NOTIFICATION_NOT_FOUND " +
    "ADDRESS_EXISTS ADDRESS_NOT_FOUND ALIAS_LIMIT ALIAS_SETTINGS ATTACHMENTS_NOT_SUPPORTED ATTACHMENT_NOT_FOUND BATCH_FAILED " +
    "BODY_REQUIRED BROADCASTS_NOT_ALLOWED BROADCAST_LOCKED BROADCAST_NOT_FOUND BROADCAST_SENDING CONSENT_REQUIRED CONTACT_LIMIT_REACHED " +
    "CONTACT_NOT_FOUND CSV_MISSING_EMAIL DAILY_QUOTA_EXCEEDED DISPOSABLE_EMAIL DOMAIN_EXISTS DOMAIN_LIMIT_REACHED DOMAIN_NOT_RECEIVING " +
    "DOMAIN_NOT_VERIFIED EMAIL_NOT_FOUND EMAIL_NOT_SETUP EMPTY_BODY EMPTY_CSV EMPTY_REQUEST EMPTY_TEMPLATE FORWARDING_NOT_ALLOWED " +
    "IDEMPOTENCY_KEY_REQUIRED INBOUND_HOST_TAKEN INVALID_ADDRESS INVALID_COMBINATION INVALID_CURSOR INVALID_DOMAIN INVALID_EMAIL " +
    "INVALID_FOLDER INVALID_FROM INVALID_HEADER INVALID_HOST INVALID_RECIPIENT INVALID_SCHEDULE INVALID_TEMPLATE_NAME INVALID_URL " +
    "JOB_NOT_FOUND KEY_NOT_ALLOWED MAILBOX_LIMIT MAILBOX_NOT_FOUND MESSAGE_NOT_FOUND MISSING_VARIABLES MONTHLY_QUOTA_EXCEEDED " +
    "NOTHING_TO_UPDATE NO_CONFIG NO_EVENTS NO_MESSAGES NO_PLAN NO_RECIPIENTS NO_VALID_CONTACTS PAYG_DISABLED PLAN_REQUIRED " +
    "PLATFORM_REPUTATION RAW_NOT_AVAILABLE RECIPIENT_DOMAIN_UNDELIVERABLE RECIPIENT_SUPPRESSED REPUTATION_SUSPENDED " +
    "SEGMENT_LIMIT_REACHED SEGMENT_NOT_FOUND SENDING_DISABLED SUBJECT_REQUIRED SUPPRESSION_NOT_FOUND TEMPLATE_LIMIT_REACHED " +
    "TEMPLATE_NOT_FOUND TENANT_PAUSED TOO_MANY TOO_MANY_IDS TOO_MANY_MESSAGES TOO_MANY_RECIPIENTS TOPIC_LIMIT_REACHED TOPIC_NOT_FOUND " +
    "UNAUTHORIZED VARIABLES_REQUIRED WALLET_NOT_FOUND WEAK_PASSWORD WEBHOOK_LIMIT_REACHED WEBHOOK_NOT_FOUND"
  ).split(" "),
);
/** The AI gateway's codes (ai-gateway.md, Errors) and its error types (Type by status). */
const AI_CODES = new Set("invalid_request unsupported_format missing_api_key invalid_api_key expired_api_key insufficient_balance key_spend_limit_reached model_not_found not_found model_retired request_too_large rate_limited too_many_concurrent_requests".split(" "));
const AI_TYPES = new Set("invalid_request_error authentication_error billing_error permission_error not_found_error request_too_large rate_limit_error".split(" "));

/** Ids no route has, each a different kind of oddness (path-encoded as a client would send them). */
const ODD_IDS = ["..%2F..%2Fetc%2Fpasswd", "%00", "'%20OR%201%3D1--", "-1", "1e309", "%C3%BC%F0%9F%92%A5", "x".repeat(2_000), "%E0%A4%A", "00000000-0000-4000-8000-000000000000"];
/** Over the transport's 12 MB body limit (the AI gateway's is 8 MB). */
const HUGE = 12 * 1024 * 1024 + 1024;
const DEEP = "[".repeat(5_000) + "]".repeat(5_000);

type BadKind = "malformed JSON" | "wrong type" | "missing field" | "unknown field" | "huge body" | "deep nesting" | "odd id";
interface BadCase {
  routeId: string;
  kind: BadKind;
  method: string;
  path: string;
  body?: string;
}

/** The top-level fields of a route's body schema (zod 4 object), or none. */
function bodyFields(route: RouteDef): string[] {
  const shape = (route.body as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}
/** Fields the body cannot go without (the AI gateway's `model`, which its open schema does not name). */
function requiredFields(route: RouteDef): string[] {
  if (route.service === "ai") return route.method === "GET" ? [] : ["model"];
  const shape = (route.body as unknown as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } | undefined)?.shape ?? {};
  return Object.entries(shape).filter(([, field]) => !field.safeParse(undefined).success).map(([name]) => name);
}

/** An id that is well formed and belongs to nothing: what the body cases run against. */
const UNKNOWN_ID: Record<string, string> = { domainId: "999999" };

function badCases(): BadCase[] {
  const out: BadCase[] = [];
  for (const [routeId, route] of Object.entries(routes) as [string, RouteDef][]) {
    const base = SERVICE_PREFIX[route.service];
    const params = pathParams(route.path);
    const fill = (value: (name: string) => string) => base + route.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
    const path = fill((name) => UNKNOWN_ID[name] ?? "00000000-0000-4000-8000-000000000000");
    for (const odd of ODD_IDS) if (params.length) out.push({ routeId, kind: "odd id", method: route.method, path: fill(() => odd) });
    if (route.method === "GET") continue;
    const fields = bodyFields(route);
    const add = (kind: BadKind, body: string) => out.push({ routeId, kind, method: route.method, path, body });
    // What breaks any body, also one the route would ignore: not JSON, over the size limit, too deep.
    add("malformed JSON", '{"' + (fields[0] ?? "x") + '": ');
    add("huge body", JSON.stringify({ [fields[0] ?? "x"]: "a".repeat(HUGE) }));
    add("deep nesting", `{"${fields[0] ?? "x"}": ${DEEP}}`);
    // What breaks the route's own body: only routes that read one.
    if (!route.body) continue;
    add("wrong type", JSON.stringify(fields.length ? Object.fromEntries(fields.map((f) => [f, { not: ["the", "type"] }])) : [1, "two"]));
    const required = requiredFields(route);
    if (required.length) {
      add("missing field", "{}");
      // Unknown fields (prototype pollution among them) beside a body that misses what it needs.
      add("unknown field", '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "unknownField": 1}');
    }
  }
  return out;
}

describe("generated from the route table: every route × bad input → 4xx with a spec code, never a 5xx", () => {
  test("every case", async () => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("PATCH", "/ai/limits", { perMinute: 1_000_000, concurrency: 1_000 });
    const cases = badCases();
    // One key per request, cloned from the seeded key that reaches the route's service.
    const world = emu.control.emu.world;
    const template = (service: string) => world.keys.find((k) => k.label === (service === "email" ? "email" : "account"))!;
    const keys = cases.map((c, i) => {
      const t = template(routes[c.routeId as keyof typeof routes].service);
      const key = `${t.key}_${i}`;
      world.keys.push({ ...t, key, label: `robustness-${i}` });
      return key;
    });
    const answers: { status: number; body: string }[] = [];
    const started = Date.now();
    await flood(
      emu.origin,
      cases.length,
      (i) => ({
        method: cases[i].method,
        path: cases[i].path,
        headers: { authorization: `Bearer ${keys[i]}`, ...(cases[i].body !== undefined ? { "content-type": "application/json" } : {}) },
        body: cases[i].body,
      }),
      16,
      (i, status, body) => void (answers[i] = { status, body }),
    );
    const seconds = (Date.now() - started) / 1000;
    const problems: string[] = [];
    cases.forEach((c, i) => {
      const { status, body } = answers[i];
      let code: string | undefined;
      try {
        const parsed = JSON.parse(body);
        code = routes[c.routeId as keyof typeof routes].service === "ai" ? (parsed.error?.code ?? parsed.error?.type) : parsed.code;
      } catch {
        /* not JSON: a problem below */
      }
      const known = routes[c.routeId as keyof typeof routes].service === "ai" ? AI_CODES.has(code ?? "") || AI_TYPES.has(code ?? "") : SPEC_CODES.has(code ?? "");
      if (status < 400 || status >= 500 || status === 429 || !known) {
        problems.push(`${c.routeId} ${c.kind}: ${c.method} ${c.path.slice(0, 80)} answered ${status} ${body.slice(0, 160)}`);
      }
    });
    if (process.env.SVC_ROBUSTNESS_REPORT) console.log(`route table × bad input: ${cases.length} requests over ${Object.keys(routes).length} routes in ${seconds.toFixed(1)} s`);
    expect(problems).toEqual([]);
    expect(cases.length).toBeGreaterThan(300);
    // Nothing polluted Object.prototype in the emulator's process (it runs in this one).
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);

  test("outside the table: unknown routes and wrong methods with broken JSON are 404 NOT_FOUND, also under /_emulator; control bodies are 400 VALIDATION", async () => {
    const send = (method: string, path: string, body: string) => emu.call(method, path, { key: emu.keys.account, rawBody: body });
    for (const [method, path] of [["POST", "/api/nope"], ["PUT", "/api/vps"], ["PATCH", "/email/send"], ["POST", "/_emulator/nope"], ["PUT", "/_emulator/reset"]]) {
      for (const body of ["{", `{"x":${DEEP}}`]) {
        const res = await send(method, path, body);
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: "NOT_FOUND" });
      }
    }
    for (const body of ["{", `{"path":${DEEP}}`]) {
      const res = await send("POST", "/_emulator/faults", body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: "VALIDATION" });
    }
  });

  test("AI content nested 5,000 deep is 400 invalid_request in either style", async () => {
    const nested = (style: "openai" | "anthropic") =>
      JSON.stringify({ model: style === "openai" ? "gpt-4o-mini" : "claude-sonnet-4", max_tokens: 10, messages: [{ role: "user", content: [{ type: "text", text: "hi", extra: 0 }] }] }).replace(":0}", `:${DEEP}}`);
    const openai = await emu.call("POST", "/ai/v1/chat/completions", { key: emu.keys.account, rawBody: nested("openai") });
    expect({ status: openai.status, code: openai.body.error?.code }).toEqual({ status: 400, code: "invalid_request" });
    const anthropic = await emu.call("POST", "/ai/v1/messages", { key: emu.keys.account, rawBody: nested("anthropic") });
    expect({ status: anthropic.status, type: anthropic.body.error?.type }).toEqual({ status: 400, type: "invalid_request_error" });
  });
});
