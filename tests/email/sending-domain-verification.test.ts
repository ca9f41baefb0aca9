/**
 * SendingDomainVerification through the real dynamic-provider host against the emulator (issue 4:
 * acceptance 1 and 3, and "read answers gone when the domain is no longer verified"). The program
 * shape under test: SendingDomain with waitForVerification: false, DNS records published by the
 * program (here: the emulator's dns/publish), then this resource.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { HostError, UNKNOWN } from "../../tools/support/provider-host";
import { calls, domainRec, emailCall, emailWorld, failure, fresh, outputsOf, type Props } from "./helpers";

const T = "SendingDomainVerification";
let h: ResourceHarness;
useResourceHarness((x) => (h = x), { options: { dns: "manual" }, fresh });

/** A SendingDomain created through the host without waiting, its records published ("by the program"). */
async function domainAdded(name: string, publish = true): Promise<string> {
  const created = await h.host.create("SendingDomain", await h.checked("SendingDomain", { domain: name, waitForVerification: false }));
  if (publish) expect((await h.emu.ctl("POST", "/dns/publish", { domain: name })).status).toBe(200);
  return created.id;
}

describe("SendingDomainVerification lifecycle", () => {
  test("check → create → read → diff → update → replace → delete → delete again", async () => {
    const domainId = await domainAdded("mail.example.com");
    expect(domainRec(h, domainId)!.status).not.toBe("verified");
    h.emu.control.clearRequests();

    const inputs = await h.checked(T, { domainId });
    // The wait's length is a setting of the provider: kept in the inputs only when set; the outputs say what applied.
    expect(outputsOf(inputs)).toEqual({ domainId });
    expect(h.emu.control.requests()).toEqual([]);

    // create: waits until the domain is verified; the id is the domain's id.
    const created = await h.host.create(T, inputs);
    const rec = domainRec(h, domainId)!;
    expect(rec.status).toBe("verified");
    expect(created.id).toBe(domainId);
    expect(created.properties).toEqual({
      domainId,
      timeoutSeconds: 600,
      domain: "mail.example.com",
      status: "verified",
      verifiedAt: rec.verifiedAt,
      __provider: inputs.__provider,
    });
    expect(calls(h)).toContain(`POST /email/domains/${domainId}/verify`);

    // read: the domain is still verified → same state.
    const read = await h.host.read(T, created.id, created.properties);
    expect(read.id).toBe(domainId);
    expect(read.properties).toEqual(created.properties);
    expect(outputsOf(read.inputs)).toEqual({ domainId });

    // diff: identical → none; domainId replaces; timeoutSeconds updates.
    const olds = created.properties;
    expect(await h.host.diff(T, domainId, olds, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domainId: "another-id" }))).toMatchObject({ changes: "some", replaces: ["domainId"] });
    expect(await h.host.diff(T, domainId, olds, await h.checked(T, { domainId, timeoutSeconds: 60 }))).toMatchObject({ changes: "some", replaces: [] });

    // update: new timeout in the outputs; the domain is verified, so nothing is written.
    h.emu.control.clearRequests();
    const updated = await h.host.update(T, domainId, olds, await h.checked(T, { domainId, timeoutSeconds: 60 }));
    expect(updated.properties).toEqual({ ...created.properties, timeoutSeconds: 60 });
    expect(h.writes()).toEqual([]);

    // replace: a verification of another domain is created, then the old one deleted (nothing to call).
    const otherId = await domainAdded("other.example.com");
    const replacement = await h.host.create(T, await h.checked(T, { domainId: otherId, timeoutSeconds: 60 }));
    expect(replacement.id).toBe(otherId);
    expect(domainRec(h, otherId)!.status).toBe("verified");
    h.emu.control.clearRequests();
    await h.host.delete(T, domainId, updated.properties);
    await h.host.delete(T, otherId, replacement.properties);
    await h.host.delete(T, otherId, replacement.properties); // a second delete succeeds too
    expect(h.emu.control.requests()).toEqual([]);
    // Deleting the verification leaves the domains as they are.
    expect(domainRec(h, domainId)!.status).toBe("verified");
    expect(domainRec(h, otherId)!.status).toBe("verified");
  });

  test("read answers gone when the domain is no longer verified, or no longer exists", async () => {
    const domainId = await domainAdded("mail.example.com");
    const created = await h.host.create(T, await h.checked(T, { domainId }));

    // A new check of the domain fails (records removed): the domain is `failed`.
    await h.emu.ctl("POST", "/job-failures", { kind: "email.verify_domain", reason: "DNS records not found" });
    await emailCall(h, "POST", `/domains/${domainId}/verify`);
    await emailCall(h, "GET", `/domains/${domainId}`);
    expect(domainRec(h, domainId)!.status).toBe("failed");
    expect((await h.host.read(T, domainId, created.properties)).id).toBe("");

    // The next `up` creates the verification again: it starts a new check and waits.
    const again = await h.host.create(T, await h.checked(T, { domainId }));
    expect(again.properties.status).toBe("verified");
    expect(domainRec(h, domainId)!.status).toBe("verified");

    await emailCall(h, "DELETE", `/domains/${domainId}`);
    expect((await h.host.read(T, domainId, again.properties)).id).toBe("");
  });

  test("import: a read with only the program's inputs answers the live domain", async () => {
    const domainId = await domainAdded("mail.example.com");
    await h.host.create(T, await h.checked(T, { domainId }));
    const read = await h.host.read(T, domainId, await h.inputs(T, { domainId, timeoutSeconds: 120 }));
    expect(read.id).toBe(domainId);
    expect(outputsOf(read.inputs)).toEqual({ domainId, timeoutSeconds: 120 });
    expect(read.properties).toMatchObject({ domainId, domain: "mail.example.com", status: "verified", verifiedAt: domainRec(h, domainId)!.verifiedAt });
  });
});

