/**
 * Sending domains: added in `pending` with the DNS records to publish (job `add_domain`), then
 * checked by `verify_domain` (`verifying` → `verified` when the records are published, else
 * `failed`; a failed domain can be verified again). Records are published automatically a short
 * while after the domain is added (dns "auto") or by `POST /_emulator/dns/publish` (dns "manual").
 */
import type { Ctx, Handlers } from "../core/module";
import type { Emu } from "../core/emu";
import { EmuError } from "../core/errors";
import { cancelJobs, enqueueJob, JobFailed, openJob, type JobWorker } from "./jobs";
import { dropReceiving } from "./inbox";
import { isPublicFqdn } from "../../contract/hosts";
import { callerPlan, callerProject, emailState, ownDomain, recordUserActivity, type DnsRecordRec, type DomainRec } from "./state";

const ENTITY = "email_domain";
/** Realistic time after which the records of a new domain are visible in DNS (dns "auto", `time` mode). */
export const DNS_PUBLISH_SECONDS = 3;
/** Host names of the emulated mail platform that the records point at. */
const FEEDBACK_HOST = "feedback-smtp.mail.svc-platform.net";
const SPF_INCLUDE = "spf.mail.svc-platform.net";
/** Start of the base64 DER of a 1024-bit RSA public key, and its usual exponent ending. */
const RSA1024_PREFIX = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ";
const RSA1024_SUFFIX = "IDAQAB";

export function domainView(d: DomainRec) {
  return {
    id: d.id,
    domain: d.domain,
    status: d.status,
    dnsRecords: d.dnsRecords.map((r) => ({ ...r })),
    createdAt: d.createdAt,
    verifiedAt: d.verifiedAt,
  };
}

/** Records to publish: envelope-sender (bounce) subdomain MX and SPF, DKIM key, DMARC policy. */
function dnsRecordsFor(emu: Emu, domain: string): DnsRecordRec[] {
  const dkimKey = RSA1024_PREFIX + Buffer.from(emu.hex(258), "hex").toString("base64").slice(0, 172) + RSA1024_SUFFIX;
  return [
    { type: "MX", name: `bounce.${domain}`, value: FEEDBACK_HOST, priority: 10 },
    { type: "TXT", name: `bounce.${domain}`, value: `v=spf1 include:${SPF_INCLUDE} ~all` },
    { type: "TXT", name: `svc._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${dkimKey}` },
    { type: "TXT", name: `_dmarc.${domain}`, value: "v=DMARC1; p=none;" },
  ];
}

/** When the records of a domain added now count as published (null: only when published by hand). */
function dnsPublishTime(emu: Emu): string | null {
  const { dns, transitions, transitionSeconds } = emu.options;
  if (dns === "manual") return null;
  const delay = transitions === "time" ? (transitionSeconds ?? DNS_PUBLISH_SECONDS) : 0;
  return new Date(emu.nowMs() + delay * 1000).toISOString();
}

function isPublished(emu: Emu, d: DomainRec): boolean {
  return d.dnsPublishAt !== null && Date.parse(d.dnsPublishAt) <= emu.nowMs();
}

const findDomain = (ctx: Ctx): DomainRec => ownDomain(ctx, ctx.params.domainId);

function domainOfJob(emu: Emu, targetId: string): DomainRec | undefined {
  return emailState(emu.world).domains.find((d) => d.id === targetId);
}

function recordSystemActivity(emu: Emu, d: DomainRec, action: string): void {
  emu.recordActivity({ projectId: d.projectId, action, entityType: ENTITY, entityId: d.id, entityName: d.domain, actor: "system", byKeyOwner: false });
}

/** Marks every sending domain of that name (in any project) as published; false if there is none. */
export function publishDns(emu: Emu, name: string): boolean {
  const matches = emailState(emu.world).domains.filter((d) => d.domain === name.toLowerCase());
  for (const d of matches) if (!isPublished(emu, d)) d.dnsPublishAt = emu.nowIso();
  return matches.length > 0;
}

