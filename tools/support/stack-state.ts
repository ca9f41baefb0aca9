/**
 * What a stack run answers and what a stack's state holds, as the tests and tools read them from the
 * real CLI (tools/support/real-cli.ts turns its JSON events and `stack export` into these).
 */

export type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The SDK's marker of a secret value on the wire (and Pulumi's in state). */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

export type Operation = "preview" | "up" | "refresh" | "destroy";
/** `read`: a resource the program reads (`get`, or a custom resource with the `id` option); `discard`:
 * such a resource the program no longer reads, dropped from the state with no provider call. */
export type StepOp = "create" | "update" | "replace" | "delete" | "same" | "import" | "refresh" | "read" | "discard";

export interface Step {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  /** Properties that changed (update, replace, refresh). */
  diffs: string[];
  error?: string;
}

export interface RunResult {
  operation: Operation;
  ok: boolean;
  steps: Step[];
  /** Steps by kind, `same` included. */
  counts: Partial<Record<StepOp, number>>;
  /** Stack outputs (secrets in clear: this is the program's own view). */
  outputs: Props;
  errors: string[];
  /** Cancelled by the user (a first Ctrl-C). */
  cancelled?: boolean;
  /** What the provider host wrote on stderr (the CLI shows these as diagnostics). */
  messages: string[];
  ms: number;
}

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  id?: string;
  parent?: string;
  inputs: Props;
  outputs: Props;
  /** Top-level outputs whose values are secret: those of a secret input's name (provider_plugin.go
   * `annotateSecrets`, for a provider that does not accept secrets) and `additionalSecretOutputs`. */
  secrets: string[];
  /** Top-level inputs the program made secret: inputs are stored as given (step_executor.go), a
   * plain string stays plain. Absent in states written before the split: `secrets` then. */
  secretInputs?: string[];
  dependencies: string[];
  /** The resources each input's value came from (the CLI's `propertyDependencies`): what a
   * delete-before-replace reads to find the dependents it must delete first. */
  propertyDependencies?: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  /** The `customTimeouts` option, kept for the delete's timeout (the CLI's state keeps it too). */
  customTimeouts?: { create: string; update: string; delete: string };
  /** Deleted by a delete-before-replace whose create did not succeed: the next `up` creates its
   * replacement without deleting it again (the CLI's PendingReplacement). */
  pendingReplacement?: boolean;
  /** Read by the program (`get`, the `id` option), not managed: never deleted at the API (the CLI's
   * `external`). */
  external?: boolean;
  /** A partial failure: the next `up` runs update even without a diff. */
  initErrors?: string[];
  /** The original of a create-then-delete replacement whose delete did not run (the update failed
   * first): it still exists, and the next `up` or `destroy` deletes it (the CLI's pending delete). */
  pendingDelete?: boolean;
}

/**
 * An operation the engine started and had not seen end when the state was last saved (the CLI's
 * `pending_operations`): a create is recorded before the provider is called, so a run that dies
 * between the API call and the next checkpoint leaves this trace of an object the stack may own.
 */
export interface PendingOperation {
  /** Creates are kept across runs; an update or a delete left pending by a run that died is reported
   * by the next `up` and then dropped (pkg/backend/snapshot.go `Snap`: only pending creates stay). */
  op: "create" | "update" | "delete";
  urn: string;
  type: string;
  name: string;
  /** The checked inputs the create was called with (the program's secret inputs encrypted on disk). */
  inputs: Props;
  secrets: string[];
  /** When the create was started (ISO time): the provider adopts only objects made since. */
  startedAt: string;
}

export interface StackState {
  salt: string;
  resources: ResourceState[];
  outputs: Props;
  secretOutputs: string[];
  /** Creates a run started and did not see end (absent when none). */
  pendingOperations?: PendingOperation[];
}

