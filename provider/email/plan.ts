/**
 * EmailPlan: the project's email plan (there is always one: the free plan counts), bought, changed
 * and given its inbox add-ons from the account's wallet. One per project; delete cannot cancel.
 *
 * - preview (check) prices what `up` would send with `?dryRun=true` (charges nothing), writes the
 *   price as a message, and refuses, on `planCode`, what the wallet cannot pay (price and balance)
 *   or what the API would refuse (an unknown plan or add-on);
 * - `up` reads the live plan and sends only what differs from the program: `POST /plan` (a purchase,
 *   an upgrade charged pro rata, or a downgrade the API schedules for the next renewal) and one
 *   `PUT /plan/addons/{code}` per add-on whose quantity differs. Each is sent with an
 *   Idempotency-Key derived from the stack and resource (`idempotencyScope`, computed by the sdk
 *   class: the provider cannot see the URN) and the change itself (the operation, its target, the
 *   live subscription it changes and the resource's count of changes made so far): a lost answer,
 *   the client's retry after a 5xx, a 429 or a dropped connection, and a rerun of an interrupted
 *   `up` all send the same key, and the API answers the first answer again instead of charging
 *   twice; a later, different change gets another key. (See docs/EmailPlan.md.)
 * - a smaller plan stays scheduled until the next renewal: the program's `planCode` is then the
 *   live `scheduledPlanCode`, which is what refresh reads back, so there is no perpetual diff;
 * - create goes through createOnce: the project's plan is the one object this resource can be, so
 *   it is taken over and brought to the program's plan (nothing bought when it already is);
 *   `adoptId` (the project id) adopts it as it is;
 * - delete calls nothing: cancelling a plan is dashboard-only (KEY_NOT_ALLOWED); the plan stays
 *   and the user is told.
 * The Pulumi id is the project id (from `GET /status`).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../client/errors";
import type { ApiClient } from "../client/http";
import type { CallContext } from "../context";
import { createOnce } from "../create-once";
import { PLAN_IN_RUN } from "./plan-limits";
import { emailPlanCharged, emailPlanDryRun, type EmailPlanOffer, type EmailSubscription } from "../../contract/schemas";
import { diffInputs, isUnknown, operationError, operationFailed, pick, type CheckFailure, type Props } from "../resource";
import { adoptIdInput, changesOf, checkSchema, defineResource, defineSchema, inputsOf, type InputsOf } from "../schema";

export const emailPlanSchema = defineSchema({
  type: "EmailPlan",
  isServicePlan: true,
  sdk: {
    idOutputs: ["projectId"],
    idempotencyScope: true,
    onePerProfile: "A project has one email plan: declare one EmailPlan per project (per profile)",
    types: [
      {
        name: "EmailPlanBilling",
        doc: "What the last change of an {@link EmailPlan} charged (its output `billing`).",
        type: 'EmailPlanOutputs["billing"] extends pulumi.Output<infer T> ? NonNullable<T> : never',
      },
    ],
  },
  preview: `**Price.** The dry runs' total joins the run's other paid steps of the profile (servers, backups, domains) against the wallet as first read in the run (see [Vps](Vps.md#what-the-preview-foresees)). While this resource buys or changes the plan in the run, the email objects' limits are not checked at preview against the plan being replaced (they may be the new plan's). **Add-ons with a purchase.** The API prices and checks an add-on against the plan in force; when this resource also buys a plan (none in force, or it ended) or moves to a larger one, that plan is in force before the add-ons are sent, so they are judged against it instead (an inbox add-on needs a plan with receiving: refused on \`addons\`), not dry-run, and priced by \`pulumi up\` (the preview says so; they are not counted against the wallet).`,
  service: "email",
  summary:
    "The project's email plan, bought, changed and given its inbox add-ons from the account's wallet. Preview prices any change (a free dry run) and refuses one the wallet cannot pay; `up` sends each purchase once, with an Idempotency-Key derived from the stack, this resource and the change, so a retry or a rerun never charges twice. One per project; `pulumi destroy` leaves the plan active (cancelling is dashboard-only).",
  example: `
import * as svc from "pulumi-svc";

// The project's plan: starter, bought by the month, with one extra mailbox.
const plan = new svc.EmailPlan("plan", {
  planCode: "starter",
  months: 1,
  addons: { "extra-mailboxes": 1 },
});

export const activePlan = plan.activePlanCode;
export const renewsAt = plan.expiresAt;
`,
  inputs: {
    planCode: {
      schema: z.string().trim().min(1, "must not be empty"),
      description: "A plan code from `getEmailPlans()` (the emulator sells `free`, `starter`, `business`…).",
      change: "update",
      changeText:
        "updates in place: a larger plan applies at once, charged the prorated difference; a smaller one is scheduled for the next renewal (`scheduledPlanCode`), nothing charged",
    },
    months: {
      schema: z.union([z.literal(1), z.literal(12)], { message: "1 or 12: the API sells a plan by the month or by the year" }).default(1),
      description: "The period a purchase and each renewal buys, in months.",
      change: "update",
      changeText: "updates in place: the plan is bought again for the new period (`POST /plan`)",
    },
    addons: {
      schema: z.record(z.string().min(1), z.number().int("a whole number").min(0, "at least 0")).optional(),
      description:
        "Inbox add-ons by code (`extra-mailboxes`, `extra-storage`) with their quantity, for example `{ \"extra-mailboxes\": 2 }`; needs a plan with receiving. 0 removes one; an add-on left out is left as it is.",
      change: "update",
      changeText: "updates in place: more units are charged pro rata; fewer (0 removes) are neither charged nor refunded",
    },
    adoptId: {
      ...adoptIdInput("the project's id (`getEmailStatus().projectId`), to take over the current plan as it is, buying nothing"),
      schema: z.string().trim().min(1, "must not be empty").optional(),
    },
    idempotencyScope: {
      schema: z.string().regex(/^[a-f0-9]{8,64}$/, "set by the EmailPlan class").optional(),
      description:
        "The stable part of every Idempotency-Key this resource sends: the first 24 hex characters of SHA-256 of `organization/project/stack/EmailPlan/<resource name>`, set by the sdk class (the provider cannot see the URN).",
      change: "state",
      internal: true,
    },
  },
  outputs: {
    projectId: { schema: z.string(), description: "The project whose plan this is (also the Pulumi id)." },
    activePlanCode: { schema: z.string(), description: "The plan in force now: differs from `planCode` while a smaller plan is scheduled." },
    scheduledPlanCode: { schema: z.string().nullable(), description: "The smaller plan that starts at the next renewal, or null." },
    status: { schema: z.enum(["active", "ended", "none"]), description: "`active`; `ended` once the plan ran out (the next `up` buys it again); `none` before any plan." },
    startedAt: { schema: z.string().nullable(), description: "When the current period started (ISO 8601), or null." },
    expiresAt: { schema: z.string().nullable(), description: "When the current period ends and the plan renews or ends (ISO 8601), or null." },
    autoRenew: { schema: z.boolean(), description: "Whether the plan renews from the wallet at `expiresAt` (set in the dashboard)." },
    changes: {
      schema: z.number(),
      description: "How many `up`s changed the plan through this resource: part of each Idempotency-Key, so a later, different change gets a new key.",
    },
    billing: {
      schema: z.object({ total: z.number(), depositCharged: z.number() }).optional(),
      tsType: "{ total: number; depositCharged: number } | undefined",
      description: "What the last change charged: `total` and the part of it paid from the deposit (`depositCharged`), in the wallet's currency; undefined before any.",
    },
  },
  adoption:
    "`adoptId` is the project's id (`getEmailStatus().projectId`): the create reads the current plan and takes it as it is, buying nothing; where it differs from the program, the next `pulumi up` changes it (priced at preview). Another project's id, or a project with no plan, fails the create with the reason. Without `adoptId` the create also takes over the project's plan (there is always one, the free plan counts) and brings it to the program's.",
  interrupted:
    "The project's plan is the one object this resource can be: the repeated create takes it over and sends only what still differs from the program. A purchase the interrupted run made already shows in the live plan, so nothing is sent for it; one whose answer was lost is sent again with the same Idempotency-Key, and the API answers the first answer again instead of charging twice (replay window: 24 hours).",
  errors: {
    INSUFFICIENT_BALANCE: "Nothing was charged (and the key is released): top up the wallet, then run `pulumi up` again. Preview refuses it already, with the price and the balance.",
    VALIDATION: "An unknown plan code or add-on, an add-on on the free plan (it has none), or months other than 1 or 12: use a plan code from `getEmailPlans()`; add-ons are `extra-mailboxes` and `extra-storage`, on a paid plan. Preview refuses it already, on `planCode` or `addons`.",
    PLAN_REQUIRED: "Inbox add-ons need a plan with receiving: choose such a plan (`getEmailPlans()`: `receiving: true`).",
    REQUEST_IN_PROGRESS: "The same purchase (same Idempotency-Key) is still running at the API: run `pulumi up` again in a moment; it is answered, not charged twice.",
    KEY_NOT_ALLOWED: "Cancelling a plan is dashboard-only: the resource's delete never calls it (see Notes).",
  },
  notes: `**One per project.** A project always has one plan (the free plan counts), so an EmailPlan manages *the* plan of its profile's project. A second EmailPlan for the same profile fails the program at preview: the dynamic provider sees one resource at a time and cannot know of another, so the sdk class keeps, in the program's process, the profiles that already have one and refuses the second (two stacks on one project are not detected: don't).

**Preview prices the change.** When \`planCode\`, \`months\` or \`addons\` differ from the state (or on create), check reads \`GET /plan\` and sends each change the API would get with \`?dryRun=true\` (charges nothing): the price shows as a message (\`EmailPlan: plan starter (1 month) costs IDR 150,000 now, …\`), and a change the wallet cannot pay is refused on \`planCode\` with the price and the balance (\`Top up at least …\`). An unknown plan or add-on is refused there too (the API's \`VALIDATION\`). A dry run that fails for another reason also stops the preview. Add-ons sent after a purchase or an upgrade in the same \`up\` are not dry-run (the API would answer for the plan in force now): see *What the preview foresees*. Should such an add-on then fail in the \`up\` (a wallet too low), the error says the plan was bought and stays; the next \`pulumi up\` buys only the add-on. Nothing changed: no call at all.

**\`up\` pays once, with an Idempotency-Key.** \`up\` reads the live plan and sends only what differs: \`POST /plan\` (a purchase, an upgrade charged pro rata, or a downgrade the API schedules for the next renewal) and one \`PUT /plan/addons/{code}\` per add-on whose quantity differs. Each carries \`Idempotency-Key: svc-plan.<scope>.<hash>\` where

- \`scope\` = the first 24 hex characters of SHA-256 of \`organization/project/stack/EmailPlan/<resource name>\`, computed by the sdk class in the program (the provider cannot see the URN) and passed as the internal input \`idempotencyScope\`;
- \`hash\` = the first 32 hex characters of SHA-256 of the change: the operation and its target (\`{ kind: "plan", planCode, months }\` or \`{ kind: "addon", code, quantity }\`), the live subscription it changes (\`planCode\`, \`status\`, \`expiresAt\`, \`scheduledPlanCode\`, add-ons, as read just before) and the resource's count of changes made so far (output \`changes\`).

So every attempt of one change sends the same key: the client's own retries after a dropped answer, a 5xx or a burst of 429s (the route is safe to repeat *because* of the key), a rerun of an interrupted \`up\` (the engine creates or updates again with the same state, and the live plan is unchanged unless the purchase already happened, in which case nothing is sent), and the API answers the first answer again instead of charging twice (replay window: 24 hours). A later, different change gets another key. A purchase refused (\`INSUFFICIENT_BALANCE\`) releases its key: after a top-up the same \`up\` buys with it. Should the API answer an earlier, different change again under the same key, the update fails saying nothing more was charged: run \`pulumi refresh\`, then \`pulumi up\`.

**A smaller plan** stays \`activePlanCode\` until the next renewal; \`planCode\` (and a refresh) read the scheduled one, so there is no perpetual diff.

**Refresh** reads \`GET /plan\`: a plan changed in the dashboard shows as drift; an ended plan is bought again by the next \`up\`; no plan at all (or another project's) is gone.

**Destroy leaves the plan.** Cancelling is dashboard-only (\`DELETE /plan\` answers 403 \`KEY_NOT_ALLOWED\`): deleting the resource calls nothing and prints that the plan stays active (and renews if auto-renew is on). To stop it, turn auto-renew off or cancel it in the dashboard.`,
});
const INPUTS = Object.keys(emailPlanSchema.inputs);

const money = (amount: number, currency = "IDR") => `${currency} ${amount.toLocaleString("en-US")}`;

/** The plan the project will have once scheduled changes apply: what the program's `planCode` means. */
const effectivePlan = (live: EmailSubscription) => live.scheduledPlanCode ?? live.planCode;
const liveAddons = (live: EmailSubscription): Record<string, number> => Object.fromEntries(live.addons.map((a) => [a.code, a.quantity]));

