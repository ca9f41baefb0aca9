/**
 * Email background jobs (add_domain, verify_domain, create_template): wait until one ends. Jobs
 * waited on together share one `GET /jobs` per tick (see client/poller.ts).
 */
import { ApiError } from "../client/errors";
import type { EmailJob } from "../../contract/schemas";
import type { CallContext } from "../context";

export const JOB_TIMEOUT_MS = 120_000;

/** Waits for a job to end; answers it (completed or failed). */
export async function waitForJob(ctx: CallContext, jobId: string, what: string, timeoutMs = ctx.timeoutMs(JOB_TIMEOUT_MS)): Promise<EmailJob> {
  const job = await ctx.api.emailJobs.waitFor(jobId, (j) => j === undefined || j.status === "completed" || j.status === "failed", {
    what: `job ${jobId} (${what}) to finish`,
    timeoutMs,
    describe: (j) => (j ? `status ${j.status}` : "gone"),
  });
  if (!job) throw new ApiError({ service: "email", method: "GET", path: `/jobs/${jobId}`, status: 404, code: "JOB_NOT_FOUND", apiMessage: "the job is gone", retryable: false });
  return job;
}
