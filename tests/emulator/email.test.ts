/**
 * The emulated email service over real HTTP: jobs, sending domains (dns "auto"), templates,
 * webhooks, status and analytics, reach between projects and keys, and every error code the spec's
 * tables list for these routes. The manual-DNS lifecycle is in email-dns.test.ts.
 */
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { ISO_MS } from "../../tools/support/world";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
/** Calls since the rate limiter was last refilled (every key may make 10 per second). */
let callsSinceRefill = 0;

useEmulator((e) => (emu = e), {
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    await emu.ctl("POST", "/transitions", { mode: "immediate" });
    await refill();
  },
});

/** Refills every key's rate-limit bucket by moving the emulator clock one second. */
async function refill(): Promise<void> {
  await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  callsSinceRefill = 0;
}

interface ApiOptions {
  /** Defaults to the email key of the first project; null sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave the clock alone (tests that time transitions). */
  noRefill?: boolean;
}

/** A call to the email base (`/email` + path). */
async function api(method: string, path: string, options: ApiOptions = {}): Promise<CallResult> {
  if (!options.noRefill && ++callsSinceRefill >= 9) await refill();
  const key = options.key === undefined ? emu.keys.email : options.key;
  return emu.call(method, `/email${path}`, { key, body: options.body, headers: options.headers });
}

/** Answers `data` of a success, failing the test with the envelope otherwise. */
function ok(res: CallResult, status: number) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: true, data: expect.anything() } });
  return res.body.data;
}

function refused(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: false, error: expect.any(String), code } });
}

function world() {
  return emu.control.state();
}
/** The email set-up of a seeded project, changed in place (the live world) to reach a plan limit or a missing set-up. */
function emailOf(projectIndex: number) {
  return emu.control.emu.world.projects[projectIndex].email;
}

async function addDomain(domain: string, key?: string) {
  return ok(await api("POST", "/domains", { key, body: { domain } }), 202) as { jobId: string; domainId: string };
}
async function createTemplate(body: Record<string, unknown>, key?: string) {
  return ok(await api("POST", "/templates", { key, body }), 202) as { jobId: string; templateId: string };
}
async function createWebhook(body: Record<string, unknown>, key?: string) {
  return ok(await api("POST", "/webhooks", { key, body }), 201);
}

const HOOK = "https://hooks.example.com/svc";

