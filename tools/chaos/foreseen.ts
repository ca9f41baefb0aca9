/**
 * The foreseen-failure catalogue (issue 35): one cell per refusal the preview makes from what it
 * reads of the account — a wallet that cannot pay the run, the email plan missing, a plan's count
 * limit or forwarding, a key the API refuses, an object deleted outside Pulumi. Each cell sets the
 * world through the emulator's control API, then sends the calls a preview sends (check, or diff
 * for an update) to a provider host of its own (one per deployment, as the CLI starts one, so the
 * run's sums start at zero): every call before the last passes, the last is refused naming the
 * property and the amount, count or setting, and nothing is written. Shared by
 * tests/reliability/foreseen.test.ts and `npm run chaos`. Add a row to grow it.
 */
import { serializedProviders, startProviderHost, stackConfig, UNKNOWN } from "../support/provider-host";
import type { TestEmulator } from "../support/emulator";
import { PASSWORD, type Props } from "../support/world";

/** One call of the preview: a check of `args` (with `olds` for a change), or a diff of the object `diff` against `olds`. */
export interface PreviewCall {
  type: string;
  args: Props;
  olds?: Props;
  diff?: string;
}

export interface ForeseenRow {
  /** The resource type refused. */
  type: string;
  /** The mistake, for the test name. */
  what: string;
  /** The world before the preview (a fresh seed): wallet, plan limits, objects made or deleted outside Pulumi; answers the preview's calls. */
  setup(emu: TestEmulator, plans: { small: string; large: string; shared: string }): Promise<PreviewCall[]>;
  /** Stack config the preview runs with, instead of the seeded keys (a revoked key, a key without an email plan). */
  config?(emu: TestEmulator): Partial<Parameters<typeof stackConfig>[0]>;
  /** The property the refusal names ("" for the resource as a whole). */
  property: string;
  /** What the refusal must say: the amount, count or setting, and the fix. */
  reason: RegExp;
}

const limits = (emu: TestEmulator, values: Record<string, unknown>) => emu.ctl("PATCH", "/email/plan-limits", values);
const wallet = (emu: TestEmulator, balance: number) => emu.ctl("PATCH", "/wallet", { balance });
const server = (planId: string, name: string): Props => ({ planId, name, osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD, billingPeriod: "monthly" });
const WALLET_FIX = /Top up at least IDR [\d,]+, then run again: nothing was made or charged/;
const both = (...res: RegExp[]) => new RegExp(res.map((r) => `(?=[\\s\\S]*${r.source})`).join(""));

