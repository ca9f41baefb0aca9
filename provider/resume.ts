/**
 * Resumed creates. A `pulumi up` that dies between a create's API call and the engine's next
 * checkpoint leaves a pending create in the state: the object may exist at the API while the stack
 * has no id for it. When the engine runs such a create again it sets `__resumeCreate` (the ISO time
 * the first attempt started) on the inputs; the provider then settles it as it settles an unknown
 * outcome: it looks for what the first attempt made (a server by name and project, made since then;
 * a firewall rule by value; a backup add-on by server; a registered domain or sending domain by
 * name; a template by name, made since then) and adopts it, and only sends the create when nothing
 * is found. Webhooks are free and their secret is answered only once: an orphan is removed and the
 * webhook is created again. Without the property, creates behave as before.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Props } from "./resource";

export const RESUME_KEY = "__resumeCreate";

/** Clock skew allowed between this machine and the API when telling "made since" apart. */
export const SKEW_MS = 5 * 60_000;

export interface ResumedCreate {
  /** Epoch ms when the interrupted attempt started, less the allowed clock skew. */
  since: number;
}

const store = new AsyncLocalStorage<ResumedCreate>();

/** Set while a create resumes an interrupted one (see above). */
export function resumedCreate(): ResumedCreate | undefined {
  return store.getStore();
}

/** Runs `create` with the resume marker taken off the inputs and, when it was there, in effect. */
export function withResume<T>(inputs: Props, create: (inputs: Props) => Promise<T>): Promise<T> {
  const { [RESUME_KEY]: marker, ...rest } = inputs;
  const started = typeof marker === "string" ? Date.parse(marker) : NaN;
  if (marker === undefined) return create(inputs);
  return store.run({ since: (Number.isNaN(started) ? Date.now() - 24 * 3_600_000 : started) - SKEW_MS }, () => create(rest));
}
