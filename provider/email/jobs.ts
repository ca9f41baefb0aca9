/**
 * Email background jobs (add_domain, verify_domain, create_template): wait until one ends. Jobs
 * waited on together share one `GET /jobs` per tick (see client/poller.ts), as hcloud-go's one
 * action waiter polls for many actions.
 */
import { POLL } from "../client/backoff";
import { ApiError } from "../client/errors";
import type { EmailJob } from "../../contract/schemas";
import { Kept, type CallContext } from "../context";

export const JOB_TIMEOUT_MS = 120_000;

/**
 * How long a job of each type took (its createdAt to its completedAt), as this process last saw one
 * end, per profile's context (ApiContext.keep). A new job of that type, which the answer that gave
 * its id has just said is under way, is first read when it usually ends: the jobs started in that
 * time are read together with it, by one `GET /jobs`, instead of each being read at once and found
 * still queued. Until a job of the type has been seen to end, the first read comes one poll step
 * (0.5 s) after the answer.
 */
class JobDurations {
  private readonly byType = new Map<string, number>();

  /** When to read a new job of `type` first, from the answer that gave its id. */
  firstReadInMs(type: string): number {
    return this.byType.get(type) ?? POLL.firstMs;
  }

  note(type: string, job: EmailJob | undefined): void {
    const took = job?.completedAt ? Date.parse(job.completedAt) - Date.parse(job.createdAt) : NaN;
    // At most the longest poll step: a job seen to take long once is not a reason to look late forever.
    if (Number.isFinite(took) && took >= 0) this.byType.set(type, Math.min(took, POLL.maxMs));
  }
}

const JOB_DURATIONS = new Kept(() => new JobDurations());

/** Waits for a job to end; answers it (completed or failed). `what`: the job's type. */
export async function waitForJob(ctx: CallContext, jobId: string, what: string, deadline = ctx.deadline.orAfter(JOB_TIMEOUT_MS)): Promise<EmailJob> {
  const durations = JOB_DURATIONS.of(ctx.api);
  const job = await ctx.api.emailJobs.waitFor(jobId, (j) => j === undefined || j.status === "completed" || j.status === "failed", {
    what: `job ${jobId} (${what}) to finish`,
    deadline,
    describe: (j) => (j ? `status ${j.status}` : "gone"),
    firstReadInMs: durations.firstReadInMs(what),
  });
  durations.note(what, job);
  if (!job) throw new ApiError({ service: "email", method: "GET", path: `/jobs/${jobId}`, status: 404, code: "JOB_NOT_FOUND", apiMessage: "the job is gone", retryable: false });
  return job;
}