/** One write `up` would send to bring the live plan to the program's. */
type Step = { kind: "plan"; planCode: string; months: number } | { kind: "addon"; code: string; quantity: number };

function stepsFor(inputs: Pick<PlanInputs, "planCode" | "months" | "addons">, live: EmailSubscription, oldMonths: unknown): Step[] {
  const steps: Step[] = [];
  const planCode = inputs.planCode;
  const months = inputs.months;
  // A plan that ended (or none) is bought again; an active one changes when it differs, or when only
  // `months` (the period renewals buy) changed.
  if (live.status !== "active" || effectivePlan(live) !== planCode || (oldMonths !== undefined && oldMonths !== months)) {
    steps.push({ kind: "plan", planCode, months });
  }
  const wanted = (inputs.addons) ?? {};
  const have = liveAddons(live);
  for (const code of Object.keys(wanted).sort()) if ((have[code] ?? 0) !== wanted[code]) steps.push({ kind: "addon", code, quantity: wanted[code] });
  return steps;
}

const describeStep = (s: Step) => (s.kind === "plan" ? `plan ${s.planCode} (${s.months} month${s.months === 1 ? "" : "s"})` : `add-on ${s.code} × ${s.quantity}`);

/**
 * The Idempotency-Key of one step: `svc-plan.<scope>.<hash>`, the hash over the step, the live
 * subscription it changes and the resource's count of changes made. The same on every attempt of
 * the same change (a retry, a rerun after an interrupted `up`), different for any later change.
 */
