/**
 * The API clients and pollers of one set of settings (a profile's, or the top-level ones), built on
 * first use and then shared by every call made with those settings: in the provider process by every
 * resource call under that profile (runtime.ts), in a program by the data functions (sdk/data.ts).
 * Whatever holds a client, each API key keeps its one rate-limit bucket (client/rate-limit.ts).
 *
 * A resource method gets it in its CallContext, a parameter, as hcloud's CRUD functions get the
 * client configured once: no resource code reaches for a global.
 */
import type { ApiClient } from "./client/http";
import { listOrGet, Poller } from "./client/poller";
import type { EmailDomain, EmailJob, Vps } from "../contract/schemas";
import { aiClient, emailClient, platformClient, type Settings } from "./config";

export class ApiContext {
  private built: {
    platform?: ApiClient;
    email?: ApiClient;
    ai?: ApiClient;
    servers?: Poller<Vps>;
    emailJobs?: Poller<EmailJob>;
    sendingDomains?: Poller<EmailDomain>;
  } = {};

  constructor(readonly settings: Settings) {}

  get platform(): ApiClient {
    return (this.built.platform ??= platformClient(this.settings));
  }

  get email(): ApiClient {
    return (this.built.email ??= emailClient(this.settings));
  }

  get ai(): ApiClient {
    return (this.built.ai ??= aiClient(this.settings));
  }

  /** All servers waiting to settle share one `GET /vps` per tick. */
  get servers(): Poller<Vps> {
    return (this.built.servers ??= new Poller<Vps>(listOrGet(this.platform, { list: "vps.list", get: "vps.get", param: "id", idOf: (s) => s.id })));
  }

  /** Email jobs: `GET /jobs` answers the 50 most recent; older ones are read one by one. */
  get emailJobs(): Poller<EmailJob> {
    return (this.built.emailJobs ??= new Poller<EmailJob>(listOrGet(this.email, { list: "email.jobs.list", get: "email.jobs.get", param: "jobId", idOf: (j) => j.jobId })));
  }

  get sendingDomains(): Poller<EmailDomain> {
    return (this.built.sendingDomains ??= new Poller<EmailDomain>(listOrGet(this.email, { list: "email.domains.list", get: "email.domains.get", param: "domainId", idOf: (d) => d.id })));
  }
}

/** What one resource method runs with: its profile's clients and pollers, and its operation's wait limit. */
export interface CallContext {
  readonly api: ApiContext;
  /** This operation's wait limit: the resource's customTimeouts, else `defaultMs`. */
  timeoutMs(defaultMs: number): number;
}