describe("sending domains", () => {
  test("POST /domains answers 202 with jobId and domainId; the add_domain job completes; the domain is pending, lower-cased, with its DNS records", async () => {
    const { jobId, domainId } = await addDomain("Mail.Example.COM");
    expect(jobId).toMatch(/^job_[0-9a-f]{24}$/);
    expect(domainId).toMatch(/^[0-9a-f-]{36}$/);

    const job = ok(await api("GET", `/jobs/${jobId}`), 200);
    expect(job).toEqual({
      jobId,
      type: "add_domain",
      status: "completed",
      result: { domainId, domain: "mail.example.com" },
      errorMessage: null,
      attempts: 1,
      createdAt: expect.stringMatching(ISO_MS),
      startedAt: expect.stringMatching(ISO_MS),
      completedAt: expect.stringMatching(ISO_MS),
    });

    const domain = ok(await api("GET", `/domains/${domainId}`), 200);
    expect(Object.keys(domain).sort()).toEqual(["createdAt", "dnsRecords", "domain", "id", "status", "verifiedAt"]);
    expect(domain).toMatchObject({ id: domainId, domain: "mail.example.com", status: "pending", verifiedAt: null });
    expect(domain.dnsRecords).toEqual([
      { type: "MX", name: "bounce.mail.example.com", value: expect.any(String), priority: 10 },
      { type: "TXT", name: "bounce.mail.example.com", value: expect.stringMatching(/^v=spf1 include:\S+ ~all$/) },
      { type: "TXT", name: "svc._domainkey.mail.example.com", value: expect.stringMatching(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]{200,}$/) },
      { type: "TXT", name: "_dmarc.mail.example.com", value: expect.stringMatching(/^v=DMARC1; p=/) },
    ]);
    expect(ok(await api("GET", "/domains"), 200)).toEqual([domain]);
  });

  test("verify answers 202 with a verify_domain job; the domain goes verifying, then verified with verifiedAt (dns auto)", async () => {
    await emu.ctl("POST", "/transitions", { mode: "manual" });
    const { domainId } = await addDomain("example.com");
    const { jobId } = ok(await api("POST", `/domains/${domainId}/verify`), 202);
    expect(jobId).toMatch(/^job_[0-9a-f]{24}$/);
    expect(ok(await api("GET", `/domains/${domainId}`), 200).status).toBe("verifying");
    // A second verify while the check runs answers the same job.
    expect(ok(await api("POST", `/domains/${domainId}/verify`), 202)).toEqual({ jobId });

    await emu.ctl("POST", "/transitions/settle");
    const domain = ok(await api("GET", `/domains/${domainId}`), 200);
    expect(domain).toMatchObject({ status: "verified", verifiedAt: expect.stringMatching(ISO_MS) });
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({
      type: "verify_domain",
      status: "completed",
      errorMessage: null,
      result: { domainId, status: "verified" },
    });

    const activity = ok(await emu.call("GET", `/api/account/projects/${emu.projects[0]}/activity`, { key: emu.keys.account }), 200);
    expect(activity.map((a: { action: string; actor: string; byKeyOwner: boolean; entityId: string }) => [a.action, a.actor, a.byKeyOwner, a.entityId])).toEqual([
      ["email.domain.verified", "system", false, domainId],
      ["email.domain.created", "user", true, domainId],
    ]);
  });

  test("in time mode with realistic delays, a domain verified right after it was added is verified about 3.5 s later", async () => {
    await emu.ctl("POST", "/transitions", { mode: "time" });
    const { domainId } = await addDomain("example.com");
    const { jobId } = ok(await api("POST", `/domains/${domainId}/verify`, { noRefill: true }), 202);
    await emu.ctl("POST", "/clock/advance", { seconds: 0.6 });
    expect(ok(await api("GET", `/jobs/${jobId}`, { noRefill: true }), 200).status).toBe("running");
    expect(ok(await api("GET", `/domains/${domainId}`, { noRefill: true }), 200).status).toBe("verifying");
    await emu.ctl("POST", "/clock/advance", { seconds: 3.1 });
    expect(ok(await api("GET", `/jobs/${jobId}`, { noRefill: true }), 200).status).toBe("completed");
    expect(ok(await api("GET", `/domains/${domainId}`, { noRefill: true }), 200).status).toBe("verified");
  });

  test("verifying a verified domain keeps it verified, with its first verifiedAt, while the check runs", async () => {
    const { domainId } = await addDomain("example.com");
    await api("POST", `/domains/${domainId}/verify`);
    const verified = ok(await api("GET", `/domains/${domainId}`), 200);
    expect(verified.status).toBe("verified");

    await emu.ctl("POST", "/transitions", { mode: "manual" });
    const { jobId } = ok(await api("POST", `/domains/${domainId}/verify`), 202);
    expect(ok(await api("GET", `/domains/${domainId}`), 200)).toEqual(verified);
    await emu.ctl("POST", "/transitions/settle");
    expect(ok(await api("GET", `/jobs/${jobId}`), 200).status).toBe("completed");
    expect(ok(await api("GET", `/domains/${domainId}`), 200)).toEqual(verified);
  });

  test("a second domain of the same name in the project answers 409 DOMAIN_EXISTS, whatever its case", async () => {
    await addDomain("example.com");
    refused(await api("POST", "/domains", { body: { domain: "EXAMPLE.com" } }), 409, "DOMAIN_EXISTS");
    expect(ok(await api("GET", "/domains"), 200)).toHaveLength(1);
  });

  test.each([
    ["single label", "example"],
    ["empty", ""],
    ["label starting with a hyphen", "-mail.example.com"],
    ["label ending with a hyphen", "mail-.example.com"],
    ["empty label", "mail..example.com"],
    ["trailing dot", "example.com."],
    ["underscore", "my_mail.example.com"],
    ["space", "my mail.example.com"],
    ["numeric TLD", "example.123"],
    ["IPv4 address", "192.168.1.10"],
    ["one-letter TLD", "example.c"],
    ["label of 64 characters", `${"a".repeat(64)}.com`],
    ["name over 253 characters", `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`],
    ["special-use TLD .local", "mail.local"],
    ["special-use TLD .internal", "corp.internal"],
    ["URL instead of a name", "https://example.com"],
    ["non-ASCII (must be punycode)", "bücher.de"],
  ])("INVALID_DOMAIN: %s (%j)", async (_why, domain) => {
    refused(await api("POST", "/domains", { body: { domain } }), 400, "INVALID_DOMAIN");
  });

  test.each([
    ["label of 63 characters", `${"a".repeat(63)}.com`, `${"a".repeat(63)}.com`],
    ["punycode TLD", "example.xn--p1ai", "example.xn--p1ai"],
    ["hyphens inside labels, digits", "mail-1.my-shop99.co.id", "mail-1.my-shop99.co.id"],
  ])("accepted: %s", async (_why, domain, stored) => {
    const { domainId } = await addDomain(domain);
    expect(ok(await api("GET", `/domains/${domainId}`), 200).domain).toBe(stored);
  });

  test("the plan's domains count is the limit: one more answers 402 DOMAIN_LIMIT_REACHED", async () => {
    const limit = emailOf(0).plan!.domains;
    for (let i = 0; i < limit; i++) await addDomain(`d${i}.example.com`);
    refused(await api("POST", "/domains", { body: { domain: "one-more.example.com" } }), 402, "DOMAIN_LIMIT_REACHED");
    expect(ok(await api("GET", "/domains"), 200)).toHaveLength(limit);
  });

  test("DELETE answers {deleted:true}; the domain is gone (404) and its unfinished verify job ends failed", async () => {
    await emu.ctl("POST", "/transitions", { mode: "manual" });
    const { domainId } = await addDomain("example.com");
    const { jobId } = ok(await api("POST", `/domains/${domainId}/verify`), 202);
    expect(ok(await api("DELETE", `/domains/${domainId}`), 200)).toEqual({ deleted: true });
    refused(await api("GET", `/domains/${domainId}`), 404, "DOMAIN_NOT_FOUND");
    refused(await api("DELETE", `/domains/${domainId}`), 404, "DOMAIN_NOT_FOUND");
    await emu.ctl("POST", "/transitions/settle");
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({ status: "failed", errorMessage: "Domain was deleted" });
    const activity = ok(await emu.call("GET", `/api/account/projects/${emu.projects[0]}/activity`, { key: emu.keys.account }), 200);
    expect(activity[0]).toMatchObject({ action: "email.domain.deleted", entityId: domainId, entityName: "example.com", actor: "user", byKeyOwner: true });
  });

  test("an injected add_domain failure fails the job with the reason, removes the domain, notifies the project; the name can be added again", async () => {
    await emu.ctl("POST", "/job-failures", { kind: "email.add_domain", reason: "Mail provider unreachable" });
    const { jobId, domainId } = await addDomain("example.com");
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({
      status: "failed",
      errorMessage: "Mail provider unreachable",
      attempts: 1,
      completedAt: expect.stringMatching(ISO_MS),
    });
    refused(await api("GET", `/domains/${domainId}`), 404, "DOMAIN_NOT_FOUND");

    const notifications = ok(await emu.call("GET", "/api/account/notifications", { key: emu.keys.account }), 200);
    expect(notifications).toEqual([
      expect.objectContaining({ projectId: emu.projects[0], isRead: false, message: expect.stringContaining("Mail provider unreachable") }),
    ]);
    expect(notifications[0].message).toContain("example.com");

    const again = await addDomain("example.com");
    expect(ok(await api("GET", `/jobs/${again.jobId}`), 200).status).toBe("completed");
  });

  test("an injected verify_domain failure fails the job and the domain, notifies; verifying again succeeds", async () => {
    const { domainId } = await addDomain("example.com");
    await emu.ctl("POST", "/job-failures", { kind: "email.verify_domain", reason: "DNS resolver timed out" });
    const first = ok(await api("POST", `/domains/${domainId}/verify`), 202);
    expect(ok(await api("GET", `/jobs/${first.jobId}`), 200)).toMatchObject({ status: "failed", errorMessage: "DNS resolver timed out", result: {} });
    expect(ok(await api("GET", `/domains/${domainId}`), 200)).toMatchObject({ status: "failed", verifiedAt: null });
    expect(world().notifications).toEqual([expect.objectContaining({ projectId: emu.projects[0], message: expect.stringContaining("DNS resolver timed out") })]);

    const second = ok(await api("POST", `/domains/${domainId}/verify`), 202);
    expect(second.jobId).not.toBe(first.jobId);
    expect(ok(await api("GET", `/domains/${domainId}`), 200).status).toBe("verified");
    expect(ok(await api("GET", `/jobs/${second.jobId}`), 200).status).toBe("completed");
    const actions = world().activity.map((a) => a.action);
    expect(actions.slice(0, 2)).toEqual(["email.domain.verified", "email.domain.verification_failed"]);
  });
});

