/**
 * Default names that a repeated first create can recognise (issue 15). The real `pulumi up` does not
 * resume a create that an interrupted run left pending: it checks and creates again with no olds, so
 * a random suffix would differ on the second try and the first attempt's server would be orphaned
 * and paid twice. The suffix is therefore derived from the stack's organization, project and stack
 * and the resource's type and name: the same resource gets the same default name on every try, and
 * no other stack gets it — so the provider adopts an object with that name as this resource's own.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** The organization, or "" where the runtime has none (a program run outside the CLI). */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}

/**
 * `<resource name>-<7 hex>`: characters other than letters, digits and `-` become `-`, the base is
 * cut so the whole fits `maxLength`, and it starts with a letter or digit.
 */
export function defaultName(type: string, resourceName: string, maxLength = 63): string {
  const suffix = resourceIdentity(type, resourceName).slice(0, 7);
  const base = resourceName.replace(/[^A-Za-z0-9-]/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, maxLength - suffix.length - 1) || type.toLowerCase();
  return `${base}-${suffix}`;
}

/**
 * Hex SHA-256 of organization, project, stack, resource type and name: the same for one resource on
 * every run, different for any other resource or stack (EmailPlan's Idempotency-Key scope).
 */
export function resourceIdentity(type: string, resourceName: string): string {
  const identity = [organization(), pulumi.getProject(), pulumi.getStack(), type, resourceName].join("/");
  return createHash("sha256").update(identity).digest("hex");
}
