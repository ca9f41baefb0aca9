import type { ApiErrorCode } from "../../contract/error-codes";
import type { SuccessStatus } from "../../contract/routes";

/** A refusal the emulator answers with the spec's failure envelope: only a catalogued code (contract/error-codes.ts). */
export class EmuError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Extra envelope fields (for example `missing` on REGISTRANT_INCOMPLETE, `data` on BATCH_FAILED). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "EmuError";
  }
}

/** A success answer with a status or envelope fields other than the route's default; `T` is its route's `data` (module.ts `Answer`). */
export class Reply<T = unknown> {
  constructor(
    readonly data: T,
    readonly options: { status?: SuccessStatus; extra?: Record<string, unknown> } = {},
  ) {}
}
