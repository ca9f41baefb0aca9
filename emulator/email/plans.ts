/**
 * The email plan (assumed-routes.md "Email plan"): the catalogue (`GET /plans`), the project's
 * subscription (`GET /plan`), buying, changing and renewing it and its inbox add-ons, each with
 * `?dryRun=true`, charged from the account's wallet. The Idempotency-Key rules are the core's
 * (core/idempotency.ts, from the route table); NO_PLAN's exceptions are the routes' `withoutPlan`.
 *
 * The catalogue sets the project's `EmailPlanLimits` (world.ts), which every email route obeys
 * (domains, templates, webhooks, topics, segments, contacts; mailboxes, aliases, receiving and
 * forwarding for the inbox). Choices where the spec is silent, in one place here:
 * - from no plan, an ended one or the free plan, a paid plan is a purchase: full price for `months`
 *   (1 or 12; a year costs 12 months), starting now;
 * - a larger plan (higher monthly price) is charged the difference for the time left in the
 *   period, prorated by the second and rounded to the rupiah; it applies at once;
 * - a smaller plan (the free plan included) is scheduled (`scheduledPlanCode`), nothing charged;
 *   buying the current plan again cancels a scheduled change (nothing charged);
 * - a renewal (explicit, or the automatic one at expiry when auto-renew is on and the wallet can
 *   pay) charges the price of the scheduled plan if any, else the current one, and starts it;
 * - at expiry without a renewal the plan ends: every route but the exceptions answers NO_PLAN;
 * - inbox add-ons need an active plan (402 NO_PLAN; a dry run after the plan ended prices the
 *   units for one period of the plan, as its renewal would charge them) with receiving (402
 *   PLAN_REQUIRED); more units are charged pro rata for the time left; fewer apply at once with no
 *   refund;
 * - the free plan never expires and has no add-ons: on it every add-on code is one the plan does
 *   not sell, 422 VALIDATION naming `code` (assumed-routes.md: an unknown add-on is 422 VALIDATION),
 *   for the seeded free plan and a bought one alike, dry run or not (docs/decisions.md).
 */
import type { Emu } from "../core/emu";
import type { Ctx, Handlers } from "../core/module";
import { EmuError, Reply } from "../core/errors";
import { accountOfProject, type EmailPlanLimits, type Project } from "../core/world";
import { callerProject, emailState } from "./state";

export interface PlanOffer {
  code: string;
  name: string;
  /** IDR per month. */
  monthlyPrice: number;
  limits: {
    emailsPerDay: number | null;
    emailsPerMonth: number;
    domains: number;
    templates: number;
    contacts: number;
    segments: number;
    topics: number;
    webhooks: number;
    mailboxes: number;
    /** Aliases per mailbox (ALIAS_LIMIT: "Mailbox has the maximum aliases"). */
    aliases: number;
  };
  broadcasts: boolean;
  receiving: boolean;
  forwarding: boolean;
  paygRate: number | null;
}

/** The plans on sale; `free` is the seeded projects' plan. */
export const PLAN_CATALOGUE: readonly PlanOffer[] = [
  {
    code: "free", name: "Free", monthlyPrice: 0,
    limits: { emailsPerDay: 100, emailsPerMonth: 3_000, domains: 5, templates: 50, contacts: 1_000, segments: 3, topics: 3, webhooks: 50, mailboxes: 1, aliases: 3 },
    broadcasts: false, receiving: true, forwarding: false, paygRate: null,
  },
  {
    code: "starter", name: "Starter", monthlyPrice: 150_000,
    limits: { emailsPerDay: null, emailsPerMonth: 50_000, domains: 20, templates: 200, contacts: 10_000, segments: 20, topics: 20, webhooks: 50, mailboxes: 5, aliases: 5 },
    broadcasts: true, receiving: true, forwarding: false, paygRate: 15,
  },
  {
    code: "business", name: "Business", monthlyPrice: 450_000,
    limits: { emailsPerDay: null, emailsPerMonth: 200_000, domains: 500, templates: 1_000, contacts: 100_000, segments: 100, topics: 100, webhooks: 100, mailboxes: 50, aliases: 20 },
    broadcasts: true, receiving: true, forwarding: true, paygRate: 10,
  },
];
export const FREE_PLAN = PLAN_CATALOGUE[0];