describe("jobs", () => {
  test("in time mode a job is queued, then running (startedAt, attempts 1), then completed (completedAt)", async () => {
    await emu.ctl("POST", "/transitions", { mode: "time" });
    const { jobId } = await addDomain("example.com");
    const queued = ok(await api("GET", `/jobs/${jobId}`, { noRefill: true }), 200);
    expect(queued).toMatchObject({ status: "queued", attempts: 0, startedAt: null, completedAt: null, createdAt: expect.stringMatching(ISO_MS) });

    await emu.ctl("POST", "/clock/advance", { seconds: 0.6 });
    const running = ok(await api("GET", `/jobs/${jobId}`, { noRefill: true }), 200);
    expect(running).toMatchObject({ status: "running", attempts: 1, startedAt: expect.stringMatching(ISO_MS), completedAt: null });

    await emu.ctl("POST", "/clock/advance", { seconds: 1.1 });
    const done = ok(await api("GET", `/jobs/${jobId}`, { noRefill: true }), 200);
    expect(done).toMatchObject({ status: "completed", attempts: 1, completedAt: expect.stringMatching(ISO_MS) });
    expect(Date.parse(done.completedAt)).toBeGreaterThan(Date.parse(done.startedAt));
    expect(Date.parse(done.startedAt)).toBeGreaterThan(Date.parse(done.createdAt));
  });

  test("GET /jobs answers the 50 most recent jobs of the project, newest first", async () => {
    emailOf(0).plan!.templates = 100;
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push((await createTemplate({ name: `t${i}`, textBody: "hi" })).jobId);
    const jobs = ok(await api("GET", "/jobs"), 200);
    expect(jobs.map((j: { jobId: string }) => j.jobId)).toEqual(ids.slice(2).reverse());
    expect(jobs.every((j: { type: string; status: string }) => j.type === "create_template" && j.status === "completed")).toBe(true);
  });

  test("an unknown job id answers 404 JOB_NOT_FOUND", async () => {
    refused(await api("GET", "/jobs/job_000000000000000000000000"), 404, "JOB_NOT_FOUND");
  });
});