describe("SendingDomainVerification errors", () => {
  test("records never published: create fails after timeoutSeconds, listing the records; it checked again after each failed check", async () => {
    const domainId = await domainAdded("slow.example.com", false);
    h.emu.control.clearRequests();
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId, timeoutSeconds: 1 })));
    expect(err.initFailed).toBeUndefined(); // nothing was created at the API
    const rec = domainRec(h, domainId)!;
    expect(rec.status).not.toBe("verified");
    expect(err.message).toContain(`create failed: domain slow.example.com (${domainId}) is not verified after 1 s`);
    for (const record of rec.dnsRecords) expect(err.message).toContain(record.name);
    // A `failed` check is started again while time remains (DNS propagation).
    expect(calls(h).filter((c) => c === `POST /email/domains/${domainId}/verify`).length).toBeGreaterThanOrEqual(2);
  });

  test("a domain id that is not in the project: the error names the call and says so", async () => {
    const err = await failure<HostError>(h.host.create(T, await h.checked(T, { domainId: "00000000-0000-4000-8000-000000000000" })));
    expect(err.message).toContain("create failed: GET /domains/00000000-0000-4000-8000-000000000000 404 DOMAIN_NOT_FOUND");
    expect(err.message).toContain("No sending domain 00000000-0000-4000-8000-000000000000 in this project");
  });
});

describe("SendingDomainVerification check", () => {
  const cases: [string, Props, string][] = [
    ["domainId missing", {}, "domainId"],
    ["domainId empty", { domainId: "" }, "domainId"],
    ["domainId of the wrong type", { domainId: 7 }, "domainId"],
    ["timeoutSeconds 0", { domainId: "d", timeoutSeconds: 0 }, "timeoutSeconds"],
    ["timeoutSeconds over a day", { domainId: "d", timeoutSeconds: 86_401 }, "timeoutSeconds"],
    ["timeoutSeconds not whole", { domainId: "d", timeoutSeconds: 2.5 }, "timeoutSeconds"],
    ["timeoutSeconds of the wrong type", { domainId: "d", timeoutSeconds: "600" }, "timeoutSeconds"],
    ["an unknown property", { domainId: "d", timeout: 5 }, "timeout"],
  ];

  test.each(cases)("%s fails in check with the property named, before any call", async (_label, args, property) => {
    const result = await h.check(T, args);
    expect(result.failures.map((f) => f.property)).toEqual([property]);
    expect(result.failures[0].reason).toMatch(new RegExp(property));
    expect(h.emu.control.requests()).toEqual([]);
  });

  test("values unknown during preview are never a failure", async () => {
    const result = await h.check(T, { domainId: UNKNOWN, timeoutSeconds: UNKNOWN });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ domainId: UNKNOWN, timeoutSeconds: UNKNOWN });
    // Only the deployment's one read of the email plan (the plan an email object needs: plan-limits).
    expect(calls(h)).toEqual(["GET /email/status"]);
  });
});
