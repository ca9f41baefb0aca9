/**
 * Sending domains with dns "manual": records count as published only after
 * `POST /_emulator/dns/publish {domain}`, so a verification before that fails and a later one passes.
 */
import type { CallResult, TestEmulator } from "../../tools/support/emulator";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
useEmulator((e) => (emu = e), {
  options: { dns: "manual" },
  fresh: async (emu) => {
    await emu.ctl("POST", "/reset");
    // A fresh second for the rate limiter of every key.
    await emu.ctl("POST", "/clock/advance", { seconds: 1 });
  },
});

async function api(method: string, path: string, key = emu.keys.email): Promise<CallResult> {
  return emu.call(method, `/email${path}`, { key, body: method === "POST" && path === "/domains" ? { domain: "Example.com" } : undefined });
}

function data(res: CallResult, status: number) {
  expect({ status: res.status, success: res.body.success }).toEqual({ status, success: true });
  return res.body.data;
}

test("verify fails until the records are published; after publishing, verifying again verifies the domain", async () => {
  const { domainId, jobId: addJob } = data(await api("POST", "/domains"), 202);
  expect(data(await api("GET", `/jobs/${addJob}`), 200).status).toBe("completed");

  const first = data(await api("POST", `/domains/${domainId}/verify`), 202);
  const failedJob = data(await api("GET", `/jobs/${first.jobId}`), 200);
  expect(failedJob).toMatchObject({ type: "verify_domain", status: "failed", errorMessage: expect.stringContaining("DNS records not found") });
  expect(failedJob.errorMessage).toContain("svc._domainkey.example.com");
  expect(data(await api("GET", `/domains/${domainId}`), 200)).toMatchObject({ status: "failed", verifiedAt: null });
  expect(emu.control.state().notifications).toEqual([
    expect.objectContaining({ projectId: emu.projects[0], title: "Sending domain verification failed", message: expect.stringContaining("example.com") }),
  ]);

  // Still not published: a second check fails the same way.
  const second = data(await api("POST", `/domains/${domainId}/verify`), 202);
  expect(data(await api("GET", `/jobs/${second.jobId}`), 200).status).toBe("failed");

  const published = await emu.ctl("POST", "/dns/publish", { domain: "EXAMPLE.COM" });
  expect(published.status).toBe(200);
  expect(published.body.data).toEqual({ domain: "example.com", published: true });

  const third = data(await api("POST", `/domains/${domainId}/verify`), 202);
  expect(data(await api("GET", `/jobs/${third.jobId}`), 200)).toMatchObject({ status: "completed", errorMessage: null });
  expect(data(await api("GET", `/domains/${domainId}`), 200)).toMatchObject({ status: "verified", verifiedAt: expect.any(String) });
  expect(emu.control.state().activity.map((a) => [a.action, a.actor])).toEqual([
    ["email.domain.verified", "system"],
    ["email.domain.verification_failed", "system"],
    ["email.domain.verification_failed", "system"],
    ["email.domain.created", "user"],
  ]);
});

test("publishing a name that no project added answers 404 DOMAIN_NOT_FOUND", async () => {
  await api("POST", "/domains");
  const res = await emu.ctl("POST", "/dns/publish", { domain: "other.example.com" });
  expect(res.status).toBe(404);
  expect(res.body.code).toBe("DOMAIN_NOT_FOUND");
});

test("records published before the check count: publish right after adding, the first verify passes", async () => {
  const { domainId } = data(await api("POST", "/domains"), 202);
  expect((await emu.ctl("POST", "/dns/publish", { domain: "example.com" })).status).toBe(200);
  const { jobId } = data(await api("POST", `/domains/${domainId}/verify`), 202);
  expect(data(await api("GET", `/jobs/${jobId}`), 200).status).toBe("completed");
  expect(data(await api("GET", `/domains/${domainId}`), 200).status).toBe("verified");
});