describe("templates", () => {
  test("create answers 202 with jobId and templateId; the template reads right away; update, list, delete", async () => {
    await emu.ctl("POST", "/transitions", { mode: "manual" });
    const { jobId, templateId } = await createTemplate({ name: "welcome_v1", subject: "Hello {{name}}", htmlBody: "<p>Hi {{name}}</p>", textBody: "Hi {{name}}" });
    const created = ok(await api("GET", `/templates/${templateId}`), 200);
    expect(created).toEqual({
      id: templateId,
      name: "welcome_v1",
      subject: "Hello {{name}}",
      htmlBody: "<p>Hi {{name}}</p>",
      textBody: "Hi {{name}}",
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: created.createdAt,
    });
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({ type: "create_template", status: "queued" });
    await emu.ctl("POST", "/transitions/settle");
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({ status: "completed", result: { templateId } });

    await refill();
    const updated = ok(await api("PATCH", `/templates/${templateId}`, { body: { subject: "Welcome", textBody: null } }), 200);
    expect(updated).toMatchObject({ subject: "Welcome", htmlBody: "<p>Hi {{name}}</p>", textBody: null, createdAt: created.createdAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(ok(await api("GET", "/templates"), 200)).toEqual([updated]);

    expect(ok(await api("DELETE", `/templates/${templateId}`), 200)).toEqual({ deleted: true });
    refused(await api("GET", `/templates/${templateId}`), 404, "TEMPLATE_NOT_FOUND");
    refused(await api("PATCH", `/templates/${templateId}`, { body: { subject: "x" } }), 404, "TEMPLATE_NOT_FOUND");
    refused(await api("DELETE", `/templates/${templateId}`), 404, "TEMPLATE_NOT_FOUND");
    expect(world().activity.map((a) => a.action).slice(0, 3)).toEqual(["email.template.deleted", "email.template.updated", "email.template.created"]);
  });

  test("an update that would leave no body answers 400 EMPTY_TEMPLATE and changes nothing", async () => {
    const { templateId } = await createTemplate({ name: "only_text", textBody: "plain" });
    refused(await api("PATCH", `/templates/${templateId}`, { body: { textBody: null, subject: "changed" } }), 400, "EMPTY_TEMPLATE");
    refused(await api("PATCH", `/templates/${templateId}`, { body: { textBody: "" } }), 400, "EMPTY_TEMPLATE");
    expect(ok(await api("GET", `/templates/${templateId}`), 200)).toMatchObject({ subject: null, textBody: "plain" });
    // Replacing the text with html in one call is fine.
    expect(ok(await api("PATCH", `/templates/${templateId}`, { body: { textBody: null, htmlBody: "<b>x</b>" } }), 200)).toMatchObject({ textBody: null, htmlBody: "<b>x</b>" });
  });

  test.each([
    ["no body at all", { name: "t" }],
    ["empty strings", { name: "t", htmlBody: "", textBody: "" }],
    ["a subject only", { name: "t", subject: "Hello" }],
  ])("EMPTY_TEMPLATE: %s", async (_why, body) => {
    refused(await api("POST", "/templates", { body }), 400, "EMPTY_TEMPLATE");
  });

  test.each([
    ["empty", ""],
    ["64 characters", "a".repeat(64)],
    ["space", "welcome email"],
    ["dot", "welcome.v1"],
    ["non-ASCII letter", "bienvenue_é"],
  ])("INVALID_TEMPLATE_NAME: %s", async (_why, name) => {
    refused(await api("POST", "/templates", { body: { name, textBody: "x" } }), 400, "INVALID_TEMPLATE_NAME");
  });

  test("names of 63 letters, digits, _ and - are accepted, and a name may be used twice", async () => {
    const name = `A-z_0${"9".repeat(58)}`;
    expect(name).toHaveLength(63);
    const a = await createTemplate({ name, textBody: "x" });
    const b = await createTemplate({ name, textBody: "y" });
    expect(a.templateId).not.toBe(b.templateId);
    expect(ok(await api("GET", "/templates"), 200).map((t: { name: string }) => t.name)).toEqual([name, name]);
  });

  test("bodies of 200,000 characters are accepted; one more answers 422 VALIDATION naming the field (create and update)", async () => {
    const { templateId } = await createTemplate({ name: "big", htmlBody: "h".repeat(200_000), textBody: "t".repeat(200_000) });
    for (const field of ["htmlBody", "textBody"]) {
      const create = await api("POST", "/templates", { body: { name: "too_big", [field]: "x".repeat(200_001) } });
      refused(create, 422, "VALIDATION");
      expect(create.body.error).toContain(field);
      const update = await api("PATCH", `/templates/${templateId}`, { body: { [field]: "x".repeat(200_001) } });
      refused(update, 422, "VALIDATION");
      expect(update.body.error).toContain(field);
    }
    expect(ok(await api("GET", "/templates"), 200)).toHaveLength(1);
  });

  test("the plan's templates count is the limit: one more answers 402 TEMPLATE_LIMIT_REACHED", async () => {
    emailOf(0).plan!.templates = 2;
    await createTemplate({ name: "a", textBody: "x" });
    await createTemplate({ name: "b", textBody: "x" });
    refused(await api("POST", "/templates", { body: { name: "c", textBody: "x" } }), 402, "TEMPLATE_LIMIT_REACHED");
  });

  test("an injected create_template failure fails the job, removes the template and notifies the project", async () => {
    await emu.ctl("POST", "/job-failures", { kind: "email.create_template", reason: "Template store unavailable" });
    const { jobId, templateId } = await createTemplate({ name: "welcome", textBody: "x" });
    expect(ok(await api("GET", `/jobs/${jobId}`), 200)).toMatchObject({ status: "failed", errorMessage: "Template store unavailable" });
    refused(await api("GET", `/templates/${templateId}`), 404, "TEMPLATE_NOT_FOUND");
    expect(world().notifications).toEqual([expect.objectContaining({ projectId: emu.projects[0], message: expect.stringContaining("welcome") })]);
  });
});

describe("webhooks", () => {
  test("create answers 201 with the secret; the list never shows it", async () => {
    const created = await createWebhook({ url: HOOK, events: ["email.delivered", "email.bounced"] });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: HOOK,
      events: ["email.delivered", "email.bounced"],
      enabled: true,
      failCount: 0,
      lastTriggeredAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    const { secret, ...withoutSecret } = created;
    const list = ok(await api("GET", "/webhooks"), 200);
    expect(list).toEqual([withoutSecret]);
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  test("unknown event names are dropped and duplicates removed; none valid answers 400 NO_EVENTS", async () => {
    const created = await createWebhook({ url: HOOK, events: ["email.opened", "email.teleported", "email.opened", "Email.Sent"] });
    expect(created.events).toEqual(["email.opened"]);
    refused(await api("POST", "/webhooks", { body: { url: HOOK, events: [] } }), 400, "NO_EVENTS");
    refused(await api("POST", "/webhooks", { body: { url: HOOK, events: ["email.teleported"] } }), 400, "NO_EVENTS");
  });

  test("more than 20 event entries answers 422 VALIDATION naming events", async () => {
    const res = await api("POST", "/webhooks", { body: { url: HOOK, events: Array(21).fill("email.sent") } });
    refused(res, 422, "VALIDATION");
    expect(res.body.error).toContain("events");
    expect(await createWebhook({ url: HOOK, events: Array(20).fill("email.sent") })).toMatchObject({ events: ["email.sent"] });
  });

  test.each([
    ["http", "http://hooks.example.com/svc"],
    ["not a URL", "hooks.example.com/svc"],
    ["ftp", "ftp://hooks.example.com/svc"],
    ["localhost", "https://localhost/hook"],
    ["localhost with port", "https://localhost:8443/hook"],
    ["single-label host", "https://hooks/svc"],
    ["*.localhost", "https://app.localhost/hook"],
    ["*.local", "https://printer.local/hook"],
    ["*.internal", "https://api.corp.internal/hook"],
    ["credentials", "https://user:pass@hooks.example.com/svc"],
    ["user name only", "https://user@hooks.example.com/svc"],
    ["empty credentials", "https://@hooks.example.com/svc"],
    ["loopback IPv4", "https://127.0.0.1/hook"],
    ["loopback IPv4, short form", "https://127.1/hook"],
    ["loopback IPv4, integer form", "https://2130706433/hook"],
    ["private 10/8", "https://10.1.2.3/hook"],
    ["private 172.16/12", "https://172.31.255.1/hook"],
    ["private 192.168/16", "https://192.168.0.10/hook"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest"],
    ["CGNAT 100.64/10", "https://100.64.0.1/hook"],
    ["this network", "https://0.0.0.0/hook"],
    ["IPv6 loopback", "https://[::1]/hook"],
    ["IPv6 unspecified", "https://[::]/hook"],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["IPv6 unique local", "https://[fd12:3456::1]/hook"],
    ["IPv4-mapped private IPv6", "https://[::ffff:10.0.0.1]/hook"],
    ["IPv4-mapped loopback IPv6", "https://[::ffff:127.0.0.1]/hook"],
    ["IPv6 documentation", "https://[2001:db8::1]/hook"],
    ["IPv4-translated IPv6 of the cloud metadata address", "https://[::ffff:0:a9fe:a9fe]/"],
    ["NAT64 IPv6 of the cloud metadata address", "https://[64:ff9b::a9fe:a9fe]/"],
    // "not a public fully qualified host": an IP literal is no host name, public or not (the provider refuses it too).
    ["public IPv4 literal", "https://203.0.114.7/hook"],
    ["public IPv6 literal", "https://[2606:4700::1111]/hook"],
    ["whitespace", "https://hooks.example.com/a b"],
    ["over 2,000 characters", `https://hooks.example.com/${"a".repeat(1975)}`],
  ])("INVALID_URL: %s", async (_why, url) => {
    refused(await api("POST", "/webhooks", { body: { url, events: ["email.sent"] } }), 400, "INVALID_URL");
  });

  test.each([
    ["public name with port, path and query", "https://hooks.example.com:8443/svc?team=a@b"],
    ["absolute name", "https://hooks.example.com./svc"],
    ["IDN host", "https://bücher.de/hook"],
    ["exactly 2,000 characters", `https://hooks.example.com/${"a".repeat(1974)}`],
  ])("accepted url: %s", async (_why, url) => {
    expect(await createWebhook({ url, events: ["email.sent"] })).toMatchObject({ url });
  });

  test("the plan's webhooks count is the limit: one more answers 402 WEBHOOK_LIMIT_REACHED", async () => {
    emailOf(0).plan!.webhooks = 1;
    await createWebhook({ url: HOOK, events: ["email.sent"] });
    refused(await api("POST", "/webhooks", { body: { url: HOOK, events: ["email.sent"] } }), 402, "WEBHOOK_LIMIT_REACHED");
  });

  test("DELETE answers {deleted:true}; a second DELETE answers 404 WEBHOOK_NOT_FOUND", async () => {
    const { id } = await createWebhook({ url: HOOK, events: ["email.sent"] });
    expect(ok(await api("DELETE", `/webhooks/${id}`), 200)).toEqual({ deleted: true });
    expect(ok(await api("GET", "/webhooks"), 200)).toEqual([]);
    refused(await api("DELETE", `/webhooks/${id}`), 404, "WEBHOOK_NOT_FOUND");
    expect(world().activity.map((a) => [a.action, a.entityName])).toEqual([
      ["email.webhook.deleted", HOOK],
      ["email.webhook.created", HOOK],
    ]);
  });
});

describe("status and analytics", () => {
  test("GET /status answers the project, its plan limits, platformPaused and sendingEnabled", async () => {
    expect(ok(await api("GET", "/status"), 200)).toEqual({
      projectId: emu.projects[0],
      plan: { name: "free", emailsPerDay: 100, emailsPerMonth: 3000, domains: 5, templates: 50, webhooks: 50 },
      platformPaused: false,
      platformPausedReason: null,
      sendingEnabled: true,
      tenantPaused: false,
      reputationSuspended: false,
      usage: {
        daily: { used: 0, limit: 100, remaining: 100, resetsAt: expect.any(String) },
        monthly: { used: 0, limit: 3000, remaining: 3000, windowStart: expect.any(String), resetsAt: expect.any(String) },
        payAsYouGo: { enabled: false, rate: null, charged: 0 },
      },
    });
  });

  test("GET /status works without a plan (plan null) while other routes answer 402 NO_PLAN", async () => {
    expect(ok(await api("GET", "/status", { key: emu.keys.emailNoPlan }), 200)).toEqual({
      projectId: emu.projects[1],
      plan: null,
      platformPaused: false,
      platformPausedReason: null,
      sendingEnabled: true,
      tenantPaused: false,
      reputationSuspended: false,
      usage: null,
    });
    refused(await api("GET", "/domains", { key: emu.keys.emailNoPlan }), 402, "NO_PLAN");
  });

  test("GET /analytics answers zero counts and the spec's reputation limits", async () => {
    expect(ok(await api("GET", "/analytics"), 200)).toEqual({
      sent: 0,
      delivered: 0,
      bounced: 0,
      complained: 0,
      bounceRate: 0,
      complaintRate: 0,
      limits: { bounceRate: 0.02, complaintRate: 0.0008 },
    });
  });
});

describe("reach: every object belongs to one project", () => {
  test("ids of another project answer 404 with each route's not-found code", async () => {
    // Give the second project a plan so that its key can create objects.
    emailOf(1).plan = { ...emailOf(0).plan! };
    const other = emu.keys.emailNoPlan;
    const { jobId, domainId } = await addDomain("example.com", other);
    const { templateId } = await createTemplate({ name: "theirs", textBody: "x" }, other);
    const { id: webhookId } = await createWebhook({ url: HOOK, events: ["email.sent"] }, other);

    const cases: [string, string, unknown, string][] = [
      ["GET", `/jobs/${jobId}`, undefined, "JOB_NOT_FOUND"],
      ["GET", `/domains/${domainId}`, undefined, "DOMAIN_NOT_FOUND"],
      ["POST", `/domains/${domainId}/verify`, undefined, "DOMAIN_NOT_FOUND"],
      ["DELETE", `/domains/${domainId}`, undefined, "DOMAIN_NOT_FOUND"],
      ["GET", `/templates/${templateId}`, undefined, "TEMPLATE_NOT_FOUND"],
      ["PATCH", `/templates/${templateId}`, { subject: "mine now" }, "TEMPLATE_NOT_FOUND"],
      ["DELETE", `/templates/${templateId}`, undefined, "TEMPLATE_NOT_FOUND"],
      ["DELETE", `/webhooks/${webhookId}`, undefined, "WEBHOOK_NOT_FOUND"],
    ];
    for (const [method, path, body, code] of cases) refused(await api(method, path, { body }), 404, code);
    for (const list of ["/jobs", "/domains", "/templates", "/webhooks"]) expect(ok(await api("GET", list), 200)).toEqual([]);

    // The same name may be added in each project; the other project's objects are untouched.
    await addDomain("example.com");
    expect(ok(await api("GET", `/domains/${domainId}`, { key: other }), 200).status).toBe("pending");
    expect(ok(await api("GET", `/templates/${templateId}`, { key: other }), 200).subject).toBeNull();
    expect(ok(await api("GET", "/webhooks", { key: other }), 200)).toHaveLength(1);
  });

  test("a project-limited platform key and a whole-account key with X-Svc-Project act on that project", async () => {
    const { domainId } = await addDomain("example.com");
    expect(ok(await api("GET", `/domains/${domainId}`, { key: emu.keys.project }), 200).domain).toBe("example.com");
    const named = { key: emu.keys.account, headers: { "x-svc-project": emu.projects[0] } };
    expect(ok(await api("GET", `/domains/${domainId}`, named), 200).domain).toBe("example.com");
    const viaAccount = ok(await api("POST", "/webhooks", { ...named, body: { url: HOOK, events: ["email.sent"] } }), 201);
    expect(ok(await api("GET", "/webhooks"), 200).map((w: { id: string }) => w.id)).toEqual([viaAccount.id]);
    // The whole-account key naming the project without a plan gets that project's answer.
    refused(await api("GET", "/domains", { key: emu.keys.account, headers: { "x-svc-project": emu.projects[1] } }), 402, "NO_PLAN");
    refused(await api("GET", "/domains", { key: emu.keys.account }), 400, "PROJECT_REQUIRED");
  });
});

/**
 * Every code of the spec's tables that applies to these routes (Authentication and request,
 * Domains, Templates, Webhooks, and JOB_NOT_FOUND), each produced with the spec's status.
 */
describe("error codes of the spec's tables", () => {
  const other = (k: keyof TestEmulator["keys"]) => () => emu.keys[k];
  const unknownKey = "svcm_" + "0".repeat(48);
  type Case = { code: string; status: number; method: string; path: string; key?: () => string | null; body?: unknown; headers?: () => Record<string, string>; setup?: () => Promise<void> | void };
  const cases: Case[] = [
    { code: "UNAUTHORIZED", status: 401, method: "GET", path: "/domains", key: () => null },
    { code: "INVALID_API_KEY", status: 401, method: "GET", path: "/domains", key: () => unknownKey },
    { code: "INVALID_API_KEY", status: 401, method: "GET", path: "/templates", key: other("revoked") },
    { code: "API_KEY_EXPIRED", status: 401, method: "GET", path: "/domains", key: other("expired") },
    { code: "NO_PLAN", status: 402, method: "GET", path: "/webhooks", key: other("emailNoPlan") },
    { code: "SCOPE_NOT_ALLOWED", status: 403, method: "GET", path: "/domains", key: other("vpsOnly") },
    { code: "PROJECT_REQUIRED", status: 400, method: "GET", path: "/domains", key: other("account") },
    {
      code: "PROJECT_NOT_FOUND", status: 404, method: "GET", path: "/domains", key: other("account"),
      headers: () => ({ "x-svc-project": "00000000-0000-4000-8000-000000000000" }),
    },
    {
      // Email switched off for the project: the seed has it on, so the test turns it off.
      code: "EMAIL_NOT_SETUP", status: 403, method: "GET", path: "/domains", key: other("emailNoPlan"),
      setup: () => void (emailOf(1).enabled = false),
    },
    { code: "VALIDATION", status: 422, method: "POST", path: "/domains", body: { name: "example.com" } },
    { code: "NOT_FOUND", status: 404, method: "GET", path: "/no-such-route" },
    { code: "INVALID_DOMAIN", status: 400, method: "POST", path: "/domains", body: { domain: "localhost" } },
    { code: "DOMAIN_EXISTS", status: 409, method: "POST", path: "/domains", body: { domain: "example.com" }, setup: async () => void (await addDomain("example.com")) },
    { code: "DOMAIN_LIMIT_REACHED", status: 402, method: "POST", path: "/domains", body: { domain: "example.com" }, setup: () => void (emailOf(0).plan!.domains = 0) },
    { code: "DOMAIN_NOT_FOUND", status: 404, method: "GET", path: "/domains/00000000-0000-4000-8000-000000000000" },
    { code: "INVALID_TEMPLATE_NAME", status: 400, method: "POST", path: "/templates", body: { name: "hello world", textBody: "x" } },
    { code: "EMPTY_TEMPLATE", status: 400, method: "POST", path: "/templates", body: { name: "hello" } },
    { code: "TEMPLATE_LIMIT_REACHED", status: 402, method: "POST", path: "/templates", body: { name: "hello", textBody: "x" }, setup: () => void (emailOf(0).plan!.templates = 0) },
    { code: "TEMPLATE_NOT_FOUND", status: 404, method: "DELETE", path: "/templates/00000000-0000-4000-8000-000000000000" },
    { code: "INVALID_URL", status: 400, method: "POST", path: "/webhooks", body: { url: "http://hooks.example.com", events: ["email.sent"] } },
    { code: "NO_EVENTS", status: 400, method: "POST", path: "/webhooks", body: { url: HOOK, events: ["email.unknown"] } },
    { code: "WEBHOOK_LIMIT_REACHED", status: 402, method: "POST", path: "/webhooks", body: { url: HOOK, events: ["email.sent"] }, setup: () => void (emailOf(0).plan!.webhooks = 0) },
    { code: "WEBHOOK_NOT_FOUND", status: 404, method: "DELETE", path: "/webhooks/00000000-0000-4000-8000-000000000000" },
    { code: "JOB_NOT_FOUND", status: 404, method: "GET", path: "/jobs/job_ffffffffffffffffffffffff" },
    { code: "NO_API_KEY", status: 401, method: "POST", path: "/send", key: () => null, body: { from: "a@example.com", to: ["b@example.com"], subject: "s", text: "t" } },
    { code: "NO_API_KEY", status: 401, method: "POST", path: "/send/batch", key: () => null, body: { messages: [] } },
    { code: "INVALID_CURSOR", status: 400, method: "GET", path: "/emails?cursor=not-from-a-page" },
    { code: "IDEMPOTENCY_KEY_REQUIRED", status: 400, method: "POST", path: "/plan", body: { planCode: "starter", months: 1 } },
    { code: "KEY_NOT_ALLOWED", status: 403, method: "DELETE", path: "/plan" },
    {
      // The email configuration of the key's project is gone (the world drops the project; reset brings it back).
      code: "NO_CONFIG", status: 404, method: "GET", path: "/domains", key: other("emailNoPlan"),
      setup: () => void (emu.control.emu.world.projects = emu.control.emu.world.projects.filter((p) => p.id !== emu.projects[1])),
    },
  ];

  test.each(cases.map((c) => [`${c.code} (${c.method} ${c.path})`, c] as const))("%s", async (_name, c) => {
    await c.setup?.();
    const res = await api(c.method, c.path, { key: c.key ? c.key() : undefined, body: c.body, headers: c.headers?.() });
    refused(res, c.status, c.code);
  });

  test("RATE_LIMITED (429, with retry-after) past 10 requests in a second of one key", async () => {
    const results = [];
    for (let i = 0; i < 14; i++) results.push(await api("GET", "/status", { noRefill: true }));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    refused(limited[0], 429, "RATE_LIMITED");
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  /** Codes of those tables this service cannot answer, and why. */
  const notProducible: { code: string; reason: string }[] = [
    { code: "INTERNAL_ERROR", reason: "Nothing in these routes is unexpected; it is reached only by an injected fault (POST /_emulator/faults), which the core's tests cover." },
  ];

  test("every code of the tables is produced above or listed as not producible, never both", () => {
    const tableCodes = [
      "NO_API_KEY", "UNAUTHORIZED", "INVALID_API_KEY", "API_KEY_EXPIRED", "NO_PLAN", "KEY_NOT_ALLOWED", "SCOPE_NOT_ALLOWED",
      "PROJECT_REQUIRED", "IDEMPOTENCY_KEY_REQUIRED", "NO_CONFIG", "EMAIL_NOT_SETUP", "PROJECT_NOT_FOUND", "VALIDATION",
      "RATE_LIMITED", "NOT_FOUND", "INTERNAL_ERROR",
      "INVALID_DOMAIN", "DOMAIN_EXISTS", "DOMAIN_LIMIT_REACHED", "DOMAIN_NOT_FOUND",
      "INVALID_TEMPLATE_NAME", "EMPTY_TEMPLATE", "TEMPLATE_LIMIT_REACHED", "TEMPLATE_NOT_FOUND",
      "INVALID_URL", "NO_EVENTS", "WEBHOOK_LIMIT_REACHED", "WEBHOOK_NOT_FOUND",
      "JOB_NOT_FOUND", "INVALID_CURSOR",
    ];
    const produced = new Set([...cases.map((c) => c.code), "RATE_LIMITED"]);
    const skipped = new Set(notProducible.map((n) => n.code));
    expect(tableCodes.filter((c) => !produced.has(c) && !skipped.has(c))).toEqual([]);
    expect([...skipped].filter((c) => produced.has(c))).toEqual([]);
  });
});
