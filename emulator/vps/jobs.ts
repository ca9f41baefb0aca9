/**
 * How a server's background job ends: success clears the last job error; failure records it on the
 * server (`lastJobStatus: "error"`, `lastJobError`), in the project's activity (actor `system`) and
 * as a notification. Each job's own undo (refund, restored status, plan or expiry) is done by the
 * job itself, once, since a transition settles once.
 */
import type { Emu } from "../core/emu";
import { systemActivity, type ServerRec } from "./state";

/** Job kinds, also the `takeJobFailure` kinds: `POST /_emulator/job-failures {kind}` fails the next one. */
export const JOB = {
  create: "vps.create",
  renew: "vps.renew",
  upgrade: "vps.upgrade",
  start: "vps.start",
  stop: "vps.stop",
  restart: "vps.restart",
  reinstall: "vps.reinstall",
  resetPassword: "vps.resetPassword",
  terminate: "vps.terminate",
  backupSetup: "vps.backup",
  snapshot: "vps.snapshot",
  rollback: "vps.rollback",
} as const;
export type JobKind = (typeof JOB)[keyof typeof JOB];

/** Realistic durations in `time` mode, seconds. */
export const JOB_SECONDS: Record<JobKind, number> = {
  "vps.create": 8,
  "vps.renew": 2,
  "vps.upgrade": 20,
  "vps.start": 5,
  "vps.stop": 5,
  "vps.restart": 8,
  "vps.reinstall": 30,
  "vps.resetPassword": 3,
  "vps.terminate": 5,
  "vps.backup": 10,
  "vps.snapshot": 15,
  "vps.rollback": 20,
};

const JOB_LABEL: Record<string, string> = {
  "vps.create": "creation",
  "vps.renew": "renewal",
  "vps.upgrade": "upgrade",
  "vps.start": "start",
  "vps.stop": "stop",
  "vps.restart": "restart",
  "vps.reinstall": "reinstall",
  "vps.resetPassword": "password reset",
  "vps.terminate": "termination",
  "vps.backup": "backup setup",
  "vps.snapshot": "snapshot",
  "vps.rollback": "snapshot rollback",
};

export function jobSucceeded(s: ServerRec): void {
  s.lastJobStatus = "success";
  s.lastJobError = null;
}

export function jobFailed(emu: Emu, s: ServerRec, kind: string, reason: string): void {
  s.lastJobStatus = "error";
  s.lastJobError = reason;
  systemActivity(emu, s, `${kind}.failed`);
  emu.notify({
    type: "vps.job_failed",
    title: `Server ${s.name}: ${JOB_LABEL[kind] ?? kind} failed`,
    message: reason,
    link: `/vps/${s.id}`,
    projectId: s.projectId,
  });
}
