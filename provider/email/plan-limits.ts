/**
 * At preview, before any email object is made (foresight.ts): the project has an email plan, or the
 * program declares an `EmailPlan` (the API answers `402 NO_PLAN` to every email call without one);
 * and the objects this run adds fit in what the plan allows — sending domains, templates, webhooks,
 * mailboxes, aliases per mailbox, forwarding — against what the project holds now (a recent list),
 * matched by identity with what the run plans, so an object the `up` made already is counted once.
 *
 * Only creates count: a replace may run delete-first, and removals run after every create (see
 * foresight.ts). An object of the same identity already there (an interrupted `up` made it) is
 * adopted by the create, so it adds nothing. While the program's EmailPlan buys or changes the plan
 * in this run, the limits read now are not the run's: they are not checked (never stricter than the
 * API). A parent not known yet (an alias of a new mailbox) is not counted: its count is not knowable.
 */
import type { EmailDomain, EmailTemplate, InboundAddress, Webhook } from "../../contract/schemas";
import type { RouteResponse } from "../../contract/routes";
import { isUnknown, operationError, type CheckFailure, type Props } from "../resource";
import { KeptRead, type CallContext } from "../context";
import { limitValue, overLimit } from "../foresight";

type Status = RouteResponse<"email.status">;
type Stats = RouteResponse<"email.inbound.stats">;

const known = (v: unknown): v is string => typeof v === "string" && !isUnknown(v);

interface CountRule {
  /** The counter's key: the kind and its scope. */
  kind(inputs: Props): string | undefined;
  /** The object among its kind: the same object checked again adds nothing. */
  identity(inputs: Props): string;
  what: string;
  property: string;
  limit(ctx: CallContext): Promise<number | undefined>;
  /** The identities of the objects of the kind that exist now (a recent list of this process). */
  existing(ctx: CallContext, inputs: Props): Promise<string[]>;
  fix: string;
}

/** The project's plan and its inbound limits, read once per context for the checks of a run. */
const STATUS = new KeptRead((api): Promise<Status> => api.email.call("email.status"));
const STATS = new KeptRead((api): Promise<Stats> => api.email.call("email.inbound.stats"));
const status = (ctx: CallContext) => STATUS.of(ctx.api);
const stats = (ctx: CallContext) => STATS.of(ctx.api);

const LARGER_PLAN = "remove one (from the program or the project), or move to a larger plan with svc.EmailPlan (getEmailPlans lists them)";

const COUNT_RULES: Record<string, CountRule> = {
  SendingDomain: {
    identity: (inputs) => String(inputs.domain),
    kind: () => "sending domains",
    what: "sending domains",
    property: "domain",
    limit: async (ctx) => limitValue((await status(ctx)).plan?.domains),
    existing: async (ctx, inputs) => {
      return (await ctx.api.sendingDomainList.lookup()).map((d: EmailDomain) => d.domain);
    },
    fix: LARGER_PLAN,
  },
  Template: {
    identity: (inputs) => String(inputs.name ?? inputs.defaultName),
    kind: () => "templates",
    what: "templates",
    property: "name",
    limit: async (ctx) => limitValue((await status(ctx)).plan?.templates),
    existing: async (ctx, inputs) => {
      return (await ctx.api.templateList.lookup()).map((t: EmailTemplate) => t.name);
    },
    fix: LARGER_PLAN,
  },
  Webhook: {
    identity: (inputs) => String(inputs.url),
    kind: () => "webhooks",
    what: "webhooks",
    property: "url",
    limit: async (ctx) => limitValue((await status(ctx)).plan?.webhooks),
    existing: async (ctx, inputs) => {
      return (await ctx.api.webhooks.lookup()).map((w: Webhook) => w.url);
    },
    fix: LARGER_PLAN,
  },
  Mailbox: {
    identity: (inputs) => `${String(inputs.localPart)}@${String(inputs.domainId)}`,
    kind: () => "mailboxes",
    what: "mailboxes",
    property: "localPart",
    limit: async (ctx) => limitValue((await stats(ctx)).plan.mailboxes),
    existing: async (ctx, inputs) => {
      const boxes = (await ctx.api.addressList.lookup()).filter((a: InboundAddress) => a.type === "mailbox");
      return boxes.map((a) => `${a.address.slice(0, a.address.lastIndexOf("@"))}@${a.domainId}`);
    },
    fix: `${LARGER_PLAN}; extra mailboxes are also sold as the EmailPlan add-on "extra-mailboxes"`,
  },
  MailAlias: {
    identity: (inputs) => String(inputs.localPart),
    kind: (inputs) => (known(inputs.mailboxId) ? `aliases of mailbox ${inputs.mailboxId}` : undefined),
    what: "aliases on this mailbox",
    property: "localPart",
    limit: async (ctx) => limitValue((await stats(ctx)).plan.aliases),
    existing: async (ctx, inputs) => {
      const aliases = (await ctx.api.addressList.lookup()).filter((a: InboundAddress) => a.mailboxId === inputs.mailboxId && a.type === "alias");
      return aliases.map((a) => a.address.slice(0, a.address.lastIndexOf("@")));
    },
    fix: LARGER_PLAN,
  },
};

/** The plan's presence, then its count limits and forwarding, for an email object this run creates. */
export async function emailPlanForesight(type: string, olds: Props, inputs: Props, ctx: CallContext): Promise<CheckFailure[]> {
  const foresight = ctx.api.foresight;
  if (type === "EmailPlan" || Object.keys(olds).length > 0 || inputs.adoptId !== undefined) return [];
  let current: Status;
  try {
    current = await status(ctx);
  } catch (err) {
    return [{ property: "", reason: operationError("read of the email plan", err, "The email plan could not be checked, so the preview stops here: try again").message }];
  }
  if (!current.plan) {
    if (foresight.emailPlanDeclared) return [];
    return [
      {
        property: "",
        reason:
          `the project ${current.projectId} has no email plan, and the program declares none: every email call would be refused (402 NO_PLAN). ` +
          `Declare one — \`const plan = new svc.EmailPlan("plan", { planCode: "free" })\` (getEmailPlans lists the plans) — and give this resource \`{ dependsOn: [plan] }\`, then run again`,
      },
    ];
  }
  if (foresight.emailPlanChanges) return [];
  const failures: CheckFailure[] = [];
  try {
    if (type === "Mailbox" && Array.isArray(inputs.forwardTo) && inputs.forwardTo.length > 0 && !(await stats(ctx)).plan.forwarding) {
      failures.push({ property: "forwardTo", reason: `the email plan ${current.plan.name} has no forwarding (the API would refuse it: 402 FORWARDING_NOT_ALLOWED): remove forwardTo, or move to a plan with forwarding (svc.EmailPlan; getEmailPlans)` });
    }
    const rule = COUNT_RULES[type];
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
export function emailObjectSettled(type: string, props: Props, ctx: CallContext): void {
  const rule = COUNT_RULES[type];
  const kind = rule?.kind(props);
  if (rule && kind) ctx.api.foresight.settled(kind, rule.identity(props));
}
