/**
 * The suppression list through the API (assumed-routes.md "Suppressions"; email-service.md: a key
 * may "manage suppressions", SUPPRESSION_NOT_FOUND, page size 1 to 500, default 100). Addresses
 * are matched case-insensitively; bounces and complaints join the same list (messages.ts), and a
 * send to a listed address answers RECIPIENT_SUPPRESSED (send.ts).
 */
import type { Ctx, Handlers } from "../core/module";
import { EmuError, Reply } from "../core/errors";
import { suppressionReasons } from "../../contract/schemas";
import { EMAIL } from "./audience";
import { pageOf } from "./messages";
import { callerProject, emailState, listSuppression, recordUserActivity, type SuppressionRec } from "./state";

/** email-service.md, Limits: "Page size `limit`: suppressions | 1 to 500, default 100". */
export const SUPPRESSION_PAGE = { default: 100, max: 500 };

const view = (s: SuppressionRec) => ({ email: s.email, reason: s.reason, createdAt: s.createdAt });

function listed(ctx: Ctx): SuppressionRec {
  const projectId = callerProject(ctx).id;
  const address = ctx.params.email.toLowerCase();
  const entry = emailState(ctx.world).suppressions.find((s) => s.projectId === projectId && s.email === address);
  if (!entry) throw new EmuError(404, "SUPPRESSION_NOT_FOUND", `${ctx.params.email} is not on the suppression list`);
  return entry;
}

export const suppressionHandlers: Handlers<"email.suppressions.list" | "email.suppressions.get" | "email.suppressions.add" | "email.suppressions.delete"> = {
  "email.suppressions.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    return pageOf(ctx, projectId, emailState(ctx.world).suppressions.filter((s) => s.projectId === projectId), view, { size: SUPPRESSION_PAGE });
  },
  "email.suppressions.get": (ctx) => view(listed(ctx)),
  /** 201 the new row; 200 the existing one when listed already (repeat-safe), whatever its reason. */
  "email.suppressions.add": (ctx) => {
    const { email, reason } = ctx.body;
    const address = email.trim();
    if (!EMAIL.test(address)) throw new EmuError(400, "INVALID_EMAIL", `Invalid address: ${email}`);
    if (reason !== undefined && !(suppressionReasons as readonly string[]).includes(reason)) {
      throw new EmuError(422, "VALIDATION", `reason: one of ${suppressionReasons.join(", ")} (got "${reason}")`);
    }
    const { entry, added } = listSuppression(ctx.emu, callerProject(ctx).id, address, (reason ?? "manual") as SuppressionRec["reason"]);
    if (!added) return new Reply(view(entry), { status: 200 });
    recordUserActivity(ctx, "email.suppression.added", "email_suppression", ctx.emu.uuid(), entry.email);
    return view(entry);
  },
  "email.suppressions.delete": (ctx) => {
    const entry = listed(ctx);
    const state = emailState(ctx.world);
    state.suppressions = state.suppressions.filter((s) => s !== entry);
    recordUserActivity(ctx, "email.suppression.removed", "email_suppression", ctx.emu.uuid(), entry.email);
    return { deleted: true as const };
  },
};
