/**
 * The provider object handed to `dynamic.Resource`. Pulumi serializes it, with everything it
 * captures, into every resource's state; so it captures only its type name and loads the behaviour
 * from the installed package at call time (see shared/resource-conventions.md). Kept tiny on purpose:
 * each method is one short arrow, and the whole serialized text stays under 2 KB.
 */
import type * as pulumi from "@pulumi/pulumi";

export function providerShim(t: string): pulumi.dynamic.ResourceProvider {
  // One-letter names on purpose: this text is stored once per resource in every stack's state.
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