export const FORESEEN: ForeseenRow[] = [
  {
    type: "Vps",
    what: "a wallet below the server's price",
    setup: async (emu, plans) => {
      await wallet(emu, 1_000);
      return [{ type: "Vps", args: server(plans.small, "web-1") }];
    },
    property: "planId",
    reason: both(/cannot pay for this run: server "web-1" \(plan s-1vcpu-1gb, monthly\) costs IDR 75,000/, /the wallet holds IDR 1,000/, WALLET_FIX),
  },
  {
    type: "Vps",
    what: "two servers whose total exceeds the wallet (each alone fits)",
    setup: async (emu, plans) => {
      await wallet(emu, 100_000);
      return [
        { type: "Vps", args: server(plans.small, "web-1") },
        { type: "Vps", args: server(plans.small, "web-2") },
      ];
    },
    property: "planId",
    reason: both(/brings the run's paid steps to IDR 150,000 in total/, /the wallet holds IDR 100,000/, WALLET_FIX),
  },
  {
    type: "Vps",
    what: "an upgrade whose prorated price the wallet cannot pay",
    setup: async (emu, plans) => {
      const made = await emu.call("POST", "/api/vps", { key: emu.keys.account, body: { ...server(plans.small, "db-1"), projectId: emu.projects[0] } });
      if (made.status !== 201 && made.status !== 200 && made.status !== 202) throw new Error(`setup: POST /api/vps answered ${made.status}`);
      await emu.ctl("POST", "/transitions/settle");
      await wallet(emu, 0);
      const olds = { ...server(plans.small, "db-1"), projectId: emu.projects[0] };
      return [{ type: "Vps", olds, args: { ...olds, planId: plans.large } }];
    },
    property: "planId",
    reason: both(/the upgrade of server "db-1" from s-1vcpu-1gb to \S+ \(prorated for the \d+ days left/, /the wallet holds IDR 0/, WALLET_FIX),
  },
  {
    type: "VpsBackup",
    what: "a backup add-on the wallet cannot pay",
    setup: async (emu) => {
      await wallet(emu, 0);
      return [{ type: "VpsBackup", args: { vpsId: UNKNOWN, planCode: "backup-10" } }];
    },
    property: "planCode",
    reason: both(/the backup add-on backup-10 of a new server costs IDR 15,000/, /the wallet holds IDR 0/, WALLET_FIX),
  },
  {
    type: "Template",
    what: "no email plan, and no EmailPlan in the program",
    config: (emu) => ({ emailApiKey: emu.keys.emailNoPlan }),
    setup: async () => [{ type: "Template", args: { name: "welcome", subject: "Hi", textBody: "Hi" } }],
    property: "",
    reason: both(/has no email plan, and the program declares none: every email call would be refused \(402 NO_PLAN\)/, /new svc\.EmailPlan\("plan", \{ planCode: "free" \}\)/, /dependsOn: \[plan\]/),
  },
  {
    type: "SendingDomain",
    what: "a sending domain over the plan's domains",
    setup: async (emu) => {
      await limits(emu, { domains: 0 });
      return [{ type: "SendingDomain", args: { domain: "mail.limits-shop.com" } }];
    },
    property: "domain",
    reason: both(/too many sending domains for the email plan \S+: the plan allows 0, 0 exist and this run adds 1/, /svc\.EmailPlan/),
  },
  {
    type: "Template",
    what: "templates over the plan's templates",
    setup: async (emu) => {
      await limits(emu, { templates: 1 });
      return [
        { type: "Template", args: { name: "welcome", subject: "Hi", textBody: "Hi" } },
        { type: "Template", args: { name: "bye", subject: "Bye", textBody: "Bye" } },
      ];
    },
    property: "name",
    reason: both(/too many templates for the email plan \S+: the plan allows 1, 0 exist and this run adds 2/, /svc\.EmailPlan/),
  },
  {
    type: "Webhook",
    what: "a webhook over the plan's webhooks",
    setup: async (emu) => {
      await limits(emu, { webhooks: 0 });
      return [{ type: "Webhook", args: { url: "https://hooks.example.com/svc/events", events: ["email.delivered"] } }];
    },
    property: "url",
    reason: both(/too many webhooks for the email plan \S+: the plan allows 0, 0 exist and this run adds 1/, /svc\.EmailPlan/),
  },
  {
    type: "Mailbox",
    what: "mailboxes over the plan's mailboxes",
    setup: async (emu) => {
      await limits(emu, { mailboxes: 1, receiving: true, forwarding: true });
      return [
        { type: "Mailbox", args: { domainId: "dom_0123456789abcdef", localPart: "support" } },
        { type: "Mailbox", args: { domainId: "dom_0123456789abcdef", localPart: "sales" } },
      ];
    },
    property: "localPart",
    reason: both(/too many mailboxes for the email plan \S+: the plan allows 1, 0 exist and this run adds 2/, /"extra-mailboxes"/),
  },
  {
    type: "MailAlias",
    what: "aliases over the plan's aliases per mailbox",
    setup: async (emu) => {
      await limits(emu, { aliases: 1, receiving: true });
      const mailboxId = "3f1c2a4e-0000-4000-8000-0000000000a1";
      return [
        { type: "MailAlias", args: { mailboxId, localPart: "help" } },
        { type: "MailAlias", args: { mailboxId, localPart: "info" } },
      ];
    },
    property: "localPart",
    reason: both(/too many aliases on this mailbox for the email plan \S+: the plan allows 1, 0 exist and this run adds 2/, /svc\.EmailPlan/),
  },
  {
    type: "Mailbox",
    what: "forwarding on a plan without forwarding",
    setup: async (emu) => {
      await limits(emu, { receiving: true, forwarding: false, mailboxes: 5 });
      return [{ type: "Mailbox", args: { domainId: "dom_0123456789abcdef", localPart: "support", forwardTo: ["desk@example.org"] } }];
    },
    property: "forwardTo",
    reason: both(/has no forwarding \(the API would refuse it: 402 FORWARDING_NOT_ALLOWED\)/, /remove forwardTo, or move to a plan with forwarding/),
  },
  {
    type: "Vps",
    what: "a key the API refuses (401)",
    config: (emu) => ({ apiKey: emu.keys.revoked }),
    setup: async (_emu, plans) => [{ type: "Vps", args: server(plans.small, "web-1") }],
    property: "planId",
    reason: both(/401/, /it comes from stack config svc:apiKey: set the right one with `pulumi config set --secret svc:apiKey <value>`/),
  },
  {
    type: "Template",
    what: "a change to an object deleted outside Pulumi",
    setup: async (emu) => {
      const made = await emu.call("POST", "/email/templates", { key: emu.keys.email, body: { name: "gone", subject: "Hi", textBody: "Hi" } });
      // The create is a job (202, templateId): settled, then deleted.
      const id = made.body.data.templateId as string;
      await emu.ctl("POST", "/transitions/settle");
      const deleted = await emu.call("DELETE", `/email/templates/${id}`, { key: emu.keys.email });
      if (deleted.status !== 200) throw new Error(`setup: DELETE /email/templates/${id} answered ${deleted.status}`);
      const olds = { name: "gone", subject: "Hi", textBody: "Hi" };
      return [{ type: "Template", diff: id, olds, args: { ...olds, subject: "Hello" } }];
    },
    property: "",
    reason: /that the state holds was deleted outside Pulumi: run `pulumi refresh` to drop it from the state/,
  },
];

/** The serialized provider of each type, the same for every cell. */
const providerOf = serializedProviders();

export interface ForeseenResult {
  problems: string[];
  /** Write calls (not GET) the emulator answered during the preview's calls. */
  writes: string[];
}

/** Runs one cell on a fresh world: the world set up, the preview's calls to a new provider host, what went wrong. */
export async function runForeseen(emu: TestEmulator, row: ForeseenRow): Promise<ForeseenResult> {
  await emu.ctl("POST", "/reset");
  const catalog = emu.control.state().catalog.vpsPlans;
  const plans = {
    small: catalog.find((p) => p.name === "s-1vcpu-1gb")!.id,
    large: [...catalog].filter((p) => !p.sharedAddress).sort((a, b) => b.prices.monthly - a.prices.monthly)[0].id,
    shared: catalog.find((p) => p.sharedAddress)!.id,
  };
  const calls = await row.setup(emu, plans);
  const host = await startProviderHost({ env: { SVC_READ_REUSE_MS: "0" } });
  const problems: string[] = [];
  try {
    await host.configure(
      stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0], ...row.config?.(emu) }),
    );
    emu.control.clearRequests();
    for (const [i, call] of calls.entries()) {
      const last = i === calls.length - 1;
      const news = { ...call.args, __provider: await providerOf(call.type, call.args) };
      const olds = call.olds ? { ...call.olds, __provider: news.__provider } : {};
      let refusals: { property: string; reason: string }[];
      if (call.diff !== undefined) {
        refusals = await host.diff(call.type, call.diff, olds, news).then(
          () => [],
          (err: Error) => [{ property: "", reason: err.message }],
        );
      } else refusals = (await host.check(call.type, olds, news)).failures;
      if (!last) {
        if (refusals.length) problems.push(`call ${i + 1} of ${calls.length} (${call.type}) was refused, only the last may be: ${JSON.stringify(refusals)}`);
        continue;
      }
      const named = refusals.find((f) => f.property === row.property && row.reason.test(f.reason));
      if (!named) problems.push(`not refused on "${row.property}" with ${row.reason}: ${refusals.length ? JSON.stringify(refusals) : "it passed"}`);
    }
  } finally {
    await host.stop();
  }
  const writes = emu.control.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path} ${r.status}`);
  if (writes.length) problems.push(`the preview wrote: ${writes.join(", ")}`);
  return { problems, writes };
}
