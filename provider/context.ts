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
import { eachOnce, getOrGone, listOrGet, Listing, Poller } from "./client/poller";
import type { RouteId } from "../contract/routes";
import type { BackupAddon, EmailDomain, EmailJob, EmailSegment, EmailTemplate, EmailTopic, FirewallRule, InboundAddress, PortForward, ReceivingStatus, RegisteredDomain, Snapshot, SshKey, Vps, Webhook } from "../contract/schemas";
import { aiClient, emailClient, platformClient, type Settings } from "./config";

/**
 * The reads of every resource (client/poller.ts): refresh, adoption, a create's look for what an
 * earlier attempt made, and waits read through these, so that the concurrent reads of one process
 * cost one call per list, not one per resource. Built on first use.
 */
export class ApiContext {
  private built: {
    platform?: ApiClient;
    email?: ApiClient;
    ai?: ApiClient;
    serverList?: Listing<Vps>;
    servers?: Poller<Vps>;
    ofServer: Map<string, Listing<unknown>>;
    backups?: Poller<BackupAddon>;
    registeredDomains?: Listing<RegisteredDomain>;
    emailJobs?: Poller<EmailJob>;
    sendingDomainList?: Listing<EmailDomain>;
    sendingDomains?: Poller<EmailDomain>;
    templateList?: Listing<EmailTemplate>;
    templates?: Poller<EmailTemplate>;
    webhooks?: Listing<Webhook>;
    topicList?: Listing<EmailTopic>;
    topics?: Poller<EmailTopic>;
    segmentList?: Listing<EmailSegment>;
    segments?: Poller<EmailSegment>;
    addressList?: Listing<InboundAddress>;
    addresses?: Poller<InboundAddress>;
    receiving?: Poller<ReceivingStatus>;
  } = { ofServer: new Map() };

  /**
   * Servers this process created (a create answered them, new), with the firewall rules this process
   * added to them since: all such a server holds of this stack. An earlier attempt of a rule create
   * (an interrupted `up`) ran in an earlier process, on a server that process knew: never on one made
   * here. So a rule create's look before sending is answered from here, without a list call. A rule
   * add whose outcome is unknown drops the server from here: its looks then read the list again.
   */
  private readonly madeHere = new Map<string, FirewallRule[]>();

  private readonly kept = new Map<string, unknown>();

  /** What a resource keeps for this process under `key` (a server's batch of rule adds), built on first use. */
  keep<T>(key: string, build: () => T): T {
    if (!this.kept.has(key)) this.kept.set(key, build());
    return this.kept.get(key) as T;
  }

  /** `vpsId` was just created by this process (not found, not adopted). */
  serverMadeHere(vpsId: string): void {
    this.madeHere.set(vpsId, []);
  }

  /** The rules this process added to a server it made; undefined for any other server. */
  rulesMadeHere(vpsId: string): FirewallRule[] | undefined {
    return this.madeHere.get(vpsId);
  }

  /** A rule add on `vpsId` answered (`rule`), or a rule change without a sure answer (undefined). */
  ruleAdded(vpsId: string, rule: FirewallRule | undefined): void {
    const rules = this.madeHere.get(vpsId);
    if (!rules) return;
    if (rule) rules.push(rule);
    else this.madeHere.delete(vpsId);
  }

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

  /** `GET /vps`: the project's servers, for lookups by name. */
  get serverList(): Listing<Vps> {
    return (this.built.serverList ??= new Listing<Vps>(this.platform, "vps.list"));
  }

  /** Servers read or waited for (to settle) at the same time share one `GET /vps` per tick. */
  get servers(): Poller<Vps> {
    return (this.built.servers ??= new Poller<Vps>(listOrGet(this.platform, { list: this.serverList, get: "vps.get", param: "id", idOf: (s) => s.id })));
  }

  /** One list of one server's objects (`GET /vps/{id}/…`), read once for all of them: the API reads none of them by id. */
  private ofServer<T>(route: RouteId, vpsId: string): Listing<T> {
    const key = `${route} ${vpsId}`;
    let listing = this.built.ofServer.get(key) as Listing<T> | undefined;
    if (!listing) this.built.ofServer.set(key, (listing = new Listing<T>(this.platform, route, { id: vpsId })));
    return listing;
  }

  /** `GET /vps/{id}/firewall`: a server's firewall rules. */
  firewallOf(vpsId: string): Listing<FirewallRule> {
    return this.ofServer("vps.firewall.list", vpsId);
  }

  /** `GET /vps/{id}/ssh-keys`: a server's SSH keys. */
  sshKeysOf(vpsId: string): Listing<SshKey> {
    return this.ofServer("vps.sshKeys.list", vpsId);
  }