/** Inbox add-ons: IDR per unit per month, and what a unit adds. */
export const PLAN_ADDONS: Record<string, { monthlyPrice: number; mailboxes: number }> = {
  "extra-mailboxes": { monthlyPrice: 10_000, mailboxes: 5 },
  "extra-storage": { monthlyPrice: 20_000, mailboxes: 0 },
};
const MAX_ADDON_QUANTITY = 100;
const MONTHS = [1, 12];
const MONTH_MS = 30 * 86_400_000;

/** A project's paid or free subscription; absent for a seeded project: its plan from the seed, never expiring. */
export interface SubscriptionRec {
  projectId: string;
  planCode: string;
  /** The period a renewal buys. */
  months: number;
  startedAt: string;
  /** Start of the current period (proration). */
  periodStartedAt: string;
  /** null: the free plan, which never expires. */
  expiresAt: string | null;
  ended: boolean;
  autoRenew: boolean;
  addons: Record<string, number>;
  scheduledPlanCode: string | null;
}

export function offerOf(code: string): PlanOffer | undefined {
  return PLAN_CATALOGUE.find((p) => p.code === code);
}

/** The limit a plan sets; a plan record without the field (seeded before it existed) has the free plan's value. */
export function planLimit(plan: EmailPlanLimits, field: "topics" | "segments" | "contacts" | "mailboxes" | "aliases"): number {
  return plan[field] ?? FREE_PLAN.limits[field];
}

/** Whether a plan includes receiving; a plan record without the field has the free plan's value. */
export function planHasReceiving(plan: EmailPlanLimits): boolean {
  return plan.receiving ?? FREE_PLAN.receiving;
}

function limitsOf(offer: PlanOffer, addons: Record<string, number>): EmailPlanLimits {
  const extraMailboxes = Object.entries(addons).reduce((n, [code, qty]) => n + (PLAN_ADDONS[code]?.mailboxes ?? 0) * qty, 0);
  const { limits } = offer;
  return {
    name: offer.code,
    code: offer.code,
    emailsPerDay: limits.emailsPerDay,
    emailsPerMonth: limits.emailsPerMonth,
    domains: limits.domains,
    templates: limits.templates,
    webhooks: limits.webhooks,
    paygRate: offer.paygRate,
    receiving: offer.receiving,
    forwarding: offer.forwarding,
    mailboxes: limits.mailboxes + extraMailboxes,
    aliases: limits.aliases,
    topics: limits.topics,
    segments: limits.segments,
    contacts: limits.contacts,
  };
}

function subscriptions(emu: Emu): SubscriptionRec[] {
  const state = emailState(emu.world) as ReturnType<typeof emailState> & { subscriptions?: SubscriptionRec[] };
  state.subscriptions ??= [];
  return state.subscriptions;
}

const subscriptionOf = (emu: Emu, project: Project) => subscriptions(emu).find((s) => s.projectId === project.id);

export function offerView(p: PlanOffer) {
  return { code: p.code, name: p.name, monthlyPrice: p.monthlyPrice, limits: { ...p.limits }, broadcasts: p.broadcasts, receiving: p.receiving, forwarding: p.forwarding };
}

/** `GET /plan` of a project. */
export function subscriptionView(emu: Emu, project: Project) {
  const sub = subscriptionOf(emu, project);
  const paygEnabled = project.email.paygEnabled === true;
  if (!sub) {
    const plan = project.email.plan;
    return {
      planCode: plan ? (plan.code ?? FREE_PLAN.code) : null,
      status: plan ? ("active" as const) : ("none" as const),
      startedAt: plan ? (project.email.subscribedAt ?? null) : null,
      expiresAt: null,
      autoRenew: false,
      paygEnabled,
      addons: [],
      scheduledPlanCode: null,
    };
  }
  return {
    planCode: sub.planCode,
    status: sub.ended ? ("ended" as const) : ("active" as const),
    startedAt: sub.startedAt,
    expiresAt: sub.expiresAt,
    autoRenew: sub.autoRenew,
    paygEnabled,
    addons: Object.entries(sub.addons).filter(([, q]) => q > 0).map(([code, quantity]) => ({ code, quantity })),
    scheduledPlanCode: sub.scheduledPlanCode,
  };
}

