/**
 * The platform's shared idempotency rules (platform-api.md, Limits; email-service.md, Endpoints rule
 * 3), for every route of the table that reads an `Idempotency-Key` (`route.idempotencyKey`):
 * - the key is 8–128 letters, digits and `_ . : -` (422 VALIDATION otherwise);
 * - `"required"` routes refuse a real call without one (400 IDEMPOTENCY_KEY_REQUIRED); a
 *   `?dryRun=true` call acts on nothing and needs none (its key, if any, is not recorded);
 * - a repeat within 24 hours (emulator clock) answers the first answer again, unchanged, and acts on
 *   nothing — also when the first answer was lost on the way (an after-commit fault);
 * - while the first request still runs (until its answer leaves, after-commit delays included) a
 *   repeat answers 409 REQUEST_IN_PROGRESS;
 * - a first request that failed is not recorded: the key is released for the next try.
 * A key is scoped to the caller's account and project. The spec does not say what a repeat with a
 * different body answers; it says a repeat "returns the first response", so that is what it gets.
 */
import type { Caller } from "./auth";
import type { Emu } from "./emu";
import { EmuError } from "./errors";
import type { IdempotencyRec } from "./world";
import type { RouteDef, SuccessStatus } from "../../contract/routes";

const KEY_FORMAT = /^[A-Za-z0-9_.:-]{8,128}$/;
export const IDEMPOTENCY_REPLAY_HOURS = 24;
const REPLAY_MS = IDEMPOTENCY_REPLAY_HOURS * 3_600_000;

/** The `Idempotency-Key` header as sent (first value), for the request log too. */
export function idempotencyHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers["idempotency-key"];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.slice(0, 200);
}

/** What the handler wrapper does with one request: replay a recorded answer, or run and record. */
export type Admission = { replay: IdempotencyRec } | { scope: string } | undefined;

export class IdempotencyBook {
  /** Scopes whose first request is still running (not part of the world: a restarted emulator runs nothing). */
  private readonly running = new Set<string>();

  constructor(private readonly emu: Emu) {}

  private records(): IdempotencyRec[] {
    const since = this.emu.nowMs() - REPLAY_MS;
    const world = this.emu.world;
    world.idempotency = (world.idempotency ?? []).filter((r) => r.at >= since);
    return world.idempotency;
  }

  /** Before the handler: refuses, replays, or admits (the scope is then running until `finish`). */
  admit(route: RouteDef, caller: Caller, headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>): Admission {
    if (!route.idempotencyKey) return undefined;
    const key = idempotencyHeader(headers);
    if (query.dryRun === "true") return undefined;
    if (key === undefined || key === "") {
      if (route.idempotencyKey === "required") {
        throw new EmuError(400, "IDEMPOTENCY_KEY_REQUIRED", "This purchase needs an Idempotency-Key header (8 to 128 letters, digits, _ . : -); a repeat with the same key within 24 hours is answered, not charged again");
      }
      return undefined;
    }
    if (!KEY_FORMAT.test(key)) throw new EmuError(422, "VALIDATION", "Idempotency-Key: 8 to 128 characters: letters, digits and _ . : -");
    const scope = `${caller.account.id}/${caller.projectId ?? ""}/${key}`;
    if (this.running.has(scope)) throw new EmuError(409, "REQUEST_IN_PROGRESS", "A request with this Idempotency-Key is still running: retry shortly");
    const recorded = this.records().find((r) => r.scope === scope);
    if (recorded) return { replay: recorded };
    this.running.add(scope);
    return { scope };
  }

  /** The handler succeeded: its answer is the one every repeat gets. */
  record(scope: string, answer: { status: SuccessStatus; data: unknown; extra: Record<string, unknown> }): void {
    this.records().push({ scope, at: this.emu.nowMs(), ...answer });
  }

  /** The request is over (answered, dropped or failed): its key is free again (and replays if recorded). */
  finish(scope: string | undefined): void {
    if (scope !== undefined) this.running.delete(scope);
  }
}
