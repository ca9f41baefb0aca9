/**
 * Email background jobs (add_domain, verify_domain, create_template): wait until one ends.
 */
import type { ApiClient } from "../client/http";
import type { EmailJob } from "../client/schemas";
import { waitFor } from "../client/wait";

export const JOB_TIMEOUT_MS = 120_000;

/** Waits for a job to end; answers it (completed or failed). */
export function waitForJob(api: ApiClient, jobId: string, what: string, timeoutMs = JOB_TIMEOUT_MS): Promise<EmailJob> {
  return waitFor(
    () => api.call("email.jobs.get", { params: { jobId } }),
    (job) => job.status === "completed" || job.status === "failed",
    { what: `job ${jobId} (${what}) to finish`, timeoutMs, describe: (job) => `status ${job.status}` },
  );
}