function addMonths(fromMs: number, months: number): string {
  return new Date(fromMs + months * MONTH_MS).toISOString();
}

/** Starts `offer` for a new period from `fromMs` (a purchase, a renewal). */
function startPeriod(emu: Emu, project: Project, offer: PlanOffer, months: number, fromMs: number, addons: Record<string, number>): SubscriptionRec {
  const all = subscriptions(emu);
  const prior = subscriptionOf(emu, project);
  const free = offer.code === FREE_PLAN.code;
  const sub: SubscriptionRec = {
    projectId: project.id,
    planCode: offer.code,
    months,
    startedAt: prior && !prior.ended && prior.planCode === offer.code ? prior.startedAt : new Date(fromMs).toISOString(),
    periodStartedAt: new Date(fromMs).toISOString(),
    expiresAt: free ? null : addMonths(fromMs, months),
    ended: false,
    autoRenew: !free,
    addons: free ? {} : addons,
    scheduledPlanCode: null,
  };
  if (prior) all.splice(all.indexOf(prior), 1, sub);
  else all.push(sub);
  project.email.plan = limitsOf(offer, sub.addons);
  if (!prior || prior.ended || prior.planCode !== offer.code) project.email.subscribedAt = sub.startedAt;
  return sub;
}

/**
 * Auto-renewal and expiry on the emulator clock, before each request (the email module's
 * `beforeRequest`): a period that ended renews from the wallet when auto-renew is on and the wallet
 * can pay, else the plan ends (NO_PLAN).
 */
export function settleSubscriptions(emu: Emu): void {
  const now = emu.nowMs();
  for (const sub of subscriptions(emu)) {
    while (!sub.ended && sub.expiresAt !== null && Date.parse(sub.expiresAt) <= now) {
      const project = emu.world.projects.find((p) => p.id === sub.projectId);
      if (!project) break;
      const next = offerOf(sub.scheduledPlanCode ?? sub.planCode)!;
      const account = accountOfProject(emu.world, project.id);
      const price = next.monthlyPrice * sub.months + addonsPrice(sub.addons, sub.months);
      if (sub.autoRenew && account.wallet >= price) {
        emu.charge(account, price, `renewal of the email plan ${next.name}`);
        Object.assign(sub, startPeriod(emu, project, next, sub.months, Date.parse(sub.expiresAt), sub.addons));
      } else {
        sub.ended = true;
        project.email.plan = null;
      }
    }
  }
}

function addonsPrice(addons: Record<string, number>, months: number): number {
  return Object.entries(addons).reduce((sum, [code, qty]) => sum + (PLAN_ADDONS[code]?.monthlyPrice ?? 0) * qty * months, 0);
}

/** Share of the current period still to run (0..1), for prorated charges. */
function remainingShare(emu: Emu, sub: SubscriptionRec): number {
  if (sub.expiresAt === null) return 0;
  const start = Date.parse(sub.periodStartedAt);
  const end = Date.parse(sub.expiresAt);
  return Math.min(1, Math.max(0, (end - emu.nowMs()) / (end - start)));
}

function validation(message: string): EmuError {
  return new EmuError(422, "VALIDATION", message);
}

function requireMonths(months: number): void {
  if (!MONTHS.includes(months)) throw validation(`months: 1 or 12 (got ${months})`);
}

/** What a plan operation would do: its price now, and the change it makes once paid. */
interface Quote {
  total: number;
  note: string;
  apply: () => void;
}

