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

/**
 * What each ApiContext keeps of one kind, built on its first use there: a kind's list and poller, a
 * catalogue's minute cache, a server's batch of rule adds. A slot is declared once, where its values'
 * type is known (`new Kept((api) => new BusyWork())`), and holds them by context in a WeakMap: a
 * value lives as long as its context (`ApiContexts.clear` drops both), no profile reads another's, and
 * reading one back needs no cast, since the slot's type is its values'. A per-key slot keeps one value
 * per key within a context (a server's id).
 */
export class Kept<T extends object> {
  private readonly values = new WeakMap<ApiContext, Map<string, T>>();

  /** `build`: the value of `api` (under `key`, for a per-key slot). */
  constructor(private readonly build: (api: ApiContext, key: string) => T) {}

  /** `api`'s value under `key` (none: the slot keeps one value per context), built on first use. */
  of(api: ApiContext, key = ""): T {
    let byKey = this.values.get(api);
    if (!byKey) {
      byKey = new Map();
      this.values.set(api, byKey);
    }
    const kept = byKey.get(key);
    if (kept) return kept;
    const built = this.build(api, key);
    byKey.set(key, built);
    return built;
  }

  /** Drops `api`'s value under `key` if it is still `value` (a failed read is not kept: the next use reads again). */
  forget(api: ApiContext, value: T, key = ""): void {
    const byKey = this.values.get(api);
    if (byKey?.get(key) === value) byKey.delete(key);
  }
}

/** A read each context makes once, shared by the checks that ask at the same time; a failed read is not kept. */
export class KeptRead<T> {
  private readonly reads: Kept<Promise<T>> = new Kept((api) => {
    const read = this.read(api);
    read.catch(() => this.reads.forget(api, read));
    return read;
  });

  constructor(private readonly read: (api: ApiContext) => Promise<T>) {}

  of(api: ApiContext): Promise<T> {
    return this.reads.of(api);
  }
}

/** A kind's list route, its get route with the name of the id parameter, and an item's id. */
interface ListedKind<T> {
  list: RouteId;
  get: RouteId;
  param: string;
  idOf(item: T): string;
}

/**
 * A kind the API lists and also answers by id, as each context keeps it: its list (the resources'
 * lookups by name), and the poller that reads through it (reads and waits at the same time share one
 * list call per tick; an object not in the list is read by id).
 */
const listedKind = <T>(client: (api: ApiContext) => ApiClient, kind: ListedKind<T>) =>
  new Kept((api) => {
    const list = new Listing<T>(client(api), kind.list);
    return { list, poller: new Poller<T>(listOrGet(client(api), { list, get: kind.get, param: kind.param, idOf: kind.idOf }), { log: api.log }) };
  });

/** A list the API has no get for, or that is only looked up in. */
const listOnly = <T>(client: (api: ApiContext) => ApiClient, route: RouteId) => new Kept((api) => new Listing<T>(client(api), route));

/** Objects that have no list: each read once per tick (concurrent reads of one object share it). */
const eachRead = <T>(client: (api: ApiContext) => ApiClient, route: RouteId, param: string) =>
  new Kept((api) => new Poller<T>(eachOnce(getOrGone<T>(client(api), route, param)), { log: api.log }));

/** One list per server of its objects (`GET /vps/{id}/…`), read once for all of them: the API reads none of them by id. */
const ofServer = <T>(route: RouteId) => new Kept((api, vpsId) => new Listing<T>(api.platform, route, { params: { id: vpsId } }));

const platform = (api: ApiContext) => api.platform;
const email = (api: ApiContext) => api.email;

const SERVERS = listedKind<Vps>(platform, { list: "vps.list", get: "vps.get", param: "id", idOf: (s) => s.id });
const SENDING_DOMAINS = listedKind<EmailDomain>(email, { list: "email.domains.list", get: "email.domains.get", param: "domainId", idOf: (d) => d.id });
const TEMPLATES = listedKind<EmailTemplate>(email, { list: "email.templates.list", get: "email.templates.get", param: "templateId", idOf: (t) => t.id });
const TOPICS = listedKind<EmailTopic>(email, { list: "email.topics.list", get: "email.topics.get", param: "topicId", idOf: (t) => t.id });
const SEGMENTS = listedKind<EmailSegment>(email, { list: "email.segments.list", get: "email.segments.get", param: "segmentId", idOf: (s) => s.id });
const ADDRESSES = listedKind<InboundAddress>(email, { list: "email.addresses.list", get: "email.addresses.get", param: "addressId", idOf: (a) => a.id });
const REGISTERED_DOMAINS = listOnly<RegisteredDomain>(platform, "domains.list");
const WEBHOOKS = listOnly<Webhook>(email, "email.webhooks.list");
const BACKUPS = eachRead<BackupAddon>(platform, "vps.backup.get", "id");
const RECEIVING = eachRead<ReceivingStatus>(email, "email.receiving.get", "domainId");
const FIREWALLS = ofServer<FirewallRule>("vps.firewall.list");
const SSH_KEYS = ofServer<SshKey>("vps.sshKeys.list");
const PORT_FORWARDS = ofServer<PortForward>("vps.portForwards.list");
const SNAPSHOTS = ofServer<Snapshot>("vps.snapshots.list");