export function idempotencyKeyOf(scope: unknown, step: Step, live: EmailSubscription, changes: number): string {
  const from = { planCode: live.planCode, status: live.status, expiresAt: live.expiresAt, scheduledPlanCode: live.scheduledPlanCode, addons: liveAddons(live) };
  const hash = createHash("sha256").update(JSON.stringify({ step, from, changes })).digest("hex").slice(0, 32);
  return `svc-plan.${typeof scope === "string" && !isUnknown(scope) ? scope : "unscoped"}.${hash}`;
}

async function sendStep(api: ApiClient, step: Step, key: string | undefined, dryRun: boolean) {
  const query = dryRun ? { dryRun: "true" as const } : undefined;
  if (step.kind === "plan") return api.call("email.plan.buy", { body: { planCode: step.planCode, months: step.months }, query, idempotencyKey: key });
  return api.call("email.plan.setAddon", { params: { code: step.code }, body: { quantity: step.quantity }, query, idempotencyKey: key });
}

function hintFor(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  switch (err.code) {
    case "INSUFFICIENT_BALANCE":
      return "Nothing was charged: top up the wallet, then run `pulumi up` again";
    case "VALIDATION":
      return "Use a plan code from getEmailPlans() and months 1 or 12; add-ons are extra-mailboxes and extra-storage, on a paid plan (the free plan has none)";
    case "PLAN_REQUIRED":
      return "Inbox add-ons need a plan with receiving: choose such a plan (getEmailPlans(): receiving true)";
    case "REQUEST_IN_PROGRESS":
      return "The same purchase is still running at the API: run `pulumi up` again in a moment (it is answered, not charged twice)";
    default:
      return err.status === undefined || err.status >= 500
        ? "The purchase may have been made: `pulumi up` again sends the same Idempotency-Key, so the API answers it again and never charges twice"
        : undefined;
  }
}