/** Dry run: the price and whether the wallet can pay; otherwise charge, apply, answer plan and billing. */
function settle(ctx: Ctx<"email.plan.buy" | "email.plan.renew" | "email.plan.setAddon">, what: string, quote: Quote) {
  const project = callerProject(ctx);
  const account = ctx.caller.account;
  if (ctx.query.dryRun === "true") {
    const balanceAfter = account.wallet - quote.total;
    return new Reply({ dryRun: true as const, currency: account.currency, total: quote.total, balanceAfter, enoughBalance: balanceAfter >= 0, note: `Dry run: nothing was changed or charged. ${quote.note}` });
  }
  if (quote.total > 0) ctx.emu.charge(account, quote.total, what);
  quote.apply();
  ctx.emu.recordActivity({ projectId: project.id, action: "email.plan.changed", entityType: "email_plan", entityId: project.id, entityName: what, actor: "user", byKeyOwner: true });
  return { plan: subscriptionView(ctx.emu, project), billing: { total: quote.total, depositCharged: quote.total } };
}

function buyQuote(ctx: Ctx, target: PlanOffer, months: number): Quote {
  const { emu } = ctx;
  const project = callerProject(ctx);
  const sub = subscriptionOf(emu, project);
  const current = subscriptionView(emu, project);
  const currentOffer = current.status === "active" && current.planCode ? offerOf(current.planCode) : undefined;
  if (!currentOffer || (currentOffer.code === FREE_PLAN.code && target.code !== FREE_PLAN.code)) {
    const total = target.monthlyPrice * months;
    return { total, note: `Buys ${target.name} for ${months} month(s)`, apply: () => void startPeriod(emu, project, target, months, emu.nowMs(), sub?.addons ?? {}) };
  }
  if (target.code === currentOffer.code) {
    return {
      total: 0,
      note: sub?.scheduledPlanCode ? `Keeps ${target.name}: the scheduled change to ${sub.scheduledPlanCode} is cancelled` : `${target.name} is already the plan`,
      apply: () => {
        if (sub) Object.assign(sub, { scheduledPlanCode: null, months });
      },
    };
  }
  if (target.monthlyPrice < currentOffer.monthlyPrice) {
    return {
      total: 0,
      note: `${target.name} is smaller: it is scheduled for the next renewal (${current.expiresAt ?? "never"}), nothing is charged now`,
      apply: () => {
        if (sub) Object.assign(sub, { scheduledPlanCode: target.code, months });
      },
    };
  }
  const total = Math.round((target.monthlyPrice - currentOffer.monthlyPrice) * sub!.months * remainingShare(emu, sub!));
  return {
    total,
    note: `Changes to ${target.name} now: the difference for the rest of the period is charged`,
    apply: () => {
      Object.assign(sub!, { planCode: target.code, scheduledPlanCode: null });
      project.email.plan = limitsOf(target, sub!.addons);
    },
  };
}

