/**
 * Webhook through the real dynamic-provider host against the emulator (issue 4: acceptance 1, 2, 3
 * and 5, WEBHOOK_LIMIT_REACHED, API errors in the user's message, out-of-band deletion, import;
 * issue 15: adoptId, repeated first creates, lost answers — a webhook taken over is made anew).
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, UNKNOWN, providerFor } from "../../tools/support/provider-host";
import { calls, emailCall, emailWorld, failure, fresh, outputsOf, wallet, type Props } from "./helpers";

const T = "Webhook";
const URL_1 = "https://hooks.example.com/svc/events";
let h: ResourceHarness;
useResourceHarness((x) => (h = x), { fresh });

const hookRec = (id: string) => emailWorld(h).webhooks.find((w) => w.id === id);

describe("Webhook lifecycle", () => {
  test("check → create → read (secret kept) → diff → replace → delete → delete again", async () => {
    // check normalizes events: sorted, duplicates dropped.
    const inputs = await h.checked(T, { url: URL_1, events: ["email.sent", "email.bounced", "email.sent"] });
    expect(outputsOf(inputs)).toEqual({ url: URL_1, events: ["email.bounced", "email.sent"] });
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]); // reads only: the plan's limits at preview

    const created = await h.host.create(T, inputs);
    const rec = hookRec(created.id)!;
    expect(rec).toMatchObject({ url: URL_1, enabled: true });
    expect([...rec.events].sort()).toEqual(["email.bounced", "email.sent"]);
    expect(created.properties).toEqual({
      url: URL_1,
      events: ["email.bounced", "email.sent"],
      webhookId: created.id,
      secret: rec.secret,
      enabled: true,
      failCount: 0,
      createdAt: rec.createdAt,
      __provider: inputs.__provider,
    });
    expect(created.properties.secret).toMatch(/^whsec_[0-9a-f]+$/);
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/webhooks", status: 201 }]);

    // read (refresh): the API never answers the secret again; the create-time value is kept.
    h.emu.control.clearRequests();
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe(created.id);
    expect(read.properties).toEqual(created.properties);
    expect(read.properties.secret).toBe(rec.secret);
    expect(outputsOf(read.inputs)).toEqual({ url: URL_1, events: ["email.bounced", "email.sent"] });
    expect(calls(h)).toEqual(["GET /email/webhooks"]);

    // diff: identical → none; reordered and duplicated events → none; url or events → replace.
    const olds = read.properties;
    expect(await h.host.diff(T, created.id, olds, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    const shuffled = await h.checked(T, { url: URL_1, events: ["email.sent", "email.sent", "email.bounced", "email.bounced"] }, olds);
    expect(await h.host.diff(T, created.id, olds, shuffled)).toMatchObject({ changes: "none", replaces: [] });
    const URL_2 = "https://hooks.example.com/svc/v2";
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { url: URL_2, events: ["email.sent", "email.bounced"] }))).toMatchObject({
      changes: "some",
      replaces: ["url"],
    });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { url: URL_1, events: ["email.sent"] }))).toMatchObject({
      changes: "some",
      replaces: ["events"],
    });

    // replace (create-before-delete): a new webhook with a new secret, then the old one goes.
    h.emu.control.clearRequests();
    const replacement = await h.host.create(T, await h.checked(T, { url: URL_2, events: ["email.sent", "email.bounced"] }));
    await h.host.delete(T, created.id, olds);
    expect(replacement.id).not.toBe(created.id);
    expect(replacement.properties.secret).not.toBe(created.properties.secret);
    expect(replacement.properties.secret).toBe(hookRec(replacement.id)!.secret);
    expect(hookRec(created.id)).toBeUndefined();
    expect(hookRec(replacement.id)).toMatchObject({ url: URL_2 });
    expect(h.writes()).toEqual([
      { method: "POST", path: "/email/webhooks", status: 201 },
      { method: "DELETE", path: `/email/webhooks/${created.id}`, status: 200 },
    ]);

    // delete, and delete again: the second answers 404 at the API and still succeeds.
    h.emu.control.clearRequests();
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(emailWorld(h).webhooks).toEqual([]);
    await h.host.delete(T, replacement.id, replacement.properties);
    expect(h.writes()).toEqual([
      { method: "DELETE", path: `/email/webhooks/${replacement.id}`, status: 200 },
      { method: "DELETE", path: `/email/webhooks/${replacement.id}`, status: 404 },
    ]);
  });

  test("secret is a secret output of the resource class", async () => {
    const registration = await providerFor(T, { url: URL_1, events: ["email.sent"] });
    expect(registration.additionalSecretOutputs).toContain("secret");
  });

  test("read of a webhook deleted out of band answers gone (empty id)", async () => {
    const created = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] }));
    await emailCall(h, "DELETE", `/webhooks/${created.id}`);
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");
  });

  test("import: a read with only the program's inputs answers the live webhook (no secret: the API never shows it again)", async () => {
    const hook = await emailCall(h, "POST", "/webhooks", { url: URL_1, events: ["email.opened", "email.clicked"] });
    const props = await h.inputs(T, { url: URL_1, events: ["email.clicked", "email.opened"] });
    const read = await h.host.read(T, hook.id, props);
    expect(read.id).toBe(hook.id);
    expect(outputsOf(read.inputs)).toEqual({ url: URL_1, events: ["email.clicked", "email.opened"] });
    expect(outputsOf(read.properties)).toEqual({
      url: URL_1,
      events: ["email.clicked", "email.opened"],
      webhookId: hook.id,
      enabled: true,
      failCount: 0,
      createdAt: hook.createdAt,
    });
    expect(await h.host.diff(T, hook.id, read.properties, await h.checked(T, { url: URL_1, events: ["email.opened", "email.clicked"] }))).toMatchObject({
      changes: "none",
    });
  });
});

describe("Webhook errors", () => {
  test("WEBHOOK_LIMIT_REACHED during a replace: the message says to use deleteBeforeReplace", async () => {
    h.emu.control.emu.world.projects[0].email.plan!.webhooks = 1;
    const first = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] }));
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent", "email.delivered"] })));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toContain("create failed: POST /webhooks 402 WEBHOOK_LIMIT_REACHED — Your plan allows 1 webhooks");
    expect(err.message).toContain("deleteBeforeReplace");
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([first.id]);

    // With deleteBeforeReplace the engine deletes first, then creates: that works.
    await h.host.delete(T, first.id, first.properties);
    const second = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent", "email.delivered"] }));
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([second.id]);
  });

  test("an API refusal reads: operation, method and path, status, code, the API's message (fault rule)", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/webhooks", status: 402, code: "WEBHOOK_LIMIT_REACHED", times: 1 });
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] })));
    expect(err.message).toMatch(/^create failed: POST \/webhooks 402 WEBHOOK_LIMIT_REACHED — .+deleteBeforeReplace/);
    expect(emailWorld(h).webhooks).toEqual([]);
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/webhooks", status: 402 }]); // not repeated
  });

  test("an answer lost after the webhook was made: it is made anew (deleted, created once more) so the stack holds a working secret", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/webhooks", afterCommit: true, drop: true, times: 1 });
    const hook = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] }));
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([hook.id]);
    expect(hookRec(hook.id)?.secret).toBe(hook.properties.secret);
    const [lost, deleted, made] = h.writes();
    expect(h.writes()).toHaveLength(3);
    expect(lost).toEqual({ method: "POST", path: "/email/webhooks", status: 0 });
    expect(deleted).toMatchObject({ method: "DELETE", status: 200 });
    expect(deleted.path).not.toBe(`/email/webhooks/${hook.id}`);
    expect(made).toEqual({ method: "POST", path: "/email/webhooks", status: 201 });
  });

  test("answers lost twice (the remaking create's too): its webhook is removed as well, the third create is the one kept (issue 8 chaos)", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/webhooks", afterCommit: true, drop: true, times: 2 });
    const hook = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] }));
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([hook.id]);
    expect(hookRec(hook.id)?.secret).toBe(hook.properties.secret);
    expect(h.writes().map((w) => `${w.method} ${w.status}`)).toEqual(["POST 0", "DELETE 200", "POST 0", "DELETE 200", "POST 201"]);
  });

  test("answers lost on every attempt: the create fails saying so and leaves no webhook behind", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/webhooks", afterCommit: true, drop: true, times: 3 });
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] })));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toMatch(/^create failed: POST \/webhooks NETWORK_ERROR — .*outcome unknown.*none is left for this resource/);
    expect(emailWorld(h).webhooks).toEqual([]);
    expect(h.writes().filter((w) => w.method === "POST")).toHaveLength(3);
  });

  test("INVALID_URL from the API is explained", async () => {
    // Check and the emulator share one url rule (contract/hosts.ts): only an injected refusal gets past check.
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/webhooks", status: 400, code: "INVALID_URL", times: 1 });
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] })));
    expect(err.message).toMatch(/^create failed: POST \/webhooks 400 INVALID_URL — .+\. The URL must be https with a public fully-qualified host/);
    expect(emailWorld(h).webhooks).toEqual([]);
  });
});

describe("Webhook adoption and repeated creates (issue 15)", () => {
  const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

  test("adoptId: the webhook is taken over by making it anew; the stack holds a working secret; diff clean, adoptId never a change", async () => {
    const old = await emailCall(h, "POST", "/webhooks", { url: URL_1, events: ["email.opened", "email.clicked"] });
    const before = wallet(h);
    h.emu.control.clearRequests();
    const inputs = await h.checked(T, { url: URL_1, events: ["email.clicked", "email.opened"], adoptId: old.id });
    const created = await h.host.create(T, inputs);
    const rec = hookRec(created.id)!;
    expect(created.id).not.toBe(old.id);
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([created.id]);
    expect(outputsOf(created.properties)).toEqual({
      url: URL_1,
      events: ["email.clicked", "email.opened"],
      adoptId: old.id,
      webhookId: created.id,
      secret: rec.secret,
      enabled: true,
      failCount: 0,
      createdAt: rec.createdAt,
    });
    expect(h.writes()).toEqual([
      { method: "DELETE", path: `/email/webhooks/${old.id}`, status: 200 },
      { method: "POST", path: "/email/webhooks", status: 201 },
    ]);
    expect(wallet(h)).toBe(before);

    const olds = created.properties;
    expect(await h.host.diff(T, created.id, olds, inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { url: URL_1, events: ["email.opened", "email.clicked"] }))).toMatchObject({ changes: "none" });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { url: URL_1, events: ["email.opened", "email.clicked"], adoptId: UNKNOWN_ID }))).toMatchObject({
      changes: "none",
    });
    expect(await h.host.diff(T, created.id, olds, await h.checked(T, { url: URL_1, events: ["email.opened"] }))).toMatchObject({ changes: "some", replaces: ["events"] });
    // A refresh keeps adoptId and the secret.
    expect((await h.host.read(T, created.id, olds)).properties).toEqual(olds);
  });

  test("adoptId of a webhook with another url and events: made anew with the program's", async () => {
    const old = await emailCall(h, "POST", "/webhooks", { url: "https://old.example.com/hook", events: ["email.bounced"] });
    const created = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"], adoptId: old.id }));
    expect(hookRec(old.id)).toBeUndefined();
    expect(hookRec(created.id)).toMatchObject({ url: URL_1, events: ["email.sent"] });
    expect(created.properties).toMatchObject({ url: URL_1, events: ["email.sent"], secret: hookRec(created.id)!.secret });
  });

  test("adoptId errors: an unknown id is named (nothing deleted or created); one that is not a UUID fails in check", async () => {
    const kept = await emailCall(h, "POST", "/webhooks", { url: URL_1, events: ["email.sent"] });
    h.emu.control.clearRequests();
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"], adoptId: UNKNOWN_ID })));
    expect(err.message).toBe(`create failed: adoptId "${UNKNOWN_ID}": no webhook with this id in the project`);
    expect(h.writes()).toEqual([]);
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([kept.id]);

    const checked = await h.check(T, { url: URL_1, events: ["email.sent"], adoptId: "wh-1" });
    expect(checked.failures.map((f) => f.property)).toEqual(["adoptId"]);
    expect(checked.failures[0].reason).toContain("UUID");
  });

  test("repeated first create (the engine killed after the webhook was made): the second stops with the id and adoptId line; with adoptId it converges", async () => {
    const program = { url: URL_1, events: ["email.sent", "email.bounced"] };
    const first = await h.host.create(T, await h.checked(T, program));
    // The engine was killed: its state never got `first` (nor its secret). The next `up` creates again.
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { ...program, events: ["email.bounced", "email.sent"] })));
    expect(err.initFailed).toBeUndefined();
    expect(err.message).toContain(`create failed: a webhook for ${URL_1} (email.bounced, email.sent) already exists (id ${first.id})`);
    expect(err.message).toContain(`adoptId: "${first.id}"`);
    expect(h.writes().filter((w) => w.method === "POST")).toHaveLength(1);
    expect(emailWorld(h).webhooks).toHaveLength(1);

    const taken = await h.host.create(T, await h.checked(T, { ...program, adoptId: first.id }));
    expect(emailWorld(h).webhooks.map((w) => w.id)).toEqual([taken.id]);
    expect(hookRec(taken.id)!.secret).toBe(taken.properties.secret);
    expect(taken.properties.secret).not.toBe(first.properties.secret);
    expect(h.writes().filter((w) => w.method === "POST")).toHaveLength(2);
  });

  test("a webhook with the same url but other events is not this resource's: created alongside", async () => {
    const other = await emailCall(h, "POST", "/webhooks", { url: URL_1, events: ["email.opened"] });
    const created = await h.host.create(T, await h.checked(T, { url: URL_1, events: ["email.sent"] }));
    expect(emailWorld(h).webhooks.map((w) => w.id).sort()).toEqual([other.id, created.id].sort());
  });
});

describe("Webhook check", () => {
  const events = ["email.sent"];
  const longUrl = `https://hooks.example.com/${"p".repeat(2000 - "https://hooks.example.com/".length + 1)}`; // 2,001 chars
  const cases: [string, Props, string][] = [
    ["url missing", { events }, "url"],
    ["url http://", { url: "http://hooks.example.com/in", events }, "url"],
    ["url not a URL", { url: "hooks.example.com/in", events }, "url"],
    ["url host without a dot", { url: "https://hooks/in", events }, "url"],
    ["url localhost", { url: "https://localhost/in", events }, "url"],
    ["url a reserved name (.internal)", { url: "https://hooks.svc.internal/in", events }, "url"],
    ["url a private-use name (.corp)", { url: "https://hooks.corp/in", events }, "url"],
    ["url IPv4 loopback", { url: "https://127.0.0.1/in", events }, "url"],
    ["url IPv4 private", { url: "https://10.1.2.3/in", events }, "url"],
    ["url IPv4 public (a literal is not a host name)", { url: "https://8.8.8.8/in", events }, "url"],
    ["url IPv6 loopback", { url: "https://[::1]/in", events }, "url"],
    ["url IPv4-translated IPv6 (169.254.169.254)", { url: "https://[::ffff:0:a9fe:a9fe]/", events }, "url"],
    ["url with an empty user@", { url: "https://@hooks.example.com/in", events }, "url"],
    ["url with user:pass@", { url: "https://user:pass@hooks.example.com/in", events }, "url"],
    ["url with user@", { url: "https://user@hooks.example.com/in", events }, "url"],
    ["url over 2,000 characters", { url: longUrl, events }, "url"],
    ["url of the wrong type", { url: 42, events }, "url"],
    ["events missing", { url: URL_1 }, "events"],
    ["events empty", { url: URL_1, events: [] }, "events"],
    ["events with an unknown name", { url: URL_1, events: ["email.sent", "email.exploded"] }, "events"],
    ["events over 20 entries", { url: URL_1, events: Array<string>(21).fill("email.sent") }, "events"],
    ["events of the wrong type", { url: URL_1, events: "email.sent" }, "events"],
    ["an unknown property", { url: URL_1, events, secret: "mine" }, "secret"],
  ];

  test.each(cases)("%s fails in check with the property named, before any call", async (_label, args, property) => {
    expect(longUrl.length).toBe(2001);
    const result = await h.check(T, args);
    // A secret given as an input is refused without `property` (the CLI would print its value), named in the reason.
    const sensitive = property === "secret";
    expect(result.failures.map((f) => f.property)).toEqual([sensitive ? "" : property]);
    expect(result.failures[0].reason).toMatch(new RegExp(sensitive ? `^${property}: ` : property));
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("a url of exactly 2,000 characters and 20 events pass", async () => {
    const url = longUrl.slice(0, 2000);
    const result = await h.check(T, { url, events: Array<string>(20).fill("email.opened") });
    expect(result.failures).toEqual([]);
    expect(result.inputs.events).toEqual(["email.opened"]);
  });

  test("public hosts with an internationalized TLD pass check, and the API takes them", async () => {
    for (const url of ["https://hooks.example.xn--p1ai/in", "https://пример.рф/hook", "https://hooks.example.com:8443/in?x=1"]) {
      const result = await h.check(T, { url, events });
      expect(result.failures).toEqual([]);
    }
    const created = await h.host.create(T, await h.checked(T, { url: "https://hooks.example.xn--p1ai/in", events }));
    expect(hookRec(created.id)).toMatchObject({ url: "https://hooks.example.xn--p1ai/in" });
  });

  test("values unknown during preview are never a failure (whole inputs, or one event of the list)", async () => {
    for (const args of [{ url: UNKNOWN, events: UNKNOWN }, { url: URL_1, events: ["email.sent", UNKNOWN] }]) {
      const result = await h.check(T, args);
      expect(result.failures).toEqual([]);
      expect(outputsOf(result.inputs)).toEqual(args);
      // The preview shows what may change: a replace.
      const olds = { url: URL_1, events: ["email.sent"], webhookId: "w-1", secret: "whsec_0" };
      expect(await h.host.diff(T, "w-1", olds, result.inputs)).toMatchObject({ changes: "some" });
    }
    // The known parts of a list are still checked.
    const mixed = await h.check(T, { url: URL_1, events: [UNKNOWN, "email.exploded"] });
    expect(mixed.failures.map((f) => f.property)).toEqual(["events"]);
    expect(mixed.failures[0].reason).toContain("events.1");
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]); // reads only: the plan's limits at preview
  });
});
