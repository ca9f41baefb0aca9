/**
 * Runtime entry of the resource providers (`pulumi-svc/provider`). Serialized provider shims
 * `require` this module by package name at call time, so the provider host always runs the
 * installed version and no closure captures code or credentials.
 */
export * from "./client";
export * from "./config";
