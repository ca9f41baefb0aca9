/**
 * The one dispatch of a provider method (`run` in index.ts looks the method up here): each method's
 * handling around the resource's own — the common inputs (common-inputs.ts), its API's foresight
 * (service-foresight.ts), the line an adoption by `adoptId` prints (create-once.ts), the
 * ids creates answered (runtime.ts), and the preview's refusal of an update to an object deleted
 * outside Pulumi.
 */
import { apiErrorOf } from "./client/errors";
import { callContext, common, profileFailures, profileOf, timeoutFailures, withTimeoutHint, without, write } from "./common-inputs";
import { sayAdoptionAtCheck } from "./create-once";
import { appendToError, isProps, isUnknown, PartialFailure, type CheckResult, type DiffResult, type Props, type ResourceImpl } from "./resource";
import type { ProviderRuntime } from "./runtime";
import type { SchemaResource } from "./schema";
import { serviceForesight } from "./service-foresight";

export type Method = keyof ResourceImpl;

/** The host's properties argument: an object (none sent: no properties). */
const propsArg = (value: unknown): Props => (isProps(value) ? value : {});
/** The host's id argument. */
const idArg = (value: unknown): string => String(value);

/** A method's handling: the resource type's name and behaviour, and the host's arguments. */
type Handler = (runtime: ProviderRuntime, type: string, impl: SchemaResource, args: unknown[]) => Promise<unknown>;

export const methods: Readonly<Record<Method, Handler>> = {
  async check(runtime, type, impl, args) {
    const [olds, news] = [propsArg(args[0]), propsArg(args[1])];
    // The API the type calls (its schema says) is the key its profile must hold.
    const failures = [...profileFailures(runtime, impl.schema, olds ?? {}, news), ...timeoutFailures(news)];
    // Nothing is called for a profile that cannot serve the resource.
    if (failures.length) return { inputs: news, failures } satisfies CheckResult;
    const { ctx } = callContext(runtime, news);
    const result = await impl.check(without(olds ?? {}), without(news), ctx);
    // Before any object of an API with limits is made: the plan it needs, and the room its limits leave.
    const foresight = serviceForesight[impl.schema.service];
    if (result.failures.length === 0 && foresight) result.failures.push(...(await foresight.check(impl, without(olds ?? {}), result.inputs, ctx)));
    if (result.failures.length === 0 && impl.schema.adoption) sayAdoptionAtCheck(type, without(olds ?? {}), result.inputs, impl.schema.adoptionRemakes);
    return { ...result, inputs: { ...result.inputs, ...common(news) } };
  },

  async diff(runtime, type, impl, args) {
    const [id, olds, news] = [idArg(args[0]), propsArg(args[1]), propsArg(args[2])];
    runtime.rememberDiffed(type, id);
    const result: DiffResult = await impl.diff(id, without(olds), without(news), callContext(runtime, news).ctx);
    if (result.changes && result.replaces.length === 0 && profileOf(olds) === profileOf(news)) await refuseGone(runtime, type, impl, id, olds);
    if (isUnknown(news.profile) || profileOf(olds) !== profileOf(news)) return { ...result, changes: true, replaces: [...(result.replaces ?? []), "profile"] };
    return result;
  },

  async create(runtime, type, impl, args) {
    const inputs = propsArg(args[0]);
    try {
      const created = await write(runtime, "create", inputs, (ctx) => impl.create(without(inputs), ctx), runtime.deploymentFor(type));
      runtime.rememberCreated(type, created.id);
      return created;
    } catch (err) {
      // A partial failure answers the id too: the object is the new resource's all the same.
      if (err instanceof PartialFailure) runtime.rememberCreated(type, err.id);
      throw err;
    } finally {
      serviceForesight[impl.schema.service]?.settled(impl, without(inputs), callContext(runtime, inputs).ctx);
    }
  },

  async update(runtime, type, impl, args) {
    const [id, olds, news] = [idArg(args[0]), propsArg(args[1]), propsArg(args[2])];
    return write(runtime, "update", news, (ctx) => impl.update(id, without(olds), without(news), ctx)).catch((err) => {
      throw goneHint(type, id, err);
    });
  },

  async read(runtime, _type, impl, args) {
    const [id, props] = [idArg(args[0]), propsArg(args[1])];
    const r = await impl.read(id, without(props), callContext(runtime, props).ctx);
    if (!r.id) return r;
    return { ...r, props: { ...r.props, ...common(props) }, ...(r.inputs ? { inputs: { ...r.inputs, ...common(props) } } : {}) };
  },

  async delete(runtime, type, impl, args) {
    const [id, props] = [idArg(args[0]), propsArg(args[1])];
    if (runtime.adoptedHere(type, id)) {
      // Another resource of this deployment holds the object now (runtime.ts, adoptedIds): the old
      // one leaves the stack, the object stays.
      process.stderr.write(
        `svc: ${type} ${id} is kept: a create of this deployment took it over (a resource renamed or moved without aliases, or replaced by \`pulumi up --replace\`), so the delete removes the old resource from the stack only. For a new object on \`--replace\`, give the resource the option \`deleteBeforeReplace: true\`\n`,
      );
      return undefined;
    }
    const { ctx, operation } = callContext(runtime, props, "delete");
    try {
      await impl.delete(id, without(props), ctx);
      serviceForesight[impl.schema.service]?.settled(impl, without(props), ctx);
      return;
    } catch (err) {
      throw withTimeoutHint(err, operation);
    }
  },
};

/** The methods `run` dispatches: a name the host may send that is none of them is answered with nothing. */
export function isMethod(name: string): name is Method {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

const GONE = (type: string, id: string) =>
  `the ${type} ${id} that the state holds was deleted outside Pulumi: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` makes it again (or remove it from the program)`;

/**
 * An in-place update of an object that is no longer there would fail half-way through the `up`
 * (`404 …_NOT_FOUND`): the preview reads it (one read, only for an update) and stops with what to
 * do. A read that fails for another reason stops nothing here: the update reports its own error.
 */
async function refuseGone(runtime: ProviderRuntime, type: string, impl: SchemaResource, id: string, olds: Props): Promise<void> {
  let found: boolean;
  try {
    found = (await impl.read(id, without(olds), callContext(runtime, olds).ctx)).id !== "";
  } catch {
    return;
  }
  if (!found) throw new Error(`preview: ${GONE(type, id)}`);
}

/** A 404 on the object the update works on (its id in the path): it was deleted outside Pulumi. */
function goneHint(type: string, id: string, err: unknown): unknown {
  const api = apiErrorOf(err);
  if (!(err instanceof Error) || api?.status !== 404 || !id || !api.path.includes(encodeURIComponent(id))) return err;
  appendToError(err, `. ${GONE(type, id).replace(/^the/, "The")}`);
  return err;
}
