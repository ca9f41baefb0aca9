/**
 * What a preview foresees of the `up` (issue 35): the run's paid steps against the wallet, and the
 * objects it adds against what the plans allow — so the preview the CLI runs before every `up`
 * stops a run that would fail half-way, before anything is made.
 *
 * How it holds under the real CLI: the Node dynamic host is one process per deployment serving every
 * resource, and `pulumi up` runs two deployments, the preview and the update, each with its own
 * plugin processes (pulumi/pulumi pkg/backend/apply.go runs the engine twice; each run's plugin
 * context is closed at its end). Within one deployment every resource is checked before it is
 * created. So one Foresight per provider process and profile (ApiContext.keep) sums what each check
 * plans, against the wallet and the counts it read **once**, at the first check that needed them:
 *
 * - in the preview, nothing is made, so the sum is the run's whole cost and the last check refuses;
 * - in the update, a check may come after other resources were made and paid: they are in the sum,
 *   and the wallet (and counts) read before them, so nothing is counted twice.
 *
 * A delete refunds nothing (platform-api.md), and deletes of objects the program no longer declares
 * run after every create (the engine generates them last): nothing here is freed by a removal. Only
 * creates (no old state) count against a count limit: a replace may run delete-first
 * (`deleteBeforeReplace`), which a check cannot see, and the limit is never stricter than the API.
 *
 * Several profiles are several Foresights, so several wallets (a profile is an account, or a project
 * of one; two profiles of one account are summed apart: the foresight then under-counts, never
 * refuses what would pass). The platform answers the wallet; an email-only key learns it from its dry
 * runs (`knownBalance`).
 */
import type { ApiClient } from "./client/http";
import { OperationError } from "./client/errors";

/** A check failure (resource.ts's shape; not imported from there: resource.ts's context imports this file). */
interface CheckFailure {
  property: string;
  reason: string;
}

export const money = (amount: number, currency = "IDR"): string => `${currency} ${Math.round(amount).toLocaleString("en-US")}`;

export interface PlannedCharge {
  /** The resource type, first in the line (`Vps`). */
  resource: string;
  /** In words: `server "web-1" (plan s-1vcpu-1gb, monthly)`. */
  what: string;
  amount: number;
}

interface Wallet {
  balance: number;
  currency: string;
}

/** The creates this provider process finished, in order ("Vps 3f2a…"); none in a preview. */
export type CreatesSoFar = () => readonly string[];

/** At most this many creates are named in a refusal; the rest are counted. */
const NAMED_CREATES = 5;

export class Foresight {
  private wallet?: Promise<Wallet>;
  private readonly charges: PlannedCharge[] = [];
  private readonly added = new Map<string, Set<string>>();

  /** `account`: how the messages name the account (`the default account`, `profile "staging"`).
   * `createsSoFar`: what this process made before a check (runtime.ts), for `refusal`. */
  constructor(
    readonly account: string,
    private readonly createsSoFar: CreatesSoFar = () => [],
  ) {}

  /**
   * What a check's refusal leaves, for its reason: the preview makes nothing, but in the `up` (under
   * `--skip-preview`, or when the world changed since the preview) a check runs as the program
   * registers its resource, after the creates of resources registered before it; the engine saved
   * those, and stops before this one. `notDone`: "made", or "made or charged".
   */
  refusal(notDone: string): string {
    const made = this.createsSoFar();
    if (made.length === 0) return `nothing was ${notDone}`;
    const named = made.slice(0, NAMED_CREATES).join(", ") + (made.length > NAMED_CREATES ? ` and ${made.length - NAMED_CREATES} more` : "");
    return `refused during \`pulumi up\`, after ${made.length} create${made.length === 1 ? "" : "s"} of this run that stay in the stack (the next \`pulumi up\` keeps them): ${named}; this resource was not ${notDone}`;
  }

  /** The wallet as first read in this process (the platform's `GET /account/wallet`, or a dry run's answer). */
  private walletOf(platform: (() => ApiClient) | undefined, knownBalance?: Wallet): Promise<Wallet> {
    if (!this.wallet) {
      if (knownBalance) this.wallet = Promise.resolve(knownBalance);
      else if (platform) {
        const read = platform()
          .call("account.wallet")
          .then((w) => ({ balance: w.balance, currency: w.currency }));
        this.wallet = read;
        // A failed read is not kept: the next check reads again.
        read.catch(() => {
          if (this.wallet === read) this.wallet = undefined;
        });
      } else throw new Error("the wallet cannot be read without a platform key");
    }
    return this.wallet;
  }

  /**
   * Adds a paid step of this run. Answers the failure (on `property`) when the run's paid steps so far
   * cost more than the wallet holds, else writes the price as a line the CLI shows (the provider's
   * stderr lines are info diagnostics: pulumi/pulumi sdk/go/common/resource/plugin/plugin.go).
   */
  async charge(
    property: string,
    step: PlannedCharge,
    source: { platform?: () => ApiClient; knownBalance?: Wallet },
  ): Promise<CheckFailure | undefined> {
    let wallet: Wallet;
    try {
      wallet = await this.walletOf(source.platform, source.knownBalance);
    } catch (err) {
      return {
        property,
        reason: new OperationError("read of the wallet", err, { hint: "The price could not be checked against the wallet, so the preview stops here (nothing was charged): try again" }).message,
      };
    }
    this.charges.push(step);
    const total = this.charges.reduce((sum, c) => sum + c.amount, 0);
    const c = wallet.currency;
    if (total > wallet.balance) {
      const steps = this.charges.length > 1 ? ` (${this.charges.map((x) => `${x.what} ${money(x.amount, c)}`).join("; ")})` : "";
      return {
        property,
        reason:
          `the wallet of ${this.account} cannot pay for this run: ${step.what} costs ${money(step.amount, c)}, which brings the run's paid steps to ${money(total, c)} in total${steps}, ` +
          `and the wallet holds ${money(wallet.balance, c)}. Top up at least ${money(total - wallet.balance, c)}, then run again: ${this.refusal("made or charged")}`,
      };
    }
    const others = this.charges.length > 1 ? `; this run's ${this.charges.length} paid steps come to ${money(total, c)}` : "";
    process.stderr.write(`${step.resource}: ${step.what} costs ${money(step.amount, c)} now, charged from the wallet of ${this.account} (${money(wallet.balance, c)}) by \`pulumi up\`${others}\n`);
    return undefined;
  }

  /**
   * Plans one object of `kind` (a key: the kind and its scope, `mailboxes`, `aliases of <mailbox>`),
   * named `identity` (the same object checked again plans nothing more), and answers what the run
   * plans of the kind. The caller matches them with what is listed now: an object made already is
   * listed and planned, counted once.
   */
  plan(kind: string, identity: string): Set<string> {
    const planned = this.added.get(kind) ?? new Set<string>();
    planned.add(identity);
    this.added.set(kind, planned);
    return planned;
  }

  /** Takes back a `plan` whose check then failed (its create will not run). */
  unplan(kind: string, identity: string): void {
    this.added.get(kind)?.delete(identity);
  }

  /** An object this process made, failed to make, or deleted: no longer planned (the lists say the rest). */
  settled(kind: string, identity: string): void {
    this.added.get(kind)?.delete(identity);
  }
}

/** A count limit reached: the reason in the words the failures use. */
export function overLimit(what: string, limit: number, counts: { existing: number; planned: number }, fix: string): string {
  return `${what}: the plan allows ${limit}, ${counts.existing} exist and this run adds ${counts.planned}: ${fix}`;
}

/** A non-negative whole number, or undefined (an answer without the value). */
export function limitValue(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