type PlanStep = Extract<Step, { kind: "plan" }>;
type AddonStep = Extract<Step, { kind: "addon" }>;

/**
 * The plan in force when `up` sends the add-on steps, after the plan step: the plan being bought
 * when none is in force (none, or it ended) or when it is larger than the current one (applied at
 * once); the current one when the plan step keeps it (only `months` changes, or a scheduled change
 * is cancelled) or is smaller (scheduled for the next renewal). Two plans of one price, or a plan
 * `offers` (the catalogue, read only when the plans' prices decide) does not list: not known.
 */
async function planInForceForAddons(live: EmailSubscription, planStep: PlanStep, offers: () => Promise<EmailPlanOffer[]>): Promise<"current" | "bought" | "unknown"> {
  if (live.status !== "active") return "bought";
  if (planStep.planCode === live.planCode) return "current";
  const catalogue = await offers();
  const price = (code: string | null) => catalogue.find((o) => o.code === code)?.monthlyPrice;
  const [bought, current] = [price(planStep.planCode), price(live.planCode)];
  if (bought === undefined || current === undefined || bought === current) return "unknown";
  return bought > current ? "bought" : "current";
}

/**
 * The add-on steps whose dry run is not the run's: the API answers it against the plan in force now,
 * and the plan step puts another in force before they are sent (a purchase, an upgrade). Those are
 * judged against the plan being bought instead (inbox add-ons need one with receiving: refused on
 * `addons` when it has none) and cannot be priced before it is: the line to write says so. Answers
 * them, or the failure.
 */
