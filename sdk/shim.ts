/**
 * The provider object handed to `dynamic.Resource`. Pulumi serializes it, with everything it
 * captures, into every resource's state (twice: inputs and outputs); so it captures only its type
 * name and loads the behaviour from the installed package at call time (see
 * shared/resource-conventions.md).
 *
 * Each resource type's provider object is the whole `module.exports` of a module of its own,
 * `pulumi-svc/dynamic/<Type>` (sdk/dynamic/<Type>.ts, listed in package.json `exports`). Pulumi's
 * closure serializer writes a value that is the exports of a module installed under `node_modules`
 * as a plain `require("pulumi-svc/dynamic/<Type>")`: a few hundred bytes in the state instead of a
 * copy of seven functions. Those module paths are a public contract: a state written by this version
 * requires them, so every later version keeps them (and `run` in `pulumi-svc/provider`, which
 * the ~2 KB shims of 0.1.0 states call).
 *
 * Where the package is not under `node_modules` (a linked checkout), the serializer copies the object
 * by value instead: the methods below, which still work there, since they require the package by name.
 */
import type * as pulumi from "@pulumi/pulumi";

export function providerShim(t: string): pulumi.dynamic.ResourceProvider {
  // One-letter names on purpose: copied by value, this text is stored per resource.
  const r = (m: string, a: unknown[]) => require("pulumi-svc/provider").run(t, m, a);
  return {
    configure: (...a) => r("configure", a),
    check: (...a) => r("check", a),
    diff: (...a) => r("diff", a),
    create: (...a) => r("create", a),
    read: (...a) => r("read", a),
    update: (...a) => r("update", a),
    delete: (...a) => r("delete", a),
  };
}