  /** `GET /vps/{id}/port-forwards`: a server's port forwards. */
  portForwardsOf(vpsId: string): Listing<PortForward> {
    return this.ofServer("vps.portForwards.list", vpsId);
  }

  /** `GET /vps/{id}/snapshots`: a server's snapshots. */
  snapshotsOf(vpsId: string): Listing<Snapshot> {
    return this.ofServer("vps.snapshots.list", vpsId);
  }

  /** A server's backup add-on (`GET /vps/{id}/backup`; no list): each read once per tick. */
  get backups(): Poller<BackupAddon> {
    return (this.built.backups ??= new Poller<BackupAddon>(eachOnce(getOrGone<BackupAddon>(this.platform, "vps.backup.get", "id"))));
  }

  /** `GET /domains` of the platform: the account's registered domains. */
  get registeredDomains(): Listing<RegisteredDomain> {
    return (this.built.registeredDomains ??= new Listing<RegisteredDomain>(this.platform, "domains.list"));
  }

  /** Email jobs: `GET /jobs` answers the 50 most recent; older ones are read one by one. Their reads go
   * ahead of the requests queued for the key: behind a queue of creates, the jobs waited for would no
   * longer be among the 50 when the answer comes. */
  get emailJobs(): Poller<EmailJob> {
    return (this.built.emailJobs ??= new Poller<EmailJob>(
      listOrGet(this.email, {
        list: new Listing<EmailJob>(this.email, "email.jobs.list", undefined, undefined, undefined, true),
        get: "email.jobs.get",
        param: "jobId",
        idOf: (j) => j.jobId,
        ahead: true,
      }),
    ));
  }

  get sendingDomainList(): Listing<EmailDomain> {
    return (this.built.sendingDomainList ??= new Listing<EmailDomain>(this.email, "email.domains.list"));
  }

  get sendingDomains(): Poller<EmailDomain> {
    return (this.built.sendingDomains ??= new Poller<EmailDomain>(
      listOrGet(this.email, { list: this.sendingDomainList, get: "email.domains.get", param: "domainId", idOf: (d) => d.id }),
    ));
  }

  get templateList(): Listing<EmailTemplate> {
    return (this.built.templateList ??= new Listing<EmailTemplate>(this.email, "email.templates.list"));
  }

  get templates(): Poller<EmailTemplate> {
    return (this.built.templates ??= new Poller<EmailTemplate>(
      listOrGet(this.email, { list: this.templateList, get: "email.templates.get", param: "templateId", idOf: (t) => t.id }),
    ));
  }

  /** `GET /webhooks` (the API has no webhook by id). */
  get webhooks(): Listing<Webhook> {
    return (this.built.webhooks ??= new Listing<Webhook>(this.email, "email.webhooks.list"));
  }

  /** `GET /topics`: the project's topics. */
  get topicList(): Listing<EmailTopic> {
    return (this.built.topicList ??= new Listing<EmailTopic>(this.email, "email.topics.list"));
  }

  get topics(): Poller<EmailTopic> {
    return (this.built.topics ??= new Poller<EmailTopic>(listOrGet(this.email, { list: this.topicList, get: "email.topics.get", param: "topicId", idOf: (t) => t.id })));
  }

  /** `GET /segments`: the project's segments. */
  get segmentList(): Listing<EmailSegment> {
    return (this.built.segmentList ??= new Listing<EmailSegment>(this.email, "email.segments.list"));
  }

  get segments(): Poller<EmailSegment> {
    return (this.built.segments ??= new Poller<EmailSegment>(listOrGet(this.email, { list: this.segmentList, get: "email.segments.get", param: "segmentId", idOf: (s) => s.id })));
  }

  /** `GET /inbound/addresses`: the project's receiving addresses, mailboxes and aliases in one list. */
  get addressList(): Listing<InboundAddress> {
    return (this.built.addressList ??= new Listing<InboundAddress>(this.email, "email.addresses.list"));
  }

  get addresses(): Poller<InboundAddress> {
    return (this.built.addresses ??= new Poller<InboundAddress>(
      listOrGet(this.email, { list: this.addressList, get: "email.addresses.get", param: "addressId", idOf: (a) => a.id }),
    ));
  }

  /** A sending domain's receiving setting (`GET /domains/{id}/receiving`; no list): each read once per tick. */
  get receiving(): Poller<ReceivingStatus> {
    return (this.built.receiving ??= new Poller<ReceivingStatus>(eachOnce(getOrGone<ReceivingStatus>(this.email, "email.receiving.get", "domainId"))));
  }
}

/** What one resource method runs with: its profile's clients and pollers, and its operation's wait limit. */
export interface CallContext {
  readonly api: ApiContext;
  /** This operation's wait limit: the resource's customTimeouts, else `defaultMs`. */
  timeoutMs(defaultMs: number): number;
}