export const planHandlers: Handlers<"email.plans.list" | "email.plan.get" | "email.plan.buy" | "email.plan.renew" | "email.plan.setAddon" | "email.plan.cancel"> = {
  "email.plans.list": () => PLAN_CATALOGUE.map(offerView),

  "email.plan.get": (ctx) => subscriptionView(ctx.emu, callerProject(ctx)),

  "email.plan.buy": (ctx) => {
    const { planCode, months } = ctx.body;
    const target = offerOf(planCode);
    if (!target) throw validation(`planCode: unknown plan "${planCode}" (plans: ${PLAN_CATALOGUE.map((p) => p.code).join(", ")})`);
    requireMonths(months);
    return settle(ctx, `email plan ${target.name}`, buyQuote(ctx, target, months));
  },

  "email.plan.renew": (ctx) => {
    const { months } = ctx.body;
    requireMonths(months);
    const { emu } = ctx;
    const project = callerProject(ctx);
    const sub = subscriptionOf(emu, project);
    const current = subscriptionView(emu, project);
    if (current.status === "none") throw validation("No plan to renew: buy one with POST /plan");
    if (!sub || sub.expiresAt === null) throw validation("The free plan does not renew: it never expires");
    const next = offerOf(sub.scheduledPlanCode ?? sub.planCode)!;
    const total = next.monthlyPrice * months + addonsPrice(sub.addons, months);
    const from = sub.ended ? emu.nowMs() : Date.parse(sub.expiresAt);
    return settle(ctx, `renewal of the email plan ${next.name}`, {
      total,
      note: `Renews ${next.name} for ${months} month(s)`,
      apply: () => void startPeriod(emu, project, next, months, from, sub.addons),
    });
  },

  "email.plan.setAddon": (ctx) => {
    const code = ctx.params.code;
    const { quantity } = ctx.body;
    const addon = PLAN_ADDONS[code];
    if (!addon) throw validation(`code: unknown add-on "${code}" (add-ons: ${Object.keys(PLAN_ADDONS).join(", ")})`);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > MAX_ADDON_QUANTITY) throw validation(`quantity: a whole number from 0 to ${MAX_ADDON_QUANTITY} (got ${quantity})`);
    const { emu } = ctx;
    const project = callerProject(ctx);
    const sub = subscriptionOf(emu, project);
    const current = subscriptionView(emu, project);
    const dryRun = ctx.query.dryRun === "true";
    // email-service.md: without an active plan a request answers 402 NO_PLAN; "Plan operations (read,
    // buy, renew, change the plan and inbox add-ons, also after the plan ended) accept ?dryRun=true".
    if (current.status === "none" || (current.status === "ended" && !dryRun)) {
      throw new EmuError(402, "NO_PLAN", `No active email plan: buy or renew one (POST /plan, POST /plan/renew) before changing add-ons${current.status === "ended" ? "; ?dryRun=true prices the add-on" : ""}`);
    }
    const offer = current.planCode ? offerOf(current.planCode) : undefined;
    if (!sub || !offer || offer.code === FREE_PLAN.code) {
      const paid = PLAN_CATALOGUE.filter((p) => p.code !== FREE_PLAN.code).map((p) => p.code);
      throw validation(`code: the ${FREE_PLAN.name} plan has no add-ons: "${code}" is sold with a paid plan (${paid.join(", ")}); buy one with POST /plan first`);
    }
    // The plan in force (its values may differ from the catalogue's); an ended plan's is the catalogue's.
    const receives = project.email.plan ? planHasReceiving(project.email.plan) : offer.receiving;
    if (!receives) throw new EmuError(402, "PLAN_REQUIRED", "Inbox add-ons need a plan with receiving: buy one with POST /plan");
    const more = quantity - (sub.addons[code] ?? 0);
    if (sub.ended) {
      // A dry run after the plan ended: what the units cost for a period of the plan, charged with its renewal.
      const total = more > 0 ? addon.monthlyPrice * more * sub.months : 0;
      return settle(ctx, `add-on ${code} × ${quantity}`, {
        total,
        note: `The plan ended: add-ons are charged with its renewal (POST /plan/renew); ${more > 0 ? `${more} more unit(s) of ${code} cost this for ${sub.months} month(s)` : "nothing more to pay"}`,
        apply: () => {
          throw new Error("unreachable: a real add-on change needs an active plan");
        },
      });
    }
    const total = more > 0 ? Math.round(addon.monthlyPrice * more * sub.months * remainingShare(emu, sub)) : 0;
    return settle(ctx, `add-on ${code} × ${quantity}`, {
      total,
      note: more > 0 ? `Adds ${more} unit(s) of ${code} for the rest of the period` : `Sets ${code} to ${quantity}: nothing is charged or refunded`,
      apply: () => {
        sub.addons = { ...sub.addons, [code]: quantity };
        project.email.plan = limitsOf(offer, sub.addons);
      },
    });
  },

  "email.plan.cancel": () => {
    throw new EmuError(403, "KEY_NOT_ALLOWED", "Cancelling a plan is done in the dashboard only: an API key cannot do it");
  },
};
