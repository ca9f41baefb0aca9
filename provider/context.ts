/**
 * The API clients and pollers of one set of settings (a profile's, or the top-level ones), built on
 * first use and then shared by every call made with those settings: in the provider process by every
 * resource call under that profile (runtime.ts), in a program by the data functions (sdk/data.ts).
 * The contexts of one process come from one `ApiContexts`, whose one RateLimits gives each API key
 * one rate-limit bucket, whatever profile names the key (client/rate-limit.ts).
 *
 * A resource method gets it in its CallContext, a parameter, as hcloud's CRUD functions get the
 * client configured once: no resource code reaches for a global.
 */
import type { ApiClient } from "./client/http";
import { RateLimits } from "./client/rate-limit";
import { eachOnce, getOrGone, listOrGet, Listing, Poller } from "./client/poller";
import type { Deadline } from "./client/deadline";
import type { RouteId } from "../contract/routes";
import type { BackupAddon, EmailDomain, EmailJob, EmailSegment, EmailTemplate, EmailTopic, FirewallRule, InboundAddress, PortForward, ReceivingStatus, RegisteredDomain, Snapshot, SshKey, Vps, Webhook } from "../contract/schemas";
import { aiClient, emailClient, platformClient, type Settings } from "./config";
import { Foresight, type CreatesSoFar } from "./foresight";
import { debugLogger, type DebugLog } from "./log";

/** A kind's list route, its get route with the name of the id parameter, and an item's id. */
interface ListedKind<T> {
  list: RouteId;
  get: RouteId;
  param: string;
  idOf(item: T): string;
}

const SERVERS: ListedKind<Vps> = { list: "vps.list", get: "vps.get", param: "id", idOf: (s) => s.id };
const SENDING_DOMAINS: ListedKind<EmailDomain> = { list: "email.domains.list", get: "email.domains.get", param: "domainId", idOf: (d) => d.id };
const TEMPLATES: ListedKind<EmailTemplate> = { list: "email.templates.list", get: "email.templates.get", param: "templateId", idOf: (t) => t.id };
const TOPICS: ListedKind<EmailTopic> = { list: "email.topics.list", get: "email.topics.get", param: "topicId", idOf: (t) => t.id };
const SEGMENTS: ListedKind<EmailSegment> = { list: "email.segments.list", get: "email.segments.get", param: "segmentId", idOf: (s) => s.id };
const ADDRESSES: ListedKind<InboundAddress> = { list: "email.addresses.list", get: "email.addresses.get", param: "addressId", idOf: (a) => a.id };

/**
 * The reads of every resource (client/poller.ts): refresh, adoption, a create's look for what an
 * earlier attempt made, and waits read through these, so that the concurrent reads of one process
 * cost one call per list, not one per resource. Built on first use.
 */
export class ApiContext {
  /**
   * Servers this process created (a create answered them, new), with the firewall rules this process
   * added to them since: all such a server holds of this stack. An earlier attempt of a rule create
   * (an interrupted `up`) ran in an earlier process, on a server that process knew: never on one made
   * here. So a rule create's look before sending is answered from here, without a list call. A rule
   * add whose outcome is unknown drops the server from here: its looks then read the list again.
   */
  private readonly madeHere = new Map<string, FirewallRule[]>();

  private readonly kept = new Map<string, unknown>();

  /**
   * What this process keeps under `key`, built on first use: the clients, lists and pollers below, and
   * what a resource keeps (a server's batch of rule adds). Keys name their kind first ("listed …",
   * "firewall adds …"), so they cannot meet.
   */
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

  /** `profile`: the profile these settings are (undefined: the top-level settings). `rateLimits`: the
   * per-key buckets of the process (ApiContexts). `log`: the process's debug log, which the clients,
   * the pollers and the creates (create-once.ts) of this context write to. `createsSoFar`: the
   * creates the process finished, whatever their profile (runtime.ts). */
  constructor(
    readonly settings: Settings,
    readonly profile: string | undefined,
    private readonly rateLimits: RateLimits,
    readonly log: DebugLog,
    private readonly createsSoFar: CreatesSoFar = () => [],
  ) {}

  /** What this process's checks plan for the profile's account: its paid steps and added objects (foresight.ts). */
  get foresight(): Foresight {
    return this.keep("foresight", () => new Foresight(this.profile === undefined ? "the account (svc:apiKey)" : `the account of profile "${this.profile}"`, this.createsSoFar));
  }