async function addonsAfterPurchase(ctx: CallContext, steps: Step[], live: EmailSubscription): Promise<{ addons: AddonStep[]; failure?: CheckFailure; line?: string }> {
  const planStep = steps.find((s): s is PlanStep => s.kind === "plan");
  const addons = steps.filter((s): s is AddonStep => s.kind === "addon");
  if (!planStep || addons.length === 0) return { addons: [] };
  let catalogue: Promise<EmailPlanOffer[]> | undefined;
  const offers = () => (catalogue ??= ctx.api.email.call("email.plans.list"));
  let inForce: "current" | "bought" | "unknown";
  let bought: EmailPlanOffer | undefined;
  try {
    inForce = await planInForceForAddons(live, planStep, offers);
    if (inForce === "current") return { addons: [] };
    bought = (await offers()).find((o) => o.code === planStep.planCode);
  } catch (err) {
    const hint = "The add-ons could not be checked against the plan being bought, so the preview stops here: try again";
    return { addons: [], failure: { property: "addons", reason: operationError("read of the plans", err, hint).message } };
  }
  if (inForce === "bought" && bought && !bought.receiving) {
    return {
      addons,
      failure: {
        property: "addons",
        reason:
          `inbox add-ons need a plan with receiving, and the plan ${bought.name} this resource buys has none (the API would refuse them: 402 PLAN_REQUIRED): ` +
          "remove addons, or choose a plan with receiving (getEmailPlans(): receiving true)",
      },
    };
  }
  const line =
    `EmailPlan: ${addons.map(describeStep).join(", ")} ${addons.length === 1 ? "is" : "are"} priced and charged by \`pulumi up\` once the plan ${planStep.planCode} is in force: ` +
    "the API prices add-ons against the plan in force, so no dry run can before (not counted against the wallet here)\n";
  return { addons, line };
}

/**
 * Preview's price: a dry run of each step (charges nothing) but the add-ons sent after a purchase
 * (`addonsAfterPurchase`). Answers the failure on `planCode` when the API would refuse a step or the
 * wallet cannot pay them all, and the line telling the price.
 */
async function priced(ctx: CallContext, steps: Step[], live: EmailSubscription): Promise<{ failure?: CheckFailure }> {
  const api = ctx.api.email;
  const later = await addonsAfterPurchase(ctx, steps, live);
  if (later.failure) return { failure: later.failure };
  const dryRuns = steps.filter((s) => !later.addons.some((a) => a === s));
  let total = 0;
  let balance: number | undefined;
  let currency = "IDR";
  for (const step of dryRuns) {
    let answer;
    try {
      answer = emailPlanDryRun.parse(await sendStep(api, step, undefined, true));
    } catch (err) {
      const hint = hintFor(err) ?? "The price could not be checked, so the preview stops here (a dry run charges nothing): try again";
      return { failure: { property: step.kind === "plan" ? "planCode" : "addons", reason: operationError(`${describeStep(step)} dry run`, err, hint).message } };
    }
    total += answer.total;
    balance ??= answer.balanceAfter + answer.total;
    currency = answer.currency;
  }
  const what = dryRuns.map(describeStep).join(", ");
  if (balance !== undefined && total > balance) {
    return {
      failure: {
        property: "planCode",
        reason: `the wallet cannot pay for the email ${what}: it costs ${money(total, currency)} and the wallet holds ${money(balance, currency)}. Top up at least ${money(total - balance, currency)}, then run again`,
      },
    };
  }
  // With the run's other paid steps, against the wallet as first read in this process (foresight.ts);
  // the line telling the price is written there.
  const failure = await ctx.api.foresight.charge("planCode", { resource: "EmailPlan", what, amount: total }, { knownBalance: { balance: balance ?? 0, currency } });
  if (!failure && later.line) process.stderr.write(later.line);
  return { failure };
}

