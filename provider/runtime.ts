/**
 * The provider process's state: the stack config the engine handed to `configure`, one ApiContext
 * (clients and pollers) per profile, built on first use (issue 17), and the ids this process's
 * creates answered. Nothing here is ever serialized into a program's state. One ProviderRuntime
 * exists per provider process, made by the entry (index.ts) and handed to every call; the dispatcher
 * (dispatch.ts) hands each resource method the context of its resource's profile as a parameter.
 */
import { ApiContexts, type ApiContext } from "./context";
import { resolveSettings, type ConfigSource } from "./config";
import { debugLogger } from "./log";

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
   * The ids this process's creates answered, per type. The real CLI runs one dynamic-provider process
   * per deployment and gives it no URN: a resource moved to a new URN without `aliases` is a create of
   * the new URN, which finds the object by its default name (the name ignores the parent) and answers
   * its id, then a delete of the old URN with that same id. Such a delete (its parent differs from the
   * create's) must not remove the object the stack now holds under the new URN.
   */
  private readonly createdIds = new Map<string, string>();
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
    this.contexts.clear();
    this.logLevel = resolveSettings(config).log;
  }

  get config(): ConfigSource | undefined {
    return this.configSource;
  }

  /** A profile's (undefined: the top-level settings') context, built on its first use in this process. */
  apiContextOf(profile: string | undefined): ApiContext {
    return this.contexts.of(profile ?? "", () => resolveSettings(this.configSource, process.env, profile), profile);
  }

  /** `parentUrn`: the parent of the resource the create was for (one of a type and name differs only by it). */
  rememberCreated(type: string, id: string, parentUrn: string): void {
    if (!id) return;
    this.createdIds.set(`${type}\u0000${id}`, parentUrn);
    this.creates.push(`${type} ${id}`);
  }

  /** The parent of the resource a create in this process answered `id` for, or undefined. */
  createdHere(type: string, id: string): string | undefined {
    return this.createdIds.get(`${type}\u0000${id}`);
  }
}
