/** The test engine's public types: what a caller passes to `runEngine` and what it answers. */
import type { ProviderHost } from "../support/provider-host";
export type { Operation, RunResult, Step, StepOp } from "../support/stack-state";

export interface EngineOptions {
  projectDir: string;
  stack?: string;
  /** Encrypts secrets in config and state (default: PULUMI_CONFIG_PASSPHRASE). */
  passphrase?: string;
  /** Default: `<projectDir>/.pulumi-test-engine/<stack>.json`. */
  stateFile?: string;
  /** Receives each line the CLI would print. */
  print?: (line: string) => void;
  /** `destroy` deletes independent resources at the same time, each once the resources that depend
   * on it are gone, as the Pulumi CLI does (default: one at a time, newest first, so the order of
   * deletes is fixed for tests). The benchmark uses it: one at a time, 20 server terminations take
   * 20 × their transition time. */
  parallelDestroy?: boolean;
  /** Aborting it kills the run the way a crash (or kill -9 of the CLI) would: the program and the
   * provider host are killed at once, nothing more is saved, and `runEngine` rejects with
   * `EngineInterrupted`. What the checkpoints saved so far is what the next run finds. */
  signal?: AbortSignal;
  /** Aborting it is a first Ctrl-C of the CLI: "^C received; cancelling…" is printed, no new step
   * starts, the steps in flight finish, the state is saved and the run fails ("update canceled").
   * `signal` is the second Ctrl-C: it terminates at once. */
  cancel?: AbortSignal;
  /** Called with the bytes of each checkpoint written (the benchmark adds them up: the CLI's file and
   * object-store backends write the whole checkpoint after every step too). */
  onCheckpoint?: (bytes: number) => void;
  /** Called with the provider host once started (tests kill it to simulate the host crashing). */
  onProviderHost?: (host: ProviderHost) => void;
  /** `pulumi refresh --clear-pending-creates`: drops the pending creates an interrupted run left. */
  clearPendingCreates?: boolean;
  /** `--parallel`: how many resource operations run at once; for now the refresh's reads (default
   * as the CLI's: PULUMI_PARALLEL, else 4 × the CPUs). */
  parallel?: number;
  /** `pulumi up --refresh` / `preview --refresh`: every resource is read first, and the program is
   * compared with the refreshed state. */
  refresh?: boolean;
  /** `--skip-preview`: `up`, `destroy` and `refresh` run without the preview pass the CLI runs
   * first (default: the pass runs, as under the CLI). */
  skipPreview?: boolean;
}