function outputs(inputs: Props, live: EmailSubscription, projectId: string, changes: number, billing: unknown): Props {
  return {
    ...pick(inputs, INPUTS),
    projectId,
    activePlanCode: live.planCode,
    scheduledPlanCode: live.scheduledPlanCode,
    status: live.status,
    startedAt: live.startedAt,
    expiresAt: live.expiresAt,
    autoRenew: live.autoRenew,
    changes,
    ...(billing !== undefined ? { billing } : {}),
  };
}

/** The program's inputs as the live plan says (adopt, refresh). */
function liveInputs(props: Props, live: EmailSubscription): Props {
  const addons = liveAddons(live);
  const keepAddons = props.addons !== undefined || Object.keys(addons).length > 0;
  return { ...pick(props, ["adoptId", "idempotencyScope"]), planCode: effectivePlan(live), months: props.months ?? 1, ...(keepAddons ? { addons } : {}) };
}

type PlanInputs = InputsOf<typeof emailPlanSchema>;
/** The project's plan as the API has it, and the project's id (the resource's id). */
type Live = { live: EmailSubscription; projectId: string };
/** What the create holds: the outputs once made or adopted, or the live plan a look found (taken below). */
type PlanCreated = { projectId: string; outs?: Props; start?: Live };

async function readLive(api: ApiClient): Promise<Live> {
  const [live, status] = await Promise.all([api.call("email.plan.get"), api.call("email.status")]);
  return { live, projectId: status.projectId };
}

/**
 * Brings the live plan to the program's, each step sent once with its Idempotency-Key (the client
 * sends the same key on its own retries). `changes` is the resource's count of operations that
 * changed the plan before this one: the same on a rerun of this operation, so each step's key is
 * too. Answers the outputs, from a read after the steps. A step that fails after others were made
 * fails `operation` saying what was made (and charged) before it: that stays, and the next `up`
 * sends only what still differs.
 */
async function converge(
  api: ApiClient,
  operation: "create" | "update",
  inputs: PlanInputs,
  start: Live,
  changes: number,
  oldMonths: unknown,
  priorBilling?: unknown,
): Promise<Props> {
  let live = start.live;
  let billing = priorBilling;
  const steps = stepsFor(inputs, live, oldMonths);
  const made: string[] = [];
  for (const step of steps) {
    const key = idempotencyKeyOf(inputs.idempotencyScope, step, live, changes);
    let answer;
    try {
      answer = emailPlanCharged.parse(await sendStep(api, step, key, false));
    } catch (err) {
      if (made.length === 0) throw err;
      const own = hintFor(err);
      const before = `Before it, ${made.join(" and ")} ${made.length === 1 ? "was" : "were"} made and stay${made.length === 1 ? "s" : ""} (the next \`pulumi up\` sends only what still differs)`;
      throw operationError(operation, err, own ? `${before}. For ${describeStep(step)}: ${own}` : before);
    }
    live = answer.plan;
    billing = answer.billing;
    made.push(`${describeStep(step)} for ${money(answer.billing.total)}`);
  }
  if (steps.length === 0) return outputs(inputs, live, start.projectId, changes, billing);
  live = await api.call("email.plan.get");
  const left = stepsFor(inputs, live, undefined);
  if (left.length > 0) {
    // Only an earlier, different change answered again under the same key (within 24 hours) gets here.
    throw new Error(
      `the API answered without making ${left.map(describeStep).join(", ")} (an earlier request with the same Idempotency-Key was answered again): ` +
        "nothing more was charged; run `pulumi refresh`, then `pulumi up`",
    );
  }
  return outputs(inputs, live, start.projectId, changes + 1, billing);
}

