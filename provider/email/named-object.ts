/**
 * The lifecycle EmailTopic and EmailSegment share (each file keeps its fields, its API calls and its
 * mapper): objects of the project with a `name` that may repeat at the API, updated in place.
 * - create goes through createOnce (../create-once.ts): nothing tells whose an object is, so one of
 *   the same name already there stops the create with its id and the `adoptId` line; a lost answer
 *   is settled by looking again; `adoptId` takes the object as it is;
 * - update reads the object, then changes what differs from the program (`converge`);
 * - read answers the object as the program would write it (drift shows as a diff);
 * - delete: already gone counts as deleted.
 */
import type { ApiClient } from "../client/http";
import type { Listing, Poller } from "../client/poller";
import type { ApiContext } from "../context";
import { createOnce } from "../create-once";
import type { ApiErrorCode } from "../../contract/error-codes";
import { isNotFound, operationError, operationFailed, type Props } from "../resource";
import { defineResource, type InputsOf, type OutputsOf, type ResourceSchema, type SchemaResource } from "../schema";

export interface NamedObjectSpec<S extends ResourceSchema, T extends { id: string; name: string }> {
  noun: string;
  /** Its inputs (every one but adoptId updates in place), outputs and reference text. */
  schema: S;
  /** A fresh read of one object (what update starts from). */
  get(api: ApiClient, id: string): Promise<T>;
  /** The kind's list and the reads through it (../context.ts): refresh, adoption and create's look
   * cost one list call for every object of the kind read at the same moment. */
  reads(api: ApiContext): { list: Listing<T>; objects: Poller<T> };
  create(api: ApiClient, inputs: InputsOf<S>): Promise<T>;
  /** Brings the object to the program's inputs; answers it as it is then (no call when it already is). */
  converge(api: ApiClient, inputs: InputsOf<S>, object: T): Promise<T>;
  remove(api: ApiClient, id: string): Promise<unknown>;
  /** The program's inputs as the object says (adopt, refresh); `props` gives `adoptId`. */
  liveInputs(props: Props, object: T): Props;
  outputs(inputs: Props, object: T): OutputsOf<S>;
  /** The codes of an API refusal of the create whose `schema.errors` text says what to do (a plan limit). */
  hints: readonly ApiErrorCode[];
}

/** The reference text of the shared lifecycle (adoption, a rerun after an interrupted `up`), for each type's schema. */
export function namedObjectText(noun: string, listRoute: string): Pick<ResourceSchema, "adoption" | "interrupted"> {
  return {
    adoption: `\`adoptId\` is the ${noun}'s id (\`GET ${listRoute}\`). The create reads it (nothing is made); where it differs from the program, the next \`pulumi up\` updates it in place. An unknown id fails the create.`,
    interrupted:
      `Names may repeat at the API, so nothing tells whose a ${noun} is: a ${noun} of the same name found by the repeated create (an interrupted create's, or anyone's) stops it with the ${noun}'s id and the \`adoptId\` line to add. ` +
      "A create whose answer was lost in the same run is settled the same way, by looking, never by sending again.",
  };
}

export function namedObject<S extends ResourceSchema, T extends { id: string; name: string }>(spec: NamedObjectSpec<S, T>): SchemaResource {
  const find = async (api: ApiClient, id: string): Promise<T | undefined> => {
    try {
      return await spec.get(api, id);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
  return defineResource(spec.schema, {
    async create(inputs, ctx) {
      const api = ctx.api.email;
      const { object, adopted } = await createOnce<T>(ctx, inputs, {
        noun: spec.noun,
        idOf: (o) => o.id,
        describe: (o) => `named "${o.name}"`,
        adopt: async (adoptId) => {
          const o = await spec.reads(ctx.api).objects.read(adoptId);
          if (!o) throw operationFailed("create", `adoptId "${adoptId}": no ${spec.noun} with this id in the project`);
          return o;
        },
        find: async (joinInFlight) => {
          const list = spec.reads(ctx.api).list;
          return { objects: (await (joinInFlight ? list.lookup() : list.fresh())).filter((o) => o.name === inputs.name), provablyMine: false };
        },
        send: () => spec.create(api, inputs),
        otherwise: `give this ${spec.noun} another name, or remove the other one`,
      });
      // Adopted by adoptId: as it is (the next preview shows where the program differs).
      if (adopted && inputs.adoptId !== undefined) return { id: object.id, outs: spec.outputs(spec.liveInputs(inputs, object), object) };
      return { id: object.id, outs: spec.outputs(inputs, await spec.converge(api, inputs, object)) };
    },
    hints: spec.hints,

    async update(id, _olds, news, ctx) {
      const api = ctx.api.email;
      try {
        const o = await find(api, id);
        if (!o) throw new Error(`${spec.noun} ${id} no longer exists: run \`pulumi refresh\` to drop it from the state`);
        return { outs: spec.outputs(news, await spec.converge(api, news, o)) };
      } catch (err) {
        throw operationError("update", err);
      }
    },

    find: (id, _props, ctx) => spec.reads(ctx.api).objects.read(id),
    properties(o, props) {
      const inputs = spec.liveInputs(props, o);
      return { inputs, outputs: spec.outputs(inputs, o) };
    },
    remove: (id, _props, ctx) => spec.remove(ctx.api.email, id),
  });
}