  get platform(): ApiClient {
    return this.keep("client platform", () => platformClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  get email(): ApiClient {
    return this.keep("client email", () => emailClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  get ai(): ApiClient {
    return this.keep("client ai", () => aiClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  /**
   * A kind the API lists and also answers by id: its list (the resources' lookups by name), and the
   * poller that reads through it (reads and waits at the same time share one list call per tick; an
   * object not in the list is read by id).
   */
  private listed<T>(api: ApiClient, kind: ListedKind<T>): { list: Listing<T>; poller: Poller<T> } {
    return this.keep(`listed ${kind.list}`, () => {
      const list = new Listing<T>(api, kind.list);
      return { list, poller: new Poller<T>(listOrGet(api, { list, get: kind.get, param: kind.param, idOf: kind.idOf }), { log: this.log }) };
    });
  }

  /** A list the API has no get for, or that is only looked up in. */
  private listOnly<T>(api: ApiClient, route: RouteId): Listing<T> {
    return this.keep(`list ${route}`, () => new Listing<T>(api, route));
  }

  /** Objects that have no list: each read once per tick (concurrent reads of one object share it). */
  private eachRead<T>(api: ApiClient, route: RouteId, param: string): Poller<T> {
    return this.keep(`each ${route}`, () => new Poller<T>(eachOnce(getOrGone<T>(api, route, param)), { log: this.log }));
  }

  /** `GET /vps`: the project's servers, for lookups by name. */
  get serverList(): Listing<Vps> {
    return this.listed(this.platform, SERVERS).list;
  }

  /** Servers read or waited for (to settle) at the same time share one `GET /vps` per tick. */
  get servers(): Poller<Vps> {
    return this.listed(this.platform, SERVERS).poller;
  }

  /** One list of one server's objects (`GET /vps/{id}/…`), read once for all of them: the API reads none of them by id. */
  private ofServer<T>(route: RouteId, vpsId: string): Listing<T> {
    return this.keep(`of server ${route} ${vpsId}`, () => new Listing<T>(this.platform, route, { params: { id: vpsId } }));
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

  /** A server's backup add-on (`GET /vps/{id}/backup`; no list). */
  get backups(): Poller<BackupAddon> {
    return this.eachRead(this.platform, "vps.backup.get", "id");
  }

  /** `GET /domains` of the platform: the account's registered domains. */
  get registeredDomains(): Listing<RegisteredDomain> {
    return this.listOnly(this.platform, "domains.list");
  }

  /** Email jobs: `GET /jobs` answers the 50 most recent; older ones are read one by one. Their reads go
   * ahead of the requests queued for the key: behind a queue of creates, the jobs waited for would no
   * longer be among the 50 when the answer comes. */
  get emailJobs(): Poller<EmailJob> {
    return this.keep("email jobs", () =>
      new Poller<EmailJob>(
        listOrGet(this.email, {
          list: new Listing<EmailJob>(this.email, "email.jobs.list", { shared: true }),
          get: "email.jobs.get",
          param: "jobId",
          idOf: (j) => j.jobId,
          shared: true,
        }),
        { log: this.log },
      ),
    );
  }

  /** `GET /domains` of the email service: the project's sending domains. */
  get sendingDomainList(): Listing<EmailDomain> {
    return this.listed(this.email, SENDING_DOMAINS).list;
  }

  get sendingDomains(): Poller<EmailDomain> {
    return this.listed(this.email, SENDING_DOMAINS).poller;
  }

  /** `GET /templates`: the project's templates. */
  get templateList(): Listing<EmailTemplate> {
    return this.listed(this.email, TEMPLATES).list;
  }

  get templates(): Poller<EmailTemplate> {
    return this.listed(this.email, TEMPLATES).poller;
  }

  /** `GET /webhooks` (the API has no webhook by id). */
  get webhooks(): Listing<Webhook> {
    return this.listOnly(this.email, "email.webhooks.list");
  }

  /** `GET /topics`: the project's topics. */
  get topicList(): Listing<EmailTopic> {
    return this.listed(this.email, TOPICS).list;
  }

  get topics(): Poller<EmailTopic> {
    return this.listed(this.email, TOPICS).poller;
  }

  /** `GET /segments`: the project's segments. */
  get segmentList(): Listing<EmailSegment> {
    return this.listed(this.email, SEGMENTS).list;
  }

  get segments(): Poller<EmailSegment> {
    return this.listed(this.email, SEGMENTS).poller;
  }

  /** `GET /inbound/addresses`: the project's receiving addresses, mailboxes and aliases in one list. */
  get addressList(): Listing<InboundAddress> {
    return this.listed(this.email, ADDRESSES).list;
  }

  get addresses(): Poller<InboundAddress> {
    return this.listed(this.email, ADDRESSES).poller;
  }

  /** A sending domain's receiving setting (`GET /domains/{id}/receiving`; no list). */
  get receiving(): Poller<ReceivingStatus> {
    return this.eachRead(this.email, "email.receiving.get", "domainId");
  }
}

/**
 * The ApiContexts of one process, by a key of their maker's (runtime.ts: the profile; sdk/data.ts:
 * the settings), and the one RateLimits they share: the server's limit is per API key, and two
 * profiles may name one key. `clear` drops the contexts (the config changed) but keeps the buckets:
 * the server's buckets of those keys are still running down.
 */
export class ApiContexts {
  private readonly byKey = new Map<string, ApiContext>();
  private readonly rateLimits = new RateLimits();

  /** `log`: the debug log of the process's contexts; by default `SVC_LOG` decides (log.ts).
   * `createsSoFar`: the creates the process finished (a provider process's; a program makes none). */
  constructor(
    private readonly log: DebugLog = debugLogger(undefined),
    private readonly createsSoFar: CreatesSoFar = () => [],
  ) {}

  /** The context kept under `key`, built on its first use from the settings `settingsOf` answers. */
  of(key: string, settingsOf: () => Settings, profile?: string): ApiContext {
    let context = this.byKey.get(key);
    if (!context) {
      context = new ApiContext(settingsOf(), profile, this.rateLimits, this.log, this.createsSoFar);
      this.byKey.set(key, context);
    }
    return context;
  }

  clear(): void {
    this.byKey.clear();
  }
}

/** What one resource method runs with: its profile's clients and pollers, and its operation's wait limit. */
export interface CallContext {
  readonly api: ApiContext;
  /** When this operation's waits give up: its customTimeouts entry from the operation's start, or
   * none (`Deadline.none`: each wait applies its own default, `orAfter`). */
  readonly deadline: Deadline;
  /** A create's view of the stack's objects (runtime.ts); absent outside a create. */
  readonly deployment?: Deployment;
}

/** What a create must know of the objects the stack holds: create-once.ts never takes one of them over for another resource. */
export interface Deployment {
  /** The state holds the object with this id for a resource of this deployment (the engine diffed it). */
  holds(id: string): boolean;
  /** The create took the object with this id over: a delete of it in this deployment is another resource's. */
  adopted(id: string): void;
}
