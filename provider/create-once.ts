/**
 * Creates that are safe to run again, with no help from the engine (issue 15).
 *
 * The real `pulumi up`, after a run killed during a create, does not resume it: it warns about the
 * pending operation and runs a plain Check (no olds) and Create again (pulumi/pulumi,
 * docs/cli-behaviour.md). Whatever the first attempt made at the API is then unknown to the
 * stack. So every create goes through `createOnce`, which, before anything is sent:
 *
 * 1. adopts the object `adoptId` names, when the program gives one (no create call, nothing paid);
 * 2. looks for what an earlier attempt may have made — each resource says how to find its own
 *    (a server by its default name, the server's one backup add-on, a firewall rule by value…) and
 *    whether what it finds is provably this stack's:
 *    - provably this stack's (a name derived from organization, project, stack and resource name;
 *      an object of a server that is this stack's and can hold only one such object): adopted;
 *    - only perhaps (an explicit name, which anyone may have used): the create stops with an error
 *      that names the object's id and the `adoptId` line to add — never a silent take-over;
 * 3. sends the create once. An answer lost on the way (OutcomeUnknownError) is settled by looking
 *    again: what appeared since is what this create made; it is never sent blindly a second time.
 *
 * Where the API itself refuses a second object with a stable code (a server's backup add-on:
 * ALREADY_SUBSCRIBED; a sending domain: DOMAIN_EXISTS), step 2 waits for that refusal instead of
 * looking first: the create is sent at once, and only a refusal is followed by the look. The answer
 * carries what the look would: one call less per create, nothing made or charged twice.
 *
 * An adoption is said out loud (`adoptionLine`): the CLI shows a create either way.
 */
import { OperationError, OutcomeUnknownError } from "./client/errors";
import { inState, isUnknown, operationError, type Props } from "./resource";
import type { CallContext } from "./context";

export const ADOPT_KEY = "adoptId";

export interface Found<T> {
  /** Objects that answer to this resource's identity (its name, its value, its server). */
  objects: T[];
  /** True when such an object can only be this stack's (see above): it is adopted silently. */
  provablyMine: boolean;
}

export interface CreateOnceSpec<T> {
  /** What the object is, for messages: "server", "sending domain". */
  noun: string;
  idOf(object: T): string;
  /** How the object is named in messages: `named "web-1"`, `for https://…`. */
  describe(object: T): string;
  /** Reads the object `adoptId` names. Throws a clear error when there is none, or when it cannot
   * be managed (a terminated server, a domain of another account). */
  adopt(adoptId: string): Promise<T>;
  /** What already exists with this resource's identity. `joinInFlight`: a snapshot read will do (a
   * list already under way or just answered: client/poller.ts, Listing) — true for the look before
   * sending, false for the looks that must see the world after a call (a lost answer, a refusal). */
  find(joinInFlight: boolean): Promise<Found<T>>;
  /** Sends the create, once. */
  send(): Promise<T>;
  /** The API's own refusal of a second object (its stable code), when it has one: then nothing is
   * looked for before sending (see above). */
  refusedAsDuplicate?(err: unknown): boolean;
  /** Turns an object found (adopted, or made by a lost answer) into this resource's; by default as
   * it is. A webhook, whose secret is never answered again, is made anew here. */
  take?(object: T): Promise<T>;
  /** What to do instead when the object is not this stack's (ends the conflict error). */
  otherwise: string;
  /** The object is there whatever was sent before (one per account or project: the email plan, the
   * owner details): taking it over is this type's create, not an adoption to announce. */
  alwaysThere?: boolean;
}

export interface CreateOnceResult<T> {
  object: T;
  /** Found and taken over (adoptId, or an earlier attempt's), not created by this call. */
  adopted: boolean;
}

/** `adoptId` as the program gave it, or undefined (an unknown value is not known in preview). */
export function adoptIdOf(inputs: Props): string | undefined {
  const value = inputs[ADOPT_KEY];
  return typeof value === "string" && value !== "" && !isUnknown(value) ? value : undefined;
}

/**
 * The one line an adoption prints, naming the object and that nothing was created or charged (the
 * preview and the `up` both show the resource as a create). A dynamic provider cannot attach a
 * message to its resource: the Node host gives it no URN and no engine connection (`pulumi.log` in
 * the host falls back to the console). It writes to stderr, which the CLI shows as a message of the
 * run (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go, newPlugin).
 */
