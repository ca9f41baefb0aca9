/**
 * At preview, before any email object is made (foresight.ts): the project has an email plan, or the
 * program declares one (the API answers `402 NO_PLAN` to every email call without one); and the
 * objects this run adds fit in what the plan allows against what the project holds now (a recent
 * list), matched by identity with what the run plans, so an object the `up` made already is counted
 * once. Each type declares its part on its own definition (schema.ts): the limit it counts against
 * (`counted`: sending domains, templates, webhooks, mailboxes, aliases per mailbox) and what else the
 * plan must allow (`planRefuses`: forwarding); the plan's own type, that it needs none (`isServicePlan`).
 *
 * Only creates count: a replace may run delete-first, and removals run after every create (see
 * foresight.ts). An object of the same identity already there (an interrupted `up` made it) is
 * adopted by the create, so it adds nothing. While the program's plan resource buys or changes the
 * plan in this run, the limits read now are not the run's: they are not checked (never stricter than
 * the API). A parent not known yet (an alias of a new mailbox) is not counted: its count is not knowable.
 */
import type { RouteResponse } from "../../contract/routes";
import { operationError, type CheckFailure, type Props } from "../resource";
import { Kept, KeptRead, type CallContext } from "../context";
import { overLimit } from "../foresight";
import type { SchemaResource } from "../schema";

type Status = RouteResponse<"email.status">;
type Stats = RouteResponse<"email.inbound.stats">;

const STATUS = new KeptRead((api): Promise<Status> => api.email.call("email.status"));
const STATS = new KeptRead((api): Promise<Stats> => api.email.call("email.inbound.stats"));
/** The project's email status (its plan, with its domain, template and webhook limits), read once per context for the checks of a run. */
export const readEmailStatus = (ctx: CallContext) => STATUS.of(ctx.api);
/** The project's inbox stats (its plan's mailbox and alias limits, forwarding), read once per context for the checks of a run. */
export const readInboundStats = (ctx: CallContext) => STATS.of(ctx.api);

/**
 * What this process's checks saw of the program's plan resource (plan.ts sets it): `declared`, the
 * email objects may count on it; `changes`, it buys or changes the plan in this run, so the limits
 * read now are not the run's.
 */
export const PLAN_IN_RUN = new Kept((): { declared: boolean; changes: boolean } => ({ declared: false, changes: false }));

/** The fix of a count limit reached, in the refusal's words. */
export const LARGER_PLAN = "remove one (from the program or the project), or move to a larger plan with svc.EmailPlan (getEmailPlans lists them)";

/** The plan's presence, then what else it refuses and the count limit, for an email object this run creates. */
export async function emailPlanForesight(impl: SchemaResource, olds: Props, inputs: Props, ctx: CallContext): Promise<CheckFailure[]> {
  const foresight = ctx.api.foresight;
  const plan = PLAN_IN_RUN.of(ctx.api);
  if (impl.schema.isServicePlan || Object.keys(olds).length > 0 || inputs.adoptId !== undefined) return [];
  let current: Status;
  try {
    current = await readEmailStatus(ctx);
  } catch (err) {
    return [{ property: "", reason: operationError("read of the email plan", err, "The email plan could not be checked, so the preview stops here: try again").message }];
  }
  if (!current.plan) {
    if (plan.declared) return [];
    return [
      {
        property: "",
        reason:
          `the project ${current.projectId} has no email plan, and the program declares none: every email call would be refused (402 NO_PLAN). ` +
          `Declare one — \`const plan = new svc.EmailPlan("plan", { planCode: "free" })\` (getEmailPlans lists the plans) — and give this resource \`{ dependsOn: [plan] }\`, then run again`,
      },
    ];
  }
  if (plan.changes) return [];
  const failures: CheckFailure[] = [];
  try {
    if (impl.planRefuses) failures.push(...(await impl.planRefuses(inputs, ctx, current.plan.name)));
    const rule = impl.counted;
    const kind = rule?.kind(inputs);
    if (rule && kind) {
      const limit = await rule.limit(ctx);
      if (limit !== undefined) {
        // What exists now and what the run plans, matched by identity: an object this run made is
        // counted once (listed and planned), one being made once (planned), one already there adds nothing.
        const live = new Set(await rule.existing(ctx, inputs));
        const identity = rule.identity(inputs);
        if (!live.has(identity)) {
          const planned = foresight.plan(kind, identity);
          const adds = [...planned].filter((i) => !live.has(i)).length;
          if (live.size + adds > limit) {
            foresight.unplan(kind, identity);
            failures.push({
              property: rule.property,
              reason: `${overLimit(`too many ${rule.what} for the email plan ${current.plan.name}`, limit, { existing: live.size, planned: adds }, rule.fix)} (${foresight.refusal("made")})`,
            });
          }
        }
      }
    }
  } catch (err) {
    failures.push({ property: "", reason: operationError("read of the email plan's limits", err, "The limits could not be checked, so the preview stops here: try again").message });
  }
  return failures;
}

/**
 * An email object this process created (or failed to create) or deleted: no longer planned — made,
 * it is in the lists from now on; deleted or not made, its place is free.
 */
export function emailObjectSettled(impl: SchemaResource, props: Props, ctx: CallContext): void {
  const rule = impl.counted;
  const kind = rule?.kind(props);
  if (rule && kind) ctx.api.foresight.settled(kind, rule.identity(props));
}
