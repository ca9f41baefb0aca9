/**
 * SendingDomain through the real dynamic-provider host against the emulator (issue 4: acceptance 1,
 * 2, 3 and 5, DOMAIN_EXISTS, import, refresh of a deleted domain; issue 15: adoptId, repeated first
 * creates, a lost answer). DNS is "manual": a domain verifies only after the test publishes its
 * records, as a user would while `pulumi up` waits.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, UNKNOWN } from "../../tools/support/provider-host";
import { calls, domainRec, emailCall, emailWorld, failure, fresh, outputsOf, wallet, type Props } from "./helpers";

const T = "SendingDomain";
let h: ResourceHarness;
useResourceHarness((x) => (h = x), { options: { dns: "manual" }, fresh });

/** Waits until the emulator holds a domain of that name (the create is under way), then publishes its DNS records. */
async function publishWhenAdded(name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!emailWorld(h).domains.some((d) => d.domain === name)) {
    if (Date.now() > deadline) throw new Error(`domain ${name} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const res = await h.emu.ctl("POST", "/dns/publish", { domain: name });
  expect(res.status).toBe(200);
}

describe("SendingDomain lifecycle", () => {
  test("check → create (waits for verification) → read → diff → update → replace → delete → delete again", async () => {
    // check: validated, lower-cased, no call; the wait settings are the provider's and stay out of the
    // inputs unless set (the outputs carry the values that applied).
    const inputs = await h.checked(T, { domain: "Mail.Example.com" });
    expect(outputsOf(inputs)).toEqual({ domain: "mail.example.com" });
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);

    // create: adds the domain and waits until verified (the records are published meanwhile).
    const [created] = await Promise.all([h.host.create(T, inputs), publishWhenAdded("mail.example.com")]);
    const rec = domainRec(h, created.id)!;
    expect(rec).toMatchObject({ domain: "mail.example.com", status: "verified" });
    expect(created.properties).toMatchObject({
      domain: "mail.example.com",
      waitForVerification: true,
      verificationTimeoutSeconds: 600,
      domainId: created.id,
      status: "verified",
      verifiedAt: rec.verifiedAt,
      __provider: inputs.__provider,
    });
    expect(created.properties.dnsRecords).toEqual(rec.dnsRecords);
    expect(created.properties.dnsRecords.map((r: Props) => r.type).sort()).toEqual(["MX", "TXT", "TXT", "TXT"]);
    expect(calls(h).filter((c) => c === "POST /email/domains")).toHaveLength(1);
    expect(calls(h)).toContain(`POST /email/domains/${created.id}/verify`);

    // read (refresh): answers the same outputs and inputs from the live API.
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe(created.id);
    expect(read.properties).toEqual(created.properties);
    expect(outputsOf(read.inputs)).toEqual(outputsOf(inputs));

    // diff: identical inputs → none; a case change of the domain → none (normalized in check).
    const olds = created.properties;
    expect(await h.host.diff(T, created.id, olds, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { domain: "MAIL.EXAMPLE.COM" }))).toMatchObject({ changes: "none", replaces: [] });
    // each input changed: domain replaces, the wait settings update in place.
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { domain: "other.example.com" }))).toMatchObject({ changes: "some", replaces: ["domain"] });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { domain: "mail.example.com", waitForVerification: false }))).toMatchObject({
      changes: "some",
      replaces: [],
    });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { domain: "mail.example.com", verificationTimeoutSeconds: 30 }))).toMatchObject({
      changes: "some",
      replaces: [],
    });

    // update in place: new settings in the outputs, nothing written at the API.
    h.emu.control.clearRequests();
    const news = await h.checked(T, { domain: "mail.example.com", verificationTimeoutSeconds: 30 });
    const updated = await h.host.update(T, created.id, olds, news);
    expect(updated.properties).toEqual({ ...created.properties, verificationTimeoutSeconds: 30 });
    expect(h.writes()).toEqual([]);
    expect(domainRec(h, created.id)).toMatchObject({ status: "verified" });

    // replace (create-before-delete, as the engine does): the new domain is added, then the old deleted.
    const replacement = await h.host.create(T, await h.checked(T, { domain: "other.example.com", waitForVerification: false }));
    expect(replacement.id).not.toBe(created.id);
    expect(replacement.properties).toMatchObject({ domain: "other.example.com", domainId: replacement.id, waitForVerification: false });
    expect(["pending", "verifying", "failed"]).toContain(replacement.properties.status);
    expect(domainRec(h, replacement.id)).toMatchObject({ domain: "other.example.com" });
    await h.host.delete(T, created.id, updated.properties);
    expect(domainRec(h, created.id)).toBeUndefined();
    expect(domainRec(h, replacement.id)).toBeDefined();

    // delete, then delete again: the second answers 404 at the API and still succeeds.
    h.emu.control.clearRequests();
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(emailWorld(h).domains).toEqual([]);
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(h.writes()).toEqual([
      { method: "DELETE", path: `/email/domains/${replacement.id}`, status: 200 },
      { method: "DELETE", path: `/email/domains/${replacement.id}`, status: 404 },
    ]);
  });

  test("read of a domain deleted out of band answers gone (empty id)", async () => {
    const created = await h.host.create(T, await h.checked(T, { domain: "gone.example.com", waitForVerification: false }));
    await emailCall(h, "DELETE", `/domains/${created.id}`);
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe("");
  });

  test("import: a read with only the program's inputs answers the live domain's inputs and outputs", async () => {
    const { domainId } = await emailCall(h, "POST", "/domains", { domain: "existing.example.com" });
    const rec = domainRec(h, domainId)!;
    const props = await h.inputs(T, { domain: "existing.example.com", waitForVerification: false });
    const read = await h.host.read(T, domainId, props);
    expect(read.id).toBe(domainId);
    expect(outputsOf(read.inputs)).toEqual({ domain: "existing.example.com", waitForVerification: false });
    expect(read.properties).toMatchObject({ domain: "existing.example.com", domainId, status: rec.status, dnsRecords: rec.dnsRecords, __provider: props.__provider });
    // …and the imported state diffs clean against the program.
    expect(await h.host.diff(T, domainId, read.properties, await h.checked(T, { domain: "existing.example.com", waitForVerification: false }))).toMatchObject({
      changes: "none",
    });
  });
});

describe("SendingDomain errors", () => {
  test("wait timeout: partial failure keeps the id and lists the records; update after publishing finishes without a second POST /domains", async () => {
    const inputs = await h.checked(T, { domain: "slow.example.com", verificationTimeoutSeconds: 2 });
    const err = await failure<HostError>(h.host.create(T, inputs));
    expect(err).toBeInstanceOf(HostError);
    const rec = emailWorld(h).domains.find((d) => d.domain === "slow.example.com")!;
    expect(rec).toBeDefined();
    expect(rec.status).not.toBe("verified");

    // The engine records a partial failure: the id, the outputs so far, and __provider.
    expect(err.initFailed).toBeDefined();
    expect(err.initFailed!.id).toBe(rec.id);
    expect(err.initFailed!.properties.__provider).toBe(inputs.__provider);
    expect(err.initFailed!.properties.dnsRecords).toEqual(rec.dnsRecords);
    expect(err.initFailed!.properties).toMatchObject({ domain: "slow.example.com", domainId: rec.id });

    // The message says what to publish and how to manage DNS in the same program.
    for (const record of rec.dnsRecords) {
      expect(err.message).toContain(record.name);
      expect(err.message).toContain(record.value);
    }
    expect(err.message).toContain("waitForVerification: false");
    expect(err.message).toContain("SendingDomainVerification");
    expect(err.message).toContain("2 s");

    // The user publishes the records; the next `up` runs update with the same inputs.
    await h.emu.ctl("POST", "/dns/publish", { domain: "slow.example.com" });
    const updated = await h.host.update(T, rec.id, err.initFailed!.properties, inputs);
    expect(updated.properties).toMatchObject({ domainId: rec.id, status: "verified" });
    expect(domainRec(h, rec.id)!.status).toBe("verified");
    expect(calls(h).filter((c) => c === "POST /email/domains")).toHaveLength(1);
    expect(emailWorld(h).domains).toHaveLength(1);
  });

  test("a domain of that name already in the project: the API refuses the add (DOMAIN_EXISTS, nothing made); the create stops with its id and the adoptId line, never `import`", async () => {
    const { domainId } = await emailCall(h, "POST", "/domains", { domain: "taken.example.com" });
    h.emu.control.clearRequests();
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domain: "Taken.Example.com", waitForVerification: false })));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toContain(`create failed: a sending domain taken.example.com already exists (id ${domainId})`);
    expect(err.message).toContain(`adoptId: "${domainId}"`);
    expect(err.message).not.toMatch(/import/);
    // No look before the add: the API's refusal carries the same news (provider/create-once.ts).
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/domains", status: 409 }]);
    expect(emailWorld(h).domains).toHaveLength(1);
  });

  test("DOMAIN_EXISTS answered to an add that was carried out: the message names the id and the adoptId line, not `import`", async () => {
    // The create is carried out, then answered 409: as if another run added the domain meanwhile.
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/domains", afterCommit: true, status: 409, code: "DOMAIN_EXISTS", times: 1 });
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domain: "race.example.com", waitForVerification: false })));
    const rec = emailWorld(h).domains.find((d) => d.domain === "race.example.com")!;
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toMatch(/^create failed: a sending domain race.example.com already exists /);
    expect(err.message).toContain(`(id ${rec.id})`);
    expect(err.message).toContain(`adoptId: "${rec.id}"`);
    expect(err.message).not.toMatch(/import/);
    expect(h.writes().filter((w) => w.method === "POST" && w.path === "/email/domains")).toHaveLength(1);
  });
});

describe("SendingDomain adoption and repeated creates (issue 15)", () => {
  test("adoptId: a domain added out of band is managed without adding it; waits for verification; diff follows the program", async () => {
    const { domainId } = await emailCall(h, "POST", "/domains", { domain: "adopted.example.com" });
    const before = wallet(h);
    h.emu.control.clearRequests();
    const inputs = await h.checked(T, { domain: "adopted.example.com", adoptId: domainId });
    expect(inputs.adoptId).toBe(domainId);
    const [created] = await Promise.all([h.host.create(T, inputs), publishWhenAdded("adopted.example.com")]);
    const rec = domainRec(h, domainId)!;
    expect(created.id).toBe(domainId);
    expect(rec.status).toBe("verified");
    expect(created.properties).toMatchObject({ domain: "adopted.example.com", adoptId: domainId, domainId, status: "verified", verifiedAt: rec.verifiedAt });
    expect(created.properties.dnsRecords).toEqual(rec.dnsRecords);
    // Nothing added (no POST /domains): only the DNS check that verification needs.
    expect(h.writes().filter((w) => w.path === "/email/domains")).toEqual([]);
    expect(calls(h)).toContain(`GET /email/domains/${domainId}`);
    expect(emailWorld(h).domains).toHaveLength(1);
    expect(wallet(h)).toBe(before);

    // The next preview: no changes for the same program, nor when adoptId is changed or removed.
    const olds = created.properties;
    expect(await h.host.diff(T, domainId, olds, inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domain: "adopted.example.com" }))).toMatchObject({ changes: "none", replaces: [] });
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domain: "adopted.example.com", adoptId: "other" }))).toMatchObject({ changes: "none" });
    // …an update where the settings differ, a replace for another domain.
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domain: "adopted.example.com", waitForVerification: false }))).toMatchObject({ changes: "some", replaces: [] });
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domain: "other.example.com" }))).toMatchObject({ changes: "some", replaces: ["domain"] });
    // A refresh keeps adoptId and answers the same.
    expect((await h.host.read(T, domainId, olds)).properties).toEqual(olds);
  });

  test("adoptId errors: an unknown id is named; the id of another domain names both; an empty one fails in check", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domain: "mail.example.com", adoptId: unknown })));
    expect(err.message).toMatch(new RegExp(`^create failed: GET /domains/${unknown} 404 DOMAIN_NOT_FOUND — .*adoptId "${unknown}": no sending domain with this id`));

    const { domainId } = await emailCall(h, "POST", "/domains", { domain: "other.example.com" });
    h.emu.control.clearRequests();
    const other = await failure<HostError>(h.host.create(T, await h.checked(T, { domain: "mail.example.com", adoptId: domainId })));
    expect(other.message).toContain(`create failed: adoptId "${domainId}" is the sending domain other.example.com, not mail.example.com`);
    expect(h.writes()).toEqual([]);
    expect(emailWorld(h).domains.map((d) => d.domain)).toEqual(["other.example.com"]);

    const checked = await h.check(T, { domain: "mail.example.com", adoptId: "" });
    expect(checked.failures.map((f) => f.property)).toEqual(["adoptId"]);
  });

  test("repeated first create (the engine killed after the domain was added): the second stops with the id and adoptId line; with adoptId it converges", async () => {
    const program = { domain: "again.example.com", waitForVerification: false };
    // The first create's answer is lost with the killed engine: the next `up` checks with no olds and creates again.
    const first = await h.host.create(T, await h.checked(T, program));
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, program)));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toContain(`(id ${first.id})`);
    expect(err.message).toContain(`adoptId: "${first.id}"`);
    expect(emailWorld(h).domains).toHaveLength(1);

    const adopted = await h.host.create(T, await h.checked(T, { ...program, adoptId: first.id }));
    expect(adopted.id).toBe(first.id);
    expect(adopted.properties).toMatchObject({ domain: "again.example.com", domainId: first.id, dnsRecords: first.properties.dnsRecords });
    // The second create's add was refused (409, nothing made): one add carried out.
    expect(h.writes().filter((w) => w.method === "POST" && w.path === "/email/domains").map((w) => w.status)).toEqual([202, 409]);
    expect(emailWorld(h).domains).toHaveLength(1);
  });

  test("an answer lost after the domain was added: found by its name and kept, one POST /domains", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/domains", afterCommit: true, drop: true, times: 1 });
    const created = await h.host.create(T, await h.checked(T, { domain: "lost.example.com", waitForVerification: false }));
    const rec = emailWorld(h).domains.find((d) => d.domain === "lost.example.com")!;
    expect(created.id).toBe(rec.id);
    expect(created.properties).toMatchObject({ domainId: rec.id, dnsRecords: rec.dnsRecords });
    expect(h.writes().filter((w) => w.path === "/email/domains")).toEqual([{ method: "POST", path: "/email/domains", status: 0 }]);
    expect(emailWorld(h).domains).toHaveLength(1);
  });
});

describe("SendingDomain check", () => {
  const longDomain = `${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.example.com`; // 256 chars
  const cases: [string, Props, string][] = [
    ["domain missing", {}, "domain"],
    ["domain not a domain name", { domain: "not a domain" }, "domain"],
    ["domain without a dot", { domain: "localhost" }, "domain"],
    ["domain with a leading hyphen", { domain: "-mail.example.com" }, "domain"],
    ["domain under a reserved top-level name (.test)", { domain: "mail.shop.test" }, "domain"],
    ["domain under a private-use top-level name (.corp)", { domain: "mail.acme.corp" }, "domain"],
    ["domain with a numeric TLD", { domain: "mail.example.123" }, "domain"],
    ["domain empty", { domain: "" }, "domain"],
    ["domain too long (256 chars)", { domain: longDomain }, "domain"],
    ["domain of the wrong type", { domain: 42 }, "domain"],
    ["waitForVerification of the wrong type", { domain: "mail.example.com", waitForVerification: "yes" }, "waitForVerification"],
    ["verificationTimeoutSeconds 0", { domain: "mail.example.com", verificationTimeoutSeconds: 0 }, "verificationTimeoutSeconds"],
    ["verificationTimeoutSeconds over a day", { domain: "mail.example.com", verificationTimeoutSeconds: 86_401 }, "verificationTimeoutSeconds"],
    ["verificationTimeoutSeconds not whole", { domain: "mail.example.com", verificationTimeoutSeconds: 1.5 }, "verificationTimeoutSeconds"],
    ["verificationTimeoutSeconds of the wrong type", { domain: "mail.example.com", verificationTimeoutSeconds: "600" }, "verificationTimeoutSeconds"],
    ["an unknown property", { domain: "mail.example.com", domainName: "x" }, "domainName"],
  ];

  test.each(cases)("%s fails in check with the property named, before any call", async (_label, args, property) => {
    expect(longDomain.length).toBeGreaterThan(253);
    const result = await h.check(T, args);
    expect(result.failures.map((f) => f.property)).toEqual([property]);
    expect(result.failures[0].reason).toMatch(new RegExp(property));
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("valid names pass, trimmed and lower-cased: 253 characters, an internationalized TLD in punycode", async () => {
    const longest = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(longest).toHaveLength(253);
    for (const [given, checked] of [
      [" Mail.Example.COM ", "mail.example.com"],
      [longest.toUpperCase(), longest],
      ["mail.example.xn--p1ai", "mail.example.xn--p1ai"],
    ]) {
      const result = await h.check(T, { domain: given });
      expect(result.failures).toEqual([]);
      expect(result.inputs.domain).toBe(checked);
    }
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("a wait setting written out at its default (state of 0.1.0) and the same setting left out are no change", async () => {
    // A live domain: the preview of an update reads the object it updates (one gone outside Pulumi stops it).
    const added = await h.emu.call("POST", "/email/domains", { key: h.emu.keys.email, body: { domain: "mail.example.com" } });
    const id = (added.body as { data: { domainId: string } }).data.domainId;
    const olds = { domain: "mail.example.com", waitForVerification: true, verificationTimeoutSeconds: 600, domainId: id, status: "verified" };
    expect(await h.host.diff(T, id, olds, await h.checked(T, { domain: "mail.example.com" }))).toMatchObject({ changes: "none" });
    expect(await h.host.diff(T, id, olds, await h.checked(T, { domain: "mail.example.com", verificationTimeoutSeconds: 300 }))).toMatchObject({
      changes: "some",
      replaces: [],
    });
    expect(await h.host.diff(T, id, { ...olds, verificationTimeoutSeconds: 300 }, await h.checked(T, { domain: "mail.example.com" }))).toMatchObject({ changes: "some" });
  });

  test("values unknown during preview are never a failure", async () => {
    const result = await h.check(T, { domain: UNKNOWN, waitForVerification: UNKNOWN, verificationTimeoutSeconds: UNKNOWN });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ domain: UNKNOWN, waitForVerification: UNKNOWN, verificationTimeoutSeconds: UNKNOWN });
    // an unknown domain shows as a replace in the preview.
    const olds = { domain: "mail.example.com", waitForVerification: true, verificationTimeoutSeconds: 600 };
    expect(await h.host.diff(T, "d-1", olds, result.inputs)).toMatchObject({ changes: "some", replaces: ["domain"] });
    // A check of a new object reads the plan and the project's objects once (its limits at preview): it writes nothing.
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});