export const addDomainWorker: JobWorker = {
  workSeconds: 1,
  failureTitle: "Sending domain could not be added",
  targetName: (emu, job) => domainOfJob(emu, job.targetId)?.domain ?? job.targetId,
  run: (emu, job) => {
    const d = domainOfJob(emu, job.targetId)!;
    return { domainId: d.id, domain: d.domain };
  },
  // The domain was never set up: it is removed, so the same name can be added again.
  onFailure: (emu, job) => {
    const state = emailState(emu.world);
    const d = domainOfJob(emu, job.targetId);
    if (!d) return;
    state.domains = state.domains.filter((x) => x !== d);
    cancelJobs(emu, d.id, "Domain could not be added");
    recordSystemActivity(emu, d, "email.domain.add_failed");
  },
};

export const verifyDomainWorker: JobWorker = {
  workSeconds: 3,
  failureTitle: "Sending domain verification failed",
  targetName: (emu, job) => domainOfJob(emu, job.targetId)?.domain ?? job.targetId,
  run: (emu, job) => {
    const d = domainOfJob(emu, job.targetId)!;
    if (!isPublished(emu, d)) {
      const names = [...new Set(d.dnsRecords.map((r) => `${r.type} ${r.name}`))].join(", ");
      throw new JobFailed(`DNS records not found (${names}): publish the domain's dnsRecords exactly as returned, then verify again`);
    }
    d.status = "verified";
    d.verifiedAt ??= emu.nowIso();
    recordSystemActivity(emu, d, "email.domain.verified");
    return { domainId: d.id, domain: d.domain, status: d.status };
  },
  onFailure: (emu, job) => {
    const d = domainOfJob(emu, job.targetId);
    if (!d) return;
    d.status = "failed";
    recordSystemActivity(emu, d, "email.domain.verification_failed");
  },
};

export const domainHandlers: Handlers<"email.domains.list" | "email.domains.create" | "email.domains.get" | "email.domains.verify" | "email.domains.delete"> = {
  "email.domains.list": (ctx) => {
    const projectId = callerProject(ctx).id;
    return emailState(ctx.world).domains.filter((d) => d.projectId === projectId).map(domainView);
  },

  "email.domains.create": (ctx) => {
    const name = ctx.body.domain.toLowerCase();
    if (!isPublicFqdn(name)) {
      throw new EmuError(400, "INVALID_DOMAIN", `"${ctx.body.domain}" is not a valid fully qualified domain name`);
    }
    const state = emailState(ctx.world);
    const projectId = callerProject(ctx).id;
    const own = state.domains.filter((d) => d.projectId === projectId);
    if (own.some((d) => d.domain === name)) throw new EmuError(409, "DOMAIN_EXISTS", `Domain ${name} is already added to this project`);
    const limit = callerPlan(ctx).domains;
    if (own.length >= limit) throw new EmuError(402, "DOMAIN_LIMIT_REACHED", `Your plan allows ${limit} sending domains`);

    const now = ctx.emu.nowIso();
    const domain: DomainRec = {
      id: ctx.emu.uuid(),
      projectId,
      domain: name,
      status: "pending",
      dnsRecords: dnsRecordsFor(ctx.emu, name),
      createdAt: now,
      verifiedAt: null,
      dnsPublishAt: dnsPublishTime(ctx.emu),
    };
    state.domains.push(domain);
    const job = enqueueJob(ctx, "add_domain", domain.id);
    recordUserActivity(ctx, "email.domain.created", ENTITY, domain.id, domain.domain);
    return { jobId: job.jobId, domainId: domain.id };
  },

  "email.domains.get": (ctx) => domainView(findDomain(ctx)),

  "email.domains.verify": (ctx) => {
    const domain = findDomain(ctx);
    // A check already under way answers its job: verify is idempotent.
    const running = openJob(ctx.world, "verify_domain", domain.id);
    if (running) return { jobId: running.jobId };
    // A verified domain stays usable for sending while it is checked again.
    if (domain.status !== "verified") domain.status = "verifying";
    return { jobId: enqueueJob(ctx, "verify_domain", domain.id).jobId };
  },

  "email.domains.delete": (ctx) => {
    const domain = findDomain(ctx);
    const state = emailState(ctx.world);
    state.domains = state.domains.filter((d) => d !== domain);
    dropReceiving(state, domain.id);
    cancelJobs(ctx.emu, domain.id, "Domain was deleted");
    recordUserActivity(ctx, "email.domain.deleted", ENTITY, domain.id, domain.domain);
    return { deleted: true as const };
  },
};
