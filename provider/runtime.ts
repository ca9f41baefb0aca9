/**
 * The provider process's state: the stack config the engine handed to `configure`, one ApiContext
 * (clients and pollers) per profile, built on first use (issue 17), and the ids this process's
 * creates answered. Nothing here is ever serialized into a program's state. One ProviderRuntime
 * exists per provider process, made by the entry (index.ts) and handed to every call; the dispatcher
 * (dispatch.ts) hands each resource method the context of its resource's profile as a parameter.
 */
import { ApiContexts, type ApiContext, type Deployment } from "./context";
import { resolveSettings, type ConfigSource } from "./config";
import { debugLogger } from "./log";

const key = (type: string, value: string) => `${type}\u0000${value}`;

export class ProviderRuntime {
  private configSource: ConfigSource | undefined;
  /** The config the contexts were built with, as text. */
  private configText: string | undefined;
  /** The debug log's level: the top-level settings' `log`, the same for every profile (undefined
   * before `configure`: `SVC_LOG` decides). */
  private logLevel: string | undefined;
  /** By profile name ("" for the top-level settings): built once per configuration. Their logger
   * reads the level at each line, as `configure` set it last. */
  private readonly contexts = new ApiContexts(
    (text, secrets) => debugLogger(this.logLevel)(text, secrets),
    () => this.creates,
  );
  /**
   * What this deployment tells the provider of the stack's objects, per type. The real CLI runs one
   * dynamic-provider process per deployment and gives its methods no URN (docs/real-cli.md), so a
   * create learns from the calls before it whether the object it finds is another resource's:
   * - `diffedIds`: the ids the state holds for the resources this deployment diffed. The create of a
   *   replacement the diff asked for (create before delete) finds the old object by the same
   *   identity; it is never taken over.
   * - `adoptedIds`: the ids a create took over instead of making. A delete of such an id in the same
   *   deployment is another resource's — the old URN of a resource renamed or moved without
   *   `aliases`, or a resource replaced by `--replace` (the CLI then checks with no old inputs and
   *   diffs nothing: a create that cannot be told from a first one) — and the object stays.
   */
  private readonly diffedIds = new Set<string>();
  private readonly adoptedIds = new Set<string>();
  /** The creates this process finished ("Vps 3f2a…"), in order: in an `up`, a check that refuses
   * after them says they were made (foresight.ts); a preview makes none. */
  private readonly creates: string[] = [];

  /**
   * Called through each serialized shim's `configure` with the stack's whole namespaced config: the
   * host configures each serialized provider (one per resource type) at its first use, with the same
   * config. The contexts — their clients, pollers and the lists they read — are kept unless it changed,
   * so that the reads of every type share them (client/poller.ts).
   */
  configure(config: ConfigSource | undefined): void {
    const text = JSON.stringify(config ?? null);
    if (text === this.configText) return;
    this.configText = text;
    this.configSource = config;
    // Another configuration is another deployment (under the CLI a process sees one): nothing of the last one is kept.
    this.contexts.clear();
    this.diffedIds.clear();
    this.adoptedIds.clear();
    this.creates.length = 0;
    this.logLevel = resolveSettings(config).log;
  }

  get config(): ConfigSource | undefined {
    return this.configSource;
  }

  /** A profile's (undefined: the top-level settings') context, built on its first use in this process. */
  apiContextOf(profile: string | undefined): ApiContext {
    return this.contexts.of(profile ?? "", () => resolveSettings(this.configSource, process.env, profile), profile);
  }

  /** A create answered `id`: a check that refuses later in an `up` names it (foresight.ts). */
  rememberCreated(type: string, id: string): void {
    if (id) this.creates.push(`${type} ${id}`);
  }

  /** The engine diffed the resource whose object the state holds as `id`. */
  rememberDiffed(type: string, id: string): void {
    if (id) this.diffedIds.add(key(type, id));
  }

  /** Whether a delete of `id` must leave the object: a create of this deployment took it over for another resource. */
  adoptedHere(type: string, id: string): boolean {
    return this.adoptedIds.has(key(type, id));
  }

  /** What a create of `type` must know of the stack's objects (create-once.ts). */
  deploymentFor(type: string): Deployment {
    return {
      holds: (id) => this.diffedIds.has(key(type, id)),
      // A create took the object over (adoptId, or found as this stack's) instead of making it.
      adopted: (id) => {
        if (id) this.adoptedIds.add(key(type, id));
      },
    };
  }
}