/** Email jobs: `GET /jobs` answers the 50 most recent; older ones are read one by one. Their reads go
 * ahead of the requests queued for the key: behind a queue of creates, the jobs waited for would no
 * longer be among the 50 when the answer comes. */
const EMAIL_JOBS = new Kept(
  (api) =>
    new Poller<EmailJob>(
      listOrGet(api.email, {
        list: new Listing<EmailJob>(api.email, "email.jobs.list", { shared: true }),
        get: "email.jobs.get",
        param: "jobId",
        idOf: (j) => j.jobId,
        shared: true,
      }),
      { log: api.log },
    ),
);

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

  private accountForesight?: Foresight;
  private platformApi?: ApiClient;
  private emailApi?: ApiClient;
  private aiApi?: ApiClient;

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
    return (this.accountForesight ??= new Foresight(this.profile === undefined ? "the account (svc:apiKey)" : `the account of profile "${this.profile}"`, this.createsSoFar));
  }

  get platform(): ApiClient {
    return (this.platformApi ??= platformClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  get email(): ApiClient {
    return (this.emailApi ??= emailClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  get ai(): ApiClient {
    return (this.aiApi ??= aiClient(this.settings, { rateLimits: this.rateLimits, log: this.log }));
  }

  /** `GET /vps`: the project's servers, for lookups by name. */
  get serverList(): Listing<Vps> {
    return SERVERS.of(this).list;
  }

  /** Servers read or waited for (to settle) at the same time share one `GET /vps` per tick. */
  get servers(): Poller<Vps> {
    return SERVERS.of(this).poller;
  }

  /** `GET /vps/{id}/firewall`: a server's firewall rules. */
  firewallOf(vpsId: string): Listing<FirewallRule> {
    return FIREWALLS.of(this, vpsId);
  }

  /** `GET /vps/{id}/ssh-keys`: a server's SSH keys. */
  sshKeysOf(vpsId: string): Listing<SshKey> {
    return SSH_KEYS.of(this, vpsId);
  }

  /** `GET /vps/{id}/port-forwards`: a server's port forwards. */
  portForwardsOf(vpsId: string): Listing<PortForward> {
    return PORT_FORWARDS.of(this, vpsId);
  }

  /** `GET /vps/{id}/snapshots`: a server's snapshots. */
  snapshotsOf(vpsId: string): Listing<Snapshot> {
    return SNAPSHOTS.of(this, vpsId);
  }

  /** A server's backup add-on (`GET /vps/{id}/backup`; no list). */
  get backups(): Poller<BackupAddon> {
    return BACKUPS.of(this);
  }

  /** `GET /domains` of the platform: the account's registered domains. */
  get registeredDomains(): Listing<RegisteredDomain> {
    return REGISTERED_DOMAINS.of(this);
  }

  get emailJobs(): Poller<EmailJob> {
    return EMAIL_JOBS.of(this);
  }

  /** `GET /domains` of the email service: the project's sending domains. */
  get sendingDomainList(): Listing<EmailDomain> {
    return SENDING_DOMAINS.of(this).list;
  }

  get sendingDomains(): Poller<EmailDomain> {
    return SENDING_DOMAINS.of(this).poller;
  }

  /** `GET /templates`: the project's templates. */
  get templateList(): Listing<EmailTemplate> {
    return TEMPLATES.of(this).list;
  }

  get templates(): Poller<EmailTemplate> {
    return TEMPLATES.of(this).poller;
  }

  /** `GET /webhooks` (the API has no webhook by id). */
  get webhooks(): Listing<Webhook> {
    return WEBHOOKS.of(this);
  }

  /** `GET /topics`: the project's topics. */
  get topicList(): Listing<EmailTopic> {
    return TOPICS.of(this).list;
  }

  get topics(): Poller<EmailTopic> {
    return TOPICS.of(this).poller;
  }

  /** `GET /segments`: the project's segments. */
  get segmentList(): Listing<EmailSegment> {
    return SEGMENTS.of(this).list;
  }

  get segments(): Poller<EmailSegment> {
    return SEGMENTS.of(this).poller;
  }

  /** `GET /inbound/addresses`: the project's receiving addresses, mailboxes and aliases in one list. */
  get addressList(): Listing<InboundAddress> {
    return ADDRESSES.of(this).list;
  }

  get addresses(): Poller<InboundAddress> {
    return ADDRESSES.of(this).poller;
  }

  /** A sending domain's receiving setting (`GET /domains/{id}/receiving`; no list). */
  get receiving(): Poller<ReceivingStatus> {
    return RECEIVING.of(this);
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
