/**
 * Background jobs of the email service: `queued` → `running` → `completed` | `failed`, driven by
 * two transitions (start, then the work), so every status is observable in `time` and `manual`
 * mode. Each job type brings a worker that does the work and puts its target in a failed state.
 */
import type { Ctx, Handlers } from "../core/module";
import type { Emu, TransitionFn } from "../core/emu";
import { EmuError } from "../core/errors";
import { callerProject, emailState, type JobRec, type JobType, type WorkerJobType } from "./state";

/** Realistic time a job waits in the queue before a worker picks it up. */
export const QUEUE_SECONDS = 0.5;
const START = "email.job.start";
const RUN = "email.job.run";
const JOB_LIST_SIZE = 50;

/** Thrown by a worker whose work did not end well: the job fails with this message. */
export class JobFailed extends Error {}

export interface JobWorker {
  /** Realistic seconds the work takes once started (`time` mode). */
  workSeconds: number;
  /** Title of the notification sent when a job of this type fails. */
  failureTitle: string;
  /** Name of the job's target for messages (a domain name, a template name). */
  targetName(emu: Emu, job: JobRec): string;
  /** Does the work: answers the job's result, or throws JobFailed. */
  run(emu: Emu, job: JobRec): Record<string, unknown>;
  /** The job failed (its own failure or an injected one): put the target in its failed state. */
  onFailure(emu: Emu, job: JobRec, reason: string): void;
}

export function jobView(job: JobRec) {
  return {
    jobId: job.jobId,
    type: job.type,
    status: job.status,
    result: job.result,
    errorMessage: job.errorMessage,
    attempts: job.attempts,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
  };
}

/** A new `queued` job of a project, recorded; what moves it on is the caller's. */
export function recordJob(emu: Emu, projectId: string, type: JobType, targetId: string, at: string): JobRec {
  const job: JobRec = {
    jobId: `job_${emu.hex(24)}`,
    projectId,
    type,
    status: "queued",
    result: {},
    errorMessage: null,
    attempts: 0,
    createdAt: at,
    startedAt: null,
    completedAt: null,
    targetId,
  };
  emailState(emu.world).jobs.push(job);
  return job;
}

/** Queues a job of the caller's project; a worker starts it after a short wait. */
/** `at`: the request's own time, when it also stamps what it made (one request, one instant). */
export function enqueueJob(ctx: Ctx, type: WorkerJobType, targetId: string, at: string = ctx.emu.nowIso()): JobRec {
  const job = recordJob(ctx.emu, callerProject(ctx).id, type, targetId, at);
  ctx.emu.schedule(START, { jobId: job.jobId }, QUEUE_SECONDS);
  return job;
}

/** A job's attempt starts: `running`. */
export function startJob(emu: Emu, job: JobRec): void {
  job.status = "running";
  job.startedAt = emu.nowIso();
  job.attempts += 1;
}

/** A job ends: `completed` with its result, or `failed` with the reason. */
export function endJob(emu: Emu, job: JobRec, outcome: { result: Record<string, unknown> } | { error: string }): void {
  if ("error" in outcome) {
    job.status = "failed";
    job.errorMessage = outcome.error;
  } else {
    job.status = "completed";
    job.result = outcome.result;
  }
  job.completedAt = emu.nowIso();
}

function isOpen(job: JobRec): boolean {
  return job.status === "queued" || job.status === "running";
}

/** The unfinished job of a type on a target, if any. */
export function openJob(world: Ctx["world"], type: JobType, targetId: string): JobRec | undefined {
  return emailState(world).jobs.find((j) => j.type === type && j.targetId === targetId && isOpen(j));
}

/** Ends the unfinished jobs of a target that no longer exists (deleted or rolled back), without notifying. */
export function cancelJobs(emu: Emu, targetId: string, reason: string): void {
  for (const job of emailState(emu.world).jobs) {
    if (job.targetId !== targetId || !isOpen(job)) continue;
    job.status = "failed";
    job.errorMessage = reason;
    job.completedAt = emu.nowIso();
  }
}

function findJob(emu: Emu, payload: Record<string, unknown>): JobRec | undefined {
  return emailState(emu.world).jobs.find((j) => j.jobId === payload.jobId);
}

export function jobTransitions(workers: Record<WorkerJobType, JobWorker>): Record<string, TransitionFn> {
  /** The job of a START or RUN payload in the status given, and its worker. */
  const workerJob = (emu: Emu, payload: Record<string, unknown>, status: JobRec["status"]) => {
    const job = findJob(emu, payload);
    if (!job || job.status !== status || job.type === "send_email") return undefined; // cancelled meanwhile
    return { job, worker: workers[job.type] };
  };
  return {
    [START]: (emu, payload) => {
      const found = workerJob(emu, payload, "queued");
      if (!found) return;
      startJob(emu, found.job);
      emu.schedule(RUN, { jobId: found.job.jobId }, found.worker.workSeconds);
    },
    [RUN]: (emu, payload) => {
      const found = workerJob(emu, payload, "running");
      if (!found) return;
      const { job, worker } = found;
      const injected = emu.takeJobFailure(`email.${job.type}`);
      try {
        if (injected !== undefined) throw new JobFailed(injected);
        endJob(emu, job, { result: worker.run(emu, job) });
      } catch (err) {
        if (!(err instanceof JobFailed)) throw err;
        const name = worker.targetName(emu, job);
        // Failed first, so the worker's own cancelJobs only ends the target's other jobs.
        endJob(emu, job, { error: err.message });
        worker.onFailure(emu, job, err.message);
        emu.notify({
          type: "email.job_failed",
          title: worker.failureTitle,
          message: `${name}: ${err.message} (job ${job.jobId})`,
          link: null,
          projectId: job.projectId,
        });
      }
    },
  };
}

export const jobHandlers: Handlers<"email.jobs.list" | "email.jobs.get"> = {
  "email.jobs.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    // Jobs are stored in creation order: the newest are at the end.
    return emailState(ctx.world)
      .jobs.filter((j) => j.projectId === projectId)
      .reverse()
      .slice(0, JOB_LIST_SIZE)
      .map(jobView);
  },
  "email.jobs.get": (ctx) => {
    const projectId = callerProject(ctx).id;
    const job = emailState(ctx.world).jobs.find((j) => j.jobId === ctx.params.jobId && j.projectId === projectId);
    if (!job) throw new EmuError(404, "JOB_NOT_FOUND", "Job not found");
    return jobView(job);
  },
};
