/**
 * How the platform API (`/api`: servers, backups, account) refuses a body before its handler runs:
 * broken JSON is 400 PARSE, a refused field 422 VALIDATION (spec: platform-api.md, Errors). The
 * domain routes of the same API answer 422 VALIDATION_ERROR for both (emulator/domains).
 */
import type { Refusals } from "./core/module";

export const platformRefusals: Refusals = { badJson: { status: 400, code: "PARSE" } };
