/**
 * What the objects of each API foresee at check, beyond their own check, and record once a create or
 * delete of theirs settled: the email service's objects need a plan in force and room under its
 * limits (email/plan-limits.ts). The platform's servers and domains foresee their price and limits in
 * their own check (foresight.ts).
 */
import type { CallContext } from "./context";
import { emailObjectSettled, emailPlanForesight } from "./email/plan-limits";
import type { CheckFailure, Props } from "./resource";
import type { ResourceSchema, SchemaResource } from "./schema";

export interface ServiceForesight {
  /** The failures an `up` would meet for a new object of the type `impl` with these checked inputs. */
  check(impl: SchemaResource, olds: Props, inputs: Props, ctx: CallContext): Promise<CheckFailure[]>;
  /** A create or delete of the type `impl` ended: what the next checks of the run count changes. */
  settled(impl: SchemaResource, props: Props, ctx: CallContext): void;
}

export const serviceForesight: Readonly<Record<ResourceSchema["service"], ServiceForesight | undefined>> = {
  email: { check: emailPlanForesight, settled: emailObjectSettled },
  platform: undefined,
};