function sayAdopted(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * At check (dispatch.ts), for a resource not in the state yet whose `adoptId` is known — given, or
 * the `import` resource option the class turns into it: the preview's check says so, and the `up`'s
 * own check before its create (the create does not say it again). Unknown in a preview (another
 * resource's output), it is said by the `up`'s check. `remakes`: the schema's `adoptionRemakes`.
 */
export function sayAdoptionAtCheck(type: string, olds: Props, news: Props, remakes?: string): void {
  const adoptId = adoptIdOf(news);
  if (adoptId === undefined || inState(olds)) return;
  sayAdopted(adoptionLine(type, adoptId, remakes));
}

/** The line of an adoption by `adoptId` (the reference pages quote it). */
export function adoptionLine(type: string, adoptId: string, remakes?: string): string {
  const what = remakes ? `${remakes}: nothing is charged` : "the existing object is taken over as it is: nothing is created or charged";
  return `${type} ${adoptId}: adopted by adoptId (or the import resource option): ${what}`;
}

/**
 * `ctx`: the call's; its debug log gets the decisions, and its `deployment` says which objects the
 * stack holds already (runtime.ts). Those are never taken over: a replacement (create before delete)
 * finds the object it replaces by the same identity, and that object goes with the replaced resource.
 */
export async function createOnce<T>(ctx: Pick<CallContext, "api" | "deployment">, inputs: Props, spec: CreateOnceSpec<T>): Promise<CreateOnceResult<T>> {
  const take = async (object: T) => {
    const taken = await (spec.take ? spec.take(object) : Promise.resolve(object));
    // One per account or project: its delete is the type's own (it leaves the object), never spared here.
    if (!spec.alwaysThere) ctx.deployment?.adopted(spec.idOf(taken));
    return taken;
  };
  const decided = (text: string) => ctx.api.log(`create-once ${spec.noun}: ${text}`);
  const found = (objects: T[]) => objects.map((o) => `${spec.idOf(o)} (${spec.describe(o)})`).join(", ");
  const adoptId = adoptIdOf(inputs);
  if (adoptId !== undefined) {
    decided(`adoptId ${adoptId} given: adopting it, nothing created`);
    return { object: await take(await spec.adopt(adoptId)), adopted: true };
  }

  /** What a look found, without the objects the state holds (their resources were diffed): a replacement the diff asked for is made anew. */
  const look = async (joinInFlight: boolean): Promise<Found<T>> => {
    const existing = await spec.find(joinInFlight);
    if (spec.alwaysThere) return existing;
    const held = existing.objects.filter((o) => ctx.deployment?.holds(spec.idOf(o)));
    if (held.length) decided(`found ${found(held)}: the state holds it for the resource this create replaces, left to its delete`);
    return { ...existing, objects: existing.objects.filter((o) => !held.includes(o)) };
  };

  // A failed look (the raw API error, for the resource to word) has created nothing.
  const adoptExisting = async (joinInFlight: boolean): Promise<CreateOnceResult<T> | undefined> => {
    const existing = await look(joinInFlight);
    if (existing.objects.length === 1 && existing.provablyMine) {
      decided(`found ${found(existing.objects)}, provably this stack's (an earlier attempt's): adopting it`);
      const object = await take(existing.objects[0]);
      if (!spec.alwaysThere) {
        const [made] = existing.objects;
        sayAdopted(
          `${spec.noun} ${spec.idOf(made)} ${spec.describe(made).replace(/,$/, "")}: the existing object is this stack's (an interrupted \`pulumi up\` made it, or the resource moved without aliases): adopted, nothing is created or charged`,
        );
      }
      return { object, adopted: true };
    }
    if (existing.objects.length > 0) {
      decided(`found ${found(existing.objects)}, not provably this stack's: refusing (adoptId needed)`);
      throw conflict(spec, existing.objects);
    }
    return undefined;
  };
  if (!spec.refusedAsDuplicate) {
    const adopted = await adoptExisting(true);
    if (adopted) return adopted;
    decided("none found: sending the create");
  } else {
    decided("sending the create (the API refuses a second one by its code)");
  }

  try {
    const object = await spec.send();
    decided(`created ${spec.idOf(object)}`);
    return { object, adopted: false };
  } catch (err) {
    if (spec.refusedAsDuplicate?.(err)) {
      decided(`refused as a duplicate (${err && typeof err === "object" && "code" in err ? String(err.code) : undefined}): looking for the existing one`);
      // Refused because one exists: the look the create skipped. (Gone again meanwhile: the refusal stands.)
      const adopted = await adoptExisting(false);
      if (adopted) return adopted;
      throw err;
    }
    if (!(err instanceof OutcomeUnknownError)) throw err;
    decided(`the create's outcome is unknown (${err.status ?? "no answer"} ${err.code}): looking for what it made, not sending it again`);
    // The request may have been carried out: what appeared since is this create's (nothing was
    // there a moment ago). It is looked for, never sent again.
    const after = await look(false).catch((listErr) => {
      throw operationError(
        "create",
        err,
        `Looking for what it made failed too (${operationError("list", listErr).message}): before the next \`pulumi up\`, look for the ${spec.noun} and add its id as \`adoptId\``,
      );
    });
    if (after.objects.length === 1) {
      decided(`found ${found(after.objects)} made by the lost answer: adopting it`);
      return { object: await take(after.objects[0]), adopted: true };
    }
    decided(after.objects.length === 0 ? "nothing was made yet" : `found ${found(after.objects)}: refusing (adoptId needed)`);
    // None yet is not none ever: an API may carry a request out after its client gave up.
    if (after.objects.length === 0) {
      throw operationError(
        "create",
        err,
        `No ${spec.noun} had appeared when looked for right after; the API may still carry the request out late. \`pulumi up\` may try again: it looks for the ${spec.noun} before sending another create`,
      );
    }
    throw conflict(spec, after.objects);
  }
}

/** Objects answer to the resource but may not be this stack's: `code` ALREADY_EXISTS, their `ids`. */
export class CreateConflictError extends OperationError {
  constructor(
    readonly ids: string[],
    detail: string,
  ) {
    super("create", undefined, { detail, code: "ALREADY_EXISTS" });
    this.name = "CreateConflictError";
  }
}

/** The error for objects that may not be this stack's: names each id and the `adoptId` line. */
function conflict<T>(spec: CreateOnceSpec<T>, objects: T[]): CreateConflictError {
  const ids = objects.map((o) => spec.idOf(o));
  const listed = objects.map((o) => `${spec.idOf(o)} (${spec.describe(o)})`).join(", ");
  const lead =
    objects.length === 1
      ? `a ${spec.noun} ${spec.describe(objects[0])} already exists (id ${ids[0]}) and nothing shows it is this stack's`
      : `${objects.length} ${spec.noun}s already answer to this resource: ${listed}`;
  return new CreateConflictError(
    ids,
    `${lead}. If an interrupted \`pulumi up\` made it, add \`adoptId: "${ids[0]}"\` to this resource's arguments and run \`pulumi up\` again; ` +
      `otherwise ${spec.otherwise}`,
  );
}
