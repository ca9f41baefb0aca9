/**
 * ReceivingDomain, Mailbox and MailAlias through the real dynamic-provider host against the emulator
 * (issue 26): check before any call with the property named, create (repeat-safe: a lost answer, a
 * repeated first create, adoptId), read with drift, update in place or replace, delete where gone
 * counts as deleted, and the API's Inbox codes explained with what to do. Acceptance point 4 is in
 * acceptance.test.ts.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError } from "../../tools/support/provider-host";
import { inboxOf, sendingDomain } from "./helpers";
import { calls, emailCall, failure, fresh, outputsOf, wallet } from "../email/helpers";

let h: ResourceHarness;
let domainId: string;
const DOMAIN = "mail.acme-shop.dev";
const MX = [{ type: "MX", name: DOMAIN, value: "inbound-smtp.mail.svc-platform.net", priority: 10 }];

useResourceHarness((x) => (h = x), {
  fresh: async (h) => {
    await fresh(h);
    domainId = await sendingDomain(h, DOMAIN);
    h.emu.control.clearRequests();
  },
});

const inbox = () => inboxOf(h);
const inboxPlan = (values: Record<string, unknown>) => h.emu.ctl("PATCH", "/email/plan-limits", values);
async function receivingOn(): Promise<void> {
  await emailCall(h, "PUT", `/domains/${domainId}/receiving`, {});
  h.emu.control.clearRequests();
}

describe("ReceivingDomain", () => {
  const T = "ReceivingDomain";

  test("check → create (one PUT) → read → diff → host updated in place → back to the default → delete → delete again", async () => {
    const inputs = await h.checked(T, { domainId });
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]); // reads only: the plan's limits at preview
    const created = await h.host.create(T, inputs);
    expect(created.id).toBe(domainId);
    expect(outputsOf(created.properties)).toEqual({ domainId, host: DOMAIN, domain: DOMAIN, mxRecords: MX });
    // The check reads the plan (receiving must be on it), the create the domain's receiving state.
    expect(calls(h)).toEqual(["GET /email/status", `GET /email/domains/${domainId}/receiving`, `PUT /email/domains/${domainId}/receiving`]);
    expect(inbox().receiving).toMatchObject([{ domainId, host: DOMAIN }]);

    h.emu.control.clearRequests();
    const read = await h.host.read(T, domainId, created.properties);
    expect(read.properties).toEqual(created.properties);
    expect(outputsOf(read.inputs)).toEqual({ domainId });
    expect(calls(h)).toEqual([`GET /email/domains/${domainId}/receiving`]);
    expect(await h.host.diff(T, domainId, read.properties, inputs)).toMatchObject({ changes: "none" });

    // host: a subdomain, in place.
    const sub = await h.checked(T, { domainId, host: `IN.${DOMAIN}` }, created.properties);
    expect(sub.host).toBe(`in.${DOMAIN}`);
    expect(await h.host.diff(T, domainId, created.properties, sub)).toMatchObject({ changes: "some", replaces: [] });
    h.emu.control.clearRequests();
    const updated = await h.host.update(T, domainId, created.properties, sub);
    expect(outputsOf(updated.properties)).toMatchObject({ host: `in.${DOMAIN}`, domain: DOMAIN, mxRecords: [{ name: `in.${DOMAIN}` }] });
    expect(h.writes()).toEqual([{ method: "PUT", path: `/email/domains/${domainId}/receiving`, status: 200 }]);
    // host removed from the program: back to the domain itself.
    expect(await h.host.diff(T, domainId, updated.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
    const back = await h.host.update(T, domainId, updated.properties, inputs);
    expect(back.properties.host).toBe(DOMAIN);
    expect(await h.host.diff(T, domainId, back.properties, inputs)).toMatchObject({ changes: "none" });
    expect(await h.host.diff(T, domainId, back.properties, await h.checked(T, { domainId: "dom_other" }))).toMatchObject({ replaces: ["domainId"] });

    h.emu.control.clearRequests();
    await h.host.delete(T, domainId, back.properties);
    expect(inbox().receiving).toEqual([]);
    await emailCall(h, "DELETE", `/domains/${domainId}`);
    await h.host.delete(T, domainId, back.properties);
    expect(h.writes()).toEqual([
      { method: "DELETE", path: `/email/domains/${domainId}/receiving`, status: 200 },
      { method: "DELETE", path: `/email/domains/${domainId}`, status: 200 },
      { method: "DELETE", path: `/email/domains/${domainId}/receiving`, status: 404 },
    ]);
  });

  test("refresh: a host changed out of band shows as drift; receiving turned off out of band reads as gone", async () => {
    const created = await h.host.create(T, await h.checked(T, { domainId }));
    await emailCall(h, "PUT", `/domains/${domainId}/receiving`, { host: `in.${DOMAIN}` });
    const read = await h.host.read(T, domainId, created.properties);
    expect(outputsOf(read.inputs)).toEqual({ domainId, host: `in.${DOMAIN}` });
    expect(await h.host.diff(T, domainId, read.properties, await h.checked(T, { domainId }))).toMatchObject({ changes: "some", replaces: [] });
    await emailCall(h, "DELETE", `/domains/${domainId}/receiving`);
    expect((await h.host.read(T, domainId, created.properties)).id).toBe("");
  });

  test("a repeated first create: receiving already on with the asked host is taken over (no PUT); on with another host it stops with the adoptId line; adoptId takes it", async () => {
    await receivingOn();
    const again = await h.host.create(T, await h.checked(T, { domainId }));
    expect(again.properties.host).toBe(DOMAIN);
    expect(h.writes()).toEqual([]);

    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, host: `in.${DOMAIN}` })));
    expect(err.message).toContain(`add \`adoptId: "${domainId}"\``);
    expect(h.writes()).toEqual([]);
    const wanted = await h.checked(T, { domainId, host: `in.${DOMAIN}`, adoptId: domainId });
    const adopted = await h.host.create(T, wanted);
    // Taken as it is: the next preview shows the host change.
    expect(adopted.properties).toMatchObject({ host: DOMAIN, domain: DOMAIN });
    expect(await h.host.diff(T, domainId, adopted.properties, wanted)).toMatchObject({ changes: "some", replaces: [] });
    expect(h.writes()).toEqual([]);

    // Adopted on a subdomain by a program that asks for the default host: the domain's name is read, the diff shows it.
    await emailCall(h, "PUT", `/domains/${domainId}/receiving`, { host: `in.${DOMAIN}` });
    const byDefault = await h.checked(T, { domainId, adoptId: domainId });
    const taken = await h.host.create(T, byDefault);
    expect(taken.properties).toMatchObject({ host: `in.${DOMAIN}`, domain: DOMAIN });
    expect(await h.host.diff(T, domainId, taken.properties, byDefault)).toMatchObject({ changes: "some", replaces: [] });
  });

  test("check: host not a public name, adoptId other than domainId — refused before any call", async () => {
    expect((await h.check(T, { domainId, host: "in.example.local" })).failures).toEqual([{ property: "host", reason: expect.stringMatching(/\.local is a reserved/) }]);
    expect((await h.check(T, { domainId, adoptId: "dom_x" })).failures).toEqual([{ property: "adoptId", reason: expect.stringMatching(/must equal domainId/) }]);
    expect((await h.check(T, { host: DOMAIN })).failures).toEqual([{ property: "domainId", reason: "domainId is required" }]);
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("API refusals explained: PLAN_REQUIRED, INVALID_HOST (another domain), INBOUND_HOST_TAKEN", async () => {
    await inboxPlan({ receiving: false });
    let err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId })));
    expect(err.message).toMatch(/^create failed: PUT \/domains\/.+\/receiving 402 PLAN_REQUIRED — .+\. The project's plan has no receiving .+EmailPlan/);
    await inboxPlan({ receiving: true });
    err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, host: "mail.other-shop.dev" })));
    expect(err.message).toMatch(/400 INVALID_HOST — .+host must be the domain itself or a subdomain of it/);
    // The same host receiving in another project (the second account's).
    const key = h.emu.keys.secondEmail;
    const second = async (method: string, path: string, body?: unknown) => (await h.emu.call(method, `/email${path}`, { key, body })).body.data;
    const { domainId: otherId } = await second("POST", "/domains", { domain: DOMAIN });
    await h.emu.ctl("POST", "/transitions/settle");
    await second("POST", `/domains/${otherId}/verify`);
    await h.emu.ctl("POST", "/transitions/settle");
    expect(await second("PUT", `/domains/${otherId}/receiving`, {})).toMatchObject({ enabled: true, host: DOMAIN });
    err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId })));
    expect(err.message).toMatch(/409 INBOUND_HOST_TAKEN — .+ in another project\. Another project .+choose another host/);
    expect(inbox().receiving.map((r) => r.domainId)).toEqual([otherId]);
  });
});

describe("Mailbox", () => {
  const T = "Mailbox";
  beforeEach(receivingOn);

  test("check → create → read → diff → update in place (PATCH) → replace on localPart → delete → delete again", async () => {
    await inboxPlan({ forwarding: true, mailboxes: 5 });
    const inputs = await h.checked(T, { domainId, localPart: " Support ", name: "Support desk", notifications: true });
    expect(outputsOf(inputs)).toEqual({ domainId, localPart: "support", name: "Support desk", notifications: true });
    expect(h.emu.control.requests().filter((r) => r.method !== "GET")).toEqual([]); // reads only: the plan's limits at preview
    const created = await h.host.create(T, inputs);
    expect(outputsOf(created.properties)).toEqual({
      domainId,
      localPart: "support",
      name: "Support desk",
      forwardTo: [],
      notifications: true,
      address: `support@${DOMAIN}`,
      mailboxId: created.id,
      createdAt: expect.any(String),
    });
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/inbound/addresses", status: 201 }]);

    const read = await h.host.read(T, created.id, created.properties);
    expect(read.properties).toEqual(created.properties);
    expect(outputsOf(read.inputs)).toEqual({ domainId, localPart: "support", name: "Support desk", notifications: true });
    expect(await h.host.diff(T, created.id, read.properties, inputs)).toMatchObject({ changes: "none" });

    const forwarding = await h.checked(T, { domainId, localPart: "support", forwardTo: ["b@elsewhere-mail.dev", "A@Elsewhere-mail.dev", "b@elsewhere-mail.dev"] }, created.properties);
    expect(forwarding.forwardTo).toEqual(["a@elsewhere-mail.dev", "b@elsewhere-mail.dev"]);
    expect(await h.host.diff(T, created.id, created.properties, forwarding)).toMatchObject({ changes: "some", replaces: [] });
    h.emu.control.clearRequests();
    const updated = await h.host.update(T, created.id, created.properties, forwarding);
    expect(outputsOf(updated.properties)).toMatchObject({ forwardTo: ["a@elsewhere-mail.dev", "b@elsewhere-mail.dev"], notifications: false });
    expect(updated.properties.name).toBeUndefined();
    expect(h.writes()).toEqual([{ method: "PATCH", path: `/email/inbound/addresses/${created.id}`, status: 200 }]);
    expect(inbox().addresses).toMatchObject([{ name: null, notifications: false, forwardTo: ["a@elsewhere-mail.dev", "b@elsewhere-mail.dev"] }]);

    expect(await h.host.diff(T, created.id, updated.properties, await h.checked(T, { domainId, localPart: "help" }))).toMatchObject({ replaces: ["localPart"] });

    h.emu.control.clearRequests();
    await h.host.delete(T, created.id, updated.properties);
    await h.host.delete(T, created.id, updated.properties);
    expect(inbox().addresses).toEqual([]);
    expect(h.writes().map((w) => `${w.method} ${w.status}`)).toEqual(["DELETE 200", "DELETE 404"]);
  });

  test("refresh: settings changed out of band show as drift; a mailbox deleted out of band reads as gone", async () => {
    await inboxPlan({ forwarding: true });
    const inputs = await h.checked(T, { domainId, localPart: "support" });
    const created = await h.host.create(T, inputs);
    await emailCall(h, "PATCH", `/inbound/addresses/${created.id}`, { forwardTo: ["x@elsewhere-mail.dev"] });
    const read = await h.host.read(T, created.id, created.properties);
    expect(outputsOf(read.inputs)).toEqual({ domainId, localPart: "support", forwardTo: ["x@elsewhere-mail.dev"] });
    expect(await h.host.diff(T, created.id, read.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
    await emailCall(h, "DELETE", `/inbound/addresses/${created.id}`);
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");
  });

  test("an answer lost after the mailbox was made: the look after finds it, nothing is sent twice", async () => {
    await h.emu.ctl("POST", "/faults", { method: "POST", path: "/email/inbound/addresses", afterCommit: true, drop: true, times: 1 });
    const created = await h.host.create(T, await h.checked(T, { domainId, localPart: "support" }));
    expect(inbox().addresses.map((a) => a.id)).toEqual([created.id]);
    expect(h.writes()).toEqual([{ method: "POST", path: "/email/inbound/addresses", status: 0 }]);
  });

  test("a repeated first create (ADDRESS_EXISTS) stops with the mailbox's id and the adoptId line; with adoptId it is taken as it is, nothing created", async () => {
    const existing = await emailCall(h, "POST", "/inbound/addresses", { domainId, localPart: "support", type: "mailbox", name: "Old name" });
    h.emu.control.clearRequests();
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, localPart: "support", name: "New name" })));
    expect(err.message).toContain(`a mailbox support@${DOMAIN} already exists (id ${existing.id})`);
    expect(err.message).toContain(`adoptId: "${existing.id}"`);
    h.emu.control.clearRequests();
    const inputs = await h.checked(T, { domainId, localPart: "support", name: "New name", adoptId: existing.id });
    const adopted = await h.host.create(T, inputs);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.properties.name).toBe("Old name");
    expect(h.writes()).toEqual([]);
    expect(await h.host.diff(T, adopted.id, adopted.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
    const wrong = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, localPart: "sales", adoptId: existing.id })));
    expect(wrong.message).toMatch(/^create failed: adoptId ".+" is the mailbox support@.+, not the mailbox sales@/);
  });

  test("API refusals explained: DOMAIN_NOT_RECEIVING (says to pass ReceivingDomain.domainId), MAILBOX_LIMIT (deleteBeforeReplace)", async () => {
    await emailCall(h, "DELETE", `/domains/${domainId}/receiving`);
    let err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, localPart: "support" })));
    expect(err.message).toMatch(/^create failed: POST \/inbound\/addresses 409 DOMAIN_NOT_RECEIVING — .+declare a ReceivingDomain for it and pass its domainId output/);
    await receivingOn();
    // Checked while the plan has room; the plan's one mailbox is made before the create (the check of
    // a run that makes both refuses the second before any call: plan-limits).
    const sales = await h.checked(T, { domainId, localPart: "sales" });
    await h.newDeployment();
    await emailCall(h, "POST", "/inbound/addresses", { domainId, localPart: "support", type: "mailbox" });
    err = await failure<HostError>(h.host.create(T, sales));
    expect(err.message).toMatch(/402 MAILBOX_LIMIT — The plan allows 1 mailboxes\. .+deleteBeforeReplace: true/);
  });
});

describe("MailAlias", () => {
  const T = "MailAlias";
  let mailboxId: string;
  beforeEach(async () => {
    await receivingOn();
    mailboxId = (await emailCall(h, "POST", "/inbound/addresses", { domainId, localPart: "support", type: "mailbox" })).id;
    h.emu.control.clearRequests();
  });

  test("check → create (reads the mailbox, one POST) → read → diff → delete; deleting the mailbox takes the alias with it", async () => {
    const inputs = await h.checked(T, { mailboxId, localPart: "Help" });
    const created = await h.host.create(T, inputs);
    expect(outputsOf(created.properties)).toEqual({ mailboxId, localPart: "help", address: `help@${DOMAIN}`, domainId, aliasId: created.id, createdAt: expect.any(String) });
    // The deployment's first check reads the plan and its counts, and lists the addresses (the plan's
    // alias limit); the create reads the mailbox.
    expect(calls(h)).toEqual(["GET /email/status", "GET /email/inbound/stats", "GET /email/inbound/addresses", `GET /email/inbound/addresses/${mailboxId}`, "POST /email/inbound/addresses"]);
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.properties).toEqual(created.properties);
    expect(await h.host.diff(T, created.id, read.properties, inputs)).toMatchObject({ changes: "none" });
    expect(await h.host.diff(T, created.id, read.properties, await h.checked(T, { mailboxId, localPart: "info" }))).toMatchObject({ replaces: ["localPart"] });
    await emailCall(h, "DELETE", `/inbound/addresses/${mailboxId}`);
    expect((await h.host.read(T, created.id, created.properties)).id).toBe("");
    await h.host.delete(T, created.id, created.properties);
  });

  test("API refusals explained: MAILBOX_NOT_FOUND, ALIAS_LIMIT", async () => {
    let err = await failure<HostError>(h.host.create(T, await h.checked(T, { mailboxId: "00000000-0000-4000-8000-000000000000", localPart: "help" })));
    expect(err.message).toMatch(/^create failed: GET \/inbound\/addresses\/0{8}.+ 404 ADDRESS_NOT_FOUND — .+No mailbox 0{8}.+ pass a Mailbox's id/);
    await inboxPlan({ aliases: 1 });
    await h.host.create(T, await h.checked(T, { mailboxId, localPart: "help" }));
    err = await failure<HostError>(h.host.create(T, await h.checked(T, { mailboxId, localPart: "info" })));
    expect(err.message).toMatch(/402 ALIAS_LIMIT — .+ remove one, or move to a larger plan/);
  });

  test("the wallet never moves: receiving, mailboxes and aliases are free", async () => {
    const before = wallet(h);
    await h.host.create(T, await h.checked(T, { mailboxId, localPart: "help" }));
    expect(wallet(h)).toBe(before);
  });
});

describe("profile and customTimeouts (every resource has them)", () => {
  test.each(["ReceivingDomain", "Mailbox", "MailAlias"])("%s: an unknown profile is refused at preview on profile, before any call", async (type) => {
    const args = type === "MailAlias" ? { mailboxId: "3f1c2a4e-0000-4000-8000-0000000000a1", localPart: "help" } : { domainId, localPart: "support" };
    const result = await h.check(type, { ...(type === "ReceivingDomain" ? { domainId } : args), profile: "no-such-profile" });
    expect(result.failures).toEqual([{ property: "profile", reason: expect.stringContaining("no-such-profile") }]);
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("customTimeouts reach the provider (kept in the outputs); a change of them alone is no diff", async () => {
    await receivingOn();
    const inputs = await h.checked("Mailbox", { domainId, localPart: "support", timeouts: { create: "2m" } });
    const created = await h.host.create("Mailbox", inputs);
    expect(created.properties.timeouts).toEqual({ create: "2m" });
    const later = await h.checked("Mailbox", { domainId, localPart: "support", timeouts: { create: "5m", delete: "1m" } }, created.properties);
    expect(await h.host.diff("Mailbox", created.id, created.properties, later)).toMatchObject({ changes: "none" });
  });
});