export const emailPlan = defineResource(emailPlanSchema, {
  async check(olds, news, ctx: CallContext) {
    // The email objects of this run do not need a plan in force: this one is declared (email/plan-limits.ts).
    const inRun = PLAN_IN_RUN.of(ctx.api);
    inRun.declared = true;
    const result = checkSchema(emailPlanSchema, news);
    const inputs = result.inputs;
    if (result.failures.length || inputs.adoptId !== undefined) return result;
    // The email objects' limits are checked against the plan as it is, unless this run changes it (email/plan-limits.ts).
    if (INPUTS.some((n) => isUnknown(inputs[n]))) {
      inRun.changes = true;
      return result;
    }
    const changed = Object.keys(olds).length === 0 || diffInputs(olds, inputs, changesOf(emailPlanSchema)).changes;
    if (!changed) return result;
    const api = ctx.api.email;
    let live: EmailSubscription;
    try {
      live = await api.call("email.plan.get");
    } catch (err) {
      result.failures.push({ property: "planCode", reason: operationError("read of the current plan", err, hintFor(err) ?? "The price could not be checked, so the preview stops here: try again").message });
      return result;
    }
    const steps = stepsFor(inputsOf(emailPlanSchema, inputs), live, olds.months);
    if (steps.length === 0) return result;
    inRun.changes = true;
    const { failure } = await priced(ctx, steps, live);
    if (failure) result.failures.push(failure);
    return result;
  },

  async diff(_id, olds, news) {
    const result = diffInputs(olds, news, { ...changesOf(emailPlanSchema), defaults: { addons: {} } });
    // A plan that ended (read by refresh) is bought again by the next `up`.
    return olds.status === "ended" && !result.changes ? { changes: true, replaces: [] } : result;
  },

  async create(inputs, ctx) {
    const api = ctx.api.email;
    const { object } = await createOnce<PlanCreated>(ctx, inputs, {
      noun: "email plan",
      idOf: (o) => o.projectId,
      describe: (o) => `(${String(o.outs?.activePlanCode)})`,
      adopt: async (adoptId) => {
        const start = await readLive(api);
        if (adoptId !== start.projectId) {
          throw operationFailed("create", `adoptId "${adoptId}": the id of an EmailPlan is its project's id; this key's project is ${start.projectId}: use adoptId: "${start.projectId}"`);
        }
        if (start.live.status === "none") throw operationFailed("create", `adoptId "${adoptId}": the project has no plan to adopt: remove adoptId to buy one`);
        return { projectId: start.projectId, outs: outputs(liveInputs(inputs, start.live), start.live, start.projectId, 0, undefined) };
      },
      // The project always has exactly one plan (the free plan counts), and a program one EmailPlan
      // per project: the live plan is this resource's, brought to the program's plan below.
      find: async () => {
        const start = await readLive(api);
        return { objects: [{ projectId: start.projectId, start }], provablyMine: true };
      },
      send: async () => {
        const start = await readLive(api);
        return { projectId: start.projectId, outs: await converge(api, "create", inputs, start, 0, undefined) };
      },
      take: async (found) => (found.start ? { projectId: found.projectId, outs: await converge(api, "create", inputs, found.start, 0, undefined) } : found),
      otherwise: "remove the second EmailPlan: a project has one plan",
      alwaysThere: true,
    });
    // Every path above ends in outputs (take converges what the look found).
    return { id: object.projectId, outs: object.outs ?? {} };
  },
  hintFor: (err) => hintFor(err),

  async update(_id, olds, news, ctx) {
    const api = ctx.api.email;
    try {
      const start = await readLive(api);
      const changes = typeof olds.changes === "number" ? olds.changes : 0;
      return { outs: await converge(api, "update", news, start, changes, olds.months, olds.billing) };
    } catch (err) {
      throw operationError("update", err, hintFor(err));
    }
  },

  find: async (id, _props, ctx) => {
    const start = await readLive(ctx.api.email);
    return start.live.status === "none" || start.projectId !== id ? undefined : start;
  },
  properties(start, props, id) {
    const inputs = liveInputs(props, start.live);
    return { inputs, outputs: outputs(inputs, start.live, id, typeof props.changes === "number" ? props.changes : 0, props.billing) };
  },

  async delete(id, props) {
    // Cancelling is dashboard-only (403 KEY_NOT_ALLOWED to a key): nothing is called.
    process.stderr.write(
      `EmailPlan of project ${id} was removed from the stack only: cancelling a plan is done in the dashboard (an API key cannot), so the ` +
        `${String(props.activePlanCode ?? props.planCode)} plan stays active${props.expiresAt ? ` until ${String(props.expiresAt)} and renews if auto-renew is on` : ""}. ` +
        `To stop it, turn auto-renew off or cancel it in the dashboard.\n`,
    );
  },
});
